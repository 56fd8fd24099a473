// A page link decoded once into one validated value (docs/design.md "One link: decode_link"). The
// hash ("exp=separation.toy&seed=3&n=500&embed=1", "story=mirror&step=2&m=4") becomes a Link: the
// page it opens (the start page, the lab on an experiment, a story's step), the preset, parameters
// valid for the experiment's schema, the seed, the view, the threads, the embed options and
// whether the run starts on opening; or a refusal, with the message that names the key, the value
// and what is allowed, and what a refused link still asks for (an embed keeps its look). The page
// (src/ui/app.cpp) applies it without decoding anything again. lab knows no registry: the caller
// passes the experiments and stories a link may name (LinkCatalogue).
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lab/embed_options.hpp"
#include "lab/experiment.hpp"
#include "lab/link_keys.hpp"
#include "lab/story.hpp"
#include "lab/url_hash.hpp"

namespace attnlab {

// What a link may name: the experiments (ids and a factory that throws ParamError naming the known
// ones for any other id) and the stories. experiments/registry.hpp gives the project's.
struct LinkCatalogue {
  std::vector<std::string> experiment_ids;
  std::function<std::unique_ptr<Experiment>(const std::string& id)> make_experiment;
  const std::vector<Story>* stories = nullptr;
};

enum class LinkPage { Start, Lab, Story };
enum class LinkView { Results, Inspector };

struct Link {
  // Why the link was refused ("" when it is valid). A refused link opens nothing; only the
  // salvage fields below mean anything then.
  std::string refusal;
  bool refused() const { return !refusal.empty(); }

  LinkPage page = LinkPage::Start;     // Start: neither exp= nor story=
  std::string experiment;              // the experiment to open (a story step's); "" on the start page
  std::optional<StoryPosition> story;  // the story step (LinkPage::Story)
  std::string preset;                  // the preset the parameters start from (a step's own)
  Params params;                       // valid for `experiment`: defaults, preset, the step's values, the link's
  std::optional<std::uint64_t> seed;   // seed=, else the step's seed; none: the seed on screen stays
  LinkView view = LinkView::Results;   // view=results|inspector
  bool text_view = false;              // view=text: the page shows its text twin instead of the canvas
  int point = 0, trial = 0;            // the inspector's sweep point and trial (point=, trial=)
  int threads = -1;                    // threads= in [0, kMaxLinkThreads]; -1 when absent
  EmbedOptions embed;                  // embed=, hide=, theme= (the start page is never an embed)
  // The run starts on opening: run=1, a hidden Run button (hide=run), or a story step that runs by
  // itself (its `run` without a prediction).
  bool run = false;

  // A refused link with embed=1 still shows an embed, with the error, never the full lab: the
  // experiment it names if that one exists ("" otherwise) and the embed options that are valid.
  std::optional<EmbedOptions> salvaged_embed;
  std::string salvaged_experiment;
};

// Decodes and validates `hash` (with or without '#'); never throws. `on_screen` is the experiment
// the page shows: a start-page link's hide= and a refused link's salvage are checked against its
// schema when the link names no experiment.
Link decode_link(const std::string& hash, const LinkCatalogue& catalogue, const std::string& on_screen = "");

}  // namespace attnlab
