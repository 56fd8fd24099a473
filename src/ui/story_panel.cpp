#include "ui/story_panel.hpp"

#include <algorithm>
#include <cstdio>

#include "imgui.h"
#include "lab/run_record.hpp"
#include "ui/theme.hpp"
#include "ui/wrapped_text.hpp"

namespace attnlab::ui {

void StoryPanel::open(const Story& story, std::size_t step) {
  if (story_ != &story || step_ != step) choice_ = -1, number_given_ = false;
  story_ = &story;
  step_ = std::min(step, story.steps.size() - 1);
}

StoryPanel::Action StoryPanel::draw_navigation(bool embedded) {
  Action action = Action::None;
  if (!embedded) {
    if (ImGui::Button("Attention Lab")) action = Action::Home;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("The start page: the four papers and their stories.");
    ImGui::SameLine();
  }
  ImGui::AlignTextToFramePadding();
  const int k = static_cast<int>(step_) + 1, n = static_cast<int>(story_->steps.size());
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme().heading), "Step %d of %d", k, n);
  ImGui::SameLine();
  ImGui::BeginDisabled(step_ == 0);
  if (ImGui::Button("< Back")) action = Action::Back;
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::BeginDisabled(step_ + 1 >= story_->steps.size());
  if (ImGui::Button("Next >")) action = Action::Next;
  ImGui::EndDisabled();
  if (!embedded) {
    ImGui::SameLine();
    if (ImGui::Button("Free lab")) action = Action::FreeLab;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("This step's experiment with every control: presets, all parameters.");
  }
  return action;
}

std::string StoryPanel::predict(double value) {
  if (!step().prediction) return "story: this step asks for no prediction";
  const StoryPrediction& p = *step().prediction;
  if (p.choices.empty()) {
    if (!(value >= p.min && value <= p.max))
      return "story: a prediction in [" + format_number(p.min) + ", " + format_number(p.max) + "] is expected";
    number_ = value, number_given_ = true;
    return "";
  }
  if (!(value >= 0 && value < static_cast<double>(p.choices.size())) || value != static_cast<double>(static_cast<int>(value)))
    return "story: a choice in [0, " + std::to_string(p.choices.size() - 1) + "] is expected";
  choice_ = static_cast<int>(value);
  return "";
}

std::string StoryPanel::measured_text(const Results& results) const {
  const StoryPrediction& p = *step().prediction;
  const std::optional<double> value = read_cell(results.table, p.measured);
  if (!value) return "";
  std::string out = p.measured_label + ": " + format_measured(p, *value);
  const int answer = matching_choice(p, *value);
  if (!p.choices.empty() && answer >= 0) out += ". Answer: " + p.choices[static_cast<std::size_t>(answer)].label;
  return out;
}

void StoryPanel::draw(const Results& results, bool done) {
  const StoryStep& s = step();
  text_wrapped_at_spaces(story_->paper, ImGui::GetColorU32(ImGuiCol_TextDisabled));
  text_wrapped_at_spaces(s.title, theme().heading);
  ImGui::Spacing();
  text_wrapped_at_spaces(s.text);
  ImGui::Spacing();
  text_wrapped_at_spaces("Question: " + s.question, theme().heading);
  if (!s.prediction) return;
  const StoryPrediction& p = *s.prediction;
  ImGui::Separator();
  text_wrapped_at_spaces(p.question, theme().warning);
  ImGui::BeginDisabled(done);  // the prediction is made before the run
  if (p.choices.empty()) {
    float typed = static_cast<float>(number_);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8.0f);
    if (ImGui::SliderFloat("##prediction", &typed, static_cast<float>(p.min), static_cast<float>(p.max),
                           p.percent ? "%.1f %%" : "%.3g"))
      number_ = typed, number_given_ = true;
  } else {
    for (std::size_t i = 0; i < p.choices.size(); ++i)
      if (ImGui::RadioButton(p.choices[i].label.c_str(), choice_ == static_cast<int>(i))) choice_ = static_cast<int>(i);
  }
  ImGui::EndDisabled();
  if (!done) {
    ImGui::TextDisabled(predicted() ? "Now press Run." : "Pick your answer, then press Run.");
    return;
  }
  const std::string measured = measured_text(results);
  const std::string mine = !predicted()          ? "no prediction"
                           : p.choices.empty()   ? format_measured(p, p.percent ? number_ / 100.0 : number_)
                                                 : p.choices[static_cast<std::size_t>(choice_)].label;
  const std::optional<double> value = read_cell(results.table, p.measured);
  const bool right = value && !p.choices.empty() && matching_choice(p, *value) == choice_;
  text_wrapped_at_spaces("Your prediction: " + mine, right ? theme().ok : theme().text);
  text_wrapped_at_spaces("The run: " + measured, right ? theme().ok : theme().warning);
}

std::string StoryPanel::json(const Results& results, bool done) const {
  std::string out = "{\"story\":" + json_escape(story_->id) + ",\"step\":" + std::to_string(step_ + 1) +
                    ",\"steps\":" + std::to_string(story_->steps.size()) + ",\"title\":" + json_escape(step().title) +
                    ",\"prediction\":";
  if (!step().prediction) return out + "null}";
  const StoryPrediction& p = *step().prediction;
  out += "{\"question\":" + json_escape(p.question) + ",\"choices\":[";
  for (std::size_t i = 0; i < p.choices.size(); ++i) out += (i ? "," : "") + json_escape(p.choices[i].label);
  out += "],\"predicted\":";
  out += !predicted() ? "null" : p.choices.empty() ? format_number(number_) : std::to_string(choice_);
  return out + ",\"measured\":" + json_escape(done ? measured_text(results) : "") + "}}";
}

}  // namespace attnlab::ui
