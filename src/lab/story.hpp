// A guided story through one paper: a few steps, each a short text, the settings it opens, the
// controls it shows, and optionally a prediction the student makes before running. Stories are
// data, declared beside their experiments and listed by experiments/stories.hpp; this header knows
// no paper. The link of a step is "#story=mirror&step=3" (1-based), checked here like every key.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lab/results.hpp"
#include "lab/schema.hpp"
#include "lab/url_hash.hpp"

namespace attnlab {

// What a step (or a start-page card) opens: an experiment, a preset (may be empty), parameters
// applied over the preset, and the seed.
struct StorySettings {
  std::string experiment;
  std::string preset;
  KeyValues params;
  std::uint64_t seed = 1;
};

// One number of a run's table: column `column` in the row where column `at_column` equals
// `at_value`, or in the last row when `at_column` is empty.
struct TableCell {
  std::string column;
  std::string at_column;
  double at_value = 0.0;
};
// The cell's value, or nothing when the table has no such column or row (a run still going).
std::optional<double> read_cell(const Table& table, const TableCell& cell);

// A number the step's text states, and where the run of the step's settings measures it. `text`
// is the number as written ("99.6%", "0.875", "12"): a test runs the step, formats the measured
// value like `text` (a percentage when it ends in '%', with as many decimals) and checks both that
// they agree and that the step's text contains `text`. With `note` set instead of a cell, the
// number is read from the run's notes: one of them must contain `note`, which contains `text`.
// With `variant` set, the number is measured by a second run of the step's settings with these
// parameters changed (a comparison the text states, e.g. the authors' update beside the lab's).
struct StoryNumber {
  std::string text;
  TableCell cell;
  std::string note;
  KeyValues variant = {};
};
// `value` written the way `like` is: "99.6%" -> percent with one decimal, "0.875" -> three
// decimals, "12" -> an integer.
std::string format_like(double value, const std::string& like);

// An answer the student can pick, right when the measured value lies in [low, high].
struct PredictionChoice {
  std::string label;
  double low = 0.0, high = 0.0;
};

// Asked before the run; once it has run, the page shows the prediction beside the measurement.
struct StoryPrediction {
  std::string question;                  // "Will the linear network ever fire on D1?"
  std::vector<PredictionChoice> choices;  // pick one; empty: the student types a number
  double min = 0.0, max = 1.0;            // a typed number's range (in the shown unit)
  TableCell measured;                     // the value the prediction is about
  std::string measured_label;             // "the linear network fired on D1 inputs"
  bool percent = false;                   // the value is a fraction shown (and typed) in percent

  // Declared by name: StoryPrediction::asking("Will ...?").options({...}).measures(cell, "label").in_percent()
  static StoryPrediction asking(std::string text) {
    StoryPrediction p;
    p.question = std::move(text);
    return p;
  }
  StoryPrediction& options(std::vector<PredictionChoice> list) { choices = std::move(list); return *this; }
  StoryPrediction& typed_range(double low, double high) { min = low; max = high; return *this; }
  StoryPrediction& measures(TableCell cell, std::string label) {
    measured = std::move(cell);
    measured_label = std::move(label);
    return *this;
  }
  StoryPrediction& in_percent(bool on = true) { percent = on; return *this; }
};
// The measured value as the page shows it: "12.5%" ("0.13%" below 1%), or three significant
// digits ("0.000352").
std::string format_measured(const StoryPrediction& p, double value);
// The index of the choice whose range holds `value`, or -1.
int matching_choice(const StoryPrediction& p, double value);

struct StoryStep {
  std::string title;     // "Step 1: a planted token"
  std::string text;      // what the paper claims here, what to press, what to look for: nothing the run measures
  std::string question;  // one question for the student to think about
  // Shown once the run is done, never before: what the run measured (the numbers of `numbers` that
  // the run measures) and one sentence on why it is so.
  std::string answer;
  StorySettings settings;
  std::vector<std::string> shows;  // the parameter keys the student sees; the others are hidden
  bool run = false;                // starts running when the step opens
  std::string plot;                // the title of the plot the text is about: drawn first, the others fold
  std::optional<StoryPrediction> prediction;
  std::vector<StoryNumber> numbers;  // every number `text` and `answer` state, checked against a run
  // Every other number the student reads in `text`, `question`, `answer` and the prediction's
  // question: a setting of the step ("1000" of n = 1000) or a value derived from the settings or
  // the paper's formulas ("7" of m = log n, "2" of 1 - 2^-m), as written. Citations (Lemma 5.2,
  // Fig. 3b) need no entry. A test fails on a number that is in neither list.
  std::vector<std::string> given;
};

struct Story {
  std::string id;       // "mirror": the link's story=
  std::string paper;    // the paper's title: both from its Paper (src/experiments/papers.cpp fills them in)
  std::string authors;  // "Julistiono, Tarzanagh, Azizan"
  std::string result;   // the one-sentence result in plain words
  // The start page's small figure: a quick run of these settings, plot `figure_plot` of it.
  StorySettings figure;
  std::size_t figure_plot = 0;
  std::string figure_caption;  // what the figure shows (not what it finds), and that it is a quick run
  std::vector<StoryStep> steps;
  // Shown when the last step's run is done: what the student saw, in a few sentences. Its numbers
  // are measured by a step (that step's `numbers`) or listed in `summary_given`.
  std::string summary;
  std::vector<std::string> summary_given;
};

// The story as JSON for the JS API and the site's oEmbed files: {"id", "paper", "authors",
// "result", "figureCaption", "summary", "steps": [{"title", "text", "question", "answer", "link", "experiment", "preset",
// "params": {key: value}, "seed", "shows", "run", "prediction": null or {"question", "choices"}}]}.
std::string story_to_json(const Story& story);
// The stories as a JSON array of story_to_json's objects (the JS API's listStories).
std::string stories_to_json(const std::vector<Story>& stories);

// Where a link is in a story: story=ID and step=N (1-based in the link, `step` 0-based here).
struct StoryPosition {
  std::string story;
  std::size_t step = 0;
};

// Reads story= and step= from a decoded link: nothing when the link names no story. Throws
// ParamError naming the key, the value and what is allowed: an unknown story (the known ids), a
// step out of range or not a number, a step without a story, or exp= / preset= beside story=.
std::optional<StoryPosition> parse_story_position(const HashState& link, const std::vector<Story>& stories);

// The link of a step: "story=ID&step=N", then `params` (the student's changes to the step's
// settings), the seed if `seed` differs from the step's, and `flags` (embed, theme, ...).
std::string encode_story_hash(const StoryPosition& at, const StoryStep& step, const KeyValues& params,
                              std::uint64_t seed, const KeyValues& flags);

}  // namespace attnlab
