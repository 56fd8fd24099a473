#include "ui/inspector_view.hpp"

#include <algorithm>

#include "experiments/registry.hpp"
#include "imgui.h"
#include "lab/run_record.hpp"
#include "ui/plot_widget.hpp"
#include "ui/theme.hpp"
#include "ui/wrapped_text.hpp"

namespace attnlab::ui {

bool InspectorView::available(const Experiment& e) {
  // Presets and defaults of an experiment with an inspector always yield points after reset.
  auto probe = make_experiment(e.info().id);
  probe->reset(probe->schema().defaults(), 1);
  return !probe->inspector_points().empty();
}

void InspectorView::select(int point, int trial) {
  point_ = std::max(0, point);
  trial_ = std::max(0, trial);
}

void InspectorView::recompute(const Experiment& current, const Params& params, const std::string& preset,
                              std::uint64_t seed) {
  const bool same_run = experiment_ && experiment_->info().id == current.info().id && params_ == params &&
                        seed_ == seed && preset_ == preset;
  if (same_run && computed_point_ == point_ && computed_trial_ == trial_) return;
  error_.clear();
  try {
    if (!same_run) {
      experiment_ = make_experiment(current.info().id);
      experiment_->reset(params, seed);
      params_ = params;
      preset_ = preset;
      seed_ = seed;
      point_labels_ = experiment_->inspector_points();
    }
    computed_point_ = point_;
    computed_trial_ = trial_;
    const RunRecord record = make_inspection_record(*experiment_, params_, preset_, seed_,
                                                    static_cast<std::size_t>(point_), trial_);
    results_ = record.results;
    json_ = to_json(record);
  } catch (const std::exception& e) {
    error_ = e.what();
    results_ = Results{};
    json_ = "{}";
  }
  ++version_;
}

void InspectorView::draw(const Experiment& current, const Params& params, const std::string& preset,
                         std::uint64_t seed) {
  recompute(current, params, preset, seed);
  const float em = ImGui::GetFontSize();
  if (!point_labels_.empty()) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("sweep point");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(em * 9.0f);
    const int shown = std::min(point_, static_cast<int>(point_labels_.size()) - 1);
    if (ImGui::BeginCombo("##point", point_labels_[static_cast<std::size_t>(shown)].c_str())) {
      for (std::size_t i = 0; i < point_labels_.size(); ++i)
        if (ImGui::Selectable(point_labels_[i].c_str(), static_cast<int>(i) == point_)) point_ = static_cast<int>(i);
      ImGui::EndCombo();
    }
    ImGui::SameLine();
    ImGui::TextUnformatted("trial");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(em * 7.0f);
    int trial = trial_;
    if (ImGui::InputInt("##trial", &trial)) trial_ = std::max(0, trial);
    ImGui::SameLine();
    ImGui::Checkbox("sqrt colour scale", &sqrt_scale_);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Colours follow the square root of the value: small weights show.");
  }
  if (!error_.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, theme().error);
    ImGui::TextWrapped("%s", error_.c_str());
    ImGui::PopStyleColor();
    return;
  }
  for (const auto& note : results_.notes) text_wrapped_at_spaces(note);

  // The attention matrices two by two (softmax | linear for D1, then D0), then A beside the
  // planted row, then the margins. results_.heatmaps: A first, then the four attention maps.
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  const float half = (ImGui::GetContentRegionAvail().x - spacing) * 0.5f;
  const float side = std::min(half, std::max(em * 12.0f, ImGui::GetContentRegionAvail().y * 0.45f));
  for (std::size_t k = 1; k < results_.heatmaps.size(); ++k) {
    ImGui::BeginGroup();
    heatmaps_.draw(static_cast<int>(k), results_.heatmaps[k], version_, ImVec2(half, side), sqrt_scale_);
    ImGui::EndGroup();
    if (k % 2 == 1) ImGui::SameLine();
  }
  const float row_height = em * 16.0f;
  if (!results_.heatmaps.empty()) {
    ImGui::BeginChild("matrix A", ImVec2(half * 0.6f, row_height), false, ImGuiWindowFlags_NoScrollbar);
    heatmaps_.draw(0, results_.heatmaps[0], version_, ImVec2(half * 0.6f, row_height - em * 2.6f), sqrt_scale_);
    ImGui::EndChild();
    ImGui::SameLine();
  }
  ImGui::BeginChild("planted row", ImVec2(0, row_height), false, ImGuiWindowFlags_NoScrollbar);
  if (results_.plots.size() > 1) draw_plot("row", results_.plots[1], row_height - em * 0.5f);
  ImGui::EndChild();
  if (!results_.plots.empty()) draw_plot("margins", results_.plots[0], em * 16.0f);
}

}  // namespace attnlab::ui
