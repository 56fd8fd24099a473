// The project's plot widget, drawn with ImDrawList: axes and ticks, linear or log scales,
// several series with a legend, error bars, reference curves and a hover read-out of exact values.
// Axis ranges and ticks come from lab/plot_ticks (shared with the SVG export).
#pragma once
#include "lab/results.hpp"

namespace attnlab::ui {

// Draws `plot` into a region of the current window `height` pixels tall (full width).
// Non-finite points are skipped (never drawn as a curve).
void draw_plot(const char* id, const Plot& plot, float height);

}  // namespace attnlab::ui
