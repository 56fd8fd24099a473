#include "page/page_link.hpp"

#include <iterator>

#include "lab/link_keys.hpp"

namespace attnlab::page {

namespace {
std::string join_flags(const KeyValues& flags) {
  std::string out;
  for (const auto& [k, v] : flags) out += (out.empty() ? "" : "&") + k + "=" + percent_encode(v);
  return out;
}
}  // namespace

void LinkState::apply(const Link& link) {
  page_ = link.page;
  embed_ = link.embed;
  text_view_ = link.text_view;
  previewing_ = false;
}

void LinkState::salvage(const Link& link) {
  page_ = LinkPage::Lab;  // the lab shows why the link was refused
  if (link.salvaged_embed) embed_ = *link.salvaged_embed;
  previewing_ = false;
}

void LinkState::keep_hidden_of(const Schema& schema) {
  for (auto it = embed_.hidden.begin(); it != embed_.hidden.end();)
    it = is_control_group(*it) || schema.find(*it) ? std::next(it) : embed_.hidden.erase(it);
}

KeyValues LinkState::flags(const EmbedOptions& embed, bool run, int threads) const {
  KeyValues all = embed.to_flags();
  if (run) all.emplace_back("run", "1");
  if (threads >= 0) all.emplace_back("threads", std::to_string(threads));
  if (text_view_) all.emplace_back("view", kViewTable.name_of(ViewChoice::Text));
  if (!embed.embed) return all;
  KeyValues kept;  // an embed's link: the keys the link-key table says an embed keeps
  for (auto& kv : all)
    if (find_link_key(kv.first)->embed_keeps()) kept.push_back(std::move(kv));
  return kept;
}

std::string LinkState::encode(const LinkSubject& s, const EmbedOptions& embed, bool run) const {
  if (page_ == LinkPage::Start) {
    return join_flags(flags(embed, run, s.threads));
  }
  const Schema& schema = s.experiment->schema();
  if (page_ == LinkPage::Story) {
    // A story step's link: the step, then only what the student changed in it.
    const StoryStep& step = s.story->step();
    const Params opened = s.experiment->make_params(step.settings.preset, step.settings.params);
    KeyValues changed;
    for (const auto& spec : schema.specs())
      if (schema.format(*s.params, spec.key) != schema.format(opened, spec.key))
        changed.emplace_back(spec.key, schema.format(*s.params, spec.key));
    // The student's prediction goes along unless the link is an embed's and the table says an
    // embed does not keep it.
    const bool keeps_prediction = !embed.embed || link_key("predict").embed_keeps();
    const StoryPosition at{s.story->story().id, s.story->step_index(),
                           keeps_prediction ? s.story->prediction() : std::nullopt};
    return encode_story_hash(at, step, changed, s.seed, flags(embed, run, s.threads));
  }
  HashState st;
  st.experiment = s.experiment->info().id;
  st.preset = s.preset;  // its name (and description); the parameters below are applied after it
  st.params = schema.to_key_values(*s.params);
  st.has_seed = true;
  st.seed = s.seed;
  st.flags = flags(embed, run, s.threads);
  if (s.inspector && !text_view_)
    st.flags.insert(st.flags.end(), {{"view", kViewTable.name_of(ViewChoice::Inspector)}, {"point", std::to_string(s.point)},
                                     {"trial", std::to_string(s.trial)}});
  return encode_hash(st);
}

std::string LinkState::story_step_link(const StoryState& story, std::size_t to, int threads) const {
  const StoryStep& step = story.story().steps.at(to);
  EmbedOptions kept = embed_;
  for (auto it = kept.hidden.begin(); it != kept.hidden.end();)
    it = is_control_group(*it) ? std::next(it) : kept.hidden.erase(it);
  return encode_story_hash({story.story().id, to, std::nullopt}, step, {}, step.settings.seed, flags(kept, false, threads));
}

std::string LinkState::open_story_link(const Story& story, int threads) const {
  const StoryStep& first = story.steps.at(0);
  return encode_story_hash({story.id, 0, std::nullopt}, first, {}, first.settings.seed, flags(embed_, false, threads));
}

std::string LinkState::home_link(int threads) const {
  KeyValues kept;  // the keys the link-key table says Home keeps: how the page looks and computes
  for (auto& kv : flags(embed_, false, threads))
    if (find_link_key(kv.first)->home_keeps()) kept.push_back(std::move(kv));
  return join_flags(kept);
}

}  // namespace attnlab::page
