// How each series of a plot is drawn, decided once from the figure model and shared by the page's
// plot widget and the SVG export: its colour, marker and dash (lab/palette.hpp), whether a line
// joins its points (not on an index axis), whether it is dimmed (another series is highlighted),
// whether it coincides with an earlier series (then it is drawn dashed over the earlier one, drawn
// wider, and its legend entry says so), and how large its marks are (a mark that another series'
// later mark would cover at the same point is drawn larger, so both show: the smaller on top).
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "lab/palette.hpp"
#include "lab/plot_ticks.hpp"
#include "lab/results.hpp"

namespace attnlab {

struct SeriesDrawing {
  SeriesLook look;         // colour, marker and dash; reference curves take kReferenceDashes in turn
  std::size_t colour_slot = 0;  // which palette colour (series_rgb); visible series get distinct slots first
  bool reference = false;  // a theory curve: drawn in the reference grey
  bool line = true;        // a line joins its points
  bool markers = false;    // a mark at each point
  bool dimmed = false;     // another series is highlighted: drawn faint and thin, without marks
  int coincides_with = -1;  // the earlier series it lies on as drawn (kSameWithin), or -1
  bool coincides_partly = false;  // on it at some points only (the legend says at how many)
  double width = 2.0;      // line width in pixels
  double dodge = 0.0;      // pixels right of its x where its points are drawn (SeriesFlags_Dodge), else 0
  // Each point's mark size over the series' own (empty: all 1): larger where a later series' mark
  // sits on the same point, so both show, the later on top.
  std::vector<double> mark_scale;
  double mark_scale_at(std::size_t i) const { return i < mark_scale.size() ? mark_scale[i] : 1.0; }
  std::string legend;      // the legend's text: the name, and "(same as ...)" when it coincides
};

// The drawing of each of `plot`'s series, in order (on a light background for the SVG export).
std::vector<SeriesDrawing> series_drawings(const Plot& plot, bool light_background = false);

// Whether two series have the same points: the same x, and y equal within rounding (a relative
// 1e-12), missing at the same places; at least one point. Bars never coincide with a curve.
bool same_points(const Series& a, const Series& b);

// Two points closer than this share of the y axis are drawn on each other (under 2 pixels of a
// 400-pixel data area): "within the plot's resolution".
inline constexpr double kSameWithin = 0.004;
// Of `b`'s usable points, how many lie on `a`'s point of the same x as drawn on `axes` (within
// kSameWithin), and how many it has. A curve is hidden under an earlier one where they agree.
std::pair<std::size_t, std::size_t> points_on(const Series& a, const Series& b, const PlotAxes& axes);

// The order to draw the series in: dimmed ones first, then the others, the highlighted last; within
// each, the series with marks before the lines without (a line is never hidden under another
// series' marks), else as listed (a coinciding series after its twin, larger marks first).
std::vector<std::size_t> drawing_order(const Plot& plot, const std::vector<SeriesDrawing>& drawings);

// The label of a plot's rounding band (Plot::rounding_level): "rounding level (below 1e-12)".
std::string rounding_band_label(double level);

// Where the rounding band sits in a data area from `top` to `bottom` (y down) whose y axis is `y`:
// from the level's height (or the top) down to the bottom, its label's top-left a little inside.
// Nothing when the plot has no band or it is out of view. The page's plot widget and the SVG
// export both draw it from here.
struct RoundingBandBox {
  double top, bottom;
  double label_x, label_y;
  std::string label;
};
std::optional<RoundingBandBox> rounding_band_box(const Plot& plot, const Axis& y, double left, double top,
                                                 double bottom, double font);

// Marks drawn at every point are this many pixels in radius; with more than kMarkedPointsMax
// points a joined series leaves its marks out (they would hide the line).
inline constexpr double kMarkRadius = 2.5;
// Two levels closer than this share of the y axis's height read as one line (walk 18: 0.38, 0.4 and 0.41
// on an axis to 1.6 formed one grey band, under the 1% the rule had).
inline constexpr double kCloseLevel = 0.03;

// A mark covered by a later series' mark at the same point is larger than that one by this share
// of the common size.
inline constexpr double kCoveredMarkGrowth = 0.8;
inline constexpr std::size_t kMarkedPointsMax = 120;
// Dodged series (SeriesFlags_Dodge) are drawn this many pixels apart, centred on their x.
inline constexpr double kDodgePixels = 7.0;

}  // namespace attnlab
