#include "ui/story_panel.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include "imgui.h"
#include "lab/run_record.hpp"
#include "ui/theme.hpp"
#include "ui/wrapped_text.hpp"

namespace attnlab::ui {

std::pair<std::string, std::string> fold_text(const std::string& text, int words) {
  int count = 0;
  std::size_t cut = std::string::npos;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const bool word_end = text[i] != ' ' && (i + 1 == text.size() || text[i + 1] == ' ');
    if (!word_end) continue;
    if (++count > words) break;
    // A sentence ends at '.', '?' or '!' followed by a space (not "Fig. 4", "e.g. ": a capital follows).
    const bool sentence = (text[i] == '.' || text[i] == '?' || text[i] == '!') && i + 2 < text.size() &&
                          std::isupper(static_cast<unsigned char>(text[i + 2]));
    if (sentence) cut = i + 1;
  }
  if (count <= words || cut == std::string::npos) return {text, ""};
  return {text.substr(0, cut), text.substr(cut + 1)};
}

void StoryPanel::open(const Story& story, std::size_t step) {
  if (story_ != &story || step_ != step) choice_ = -1, number_given_ = false, more_ = false;
  story_ = &story;
  step_ = std::min(step, story.steps.size() - 1);
}

StoryPanel::Action StoryPanel::draw_navigation(bool embedded) {
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
  if (!embedded) {
    if (ImGui::Button("Attention Lab")) action = Action::Home;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("The start page: every paper and its story.");
    beside(ImGui::CalcTextSize("Step 10 of 10").x);
  }
  ImGui::AlignTextToFramePadding();
  const int k = static_cast<int>(step_) + 1, n = static_cast<int>(story_->steps.size());
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme().heading), "Step %d of %d", k, n);
  beside(button_width("< Back") + button_width("Next >") + ImGui::GetStyle().ItemSpacing.x);
  ImGui::BeginDisabled(step_ == 0);
  if (ImGui::Button("< Back")) action = Action::Back;
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::BeginDisabled(step_ + 1 >= story_->steps.size());
  if (ImGui::Button("Next >")) action = Action::Next;
  ImGui::EndDisabled();
  if (!embedded) {
    beside(button_width("Free lab"));
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
  const std::optional<double> value = prediction_value(step(), results);
  if (!value) return "";
  std::string out = p.measured_label + ": " + format_measured(p, *value);
  const int answer = matching_choice(p, *value);
  if (!p.choices.empty() && answer >= 0) out += ". Answer: " + p.choices[static_cast<std::size_t>(answer)].label;
  return out;
}

StoryPanel::Action StoryPanel::draw(const Results& results, bool done, const std::string& next_story_title,
                                    const RunSettings& settings) {
  const StoryStep& s = step();
  text_wrapped_at_spaces(story_->paper, ImGui::GetColorU32(ImGuiCol_TextDisabled));
  text_wrapped_at_spaces(s.title, theme().heading);
  ImGui::Spacing();
  const auto [shown, folded] = fold_text(s.text, kWordsBeforeMore);
  text_wrapped_at_spaces(shown);
  if (!folded.empty()) {
    if (more_) text_wrapped_at_spaces(folded);
    if (ImGui::SmallButton(more_ ? "Less" : "More")) more_ = !more_;
  }
  if (!s.plot.empty()) text_wrapped_at_spaces("Look first at the plot '" + s.plot + "' in the results.",
                                               ImGui::GetColorU32(ImGuiCol_TextDisabled));
  ImGui::Spacing();
  text_wrapped_at_spaces("Question: " + s.question, theme().heading);
  if (s.prediction) draw_prediction(results, done);
  if (!done) return Action::None;
  if (const std::string answer = render_answer(s, results, settings); !answer.empty()) {
    ImGui::Spacing();
    text_wrapped_at_spaces(answer);
  }
  if (step_ + 1 < story_->steps.size()) return Action::None;
  ImGui::Separator();
  text_wrapped_at_spaces("What you saw", theme().heading);
  text_wrapped_at_spaces(render_summary(*story_, results, settings));
  const std::string label = next_story_title.empty() ? "Back to the start page" : "Next story: " + next_story_title;
  return ImGui::Button(label.c_str()) ? Action::NextStory : Action::None;
}

void StoryPanel::draw_prediction(const Results& results, bool done) {
  const StoryPrediction& p = *step().prediction;
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
  const std::optional<double> value = prediction_value(step(), results);
  const bool right = value && !p.choices.empty() && matching_choice(p, *value) == choice_;
  text_wrapped_at_spaces("Your prediction: " + mine, right ? theme().ok : theme().text);
  text_wrapped_at_spaces("The run: " + measured, right ? theme().ok : theme().warning);
}

std::string StoryPanel::json(const Results& results, bool done, const RunSettings& settings) const {
  const bool last = step_ + 1 == story_->steps.size();
  std::string out = "{\"story\":" + json_escape(story_->id) + ",\"step\":" + std::to_string(step_ + 1) +
                    ",\"steps\":" + std::to_string(story_->steps.size()) + ",\"title\":" + json_escape(step().title) +
                    ",\"text\":" + json_escape(step().text) + ",\"question\":" + json_escape(step().question) +
                    ",\"answer\":" + json_escape(done ? render_answer(step(), results, settings) : "") +
                    ",\"summary\":" + json_escape(done && last ? render_summary(*story_, results, settings) : "") + ",\"prediction\":";
  if (!step().prediction) return out + "null}";
  const StoryPrediction& p = *step().prediction;
  out += "{\"question\":" + json_escape(p.question) + ",\"choices\":[";
  for (std::size_t i = 0; i < p.choices.size(); ++i) out += (i ? "," : "") + json_escape(p.choices[i].label);
  out += "],\"predicted\":";
  out += !predicted() ? "null" : p.choices.empty() ? format_number(number_) : std::to_string(choice_);
  return out + ",\"measured\":" + json_escape(done ? measured_text(results) : "") + "}}";
}

}  // namespace attnlab::ui
