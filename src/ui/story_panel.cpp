#include "ui/story_panel.hpp"

#include "lab/text.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include "imgui.h"
#include "ui/keyboard_focus.hpp"
#include "ui/theme.hpp"
#include "ui/wrapped_text.hpp"

namespace attnlab::ui {


void StoryPanel::draw_marked_text(const std::vector<GlossarySegment>& segments) {
  const float space = ImGui::CalcTextSize(" ").x, width = ImGui::GetContentRegionAvail().x;
  // Its lines as close as a wrapped text's (each word is an item: the item spacing between lines made
  // a marked text taller, and walk 19's marked question cut a phone's controls at the panel's foot).
  ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(ImGui::GetStyle().ItemSpacing.x, 0.0f));
  float x = 0.0f;
  bool space_before = false;
  // Each unit goes beside the last while it fits (with `glued`, the width of what follows it with
  // no space: "(" before a term, "," after one), else on a new line (wrapped at spaces).
  const auto place = [&](const std::string& unit, float glued) {
    const float w = ImGui::CalcTextSize(unit.c_str()).x, gap = space_before ? space : 0.0f;
    if (x > 0.0f && x + gap + w + glued <= width) {
      ImGui::SameLine(0.0f, gap);
      x += gap + w;
    } else {
      x = w;
    }
    space_before = false;
  };
  // The width of the first word of segment k, if it touches the segment before it (no space).
  const auto glued_to = [&](std::size_t k) {
    if (k >= segments.size() || segments[k].text.empty() || segments[k].text[0] == ' ') return 0.0f;
    if (segments[k].term) return ImGui::CalcTextSize(segments[k].text.c_str()).x;
    return ImGui::CalcTextSize(segments[k].text.substr(0, segments[k].text.find(' ')).c_str()).x;
  };
  for (std::size_t k = 0; k < segments.size(); ++k) {
    const GlossarySegment& seg = segments[k];
    if (seg.term) {  // a term stays on one line, underlined in the heading colour
      place(seg.text, glued_to(k + 1));
      ImGui::PushStyleColor(ImGuiCol_Text, theme().heading);
      ImGui::TextUnformatted(seg.text.c_str());
      ImGui::PopStyleColor();
      const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
      ImGui::GetWindowDrawList()->AddLine(ImVec2(lo.x, hi.y), hi, theme().heading);
      if (ImGui::IsItemHovered()) wrapped_tooltip(seg.term->term + ": " + seg.term->definition);
      if (ImGui::IsItemClicked()) pinned_ = pinned_ == seg.term->term ? "" : seg.term->term;
      continue;
    }
    std::size_t from = 0;
    while (from < seg.text.size()) {
      if (seg.text[from] == ' ') {
        space_before = true, ++from;
        continue;
      }
      const std::size_t end = std::min(seg.text.find(' ', from), seg.text.size());
      const std::string word = seg.text.substr(from, end - from);
      place(word, end == seg.text.size() ? glued_to(k + 1) : 0.0f);
      ImGui::TextUnformatted(word.c_str());
      from = end;
    }
  }
  ImGui::PopStyleVar();
  ImGui::Dummy(ImVec2(0.0f, 0.0f));  // the item spacing after the text, as after a wrapped one
}

std::string StoryPanel::plot_hint(const StoryStep& step) {
  return step.plot.empty() ? "" : "Look first at the plot \"" + step.plot + "\" in the results.";
}

std::string StoryPanel::run_hint(const page::StoryState& story, bool done, bool refused) {
  if (done || !story.step().prediction) return "";
  if (refused) return "Correct the value in red first, then press Run.";
  return story.predicted() ? "Now press Run." : "Pick your answer, then press Run.";
}

void StoryPanel::track_run(bool running, double fraction, double now) {
  clock_.update(running, fraction, now);
  time_left_ = running ? time_left_text(fraction, clock_.elapsed()) : "";
}

void StoryPanel::draw_words(const std::vector<const GlossaryEntry*>& used) {
  if (used.empty()) return;
  if (!ImGui::TreeNode("Words in this step")) {
    note_focus("words");
    return;
  }
  note_focus("words");
  for (const GlossaryEntry* g : used) text_wrapped_at_spaces(g->term + ": " + g->definition + " (" + g->source + ")");
  ImGui::TreePop();
}

void StoryPanel::note_focus(const std::string& name) {
  if (ImGui::IsItemFocused()) focused_ = name;
}

