#include "ui/start_page.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>

#include "experiments/registry.hpp"
#include "experiments/stories.hpp"
#include "imgui.h"
#include "lab/run_record.hpp"
#include "ui/plot_widget.hpp"
#include "ui/theme.hpp"
#include "ui/wrapped_text.hpp"

namespace attnlab::ui {

namespace {
constexpr double kFigureBudget = 20.0;  // seconds; the figures' settings take well under one
}

void StartPage::start_figures() {
  for (const Story& s : stories()) {
    figures_.emplace_back();
    auto e = make_experiment(s.figure.experiment);
    figures_.back().start(s.figure.experiment, e->make_params(s.figure.preset, s.figure.params), s.figure.seed,
                          kFigureBudget);
  }
}

void StartPage::compute(double slice_seconds) {
  if (figures_.empty()) start_figures();
  for (PreviewRun& f : figures_)  // one at a time, so the first card fills first
    if (!f.finished() && f.error().empty()) {
      f.advance(slice_seconds);
      return;
    }
}

unsigned StartPage::version() const {
  unsigned v = 0;
  for (const PreviewRun& f : figures_) v = 31 * v + f.version();
  return v;
}

std::string StartPage::json() const {
  nlohmann::ordered_json cards = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < stories().size(); ++i)
    cards.push_back({{"story", stories()[i].id}, {"fraction", i < figures_.size() ? figures_[i].fraction() : 0.0}});
  return nlohmann::ordered_json{{"cards", cards}}.dump();
}

StartPage::Choice StartPage::draw() {
  Choice choice;
  const float em = ImGui::GetFontSize();
  ImGui::SetWindowFontScale(1.5f);
  ImGui::TextUnformatted("Attention Lab");
  ImGui::SetWindowFontScale(1.0f);
  text_wrapped_at_spaces("Papers on the theory of attention, as experiments that run in your browser. Each "
                         "story walks through one paper in a few steps: what it claims, what to press, what to look "
                         "for.");
  if (ImGui::Button("Free lab: every experiment, every parameter")) choice.free_lab = true;
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("The full lab: %zu experiments, their presets (the papers' figures), links and embeds.",
                      experiment_ids().size());
  ImGui::Spacing();
  // Two cards to a row on a wide screen, one on a phone; rows take the height of their content.
  const int columns = ImGui::GetContentRegionAvail().x > em * 50.0f ? 2 : 1;
  if (!ImGui::BeginTable("papers", columns, ImGuiTableFlags_BordersInner | ImGuiTableFlags_BordersOuter |
                                                ImGuiTableFlags_PadOuterX | ImGuiTableFlags_SizingStretchSame))
    return choice;
  for (std::size_t i = 0; i < stories().size(); ++i) {
    const Story& s = stories()[i];
    ImGui::TableNextColumn();
    ImGui::PushID(static_cast<int>(i));
    ImGui::Spacing();
    text_wrapped_at_spaces(s.paper, theme().heading);
    text_wrapped_at_spaces(s.authors, ImGui::GetColorU32(ImGuiCol_TextDisabled));
    text_wrapped_at_spaces(s.result);
    const PreviewRun* figure = i < figures_.size() ? &figures_[i] : nullptr;
    if (figure && figure->has_results() && s.figure_plot < figure->results().plots.size()) {
      Plot plot = figure->results().plots[s.figure_plot];
      plot.title = figure->finished() ? "Quick run, computed as the page opened"
                                      : "Quick run, computing: " + std::to_string(static_cast<int>(100.0 * figure->fraction())) + "%";
      draw_plot(("card" + std::to_string(i)).c_str(), plot, em * 13.0f);
    } else {
      ImGui::Dummy(ImVec2(0.0f, em * 13.0f - ImGui::GetStyle().ItemSpacing.y));
      const ImVec2 at = ImGui::GetItemRectMin();
      ImGui::GetWindowDrawList()->AddText(ImVec2(at.x + em, at.y + em * 6.0f), theme().text_dim,
                                          figure && !figure->error().empty() ? figure->error().c_str()
                                                                             : "Computing a quick run...");
    }
    text_wrapped_at_spaces(s.figure_caption, ImGui::GetColorU32(ImGuiCol_TextDisabled));
    const std::string label = "Start the story (" + std::to_string(s.steps.size()) + " steps)";
    if (ImGui::Button(label.c_str())) choice.story = s.id;
    ImGui::Spacing();
    ImGui::PopID();
  }
  ImGui::EndTable();
  return choice;
}

}  // namespace attnlab::ui
