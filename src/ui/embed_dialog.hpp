// The teacher's "Embed" dialog: tick which controls students see, whether the embed starts running,
// the iframe's size; then copy the link or a ready-to-paste <iframe> snippet, or preview the embed.
#pragma once
#include <functional>
#include <string>

#include "lab/embed_options.hpp"
#include "lab/embed_snippet.hpp"
#include "lab/story.hpp"

namespace attnlab::ui {

class EmbedDialog {
 public:
  void open(const EmbedOptions& current);
  // Builds the embed link's hash for the chosen options and run flag.
  using HashFor = std::function<std::string(const EmbedOptions&, bool run)>;
  using CopyText = void (*)(const char* text, const char* what);
  // Draws the dialog while it is open; returns true when the teacher asked for a preview
  // (then options() and run() describe it).
  // `accepts_data` and `has_tabs`: whether the experiment has a data loader and more than one tab.
  bool draw(const Schema& schema, bool accepts_data, bool has_tabs, const std::string& title, const std::string& page_url,
            const HashFor& hash_for, CopyText copy);
  const EmbedOptions& options() const { return options_; }
  bool run() const { return run_ || options_.hides("run"); }  // students without Run get it running
  // The hash of the link the dialog shows: this page's state, or a story's step it offers.
  const std::string& link_hash() const { return link_hash_; }

 private:
  const Story* draw_choice(float width, const std::string& title);
  void draw_controls(const Schema& schema, bool accepts_data, bool has_tabs, bool story, float width);
  bool draw_link(const std::string& url, const std::string& snippet, float width, CopyText copy);

  bool open_ = false;
  EmbedOptions options_;
  bool run_ = false;
  int width_ = kEmbedWidth, height_ = kEmbedHeight;
  int story_ = -1;  // index in stories() of the story to embed instead of this page, or -1
  int story_step_ = 1;
  std::string link_hash_;
};

}  // namespace attnlab::ui
