// A guided story through one paper: a few steps, each a short text, the settings it opens, the
// controls it shows, and optionally a prediction the student makes before running. Stories are
// data, declared beside their experiments and listed by experiments/stories.hpp; this header knows
// no paper. The link of a step is "#story=mirror&step=3&predict=2" (1-based), checked here like
// every key of the link-key table (lab/link_keys.hpp).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lab/results.hpp"
#include "lab/schema.hpp"
#include "lab/story_answer.hpp"
#include "lab/url_hash.hpp"

namespace attnlab {

// A step's run, at its own settings or at a setting it invites, takes at most this many seconds of
// processor time on one thread in the optimised native build (the page with one worker is
// 1.3-1.7x slower; docs/design.md "How to add a story").
inline constexpr double kStoryStepSecondsMax = 10.0;

// A step's text shows its first sentences up to this many words, the rest behind "More"
// (lab/text.hpp's fold_text); the short count in a panel as short as a phone's, so that the
// question shows without scrolling. Every step's first sentence ends within the short count.
inline constexpr int kStoryWordsBeforeMore = 90;
inline constexpr int kStoryWordsBeforeMoreShort = 40;

// What a step (or a start-page card) opens: an experiment, a preset (may be empty), parameters
// applied over the preset, and the seed.
struct StorySettings {
  std::string experiment;
  std::string preset;
  KeyValues params;
  std::uint64_t seed = 1;
};

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
  std::string measured;                   // the name of the step's measure that decides it
  std::string measured_label;             // "the linear network fired on D1 inputs"
  bool percent = false;                   // the value is a fraction shown (and typed) in percent
  // Words that would name the outcome ("never" for "fires on neither"): the story test holds
  // them, with the deciding value, against everything shown before Run.
  std::vector<std::string> give_away;

  // Declared by name: StoryPrediction::asking("Will ...?").options({...}).measures(cell, "label").in_percent()
  static StoryPrediction asking(std::string text) {
    StoryPrediction p;
    p.question = std::move(text);
    return p;
  }
  StoryPrediction& options(std::vector<PredictionChoice> list) { choices = std::move(list); return *this; }
  StoryPrediction& typed_range(double low, double high) { min = low; max = high; return *this; }
  StoryPrediction& measures(std::string name, std::string label) {
    measured = std::move(name);
    measured_label = std::move(label);
    return *this;
  }
  StoryPrediction& in_percent(bool on = true) { percent = on; return *this; }
  StoryPrediction& hiding(std::vector<std::string> words) { give_away = std::move(words); return *this; }
};
// The measured value as the page shows it: "12.5%" ("0.13%" below 1%), or three significant
// digits ("0.000352"); more digits where it would read as a choice's edge it is not ("99.02%").
std::string format_measured(const StoryPrediction& p, double value);
// The index of the choice whose range holds `value`, or -1.
int matching_choice(const StoryPrediction& p, double value);

// A setting a step invites the student to try ("Set m to 2"), run by the story test: the answer
// rendered from that run must contain each of `expect` (the branch the measurement chooses).
struct StoryInvitation {
  KeyValues params;
  std::vector<std::string> expect;
};

struct StoryStep {
  std::string title;     // "Step 1: a planted token"
  std::string text;      // what the paper claims here, what to press, what to look for: nothing the run measures
  std::string question;  // one question for the student, answered by the step's own run
  StorySettings settings;
  std::vector<std::string> shows;  // the parameter keys the student sees; the others are hidden
  bool run = false;                // starts running when the step opens: never in a story (predict first)
  std::string plot;                // the title of the plot the text is about: drawn first, the others fold
  // Titles of further plots the answer relies on: drawn open after `plot`, outside "More plots".
  std::vector<std::string> shown_plots = {};
  std::optional<StoryPrediction> prediction;  // asked before the run, decided by one of `measures`
  // The values the run measures, by name; the answer's placeholders and conditions name them.
  std::vector<StoryMeasure> measures;
  // Shown once the run is done, never before: rendered from the run on screen (render_answer):
  // what it measured and why, each sentence that depends on a number chosen by that number.
  std::vector<AnswerPart> answer;
  std::vector<std::string> expect;  // phrases the answer rendered from the step's own settings contains
  std::vector<StoryInvitation> invited;  // the settings the text invites, each a tested branch
  // Every number the student reads in `text`, `question`, the prediction and the answer's literal
  // parts: a setting of the step ("1000" of n = 1000) or a value derived from the settings or the
  // paper's formulas ("7" of m = log n, "2" of 1 - 2^-m), as written. Citations (Lemma 5.2,
  // Fig. 3b) need no entry. A test fails on a number that is in neither this list nor a measure.
  std::vector<std::string> given;
};

