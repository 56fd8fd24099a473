// A heatmap as a standalone SVG figure for slides and papers: the title, the matrix (an embedded
// PNG of the cells, drawn pixel-sharp), its axis labels, a colour bar with ticks on the heatmap's
// own scale (the page's common scale) and viridis colours as the page's shader draws them, marked
// cells ringed with their labels, paths as polylines with a legend.
#pragma once
#include <string>

#include "lab/results.hpp"

namespace attnlab {

// The whole file (XML declaration included). `gamma` as in heatmap_rgba (0.5: the inspector's
// square-root colour scale; the colour bar follows it and the caption says so). Elements tests and
// readers can find: <text id="title">, <image id="matrix">, <g id="colour-bar"> holding the bar's
// <rect class="colour-band">s and <text class="colour-bar-label">s, <g class="mark">, <path class="path">.
// Throws std::invalid_argument for a heatmap without cells.
std::string heatmap_to_svg(const Heatmap& h, double gamma = 1.0);

}  // namespace attnlab
