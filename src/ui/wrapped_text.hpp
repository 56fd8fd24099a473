// Text wrapped at spaces only. ImGui 1.86 also breaks after '.', which splits numbers ("0.⏎0444")
// and identifiers ("arXiv 2305.⏎00660"); notes and descriptions are full of both.
#pragma once
#include <string>

#include "imgui.h"

namespace attnlab::ui {

// Draws `text` in lines no wider than the space left in the window, in `colour` (0: the text colour).
void text_wrapped_at_spaces(const std::string& text, ImU32 colour = 0);
// `text` broken into lines ('\n') no wider than `width` pixels, and the drawing of such lines.
std::string wrap_at_spaces(const std::string& text, float width);
void text_unformatted(const std::string& text, ImU32 colour = 0);

}  // namespace attnlab::ui
