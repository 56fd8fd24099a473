// A story step on the page, drawn (its state: page/story_state.hpp): its title and text, the
// question for the student, the prediction asked before the run and, once the run is done, the
// prediction beside the measured value; and the Back / Next navigation of the toolbar. It only draws
// and reports what the student asked for: the App opens steps, applies their settings and keeps the link.
#pragma once
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "lab/results.hpp"
#include "lab/run_controller.hpp"
#include "lab/story.hpp"
#include "lab/time_left.hpp"
#include "page/story_state.hpp"

namespace attnlab::ui {

class StoryPanel {
 public:
  enum class Action { None, Back, Next, Home, FreeLab, NextStory, StepSettings, Run };

  // The toolbar part: home, the story's name, "Step k of N", Back and Next, Free lab.
  Action draw_navigation(const page::StoryState& story, bool embedded);
  // The step's text (its first sentences up to kWordsBeforeMore words, the rest behind "More"), question
  // and prediction (the student's choice goes into `story`); once the run is done, the measured
  // value, the step's answer and, on the last step, the story's summary with a button to the next
  // story (Action::NextStory). `results` and `state` are the current run's; before the run a Run
  // button under the prediction (Action::Run) keeps the question and its action together (a phone,
  // the keyboard's path). `settings`: the run's and the step's, so the answer says what the student
  // changed and offers the step's own settings back (Action::StepSettings).
  Action draw(page::StoryState& story, const Results& results, RunState state, const std::string& next_story_title,
              const RunSettings& settings = {});
  // The keyboard arrived on the canvas, or a step opened while the keyboard was in use there: the
  // next draw gives the prediction's first choice the keyboard focus (its frame shown), so that the
  // arrows start at the question and Run is the next control down (ui/keyboard_focus.hpp).
  void focus_prediction() { focus_prediction_ = true; }
  // The text folds after this many words, or after kWordsBeforeMoreShort in a panel shorter than
  // kShortPanelLines lines (a phone's embed), so that the question shows without scrolling.
  static constexpr int kWordsBeforeMore = kStoryWordsBeforeMore;
  static constexpr int kWordsBeforeMoreShort = kStoryWordsBeforeMoreShort;
  static constexpr float kShortPanelLines = 26.0f;
  // The step's hints as the canvas shows them and the text twin repeats them word for word:
  // "Look first at the plot '...' in the results." and, before the run, "Pick your answer, then
  // press Run." (or "Now press Run." once picked).
  static std::string plot_hint(const StoryStep& step);
  // Frames still to scroll the panel to a newly shown answer: ImGui clamps a scroll to the last
  // frame's content, which did not hold the answer yet, so the scroll is asked on a few frames; the
  // page's change stamp counts this, so those frames are drawn.
  static constexpr int kAnswerScrollFrames = 3;
  int answer_scrolls_left() const { return answer_scrolls_left_; }
  // `refused`: a field shows a value the schema refused, so Run waits (walk 18: the panel's Run looked
  // ready, said "Now press Run." and did nothing).
  static std::string run_hint(const page::StoryState& story, bool done, bool refused = false);
  // Each frame before draw(): whether a field shows a refused value (App::run_blocked).
  void set_field_refused(bool refused) { field_refused_ = refused; }
  // The control with the keyboard focus in the last draw ("Back", "Next", "choice:2", "prediction"),
  // or "": the canvas's focus, which the text twin's Escape matches (App::focused_control).
  const std::string& focused() const { return focused_; }
  // Where the last draw() put the question (screen CSS pixels) and whether its panel showed it
  // whole without scrolling: browser tests check an embed on a phone by it.
  struct Placed {
    float x = 0, y = 0, w = 0, h = 0;
    float panel_top = 0, panel_bottom = 0;  // the story panel's own top and foot on the screen
    bool visible = false;
    float choice_height = 0;  // the least height of the prediction's choices (0 without choices)
    bool answer_visible = false;  // the answer's first line shows in the panel (after the run)
    bool controls_whole = false;  // the controls panel shows all of its content, none cut at its foot
  };
  // The least height of a prediction choice's target, in CSS pixels (ImGui draws in them): WCAG
  // 2.2's target size (2.5.8).
  static constexpr float kTargetPx = 24.0f;
  const Placed& question() const { return question_; }
  // The current run's progress, each frame before draw(): while a step runs the panel says about
  // how long it has left (lab/time_left.hpp).
  void track_run(bool running, double fraction, double now);

 private:
  // Returns true when the panel's Run was pressed.
  bool draw_prediction(page::StoryState& story, const Results& results, RunState state);
  // Draws a step's text with its glossary terms marked (hover: the definition; a tap pins it under
  // the text until the next tap).
  void draw_marked_text(const std::vector<GlossarySegment>& segments);
  void note_focus(const std::string& name);  // the last item, if it has the keyboard focus
  // "Words in this step": a disclosure listing each glossary term the step shows (StoryState::words)
  // with its definition, reachable by the keyboard (the marked words only by hover or tap).
  void draw_words(const std::vector<const GlossaryEntry*>& used);
  bool more_ = false;     // the text's folded part is open
  std::string pinned_;    // the glossary term whose definition a tap opened, "" for none
  std::string focused_;   // see focused()
  std::string more_for_;  // the story and step whose text `more_` unfolded
  std::string answer_shown_for_;  // the story and step whose answer the panel scrolled to
  int answer_scrolls_left_ = 0;
  bool focus_prediction_ = false;  // see focus_prediction()
  bool field_refused_ = false;     // see set_field_refused()
  // The keyboard pressed the panel's Run: once the answer shows, "Next >" (or the next story) takes the
  // focus (walk 18: the focus vanished with the Run button while the step ran).
  bool focus_after_run_ = false;
  bool focus_next_ = false;
  Placed question_;
  RunClock clock_;          // the seconds the current run has run
  std::string time_left_;   // "about 4 s left" while it runs, else ""
};


}  // namespace attnlab::ui
