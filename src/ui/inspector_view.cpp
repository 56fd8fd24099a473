#include "ui/inspector_view.hpp"

#include <algorithm>

#include "experiments/registry.hpp"
#include "imgui.h"
#include "lab/run_record.hpp"
#include "ui/plot_widget.hpp"
#include "ui/theme.hpp"
#include "ui/wrapped_text.hpp"

namespace attnlab::ui {

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
    if (!results_.heatmaps.empty()) {  // the toy model's inspector has plots only
      ImGui::SameLine();
      ImGui::Checkbox("sqrt colour scale", &sqrt_scale_);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("Colours follow the square root of the value: small weights show.");
    }
  }
  if (!error_.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, theme().error);
    ImGui::TextWrapped("%s", error_.c_str());
    ImGui::PopStyleColor();
    return;
  }
  for (const auto& note : results_.notes) text_wrapped_at_spaces(note, note_colour(note));

  // In the order the experiment returns them (Experiment::inspect): heatmaps two to a row; an odd
  // last one, narrower, beside the first plot; then the other plots at full width.
  const std::size_t heatmaps = results_.heatmaps.size(), paired = heatmaps - heatmaps % 2;
  const std::vector<Plot>& plots = results_.plots;
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  const float half = (ImGui::GetContentRegionAvail().x - spacing) * 0.5f;
  const float side = std::min(half, std::max(em * 12.0f, ImGui::GetContentRegionAvail().y * 0.45f));
  for (std::size_t k = 0; k < paired; ++k) {
    ImGui::BeginGroup();
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + half);  // captions wrap: the pair stays side by side
    heatmaps_.draw(static_cast<int>(k), results_.heatmaps[k], version_, ImVec2(half, side), sqrt_scale_);
    ImGui::PopTextWrapPos();
    ImGui::EndGroup();
    if (k % 2 == 0) ImGui::SameLine(0.0f, spacing);
  }
  const float row_height = em * 16.0f;
  std::size_t plot = 0;
  if (paired < heatmaps) {
    ImGui::BeginGroup();
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + half * 0.6f);
    heatmaps_.draw(static_cast<int>(paired), results_.heatmaps[paired], version_,
                   ImVec2(half * 0.6f, row_height - em * 2.6f), sqrt_scale_);
    ImGui::PopTextWrapPos();
    ImGui::EndGroup();
    if (!plots.empty()) {
      ImGui::SameLine();
      ImGui::BeginChild("first plot", ImVec2(0, row_height), false, ImGuiWindowFlags_NoScrollbar);
      draw_plot("plot0", plots[0], row_height - em * 0.5f);
      ImGui::EndChild();
      plot = 1;
    }
  }
  for (; plot < plots.size(); ++plot) draw_plot(("plot" + std::to_string(plot)).c_str(), plots[plot], row_height);
}

}  // namespace attnlab::ui
