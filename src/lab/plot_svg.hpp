// A plot as a standalone SVG figure for print: white background, dark text, the page's series
// colours, and the same axes, ticks, series styles, error bars and legend as the plot widget.
#pragma once
#include <string>

#include "lab/results.hpp"

namespace attnlab {

// The whole file (XML declaration included), `width` x `height` user units. Each series is one
// <path class="series" data-name="NAME"> (several M..L runs when non-finite points break it; a Bars
// series is one path of closed rectangles); markers and error bars sit in their own groups.
// Non-finite points are skipped, never written.
std::string plot_to_svg(const Plot& plot, int width = 640, int height = 400);

// `text` safe inside XML content and attribute values (& < > " ' escaped, control characters dropped).
std::string xml_escape(const std::string& text);

}  // namespace attnlab
