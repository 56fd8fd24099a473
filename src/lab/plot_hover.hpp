// What a plot's hover read-out lists for a pointer over its data area, decided here (shared with the
// tests) and drawn by the page's plot widget: the x of the point nearest the pointer, then each
// series' own point nearest the pointer, when it is near enough. Series need not share their x
// (gradient descent's 300 iterations beside exact Newton's 5, mirror descent's checkpoints per p):
// each is read at its own point (walk 11: the read-out showed exact Newton's last point for a
// pointer on gradient descent's curve, and left out the curves whose x differ from the first's).
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "lab/plot_ticks.hpp"
#include "lab/results.hpp"

namespace attnlab {

struct HoverLine {
  std::size_t series = 0;
  std::size_t point = 0;  // its index in the series; its y may be missing (a run that diverged)
  bool own_x = false;     // its x differs from the read-out's x: the widget says at which x
};

struct HoverReadout {
  double x = 0.0;  // the x of the point nearest the pointer, over every series
  std::vector<HoverLine> lines;
};

// A point is near enough when it lies within this share of the data area's width of the pointer.
inline constexpr double kHoverReach = 0.04;

// A level series (SeriesFlags_Level: a bound, chance) is listed with its value wherever a point is.
// The read-out for a pointer at `at` (0 at the data area's left, 1 at its right, as Axis::map) on
// `plot` drawn on `axes`; none when no series has a point within reach.
std::optional<HoverReadout> hover_readout(const Plot& plot, const PlotAxes& axes, double at);

// A value and its range as the read-out writes them, with the same decimals, enough for three
// significant digits of each: "0.260  [0.184, 0.354]" (walk 17: "0.26  [0.184, 0.3537]"). When
// that takes over 6 decimals, or a value is from 1e5 up, each in three significant digits.
std::string value_with_range(double value, double low, double high);

}  // namespace attnlab
