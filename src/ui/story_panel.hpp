// A story step on the page (lab/story.hpp): its title and text, the question for the student, the
// prediction asked before the run and, once the run is done, the prediction beside the measured
// value; and the Back / Next navigation of the toolbar. It only draws and reports what the student
// asked for: the App opens steps, applies their settings and keeps the link.
#pragma once
#include <cstddef>
#include <string>

#include "lab/results.hpp"
#include "lab/story.hpp"

namespace attnlab::ui {

class StoryPanel {
 public:
  enum class Action { None, Back, Next, Home, FreeLab };

  // Shows `step` of `story` (which outlives the panel: stories() holds it); a new step forgets the
  // previous step's prediction.
  void open(const Story& story, std::size_t step);
  const Story& story() const { return *story_; }
  std::size_t step_index() const { return step_; }
  const StoryStep& step() const { return story_->steps[step_]; }

  // The toolbar part: home, the story's name, "Step k of N", Back and Next, Free lab.
  Action draw_navigation(bool embedded);
  // The step's text, question and prediction; `results` and `done` are the current run's.
  void draw(const Results& results, bool done);
  // The step asks for a prediction that has not been made yet (the page then shows no preview).
  bool awaiting_prediction() const { return step().prediction.has_value() && !predicted(); }
  bool predicted() const { return choice_ >= 0 || number_given_; }
  // Records a prediction (the page API's, for tests): a choice's index, or a typed number.
  std::string predict(double value);
  // {"story", "step" (1-based), "steps", "title", "prediction": null or {"question", "choices",
  // "predicted", "measured"}} for tests and the page API.
  std::string json(const Results& results, bool done) const;

 private:
  // The measured value with its text, once the run has it.
  std::string measured_text(const Results& results) const;
  const Story* story_ = nullptr;
  std::size_t step_ = 0;
  int choice_ = -1;
  double number_ = 0.0;
  bool number_given_ = false;
};

}  // namespace attnlab::ui
