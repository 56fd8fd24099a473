// How a plot's series are drawn (lab/plot_looks.hpp) and its axes' named flags (lab/plot_ticks.hpp):
// indices as marks with whole ticks, amounts from zero, coinciding curves named and both visible,
// a highlight dimming the rest; and the story panel's time estimate (lab/time_left.hpp).
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "lab/plot_looks.hpp"
#include "lab/plot_svg.hpp"
#include "lab/plot_ticks.hpp"
#include "lab/time_left.hpp"

using namespace attnlab;

namespace {
Series curve(std::string name, std::vector<double> x, std::vector<double> y) {
  return {std::move(name), SeriesStyle::LineMarkers, std::move(x), std::move(y), {}, {}};
}
}  // namespace

TEST_CASE("an index axis has whole-number ticks only and its series are marks without a line", "[figures]") {
  Plot p = Plot::titled("Selected token").x("p").y("token").y_axis(AxisFlags_Index);
  p.series.push_back(curve("sequence 0", {1.75, 2, 3}, {1, 1, 0}));
  const PlotAxes a = fit_plot_axes(p);
  for (int target : {3, 6, 10})
    for (double t : axis_ticks(a.y, target)) {
      INFO("tick " << t);
      CHECK(t == std::floor(t));
    }
  CHECK(a.y.lo <= -0.5);  // the end marks sit clear of the frame
  CHECK(a.y.hi >= 1.5);
  const std::vector<SeriesDrawing> d = series_drawings(p);
  CHECK_FALSE(d[0].line);
  CHECK(d[0].markers);
  const std::string svg = plot_to_svg(p);
  CHECK(svg.find("L") == std::string::npos);  // no joining line: the series' path only moves
  CHECK(svg.find("class=\"markers\"") != std::string::npos);
  // Without the flag the same plot is a line.
  p.y_flags = AxisFlags_None;
  CHECK(series_drawings(p)[0].line);
  // A series can ask for marks by itself.
  p.series[0].flags = SeriesFlags_Marks;
  CHECK_FALSE(series_drawings(p)[0].line);
}

TEST_CASE("a from-zero axis starts at 0, so a 14% difference is drawn to scale", "[figures]") {
  Plot p = Plot::titled("Work per iteration").x("t").y("flops").y_axis(AxisFlags_FromZero);
  p.series.push_back(curve("exact", {1, 2, 3}, {5.1e7, 5.1e7, 5.1e7}));
  p.series.push_back(curve("sampled", {1, 2, 3}, {4.4e7, 4.4e7, 4.4e7}));
  const PlotAxes a = fit_plot_axes(p);
  CHECK(a.y.lo == 0.0);
  // The gap between the two is at most its share of the axis (about 14%).
  CHECK(a.y.map(5.1e7) - a.y.map(4.4e7) < 0.15);
  CHECK(a.y.map(5.1e7) < 0.985);  // air above the top curve, not on the frame
  p.y_flags = AxisFlags_None;
  CHECK(fit_plot_axes(p).y.lo > 4e7);
}

TEST_CASE("coinciding curves are detected, named in the legend and drawn so both show", "[figures]") {
  Plot p = Plot::titled("fires").x("tau").y("rate");
  p.series.push_back(curve("softmax, D1", {0, 1, 2}, {0.9, 0.5, 0.1}));
  p.series.push_back(curve("linear, D1", {0, 1, 2}, {0, 0, 0}));
  p.series.push_back(curve("linear, D0", {0, 1, 2}, {0, 1e-17 * 0, 0}));
  p.series.push_back(curve("softmax, D0", {0, 1, 2}, {0.9, 0.5, 0.1 + 1e-9}));
  CHECK(same_points(p.series[1], p.series[2]));
  CHECK_FALSE(same_points(p.series[0], p.series[3]));  // 1e-9 apart is not rounding
  const std::vector<SeriesDrawing> d = series_drawings(p);
  CHECK(d[2].coincides_with == 1);
  CHECK(d[2].legend == "linear, D0 (same as linear, D1)");
  CHECK_FALSE(d[2].look.dash.solid());        // dashed on top
  CHECK(d[1].width > d[2].width + 1.5);       // the one under it wider
  CHECK(d[0].coincides_with == -1);
  CHECK(d[3].coincides_with == -1);
  const std::string svg = plot_to_svg(p);
  CHECK(svg.find("linear, D0 (same as linear, D1)") != std::string::npos);
  // A series that already names its twin is not named twice.
  p.series[2].name = "linear, D0 (identical to linear, D1)";
  CHECK(series_drawings(p)[2].legend == "linear, D0 (identical to linear, D1)");
  CHECK_FALSE(series_drawings(p)[2].look.dash.solid());
}