// What every face shows once the step's run is done: the step's answer rendered from `results`
// (render_parts), with the student's changes of setting said first.
std::string render_answer(const StoryStep& step, const Results& results, const RunSettings& settings = {});
// The value that decides the step's prediction, or nothing (no prediction, or not measured yet).
std::optional<double> prediction_value(const StoryStep& step, const Results& results);

struct Story {
  std::string id;       // "mirror": the link's story=
  std::string paper;    // the paper's title: both from its Paper (src/experiments/papers.cpp fills them in)
  std::string authors;  // "Julistiono, Tarzanagh, Azizan"
  // What the paper asks and where it answers it, in plain words, for the start page's card: never
  // the outcome a step asks the student to predict.
  std::string result;
  // The card's picture: what goes into a run of these settings (Experiment::inputs, its first plot,
  // else its first map), never a result; and what it shows.
  StorySettings figure;
  std::string figure_caption;
  std::vector<StoryStep> steps;
  // Shown when the last step's run is done: what the student saw, in a few sentences, rendered
  // like an answer from the last step's run (its measures). Literal numbers are in `summary_given`.
  std::vector<AnswerPart> summary;
  std::vector<std::string> summary_given;
  // The terms the story uses, each defined for a student (the story test checks the list covers
  // its technical words and that symbols are defined in a step's text before use).
  std::vector<GlossaryEntry> glossary;
};

// The entry every story's glossary ends with: the tag "ours" that marks what the lab adds.
inline GlossaryEntry ours_glossary_entry() {
  return {"ours", "Marks what this lab adds beyond the paper: a setting, a measurement or an explanation that "
                  "the paper does not give. Everything else names its place in the paper (a section, theorem, "
                  "lemma or figure).",
          "ours"};
}

// The story's "What you saw", rendered from the last step's run; the student's changes of setting
// are said once, in the last step's answer above it (render_answer), never again here.
std::string render_summary(const Story& story, const Results& last_step_results, const RunSettings& settings = {});

// A step's text cut where it first uses a glossary term (docs/design.md "How to add a story"): the
// canvas marks those words (hover or tap shows the definition), the twin writes them as <dfn>. A
// term matches case-insensitively as a whole word (a plural "s" included); `marked` (may be null)
// holds the terms already marked earlier in the step (its folded part follows its shown part).
struct GlossarySegment {
  std::string text;
  const GlossaryEntry* term = nullptr;  // the entry this segment first uses, or nullptr for plain text
};
std::vector<GlossarySegment> glossary_segments(const std::vector<GlossaryEntry>& glossary, const std::string& text,
                                               std::vector<std::string>* marked = nullptr);

// The story as JSON for the JS API and the site's oEmbed files: {"id", "paper", "authors",
// "result", "figureCaption", "summary" (its template), "steps": [{"title", "text", "question", "answer" (its template: "{name}" unfilled), "link", "experiment", "preset",
// "params": {key: value}, "seed", "shows", "run", "prediction": null or {"question", "choices"}}]}.
std::string story_to_json(const Story& story);
// The stories as a JSON array of story_to_json's objects (the JS API's listStories).
std::string stories_to_json(const std::vector<Story>& stories);

// Where a link is in a story: story=ID, step=N (1-based in the link, `step` 0-based here) and the
// student's prediction for it, predict=K (the K-th choice, from 1, or the number typed, in the
// shown unit). The keys, their order and their words are the link-key table's (lab/link_keys.hpp).
struct StoryPosition {
  std::string story;
  std::size_t step = 0;
  // As page::StoryState::predict takes it: a choice's index from 0, or the number typed; none
  // before the student predicts.
  std::optional<double> prediction;
};

// Reads story=, step= and predict= from a decoded link: nothing when the link names no story.
// Throws ParamError naming the key, the value and what is allowed: an unknown story (the known
// ids), a step out of range or not a number, a step or a prediction without a story, exp= /
// preset= beside story=, a prediction that is not one of the step's choices (or outside its typed
// range), or a prediction for a step that asks for none.
std::optional<StoryPosition> parse_story_position(const HashState& link, const std::vector<Story>& stories);

// The link of a step: "story=ID&step=N", predict=K when `at` holds a prediction, then `params`
// (the student's changes to the step's settings), the seed if `seed` differs from the step's, and
// `flags` (embed, theme, ...).
std::string encode_story_hash(const StoryPosition& at, const StoryStep& step, const KeyValues& params,
                              std::uint64_t seed, const KeyValues& flags);

}  // namespace attnlab
