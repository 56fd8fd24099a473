// How each series of a plot is drawn, decided once from the figure model and shared by the page's
// plot widget and the SVG export: its colour, marker and dash (lab/palette.hpp), whether a line
// joins its points (not on an index axis), whether it is dimmed (another series is highlighted),
// and whether it coincides with an earlier series (then it is drawn dashed over the earlier one,
// drawn wider, and its legend entry says so).
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "lab/palette.hpp"
#include "lab/results.hpp"

namespace attnlab {

struct SeriesDrawing {
  SeriesLook look;         // colour, marker and dash; a reference curve's dash is kReferenceDash
  std::size_t colour_slot = 0;  // which palette colour (series_rgb); visible series get distinct slots first
  bool reference = false;  // a theory curve: drawn in the reference grey
  bool line = true;        // a line joins its points
  bool markers = false;    // a mark at each point
  bool dimmed = false;     // another series is highlighted: drawn faint and thin, without marks
  int coincides_with = -1;  // the earlier series with the same points (within rounding), or -1
  double width = 2.0;      // line width in pixels
  std::string legend;      // the legend's text: the name, and "(same as ...)" when it coincides
};

// The drawing of each of `plot`'s series, in order (on a light background for the SVG export).
std::vector<SeriesDrawing> series_drawings(const Plot& plot, bool light_background = false);

// Whether two series have the same points: the same x, and y equal within rounding (a relative
// 1e-12), missing at the same places; at least one point. Bars never coincide with a curve.
bool same_points(const Series& a, const Series& b);

// The order to draw the series in: dimmed ones first, then the others as listed, the highlighted last.
std::vector<std::size_t> drawing_order(const Plot& plot);

// The label of a plot's rounding band (Plot::rounding_level): "rounding level (below 1e-12)".
std::string rounding_band_label(double level);

// Marks drawn at every point are this many pixels in radius; with more than kMarkedPointsMax
// points a joined series leaves its marks out (they would hide the line).
inline constexpr double kMarkRadius = 2.5;
inline constexpr std::size_t kMarkedPointsMax = 120;

}  // namespace attnlab
