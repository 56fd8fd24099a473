// A story step on the page (lab/story.hpp): its title and text, the question for the student, the
// prediction asked before the run and, once the run is done, the prediction beside the measured
// value; and the Back / Next navigation of the toolbar. It only draws and reports what the student
// asked for: the App opens steps, applies their settings and keeps the link.
#pragma once
#include <cstddef>
#include <string>
#include <utility>

#include "lab/results.hpp"
#include "lab/story.hpp"

namespace attnlab::ui {

class StoryPanel {
 public:
  enum class Action { None, Back, Next, Home, FreeLab, NextStory };

  // Shows `step` of `story` (which outlives the panel: stories() holds it); a new step forgets the
  // previous step's prediction.
  void open(const Story& story, std::size_t step);
  const Story& story() const { return *story_; }
  std::size_t step_index() const { return step_; }
  const StoryStep& step() const { return story_->steps[step_]; }

  // The toolbar part: home, the story's name, "Step k of N", Back and Next, Free lab.
  Action draw_navigation(bool embedded);
  // The step's text (its first sentences up to kWordsBeforeMore, the rest behind "More"), question
  // and prediction; once the run is done, the measured value, the step's answer and, on the last
  // step, the story's summary with a button to the next story (Action::NextStory).
  // `results` and `done` are the current run's.
  // `settings`: the run's and the step's, so the answer says what the student changed.
  Action draw(const Results& results, bool done, const std::string& next_story_title,
              const RunSettings& settings = {});
  static constexpr int kWordsBeforeMore = 90;
  // The step asks for a prediction that has not been made yet (the page then shows no preview).
  bool awaiting_prediction() const { return step().prediction.has_value() && !predicted(); }
  bool predicted() const { return choice_ >= 0 || number_given_; }
  // Records a prediction (the page API's, for tests): a choice's index, or a typed number.
  std::string predict(double value);
  // {"story", "step" (1-based), "steps", "title", "text", "question", "answer" ("" until the run
  // is done), "summary" ("" but on the last step once done), "prediction": null or {"question",
  // "choices", "predicted", "measured"}} for tests and the page API: what the page shows.
  std::string json(const Results& results, bool done, const RunSettings& settings = {}) const;

 private:
  void draw_prediction(const Results& results, bool done);
  // The measured value with its text, once the run has it.
  std::string measured_text(const Results& results) const;
  const Story* story_ = nullptr;
  std::size_t step_ = 0;
  int choice_ = -1;
  double number_ = 0.0;
  bool number_given_ = false;
  bool more_ = false;  // the text's folded part is open
};

// `text` cut after the last sentence that ends within `words` words (the whole text when it is
// that short), and the rest; the rest is "" when nothing is folded.
std::pair<std::string, std::string> fold_text(const std::string& text, int words);

}  // namespace attnlab::ui
