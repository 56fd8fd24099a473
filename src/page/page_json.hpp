// What the page shows, as JSON for its text twin (web/twin.js), browser tests and course pages.
// Built with nlohmann::json; numbers that are not finite are written as null.
#pragma once
#include <string>
#include <vector>

#include "lab/experiment.hpp"
#include "lab/results.hpp"

namespace attnlab::page {

// {"plots": [{"title", "series": [names]}], "heatmaps": [titles], "reproduction": [titles]}
std::string plots_json(const Results& figures, const std::vector<std::string>& reproduction_titles);

// Every plot's labels and series, every heatmap's size, range and ringed entries; "inputs": true
// while the figures are the picture of the run's inputs; "pending": a story step's named plot
// before Run (page/story_frame.hpp) as {"title", "x_label", "y_label", "note"}, or null. The plots
// and maps come in the order the canvas draws them for a story step that names `named` and relies
// on `shown` (plots_in_order, maps_in_order), each with its "index" among the results' own; a map
// titled `named` has "named": true.
std::string twin_figures_json(const Results& figures, bool inputs, const Plot* pending = nullptr,
                              const std::string& named = "", const std::vector<std::string>& shown = {});

// The controls for the twin.
struct TwinControls {
  const Experiment* experiment = nullptr;
  const Params* params = nullptr;
  std::string preset;
  std::uint64_t seed = 1;
  std::vector<std::string> visible;               // the parameter keys shown
  std::vector<std::pair<std::string, bool>> shows;  // control group -> shown
  bool embed = false;
  std::string error;                              // the message line
};
// {"experiment", "preset", "seed", "params": {key: value as the link writes it}, "visible": [keys
// shown], "shows": {group: bool}, "embed", "error"}
std::string twin_params_json(const TwinControls& controls);

// {"page": "start" | "lab" | "story", "story": `story_json` or null, "inputs": the titles of the
// picture of the inputs or null, "runBlocked", "cards": `cards_json` or null}. `story_json` and
// `cards_json` are JSON texts ("" for null); `inputs` null when the picture is not shown.
std::string page_json(const std::string& page, const std::string& story_json, const Results* inputs,
                      const std::string& run_blocked, const std::string& cards_json);

}  // namespace attnlab::page
