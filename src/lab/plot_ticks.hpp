// Axis ranges, tick positions and tick labels of a plot: shared by the page's plot widget and the
// SVG export so that both show the same axes.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "lab/results.hpp"

namespace attnlab {

// One axis of a plot: the value range shown, linear or log10.
struct Axis {
  double lo = 0.0, hi = 1.0;
  bool log = false;
  bool whole = false;  // every value on it is a whole number (m, |S|, seeds): no ticks between them
  double whole_top = 0.0;  // then its largest value, which a log axis labels (axis_ticks)
  double map(double v) const;     // value -> [0, 1] along the axis
  bool usable(double v) const;    // finite, and positive on a log axis
};

// The range covering every usable value in `data` (a little air at the ends of a linear axis).
// A value axis (y) over more than two decades ends at whole decades (AxisFit_Decades): a label lies
// at or beyond every value; an x axis keeps its data's range (its end label would sit on the frame).
enum AxisFit { AxisFit_Range = 0, AxisFit_Decades = 1 };
Axis fit_axis(bool log, const std::vector<const std::vector<double>*>& data, AxisFit fit = AxisFit_Range);

struct PlotAxes {
  Axis x, y;
};
// Both axes of `plot`: x over the series' x, y over y and the error bars, or y_min..y_max
// (with the same air) when the plot says fixed_y. x is `whole` when every x is a whole number.
// The axes' flags (AxisFlags) are applied by apply_axis_flags; a rounding band's level is inside y.
PlotAxes fit_plot_axes(const Plot& plot);
// An index axis gets whole-number ticks and half an index of room at its ends; a from-zero axis
// (linear) reaches 0. A log axis ignores both (it has no 0, and its ticks are decades).
void apply_axis_flags(Axis& a, unsigned flags);

// "Nice" tick positions covering [lo, hi] (about `target` of them: steps of 1, 2 or 5 x 10^k, and
// at least `min_step`).
std::vector<double> nice_ticks(double lo, double hi, int target, double min_step = 0.0);
// Half the width, in pixels, of each of `bars` bars on an axis `axis_pixels` wide: 0.4 of a slot
// (the axis width over the number of bars), at least half a pixel; 4 pixels for a single bar.
// fit_plot_axes leaves the end bars half a spacing of room for it.
double bar_half_width(double axis_pixels, std::size_t bars);
// Ticks of an axis: nice ticks, or on a log axis every k-th decade so that about `target` fit
// (1-2-5 values over less than two decades; a whole-number axis up to kWholeLabelledUpTo also its last).
inline constexpr double kWholeLabelledUpTo = 100.0;
std::vector<double> axis_ticks(const Axis& a, int target);
// The ticks of a plot frame `width` x `height` (pixels, any unit with `font` the text size in it):
// about one y tick per 2.2 lines (2 to 6), one x tick per 6 characters' width (at least 2). The
// page's widget and the SVG export both use it, so the same plot gets the same ticks.
struct FrameTicks {
  std::vector<double> x, y;
};
FrameTicks frame_ticks(const Axis& x, const Axis& y, double width, double height, double font);
// The decades of a log axis that `labelled` (its axis_ticks) leaves without a label, drawn as short
// unlabelled marks so that a value between two labels can be read to its decade (walk 18: labels every
// two decades, 1e-5 and 1e-7, around Adam's 2.48e-06). None on a linear axis, or over 60 decades.
std::vector<double> unlabelled_decades(const Axis& a, const std::vector<double>& labelled);
// Ticks of a heatmap's colour bar over [low, high]: the nice ticks inside it (about `target`),
// or both ends when fewer than two fit (a tiny or empty range). Page and exports share it.
std::vector<double> colour_bar_ticks(double low, double high, int target = 5);
// The text under a tick ("%g": 0.5, 100, 1e-6; `digits` significant digits at most).
std::string tick_label(double v, int digits = 6);
// Whether an x tick label `width` wide, centred under its tick at x, would pass `right_edge` (the
// frame's right plus kTickLabelOverhang font sizes): such a label ends at that edge instead (walk 15:
// a log axis's last label "10000", centred on the frame's corner, was cut by the panel's edge).
inline constexpr double kTickLabelOverhang = 0.3;
bool x_tick_label_ends_at_edge(double x, double width, double right_edge);

// A legend entry, in font sizes from its left: the sample line (long enough to show a dash
// pattern, with the marker in its middle), then the label; entries in a row are a gap apart.
inline constexpr double kLegendSample = 2.0, kLegendLabel = 2.3, kLegendGap = 1.0;

// The legend entries (their labels) flowed into rows `span` wide: each entry's top-left as an
// offset from the legend's top-left, rows 1.3 font sizes apart. An entry wider than the span is
// wrapped onto rows of its own (lab/text.hpp wrap_lines): an entry is never cut at the edge.
struct LegendLayout {
  int rows = 0;
  std::vector<double> x, y;
  std::vector<std::vector<std::string>> lines;  // each entry's label, in lines (one when it fits)
};
LegendLayout legend_layout(const std::vector<std::string>& labels, double span, double font,
                           const std::function<double(const std::string&)>& text_width);
// The same for the entries' names.
LegendLayout legend_layout(const std::vector<Series>& series, double span, double font,
                           const std::function<double(const std::string&)>& text_width);

// Where the data area sits in a width x height plot (offsets from its top-left corner), leaving
// room for the heading (the title and, in brackets, the y label: wrapped onto more lines when it is
// wider than the plot, never cut), the tick labels and the legend rows under the x label (none when
// `legend` is false: a multi-panel figure draws one legend for all its panels). The legend's texts
// are the caller's series drawings' (lab/plot_looks.hpp), computed once per plot.
struct PlotFrame {
  double left, right, top, bottom;
  int legend_rows;
  std::vector<double> legend_x, legend_y;  // top-left of each series' legend entry
  std::vector<std::vector<std::string>> legend_lines;  // each entry's label, in lines
  std::vector<std::string> heading;  // the heading's lines, 1.3 font sizes apart from 0.2 font sizes down
};
struct SeriesDrawing;
PlotFrame plot_frame(const Plot& plot, const std::vector<SeriesDrawing>& drawings, double width, double height,
                     double font, const std::function<double(const std::string&)>& text_width, bool legend = true);
// The heading a plot's frame wraps: "title  (y label)".
std::string plot_heading(const Plot& plot);

}  // namespace attnlab
