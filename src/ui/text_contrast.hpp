// The contrast of every text the canvas draws, read from ImGui's draw data (docs/design.md,
// "Contrast on the canvas"): each run of glyphs with its colour, the colour composited behind it
// (every filled shape drawn before it, blended in order over the clear colour) and the theme roles
// whose colour it is. Tests compare these with screenshot pixels and the WCAG ratio.
#pragma once
#include <string>
#include <vector>

#include "imgui.h"

namespace attnlab::ui {

struct TextRun {
  std::string text;        // the glyphs' code points (a space where a gap is wider than a third of an em)
  ImVec2 lo, hi;           // the glyph quads' box, clipped, in the canvas's CSS pixels
  ImU32 colour = 0;        // as drawn, with its alpha
  ImU32 shown = 0;         // the colour blended over the background (opaque)
  ImU32 background = 0;    // behind the glyph of least contrast (opaque)
  bool over_image = false; // an image (a heatmap) lies behind some glyph: the background is the image's
  float font_px = 0.0f;    // the font's size in CSS pixels
};

// The runs of the last frame drawn (ImGui::GetDrawData()), in draw order; `clear` is the colour the
// frame was cleared with.
std::vector<TextRun> text_runs(const ImDrawData& draw, ImU32 clear);

// [{"text", "x", "y", "w", "h", "colour" ("#rrggbbaa", as drawn), "shown" and "background"
// ("#rrggbb"), "overImage", "roles" (the theme's names for the colour, "" if none), "fontPx"}].
std::string text_runs_json(const std::vector<TextRun>& runs);

}  // namespace attnlab::ui
