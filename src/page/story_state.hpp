// A story's state on the page, without drawing (src/ui/story_panel.cpp draws it): which step is
// open, the prediction the student chose, whether the step is answered, where Back and Next lead,
// and the step as JSON for tests and the page API.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "lab/results.hpp"
#include "lab/story.hpp"
#include "lab/story_answer.hpp"

namespace attnlab::page {

// The heading of the story's summary under the last step's answer, on the canvas and in the text
// twin (the step's JSON carries it as "summaryHeading").
inline constexpr const char* kSummaryHeading = "What you saw";

class StoryState {
 public:
  // Opens `step` of `story` (which outlives the state: stories() holds it); a new step forgets the
  // previous step's prediction. A step past the last opens the last.
  void open(const Story& story, std::size_t step);
  // Opens the step a link names with the prediction it carries (predict=): the link is the page,
  // so a link without a prediction leaves the step unpredicted (a reload keeps it; docs/design.md
  // "Predictions kept").
  void open(const Story& story, const StoryPosition& at);
  bool is_open() const { return story_ != nullptr; }
  const Story& story() const { return *story_; }
  std::size_t step_index() const { return step_; }
  const StoryStep& step() const { return story_->steps[step_]; }
  bool first_step() const { return step_ == 0; }
  bool last_step() const { return step_ + 1 >= story_->steps.size(); }

  // The step asks for a prediction that has not been made yet (Run waits for it).
  bool awaiting_prediction() const { return step().prediction.has_value() && !predicted(); }
  bool predicted() const { return choice_ >= 0 || number_given_; }
  // Records a prediction: a choice's index, or a number in the prediction's range. "" or the error,
  // which names what is allowed; a refused value leaves the prediction as it was.
  std::string predict(double value);
  // The same for step `step` (0-based) of story `story`, which must be the step on screen: the hook a
  // course page's resume uses (appSetPrediction), refused with the step on screen named otherwise.
  std::string predict_at(const std::string& story, std::size_t step, double value);
  // The prediction as predict() took it (a choice's index, or the number), none before one: what
  // the step's link carries (StoryPosition::prediction).
  std::optional<double> prediction() const;
  int choice() const { return choice_; }      // -1 before a choice
  double number() const { return number_; }   // the typed number (0 before one)
  // The step `delta` steps away (Back -1, Next +1); throws ParamError when there is none.
  std::size_t step_by(int delta) const;

  // The measured value with its text ("" until the run has it) and, for choices, the answer.
  std::string measured_text(const Results& results) const;
  // The student's prediction as the page shows it ("no prediction" before one).
  std::string prediction_text() const;
  // The run's value matches the chosen answer.
  bool prediction_right(const Results& results) const;
  // What the step's downloads (CSV and JSON) say of it, as the run record's context: "story",
  // "story_step" (1-based), "prediction" (prediction_text), and once done "measured" (measured_text).
  KeyValues record_context(const Results& results, bool done) const;
  // The glossary entries the step shows, each once, in order of first use: in its text, question
  // and prediction, the words of the plots on screen (titles, axes, legends, heatmaps' notes), and
  // its `answer` and `summary` as the page shows them ("" before the run is done; the caller has
  // rendered them already): "Words in this step" on every face.
  std::vector<const GlossaryEntry*> words(const Results& results, const std::string& answer,
                                          const std::string& summary) const;
  // {"story", "step" (1-based), "steps", "title", "text", "textParts" (the text cut at the first use
  // of each glossary term: [{"text"} or {"text", "term", "definition", "source"}]), "words" (words(): [{"term",
  // "definition", "source"}]), "question", "plot" (the title of the plot it names), "answer" ("" until the run
  // is done), "summary" ("" but on the last step once done), "changed" (the student's
  // settings differ from the step's), "prediction": null or {"question",
  // "choices", "predicted" (as predict() took it, or null), "predictedText" (prediction_text, ""
  // before one), "measured"}}: what the page shows. `settings`: the run's and the
  // step's, so the answer says what the student changed.
  std::string json(const Results& results, bool done, const RunSettings& settings = {}) const;

 private:
  const Story* story_ = nullptr;
  std::size_t step_ = 0;
  int choice_ = -1;
  double number_ = 0.0;
  bool number_given_ = false;
};

// The story after `id` in `all`, "" after the last (or for an unknown id).
std::string next_story_id(const std::vector<Story>& all, const std::string& id);

}  // namespace attnlab::page