StoryPanel::Action StoryPanel::draw_navigation(const page::StoryState& story, bool embedded) {
  // Each item goes beside the last while it fits, else on a new line: a phone (390 px) gets a
  // wrapped toolbar, not buttons cut off at the right edge (as the toolbar's flow() does).
  const auto beside = [](float width) {
    ImGui::SameLine();
    if (ImGui::GetContentRegionAvail().x < width) ImGui::NewLine();
  };
  const auto button_width = [](const char* label) {
    return ImGui::CalcTextSize(label).x + ImGui::GetStyle().FramePadding.x * 2.0f;
  };
  Action action = Action::None;
  focused_.clear();
  if (!embedded) {
    if (ImGui::Button("Attention Lab")) action = Action::Home;
    note_focus("Home");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("The start page: every paper and its story.");
    beside(ImGui::CalcTextSize("Step 10 of 10").x);
  }
  ImGui::AlignTextToFramePadding();
  const int k = static_cast<int>(story.step_index()) + 1, n = static_cast<int>(story.story().steps.size());
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme().heading), "Step %d of %d", k, n);
  beside(button_width("< Back") + button_width("Next >") + ImGui::GetStyle().ItemSpacing.x);
  ImGui::BeginDisabled(story.first_step());
  if (ImGui::Button("< Back")) action = Action::Back;
  note_focus("Back");
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::BeginDisabled(story.last_step());
  if (ImGui::Button("Next >")) action = Action::Next;
  if (focus_next_ && !story.last_step()) take_keyboard_focus(FocusFlags_NoScroll), focus_next_ = false;
  note_focus("Next");
  ImGui::EndDisabled();
  if (!embedded) {
    beside(button_width("Free lab"));
    if (ImGui::Button("Free lab")) action = Action::FreeLab;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("This step's experiment with every control: presets, all parameters.");
  }
  return action;
}

StoryPanel::Action StoryPanel::draw(page::StoryState& story, const Results& results, RunState state,
                                    const std::string& next_story_title, const RunSettings& settings) {
  const StoryStep& s = story.step();
  const bool done = state == RunState::Done;
  focused_.clear();
  const std::string here = story.story().id + "#" + std::to_string(story.step_index());
  if (here != more_for_) more_ = false, pinned_.clear(), more_for_ = here;  // a new step starts folded
  text_wrapped_at_spaces(story.story().paper, ImGui::GetColorU32(ImGuiCol_TextDisabled));
  text_wrapped_at_spaces(s.title, theme().heading);
  ImGui::Spacing();
  const bool short_panel = ImGui::GetWindowHeight() < kShortPanelLines * ImGui::GetTextLineHeightWithSpacing();
  const auto [shown, folded] = fold_text(s.text, short_panel ? kWordsBeforeMoreShort : kWordsBeforeMore);
  std::vector<std::string> marked;  // each term marked once: at its first use in the step
  draw_marked_text(glossary_segments(story.story().glossary, shown, &marked));
  if (!folded.empty()) {
    if (more_) draw_marked_text(glossary_segments(story.story().glossary, folded, &marked));
    if (ImGui::SmallButton(more_ ? "Less" : "More")) more_ = !more_;
  }
  for (const GlossaryEntry& g : story.story().glossary)
    if (g.term == pinned_) text_wrapped_at_spaces(g.term + ": " + g.definition, theme().heading);
  // The answer and the summary once the run is done, rendered once for the words and the text.
  const std::string answer = done ? render_answer(s, results, settings) : "";
  const std::string summary = done && story.last_step() ? render_summary(story.story(), results, settings) : "";
  draw_words(story.words(results, answer, summary));
  if (!s.plot.empty()) text_wrapped_at_spaces(plot_hint(s), ImGui::GetColorU32(ImGuiCol_TextDisabled));
  ImGui::Spacing();
  const ImVec2 top = ImGui::GetCursorScreenPos(), window = ImGui::GetWindowPos();
  question_.w = ImGui::GetContentRegionAvail().x, question_.choice_height = 0, question_.answer_visible = false;
  // The question marks the terms the shown text has not (walk 19: regression 1's "eps0" is first
  // used in its folded text, so the question's was a plain word that no hover explained).
  ImGui::PushStyleColor(ImGuiCol_Text, theme().heading);
  draw_marked_text(glossary_segments(story.story().glossary, "Question: " + s.question, &marked));
  ImGui::PopStyleColor();
  question_.x = top.x, question_.y = top.y, question_.h = ImGui::GetItemRectMax().y - top.y;
  question_.panel_top = window.y, question_.panel_bottom = window.y + ImGui::GetWindowSize().y;
  question_.visible = top.y >= window.y && top.y + question_.h <= window.y + ImGui::GetWindowSize().y;
  const bool run = s.prediction && draw_prediction(story, results, state);
  focus_prediction_ = false;  // taken by the prediction, or nothing to take it
  if (run) {
    focus_after_run_ = keyboard_focus_shown();
    return Action::Run;
  }
  if (done && focus_after_run_) focus_after_run_ = false, focus_next_ = true;
  if (!done) {
    if (!time_left_.empty()) text_wrapped_at_spaces("Running: " + time_left_, ImGui::GetColorU32(ImGuiCol_TextDisabled));
    answer_shown_for_.clear(), answer_scrolls_left_ = 0;
    return Action::None;
  }
  if (!answer.empty()) {
    ImGui::Spacing();
    // The first frames of an answer scroll the panel to it: on a phone it is below the fold.
    if (answer_shown_for_ != here) answer_shown_for_ = here, answer_scrolls_left_ = kAnswerScrollFrames;
    if (answer_scrolls_left_ > 0) ImGui::SetScrollHereY(0.2f), --answer_scrolls_left_;
    const float answer_top = ImGui::GetCursorScreenPos().y;
    // Its terms are marked where it first uses them, as the step's text marks its own (walk 15:
    // "condition number" in regression 1's answer was explained only in the words' list).
    draw_marked_text(glossary_segments(story.story().glossary, answer));
    question_.answer_visible = answer_top >= window.y && answer_top + ImGui::GetTextLineHeight() <= window.y + ImGui::GetWindowSize().y;
  }
  if (!settings_changed(settings).empty()) {
    const bool back = ImGui::Button("Use the step's settings");
    note_focus("step-settings");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Runs can then be compared with the step's answer; your prediction is kept.");
    if (back) return Action::StepSettings;
  }
  if (!story.last_step()) return Action::None;
  ImGui::Separator();
  text_wrapped_at_spaces(page::kSummaryHeading, theme().heading);
  draw_marked_text(glossary_segments(story.story().glossary, summary));
  // A long paper title wraps onto more lines inside the button, never cut at the panel's edge.
  const std::string label = next_story_title.empty() ? "Back to the start page" : "Next story: " + next_story_title;
  const float inside = ImGui::GetContentRegionAvail().x - 2.0f * ImGui::GetStyle().FramePadding.x;
  const bool next = ImGui::Button((wrap_at_spaces(label, inside) + "##next-story").c_str());
  if (focus_next_) take_keyboard_focus(FocusFlags_NoScroll), focus_next_ = false;
  note_focus("next-story");
  return next ? Action::NextStory : Action::None;
}

