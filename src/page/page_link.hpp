// The page's link state, without drawing: which page is open (the start page, the lab, a story's
// step), the embed options, the text view, the teacher's preview of an embed; and the page as a
// link (docs/design.md "One link: decode_link" decodes it back). The App applies a decoded Link
// here and asks here for every link it writes: Share, the embed dialog, a story's Back and Next,
// Home.
#pragma once
#include <cstdint>
#include <string>

#include "lab/embed_options.hpp"
#include "lab/experiment.hpp"
#include "lab/link.hpp"
#include "page/story_state.hpp"

namespace attnlab::page {

// What a link says about the page besides the link state: the experiment on screen and its settings.
struct LinkSubject {
  const Experiment* experiment = nullptr;  // the experiment on screen (unused on the start page)
  const Params* params = nullptr;          // its settings on screen
  std::string preset;
  std::uint64_t seed = 1;
  int threads = -1;                        // threads= as chosen, -1 for the default (not written)
  bool inspector = false;                  // the Inspector tab is on screen
  int point = 0, trial = 0;                // its sweep point and trial
  const StoryState* story = nullptr;       // the story step on screen (LinkPage::Story)
};

class LinkState {
 public:
  LinkPage page() const { return page_; }
  bool start_page() const { return page_ == LinkPage::Start; }
  bool in_story() const { return page_ == LinkPage::Story; }
  // The story step's page becomes the free lab on the same experiment and settings.
  void leave_story() { if (page_ == LinkPage::Story) page_ = LinkPage::Lab; }
  void leave_start_page() { if (page_ == LinkPage::Start) page_ = LinkPage::Lab; }
  const EmbedOptions& embed() const { return embed_; }
  EmbedOptions& embed() { return embed_; }
  bool text_view() const { return text_view_; }
  void set_text_view(bool on) { text_view_ = on; }

  // A decoded, valid link: its page, embed options and text view (the caller applies its settings).
  void apply(const Link& link);
  // After a refused link: the lab, with the link's embed options if it had any.
  void salvage(const Link& link);
  // Hidden parameter keys belong to one experiment's schema: keeps the groups and `schema`'s keys.
  void keep_hidden_of(const Schema& schema);

  // The page as a link with `embed` (the page's own, or the embed dialog's): the start page's
  // flags, a story step, the student's prediction (not in an embed's link) and what the student
  // changed in it, or the lab's experiment, preset, every
  // parameter and seed; then embed, hide, theme, run=1 when `run`, threads and view.
  std::string encode(const LinkSubject& subject, const EmbedOptions& embed, bool run) const;
  // The link the address bar keeps: the page's own (while previewing, the state before the preview).
  std::string address(const LinkSubject& subject) const { return previewing_ ? before_preview_ : encode(subject, embed_, false); }
  // The link of step `to` of the open story: the step's own settings; the embed, the theme and the
  // hidden groups go along (hidden parameter keys were the old step's).
  std::string story_step_link(const StoryState& story, std::size_t to, int threads) const;
  // The link of `story`'s first step with the page's embed options.
  std::string open_story_link(const Story& story, int threads) const;
  // The start page's link as Home writes it: the page's own flags whose row in the link-key table
  // (lab/link_keys.hpp) says Home keeps them (theme, threads, view=text), nothing else.
  std::string home_link(int threads) const;

  // The teacher's preview of an embed: the page's own link is kept for "Back to editing".
  bool previewing() const { return previewing_; }
  void start_preview(const std::string& own_link) { previewing_ = true, before_preview_ = own_link; }
  std::string end_preview() { previewing_ = false; return before_preview_; }

 private:
  KeyValues flags(const EmbedOptions& embed, bool run, int threads) const;
  LinkPage page_ = LinkPage::Start;
  EmbedOptions embed_;
  bool text_view_ = false;
  bool previewing_ = false;
  std::string before_preview_;
};

}  // namespace attnlab::page
