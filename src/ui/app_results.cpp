// The App's results pane (ui/app.hpp): before the run, the picture of its inputs; then the notes,
// the plots (a story's own plot first) and the heatmaps.
#include <algorithm>

#include "imgui.h"
#include "lab/text.hpp"
#include "page/story_frame.hpp"
#include "ui/app.hpp"
#include "ui/plot_widget.hpp"
#include "ui/theme.hpp"
#include "ui/wrapped_text.hpp"

namespace attnlab::ui {

// [SECTION] Results: notes, plots and heatmaps

void App::draw_notes(const std::vector<std::string>& notes) {
  // Conditions and states: "OK:" green, "FAILS:" and errors red, "Warning:" amber. They take at
  // most a third of the space (then they scroll), so the plots stay in view on small screens.
  // Wrapped once, at the width left beside a scrollbar, for both the height and the drawing.
  const float width = ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ScrollbarSize;
  std::vector<std::string> wrapped;
  float needed = 0.0f;
  for (const auto& note : notes) {
    wrapped.push_back(wrap_at_spaces(note, width));
    const auto lines = std::count(wrapped.back().begin(), wrapped.back().end(), '\n') + 1;
    needed += static_cast<float>(lines) * ImGui::GetFontSize() + ImGui::GetStyle().ItemSpacing.y;
  }
  if (needed <= 0.0f) return;
  const float most = std::max(ImGui::GetFontSize() * 3.5f, ImGui::GetContentRegionAvail().y * 0.33f);
  ImGui::BeginChild("notes", ImVec2(0.0f, std::min(needed, most)), false, ImGuiWindowFlags_NavFlattened);
  for (std::size_t i = 0; i < notes.size(); ++i) {
    text_unformatted(wrapped[i], note_colour(notes[i]));
  }
  ImGui::EndChild();
}

void App::apply_log_switches(Plot& plot) const {
  if (log_x_ && !(plot.x_flags & AxisFlags_Index)) plot.log_x = *log_x_;
  if (log_y_ && !(plot.y_flags & AxisFlags_Index)) plot.log_y = *log_y_;
}

void App::draw_log_switches(const Plot& first) {
  // They show the scale of the plot drawn first (in a story, the one the step names); an index
  // axis (tokens, m) has no log switch: a log of indices means nothing.
  const auto log_switch = [&](const char* label, std::optional<bool>& chosen, bool Plot::*axis) {
    bool on = chosen.value_or(first.*axis);
    if (ImGui::Checkbox(label, &on)) chosen = on;
  };
  const bool x = (first.x_flags & AxisFlags_Index) == 0, y = (first.y_flags & AxisFlags_Index) == 0;
  if (x) log_switch("log x", log_x_, &Plot::log_x);
  if (x && y) ImGui::SameLine();
  if (y) log_switch("log y", log_y_, &Plot::log_y);
}

const Plot* App::story_frame() const {
  if (!link_.in_story() || !showing_inputs() || story_.step().plot.empty()) return nullptr;
  const std::string here = story_.story().id + "#" + std::to_string(story_.step_index());
  if (story_frame_for_ != here) story_frame_ = page::step_frame(story_.step()), story_frame_for_ = here;
  return &story_frame_;
}

void App::draw_sweep_results() {
  // Before the run has results: the picture of its inputs, under a line that says so.
  const bool inputs = showing_inputs();
  const Results& results = inputs ? run_.inputs() : run_.results();
  if (inputs) {
    const char* next = link_.in_story() && story_.awaiting_prediction() ? "Make your prediction, then press Run."
                       : run_.state() == RunState::Running       ? "The run is starting; its results replace this picture."
                                                                 : "Press Run to start; the plots fill in as the run computes.";
    // A story step's named plot first, as an empty frame: what to look at once it runs.
    const float font = ImGui::GetFontSize();
    if (const Plot* frame = story_frame())
      draw_plot("named", *frame, font * 11.0f, PlotOptions{5.0f, page::kDrawnAtRun});
    ImGui::TextWrapped("Before the run: what goes in. %s", next);
    if (results.plots.empty() && results.heatmaps.empty()) return;
  }
  // In a story the plot the step is about comes first, the other plots fold below it when there
  // are more than two, and the notes fold into "Details" (closed); the free lab shows everything.
  const std::string named = link_.in_story() ? story_.step().plot : "";
  const std::vector<std::string> open_too = link_.in_story() ? story_.step().shown_plots : std::vector<std::string>{};
  const std::vector<std::size_t> order = page::plots_in_order(results.plots, named, open_too);
  const std::size_t opened = page::plots_shown_open(results.plots, named, open_too);
  if (!link_.in_story()) draw_notes(results.notes);
  const std::vector<std::size_t> maps = page::maps_in_order(results.heatmaps, named);
  const bool map_first = !maps.empty() && results.heatmaps[maps.front()].title == named;
  const std::size_t shown = link_.in_story() && results.plots.size() > 2 ? std::max<std::size_t>(1, opened) : results.plots.size();
  // The picture of the inputs stays small: it is what goes in, not what to read off.
  const float side = std::min(ImGui::GetContentRegionAvail().x, ImGui::GetFontSize() * (inputs ? 18.0f : 30.0f));
  const auto draw_map = [&](std::size_t i) {
    heatmaps_.draw(static_cast<int>(i), results.heatmaps[i], inputs ? 0x80000000u + run_.inputs_version() : run_.controller().version(),
                   ImVec2(side, side), false);
  };
  if (map_first) draw_map(maps.front());
  // The plots share the height left, but each keeps about 8 lines for its data area beside its
  // heading's and legend's rows (a narrow frame wraps them onto more lines), and then the panel scrolls.
  const float font = ImGui::GetFontSize();
  const float share = ImGui::GetContentRegionAvail().y / static_cast<float>(std::max<std::size_t>(1, shown)) -
                      ImGui::GetStyle().ItemSpacing.y - (shown < results.plots.size() ? 3.0f * font : 0.0f);
  const auto draw_one = [&](std::size_t i, float height) {
    Plot plot = results.plots[i];
    apply_log_switches(plot);
    draw_plot(std::to_string(i).c_str(), plot, height, PlotOptions{7.8f, ""});
  };
  if (!order.empty()) draw_log_switches(results.plots[order.front()]);  // over the plots, not a map
  for (std::size_t k = 0; k < shown; ++k) draw_one(order[k], inputs ? std::min(share, font * 18.0f) : share);
  if (shown < order.size()) {
    const std::string more = "More plots (" + std::to_string(order.size() - shown) + ")";
    if (ImGui::CollapsingHeader(more.c_str()))
      for (std::size_t k = shown; k < order.size(); ++k) draw_one(order[k], font * 16.0f);
  }
  for (std::size_t k = map_first ? 1 : 0; k < maps.size(); ++k) draw_map(maps[k]);
  if (link_.in_story() && !results.notes.empty()) {
    const std::string details = "Details (" + counted(static_cast<long long>(results.notes.size()), "note") + ")";
    if (ImGui::CollapsingHeader(details.c_str()))
      for (const std::string& note : results.notes) text_wrapped_at_spaces(note, note_colour(note));
  }
}

}  // namespace attnlab::ui
