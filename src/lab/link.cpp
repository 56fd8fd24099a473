#include "lab/link.hpp"

#include <algorithm>

#include "lab/link_keys.hpp"
#include "lab/text.hpp"

namespace attnlab {

namespace {

// A small non-negative integer from a link ("point", "trial", "threads"); throws ParamError.
int link_index(const HashState& st, const std::string& key) {
  const std::string v = st.flag(key);
  if (v.empty()) return 0;
  const std::optional<long long> n = parse_digits(v, 7);
  if (!n) throw link_value_refused(key, v);
  return static_cast<int>(*n);
}

// threads=: -1 when absent; throws ParamError beyond kMaxLinkThreads.
int link_threads(const HashState& st) {
  const std::string threads = st.flag("threads");
  const int count = threads.empty() ? -1 : link_index(st, "threads");
  if (count > kMaxLinkThreads) throw link_value_refused("threads", threads);
  return count;
}

bool known(const LinkCatalogue& catalogue, const std::string& id) {
  const auto& ids = catalogue.experiment_ids;
  return !id.empty() && std::find(ids.begin(), ids.end(), id) != ids.end();
}

// The schema a start-page link or a salvage checks hide= against (an empty one without experiment).
Schema schema_of(const LinkCatalogue& catalogue, const std::string& id) {
  return known(catalogue, id) ? catalogue.make_experiment(id)->schema() : Schema({});
}

// A link's view=: the results or the inspector (the text view, view=text, shows the results).
ViewChoice link_view(const HashState& st) {
  const std::string view = st.flag("view");
  if (view.empty()) return ViewChoice::Results;
  const auto* row = kViewTable.find(view);
  if (!row) throw link_value_refused("view", view);
  return row->value;
}

// A link without exp= and story=: the start page, keeping the embed look and the threads.
void decode_start_page(const HashState& st, const LinkCatalogue& catalogue, const std::string& on_screen, Link& link) {
  // Parameters, a preset or a seed belong to an experiment: without one they would be lost.
  const std::string lost = !st.preset.empty() ? "preset" : st.has_seed ? "seed" : !st.params.empty() ? st.params[0].first : "";
  if (!lost.empty())
    throw ParamError("link: '" + lost + "' needs an experiment or a story; allowed: exp=ID or story=ID with it");
  link.embed = parse_embed_options(st, schema_of(catalogue, on_screen));
  link.embed.embed = false;  // the start page is never an embed
  link.threads = link_threads(st);
  link.text_view = link_view(st) == ViewChoice::Text;  // the start page has no inspector
}

// An experiment, or a story's step: the step opens its settings and the link's parameters are the
// student's changes to them. Checks in the order a reader fixes them: what to open, the values,
// then the page's flags.
void decode_run(const HashState& st, const std::optional<StoryPosition>& at, const LinkCatalogue& catalogue,
                Link& link) {
  const StoryStep* step = nullptr;
  if (at)
    for (const Story& s : *catalogue.stories)
      if (s.id == at->story) step = &s.steps[at->step];
  const std::unique_ptr<Experiment> e = catalogue.make_experiment(step ? step->settings.experiment : st.experiment);
  KeyValues values = step ? step->settings.params : KeyValues{};
  values.insert(values.end(), st.params.begin(), st.params.end());
  link.preset = step ? step->settings.preset : st.preset;
  link.params = e->make_params(link.preset, values);  // validates every value
  link.embed = parse_embed_options(st, e->schema());
  const ViewChoice view = link_view(st);
  link.view = view == ViewChoice::Inspector ? LinkView::Inspector : LinkView::Results;
  link.text_view = view == ViewChoice::Text;
  link.point = link_index(st, "point");
  link.trial = link_index(st, "trial");
  link.threads = link_threads(st);
  link.page = step ? LinkPage::Story : LinkPage::Lab;
  link.experiment = e->info().id;
  link.story = at;
  if (st.has_seed) link.seed = st.seed;
  else if (step) link.seed = step->settings.seed;
  link.run = st.flag("run") == "1" || link.embed.hides("run") || (step && step->run && !step->prediction);
}

// After a refusal: an embed keeps what is valid of its options (and its experiment, if it exists).
void salvage(const HashState& st, const LinkCatalogue& catalogue, const std::string& on_screen, Link& link) {
  if (st.flag("embed") != "1") return;
  link.salvaged_experiment = known(catalogue, st.experiment) ? st.experiment : "";
  const std::string checked_by = link.salvaged_experiment.empty() ? on_screen : link.salvaged_experiment;
  link.salvaged_embed = salvage_embed_options(st, schema_of(catalogue, checked_by));
}

}  // namespace

Link decode_link(const std::string& hash, const LinkCatalogue& catalogue, const std::string& on_screen) {
  HashState st;
  try {
    st = decode_hash(hash);
  } catch (const std::exception& ex) {
    Link refused;
    refused.refusal = ex.what();  // not even decodable: nothing to keep
    return refused;
  }
  Link link;
  try {
    const std::optional<StoryPosition> at = parse_story_position(st, *catalogue.stories);
    if (!at && st.experiment.empty()) decode_start_page(st, catalogue, on_screen, link);
    else decode_run(st, at, catalogue, link);
    return link;
  } catch (const std::exception& ex) {
    Link refused;
    refused.refusal = ex.what();
    try {
      salvage(st, catalogue, on_screen, refused);
    } catch (const std::exception&) {
      refused.salvaged_embed.reset();  // nothing to keep
    }
    return refused;
  }
}

}  // namespace attnlab
