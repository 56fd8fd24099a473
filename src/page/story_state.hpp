// A story's state on the page, without drawing (src/ui/story_panel.cpp draws it): which step is
// open, the prediction the student chose, whether the step is answered, where Back and Next lead,
// and the step as JSON for tests and the page API.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "lab/results.hpp"
#include "lab/story.hpp"
#include "lab/story_answer.hpp"

namespace attnlab::page {

class StoryState {
 public:
  // Opens `step` of `story` (which outlives the state: stories() holds it); a new step forgets the
  // previous step's prediction. A step past the last opens the last.
  void open(const Story& story, std::size_t step);
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
  // {"story", "step" (1-based), "steps", "title", "text", "question", "answer" ("" until the run
  // is done), "summary" ("" but on the last step once done), "prediction": null or {"question",
  // "choices", "predicted", "measured"}}: what the page shows. `settings`: the run's and the
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
