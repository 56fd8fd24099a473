#include "ui/start_page.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>

#include "experiments/registry.hpp"
#include "experiments/stories.hpp"
#include "imgui.h"
#include "ui/plot_widget.hpp"
#include "ui/theme.hpp"
#include "ui/wrapped_text.hpp"

namespace attnlab::ui {

namespace {
constexpr int kCardMapSlot = 1000;  // the cards' texture slots, apart from the results' maps
}

void StartPage::compute() {
  if (pictures_.size() >= stories().size()) return;
  const Story& s = stories()[pictures_.size()];
  Results picture;
  std::string error;
  try {
    auto e = make_experiment(s.figure.experiment);
    picture = e->inputs(e->make_params(s.figure.preset, s.figure.params), s.figure.seed);
  } catch (const std::exception& ex) {
    error = ex.what();
  }
  pictures_.push_back(std::move(picture));
  errors_.push_back(std::move(error));
}

unsigned StartPage::version() const { return static_cast<unsigned>(pictures_.size()); }

std::string StartPage::json() const {
  nlohmann::ordered_json cards = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < stories().size(); ++i)
    cards.push_back({{"story", stories()[i].id}, {"fraction", i < pictures_.size() ? 1.0 : 0.0}});
  return nlohmann::ordered_json{{"cards", cards}}.dump();
}

StartPage::Choice StartPage::draw(HeatmapWidget& maps) {
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
    // The picture of the inputs: its first plot, else its first map.
    const Results* picture = i < pictures_.size() ? &pictures_[i] : nullptr;
    const float height = em * 13.0f;
    if (picture && !picture->plots.empty()) {
      draw_plot(("card" + std::to_string(i)).c_str(), picture->plots.front(), height);
    } else if (picture && !picture->heatmaps.empty()) {
      maps.draw(kCardMapSlot + static_cast<int>(i), picture->heatmaps.front(), 1u,
                ImVec2(ImGui::GetContentRegionAvail().x, height), false);
    } else {
      ImGui::Dummy(ImVec2(0.0f, height - ImGui::GetStyle().ItemSpacing.y));
      const ImVec2 at = ImGui::GetItemRectMin();
      ImGui::GetWindowDrawList()->AddText(ImVec2(at.x + em, at.y + em * 6.0f), theme().text_dim,
                                          picture && !errors_[i].empty() ? errors_[i].c_str() : "Drawing the inputs...");
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