TEST_CASE("a highlight dims the other series; visible series never share a colour", "[figures]") {
  Plot p = Plot::titled("3 x 3").x("k").y("D");
  for (int i = 0; i < 9; ++i) {
    p.series.push_back(curve("c" + std::to_string(i), {1, 2}, {1.0 + i, 2.0 + i}));
    if (i % 4 == 0) p.series.back().flags = SeriesFlags_Highlight;
  }
  p.series.push_back({"theory", SeriesStyle::Reference, {1, 2}, {0.5, 0.5}, {}, {}});
  const std::vector<SeriesDrawing> d = series_drawings(p);
  std::vector<std::size_t> slots;
  for (std::size_t k = 0; k < 9; ++k) {
    CHECK(d[k].dimmed == (k % 4 != 0));
    if (!d[k].dimmed) slots.push_back(d[k].colour_slot);
  }
  CHECK(slots == std::vector<std::size_t>{0, 1, 2});
  CHECK_FALSE(d[9].dimmed);
  const std::vector<std::size_t> order = drawing_order(p);
  CHECK(order.back() == 8);  // the highlighted last (over the others)
  CHECK(order.front() == 1);
  // Without a highlight the first seven get the seven colours.
  for (Series& s : p.series) s.flags = SeriesFlags_None;
  const std::vector<SeriesDrawing> plain = series_drawings(p);
  for (std::size_t k = 0; k < 7; ++k) CHECK(plain[k].colour_slot == k);
}

TEST_CASE("a rounding band is inside the y range and labelled", "[figures]") {
  Plot p = Plot::titled("residual").x("move").y("error").log_y_axis().rounding_band(kRoundingLevel);
  p.series.push_back(curve("error", {1, 2, 3}, {1e-16, 3e-16, 2e-16}));
  const PlotAxes a = fit_plot_axes(p);
  CHECK(a.y.hi > kRoundingLevel);
  const std::string svg = plot_to_svg(p);
  CHECK(svg.find("rounding level (below 1e-12)") != std::string::npos);
  CHECK(svg.find("class=\"rounding-band\"") != std::string::npos);
}

TEST_CASE("the time left is estimated from the fraction done, once a tenth is done, rounded, never negative",
          "[figures][stories]") {
  CHECK_FALSE(seconds_left(0.05, 3.0).has_value());
  CHECK_FALSE(seconds_left(NAN, 3.0).has_value());
  CHECK_FALSE(seconds_left(0.5, INFINITY).has_value());
  CHECK_FALSE(seconds_left(1.5, 3.0).has_value());
  REQUIRE(seconds_left(0.1, 1.0).has_value());
  CHECK(*seconds_left(0.1, 1.0) == Approx(9.0));
  CHECK(*seconds_left(0.5, 4.0) == Approx(4.0));
  CHECK(*seconds_left(0.5, -4.0) == 0.0);
  CHECK(time_left_text(0.05, 3.0).empty());
  CHECK(time_left_text(0.5, 4.2) == "about 4 s left");
  CHECK(time_left_text(0.99, 1.0) == "about 1 s left");  // never "0 s"
  CHECK(time_left_text(1.0, 5.0).empty());
  CHECK(time_left_text(0.2, 30.0) == "about 2 min left");
}

TEST_CASE("the run clock counts running time only and starts again with a new run", "[figures][stories]") {
  RunClock c;
  c.update(true, 0.0, 100.0);
  c.update(true, 0.2, 101.0);
  c.update(true, 0.4, 102.5);
  CHECK(c.elapsed() == Approx(2.5));
  c.update(false, 0.4, 110.0);  // paused
  c.update(true, 0.4, 120.0);
  c.update(true, 0.5, 121.0);
  CHECK(c.elapsed() == Approx(3.5));
  c.update(false, 0.0, 130.0);  // reset
  CHECK(c.elapsed() == 0.0);
  c.update(true, 0.0, 140.0);
  c.update(true, 0.1, 142.0);
  CHECK(c.elapsed() == Approx(2.0));
}
