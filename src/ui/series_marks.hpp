// Drawing a series' look (lab/palette.hpp: dash pattern, marker shape) with ImDrawList: shared by
// the plot widget and the heatmap widget's paths, as the SVG exports draw them.
#pragma once
#include "imgui.h"
#include "lab/palette.hpp"

namespace attnlab::ui {

// A segment from a to b in the pattern `dash` (solid when dash.solid()). `phase` is how far along
// the pattern the segment starts; returns the phase at b, so dashes run on smoothly along a curve.
float dashed_line(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 c, float thick, Dash dash, float phase);

// A filled marker of shape `m` centred at p.
void draw_marker(ImDrawList* dl, Marker m, ImVec2 p, float radius, ImU32 c);

}  // namespace attnlab::ui