bool StoryPanel::draw_prediction(page::StoryState& story, const Results& results, RunState state) {
  const StoryPrediction& p = *story.step().prediction;
  const bool done = state == RunState::Done;
  const auto first_control = [&] {  // the request is cleared by draw(), taken or not
    if (focus_prediction_ && !done) take_keyboard_focus();
  };
  ImGui::Separator();
  text_wrapped_at_spaces(p.question, theme().warning);
  ImGui::BeginDisabled(done);  // the prediction is made before the run
  if (p.choices.empty()) {
    float typed = static_cast<float>(story.number());
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8.0f);
    if (ImGui::SliderFloat("##prediction", &typed, static_cast<float>(p.min), static_cast<float>(p.max),
                           p.percent ? "%.1f %%" : "%.3g"))
      story.predict(std::clamp(static_cast<double>(typed), p.min, p.max));
    first_control();
    note_focus("prediction");
  } else {
    // Each choice's target (its circle and label) at least kTargetPx high.
    const ImVec2 pad = ImGui::GetStyle().FramePadding;
    ImGui::PushStyleVar(ImGuiStyleVar_FramePadding,
                        ImVec2(pad.x, std::max(pad.y, 0.5f * (kTargetPx - ImGui::GetFontSize()))));
    question_.choice_height = kTargetPx * 2.0f;
    for (std::size_t i = 0; i < p.choices.size(); ++i) {
      if (ImGui::RadioButton(p.choices[i].label.c_str(), story.choice() == static_cast<int>(i)))
        story.predict(static_cast<double>(i));
      if (i == 0) first_control();
      question_.choice_height = std::min(question_.choice_height, ImGui::GetItemRectSize().y);
      note_focus("choice:" + std::to_string(i));
    }
    ImGui::PopStyleVar();
  }
  ImGui::EndDisabled();
  if (!done) {
    const std::string hint = run_hint(story, done, field_refused_);
    // While it runs, no hint (walk 19: "Now press Run." stayed under a running step); the time left
    // follows below, and the toolbar pauses.
    if (state == RunState::Running || state == RunState::Paused) return false;
    // Run, and the hint beside it where it fits (a phone's panel has no line to spare).
    ImGui::BeginDisabled(!story.predicted() || field_refused_);
    const bool run = ImGui::Button("Run##step");
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
      ImGui::SetTooltip("%s", field_refused_        ? "Correct the value in red first."
                              : story.predicted() ? "Run the step's experiment."
                                                  : "Pick your answer first.");
    note_focus("step-run");
    ImGui::SameLine();
    if (ImGui::GetContentRegionAvail().x < ImGui::CalcTextSize(hint.c_str()).x) ImGui::NewLine();
    ImGui::AlignTextToFramePadding();
    ImGui::TextDisabled("%s", hint.c_str());
    return run;
  }
  const bool right = story.prediction_right(results);
  text_wrapped_at_spaces("Your prediction: " + story.prediction_text(), right ? theme().ok : theme().text);
  text_wrapped_at_spaces("The run: " + story.measured_text(results), right ? theme().ok : theme().warning);
  return false;
}

}  // namespace attnlab::ui
