// Colours of the page: one place, so plots and controls agree (and themes can switch).
#pragma once
#include <cstddef>

#include "imgui.h"

namespace attnlab::ui {

struct Theme {
  ImU32 text, text_dim, axis, grid, plot_background, reference;
};

const Theme& theme();
ImU32 series_colour(std::size_t index);  // colour-blind-safe palette (Okabe-Ito)
void apply_imgui_style(float dpi_scale);

}  // namespace attnlab::ui
