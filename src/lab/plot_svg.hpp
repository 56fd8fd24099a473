// A plot as a standalone SVG figure for print: white background, dark text, the page's series
// looks (lab/palette.hpp), and the same axes, ticks, series styles, error bars and legend as the
// plot widget.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "lab/plot_looks.hpp"
#include "lab/results.hpp"
#include "lab/svg_text.hpp"

namespace attnlab {

// The whole file (XML declaration included), `width` x `height` user units. Each series is one
// <path class="series" data-name="NAME"> (several M..L runs when non-finite points break it; a Bars
// series is one path of closed rectangles; a series drawn as marks has moves only, drawing no line); markers and error bars sit in their own groups.
// Non-finite points are skipped, never written.
std::string plot_to_svg(const Plot& plot, int width = 640, int height = 400);

// The plot's elements for a w x h box at the origin (no <svg> around them), for figures of several
// panels; `id` makes the clip path's id unique in the document. Without `legend` the data area
// takes the legend's rows too (a multi-panel figure draws one legend for all).
std::string plot_svg_body(const Plot& plot, double w, double h, const std::string& id, bool legend = true);

// One legend entry (<g class="legend-entry">: the sample line with the series' dash and marker, or
// a bar swatch, then the legend text: `lines`, as the legend's layout wrapped it, else one line)
// for series `s`, drawn as `look`, with its top-left at (x, y).
std::string legend_entry_svg(const Series& s, const SeriesDrawing& look, double x, double y,
                             const std::vector<std::string>& lines = {});
// The drawings of a legend's entries shown without a plot (a multi-panel figure's shared legend):
// as series_drawings gives them for a plot of those series.
std::vector<SeriesDrawing> legend_drawings(const std::vector<Series>& entries);

// The XML declaration, the <svg> root (w x h user units, `font` px text) with its <title> and a
// white background; the caller closes it with "</svg>\n".
std::string svg_document_start(double w, double h, double font, const std::string& title);

}  // namespace attnlab
