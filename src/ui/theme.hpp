// Colours of the page: one place, so plots, notes and controls agree, in each of the three themes
// (dark, light, high contrast).
#pragma once
#include <string>
#include <cstddef>

#include "imgui.h"
#include "lab/embed_options.hpp"

namespace attnlab::ui {

struct Theme {
  ImU32 text, text_dim, axis, grid, plot_background, reference;
  ImU32 ok, warning, error, heading;  // notes: "OK:", "Warning:", "FAILS:" and errors; preset titles
};

const Theme& theme();
ImU32 series_colour(std::size_t index);  // colour-blind-safe palette (Okabe-Ito)
// The colour of a note by its opening word: "OK: ", "FAILS: ", "Warning: ", "Ours: " (a step that is
// not the paper's); 0 (the text colour) otherwise.
ImU32 note_colour(const std::string& note);
// Switches the page's colours (ImGui's and theme()'s); Default means dark.
void apply_theme(ThemeChoice choice);
void apply_imgui_style(float dpi_scale);

}  // namespace attnlab::ui
