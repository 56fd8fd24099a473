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
// A tooltip of `text` wrapped at spaces to at most 28 em, and never wider than the screen: a
// glossary definition is a sentence or two, which one unwrapped line ran off the canvas's edge.
void wrapped_tooltip(const std::string& text);
// The width of `text` in the current font, in pixels: the one measure the page's wrapping (lab/text.hpp
// wrap_lines) is given (one function, not a lambda per caller: each made its own copy of the code).
double text_width(const std::string& text);

}  // namespace attnlab::ui
