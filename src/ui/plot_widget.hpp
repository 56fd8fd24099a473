// The project's plot widget, drawn with ImDrawList: axes and ticks, linear or log scales,
// several series with a legend, error bars, reference curves and a hover read-out of exact values.
// Axis ranges and ticks come from lab/plot_ticks (shared with the SVG export).
#pragma once
#include <string>

#include "lab/results.hpp"

namespace attnlab::ui {

struct PlotOptions {
  // When above 0: the plot grows taller than `height` until its data area is this many lines tall
  // beside its heading and legend rows (a narrow frame wraps a long heading and legend).
  float min_data_lines = 0.0f;
  // When not empty: an empty frame of a plot the run has not drawn yet (docs/design.md "The picture
  // before a run"): its heading, axis labels and legend, no ticks, no data, and this note inside.
  std::string pending;
};

// Draws `plot` into a region of the current window `height` pixels tall (full width).
// Non-finite points are skipped (never drawn as a curve).
void draw_plot(const char* id, const Plot& plot, float height, const PlotOptions& options = {});

}  // namespace attnlab::ui
