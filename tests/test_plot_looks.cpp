// How a plot's series are drawn (lab/plot_looks.hpp) and its axes' named flags (lab/plot_ticks.hpp):
// indices as marks with whole ticks, amounts from zero, coinciding curves named and both visible,
// a highlight dimming the rest, series told apart by dash and marker, marks and lines never hidden
// under another series', headings and legends wrapped, never cut; and the story panel's time
// estimate (lab/time_left.hpp).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>

#include "lab/plot_hover.hpp"
#include "lab/plot_looks.hpp"
#include "lab/plot_map_frame.hpp"
#include "lab/plot_svg.hpp"
#include "lab/plot_ticks.hpp"
#include "lab/text.hpp"
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
  CHECK(d[3].coincides_with == 0);  // 1e-9 apart is not rounding, but no plot can show it: drawn as twins
  CHECK(d[3].legend == "softmax, D0 (same as softmax, D1)");
  const std::string svg = plot_to_svg(p);
  CHECK(svg.find("linear, D0 (same as linear, D1)") != std::string::npos);
  // A series that already names its twin is not named twice.
  p.series[2].name = "linear, D0 (identical to linear, D1)";
  CHECK(series_drawings(p)[2].legend == "linear, D0 (identical to linear, D1)");
  CHECK_FALSE(series_drawings(p)[2].look.dash.solid());
}

TEST_CASE("a curve hidden under another over part of its length is named in the legend and drawn as a twin",
          "[figures]") {
  // Separation's step 2: linear on D1 lies on linear on D0 (both 0) for the small tau only.
  Plot p = Plot::titled("fires").x("tau").y("rate").y_range(0, 1);
  p.series.push_back(curve("linear on D0 (needs it silent)", {0.05, 0.1, 0.15, 0.2, 0.3}, {0, 0, 0, 0.4, 0.9}));
  p.series.push_back(curve("linear on D1", {0.05, 0.1, 0.15, 0.2, 0.3}, {0, 0, 0.001, 0.6, 1.0}));
  p.series.push_back(curve("softmax on D1", {0.05, 0.1, 0.15, 0.2, 0.3}, {1, 0.8, 0.5, 0.2, 0.1}));
  const std::vector<SeriesDrawing> d = series_drawings(p);
  CHECK(d[1].coincides_with == 0);
  CHECK(d[1].coincides_partly);
  CHECK(d[1].legend == "linear on D1 (on top of linear on D0 at 3 of 5 points)");
  CHECK_FALSE(d[1].look.dash.solid());  // dashed over the wider one where they meet
  CHECK(d[0].width > d[1].width + 1.5);
  CHECK(d[2].coincides_with == -1);  // crossing once is not lying on it
  CHECK(d[2].legend == "softmax on D1");
  const PlotAxes axes = fit_plot_axes(p);
  CHECK(points_on(p.series[0], p.series[1], axes) == std::pair<std::size_t, std::size_t>{3, 5});
  // Curves that only share their start (mirror's 3 x 3 all begin near 1) are not twins; nor is a
  // faint series under a highlighted one.
  p.series[1].y = {0, 0, 0.3, 0.6, 1.0};
  CHECK(series_drawings(p)[1].coincides_with == -1);
  p.series[1].y = {0, 0, 0.001, 0.6, 1.0};
  p.series[0].flags = SeriesFlags_Highlight;
  CHECK(series_drawings(p)[1].coincides_with == -1);
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
  const std::vector<std::size_t> order = drawing_order(p, d);
  CHECK(order.back() == 8);  // the highlighted last (over the others)
  CHECK(order.front() == 1);
  // Without a highlight the first seven get the seven colours.
  for (Series& s : p.series) s.flags = SeriesFlags_None;
  const std::vector<SeriesDrawing> plain = series_drawings(p);
  for (std::size_t k = 0; k < 7; ++k) CHECK(plain[k].colour_slot == k);
}

TEST_CASE("the series of one plot differ in dash and marker, not only in colour; so do its theory curves",
          "[figures]") {
  Plot p = Plot::titled("four").x("t").y("v");
  for (int k = 0; k < 5; ++k) p.series.push_back(curve("c" + std::to_string(k), {1, 2}, {1.0 + k, 2.0 + k}));
  const std::vector<SeriesDrawing> d = series_drawings(p);
  for (std::size_t a = 0; a < d.size(); ++a)
    for (std::size_t b = a + 1; b < d.size(); ++b) {
      INFO("series " << a << " and " << b);
      CHECK(d[a].look.marker != d[b].look.marker);
      if (b - a < 3) CHECK(d[a].look.dash.on != d[b].look.dash.on);
    }
  // The function u with the two others as theory curves (regression's picture of its inputs): exp,
  // cosh and sinh are three patterns, not one colour and two identical grey dashes.
  Plot u = Plot::titled("u").x("z").y("u(z)");
  u.series.push_back({"exp (this problem's u)", SeriesStyle::Line, {0, 1}, {1, 2.7}, {}, {}});
  u.series.push_back({"cosh", SeriesStyle::Reference, {0, 1}, {1, 1.5}, {}, {}});
  u.series.push_back({"sinh", SeriesStyle::Reference, {0, 1}, {0, 1.2}, {}, {}});
  const std::vector<SeriesDrawing> du = series_drawings(u);
  CHECK(du[0].look.dash.solid());
  CHECK_FALSE(du[1].look.dash.solid());
  CHECK_FALSE(du[2].look.dash.solid());
  CHECK(du[1].look.dash.on != du[2].look.dash.on);
  const std::string svg = plot_to_svg(u);
  CHECK(svg.find("stroke-dasharray=\"6 4\"") != std::string::npos);
  CHECK(svg.find("stroke-dasharray=\"1.5 3\"") != std::string::npos);
}

TEST_CASE("a line is drawn over other series' marks, and marks at the same point both show", "[figures]") {
  // The function u (a line) and the start's points marked on it (regression's picture of its inputs).
  Plot u = Plot::titled("u").x("z").y("u(z)");
  u.series.push_back({"exp (this problem's u)", SeriesStyle::Line, {0, 0.5, 1}, {1, 1.6, 2.7}, {}, {}});
  u.series.push_back(curve("the start's (A x)_i", {0, 1}, {1, 2.7}));
  std::vector<SeriesDrawing> d = series_drawings(u);
  REQUIRE(d[1].markers);
  REQUIRE_FALSE(d[0].markers);
  CHECK(drawing_order(u, d) == std::vector<std::size_t>{1, 0});  // the marks first, the line over them
  // A coinciding pair keeps its order whatever its marks: the later, dashed, over the wider earlier.
  Plot twins = Plot::titled("fires").x("tau").y("rate");
  twins.series.push_back({"linear, D1", SeriesStyle::Line, {0, 1}, {0, 0}, {}, {}});
  twins.series.push_back(curve("linear, D0", {0, 1}, {0, 0}));
  d = series_drawings(twins);
  CHECK(d[1].coincides_with == 0);
  CHECK(drawing_order(twins, d) == std::vector<std::size_t>{0, 1});
  // The selected token per p (mirror step 5): at p = 3 both sequences select token 1.
  Plot tokens = Plot::titled("Selected token").x("p").y("token").y_axis(AxisFlags_Index);
  tokens.series.push_back(curve("sequence 0", {1.75, 2, 3}, {0, 0, 1}));
  tokens.series.push_back(curve("sequence 1", {1.75, 2, 3}, {2, 2, 1}));
  tokens.series.push_back(curve("sequence 2", {1.75, 2, 3}, {1, 1, 1}));
  d = series_drawings(tokens);
  CHECK(d[2].mark_scale_at(2) == 1.0);
  CHECK(d[1].mark_scale_at(2) == Approx(1.0 + kCoveredMarkGrowth));  // larger than the last, drawn under it
  CHECK(d[0].mark_scale_at(2) == Approx(1.0 + 2 * kCoveredMarkGrowth));  // and the first larger again
  CHECK(d[0].mark_scale_at(0) == 1.0);  // points no other series shares keep the common size
  CHECK(d[1].mark_scale_at(1) == 1.0);
  CHECK(drawing_order(tokens, d) == std::vector<std::size_t>{0, 1, 2});
  // The legend says why some marks are larger (walk 11); the series on top keeps its name.
  CHECK(d[0].legend == "sequence 0 (larger marks where another curve's mark sits on top)");
  CHECK(d[2].legend == "sequence 2");
  const std::string svg = plot_to_svg(tokens);  // the SVG draws the same rings
  CHECK(svg.find("r=\"" + svg_num(kMarkRadius * 1.4 * (1.0 + 2 * kCoveredMarkGrowth)) + "\"") != std::string::npos);
  // Apart, they keep the common size.
  tokens.series[2].y = {3, 3, 3};
  tokens.series[1].y = {2, 2, 0};
  for (const SeriesDrawing& apart : series_drawings(tokens)) CHECK(apart.mark_scale.empty());
}

TEST_CASE("a heading and legend entries wider than a phone's plot wrap onto more lines, never cut", "[figures]") {
  const double font = 15.0, width = 360.0;  // a 390 px phone less the panel's padding
  const auto text_width = [&](const std::string& s) { return 0.5 * font * static_cast<double>(s.size()); };
  Plot p = Plot::titled("Success rate of the planted-token test over m").x("m")
               .y("successes / trials, Wilson 95% bars");
  p.series.push_back(curve("approx. Newton, A^T (B_diag + W^2) A", {1, 2}, {1, 2}));
  p.series.push_back(curve("exact", {1, 2}, {1, 3}));
  p.series.push_back(curve("a_name_without_any_space_that_is_longer_than_the_whole_plot", {1, 2}, {2, 3}));
  const std::vector<SeriesDrawing> d = series_drawings(p);
  const PlotFrame f = plot_frame(p, d, width, 400.0, font, text_width);
  REQUIRE(f.heading.size() > 1);
  std::string joined;
  for (const std::string& line : f.heading) {
    INFO(line);
    CHECK(f.left + text_width(line) <= width - font * 0.5);  // inside the plot: nothing cut at its edge
    joined += (joined.empty() ? "" : " ") + line;
  }
  CHECK(joined == plot_heading(p));
  CHECK(f.top >= font * (0.2 + 1.3 * static_cast<double>(f.heading.size())));  // the data area starts below it
  int rows = 0;
  for (std::size_t k = 0; k < p.series.size(); ++k) {
    std::string label;
    for (const std::string& line : f.legend_lines[k]) {
      INFO(line);
      CHECK(f.legend_x[k] + font * kLegendLabel + text_width(line) <= width);
      label += line;
    }
    CHECK(label.size() + f.legend_lines[k].size() - 1 >= d[k].legend.size());  // every character kept
    rows += static_cast<int>(f.legend_lines[k].size());
  }
  CHECK(f.legend_rows == rows);
  CHECK(f.legend_lines[0].size() > 1);
  CHECK(f.legend_y[1] >= f.legend_y[0] + font * 1.3 * 2);  // the next entry below the wrapped one
  CHECK(f.bottom + font * (2.6 + 1.3 * f.legend_rows) <= 400.0 + 1e-9);
  // The SVG export draws the same lines.
  const std::string svg = plot_to_svg(p, 200, 400);
  CHECK(svg.find(">approx. Newton, A^T (B_diag + W^2) A<") == std::string::npos);
  CHECK(wrap_lines("a b", 100.0, text_width) == std::vector<std::string>{"a b"});
}

TEST_CASE("a rounding band is inside the y range and labelled", "[figures]") {
  Plot p = Plot::titled("residual").x("move").y("error").log_y_axis().rounding_band(kRoundingLevel);
  p.series.push_back(curve("error", {1, 2, 3}, {1e-16, 3e-16, 2e-16}));
  const PlotAxes a = fit_plot_axes(p);
  CHECK(a.y.hi > kRoundingLevel);
  const std::string svg = plot_to_svg(p);
  CHECK(svg.find("rounding level (below 1e-12)") != std::string::npos);
  CHECK(svg.find("class=\"rounding-band\"") != std::string::npos);
  // Its box, shared by the page's widget and the SVG: from the level down to the data area's bottom.
  const auto band = rounding_band_box(p, a.y, 10.0, 0.0, 100.0, 12.0);
  REQUIRE(band.has_value());
  CHECK(band->top == Approx(100.0 - a.y.map(kRoundingLevel) * 100.0));
  CHECK(band->bottom == 100.0);
  CHECK(band->label == "rounding level (below 1e-12)");
  p.rounding_level = 0.0;
  CHECK_FALSE(rounding_band_box(p, a.y, 10.0, 0.0, 100.0, 12.0).has_value());
}

// Walk 11: multihead 3's chance line ran from the first bar's middle to the last's.
TEST_CASE("a level series is drawn across the whole plot, its data kept", "[figures]") {
  Plot p = Plot::titled("accuracy").x("|S|").y("sign accuracy").y_range(0, 1);
  p.series.push_back({"accuracy", SeriesStyle::Bars, {1, 2, 3}, {0.9, 0.6, 0.5}, {}, {}});
  p.series.push_back({"chance", SeriesStyle::Reference, {1, 2, 3}, {0.5, 0.5, 0.5}, {}, {}});
  // The x at which the series' path starts and ends, from the SVG's path "M x y L ... x y".
  const auto path_ends = [](const std::string& svg) {
    const std::size_t at = svg.find("d=\"M", svg.find("class=\"series\" data-name=\"chance\""));
    const std::size_t end = svg.find('"', at + 3);
    const std::string d = svg.substr(at + 4, end - at - 4);
    const double first = std::stod(d);
    const std::size_t last_l = d.rfind('L');
    return std::make_pair(first, std::stod(d.substr(last_l + 1)));
  };
  const auto between_points = path_ends(plot_to_svg(p));
  p.series[1].flags = SeriesFlags_Level;
  const auto level = path_ends(plot_to_svg(p));
  CHECK(level.first < between_points.first - 10.0);   // from the frame's left edge
  CHECK(level.second > between_points.second + 10.0);  // to its right edge
  CHECK(p.series[1].x.size() == 3);                    // the read-out and the text view keep its points
}

// Walk 18: labels every two decades (1e-5, 1e-7) left Adam's 2.48e-06 to a guess: the decades between
// labels get short marks.
TEST_CASE("a log axis marks the decades its labels skip", "[figures]") {
  Axis a;
  a.log = true, a.lo = 1e-7, a.hi = 10.0;
  const std::vector<double> labelled = {10.0, 0.1, 1e-3, 1e-5, 1e-7};
  const std::vector<double> marks = unlabelled_decades(a, labelled);
  REQUIRE(marks.size() == 4);
  for (double expected : {1e-6, 1e-4, 0.01, 1.0})
    CHECK(std::any_of(marks.begin(), marks.end(), [&](double v) { return std::fabs(v / expected - 1.0) < 1e-12; }));
  a.log = false;
  CHECK(unlabelled_decades(a, labelled).empty());
}

// Walk 17: "0.26  [0.184, 0.3537]" mixed three decimals with two and four in one read-out.
TEST_CASE("a value and its range are read with the same decimals", "[figures]") {
  CHECK(value_with_range(0.26, 0.184, 0.3537) == "0.260  [0.184, 0.354]");
  CHECK(value_with_range(0.95, 0.9192, 0.9695) == "0.950  [0.919, 0.970]");
  CHECK(value_with_range(1.0, 0.963, 1.0) == "1.000  [0.963, 1.000]");
  CHECK(value_with_range(42.5, 40.26, 44.0) == "42.5  [40.3, 44.0]");
  CHECK(value_with_range(1234.0, 1000.0, 1500.0) == "1234  [1000, 1500]");
  CHECK(value_with_range(0.0, 0.0, 0.0369) == "0.0000  [0.0000, 0.0369]");
  CHECK(value_with_range(2e-5, 1e-5, 3e-5) == "2e-05  [1e-05, 3e-05]");
  CHECK(value_with_range(2e5, 1e5, 3e5) == "2e+05  [1e+05, 3e+05]");
}

// Walk 13: regression 2's bounds were left out of the read-out, and one hid under another.
TEST_CASE("levels are read at every x and named when drawn on each other", "[figures]") {
  Plot p = Plot::titled("Contraction ratio").x("iteration t").y("ratio").y_range(0, 1.2);
  p.series.push_back(curve("exact Newton", {1, 2, 3}, {0.5, 0.1, 0.01}));
  p.series.push_back({"bound A", SeriesStyle::Reference, {0, 3}, {0.948, 0.948}, {}, {}, SeriesFlags_Level});
  p.series.push_back({"bound B", SeriesStyle::Reference, {0, 3}, {0.942, 0.942}, {}, {}, SeriesFlags_Level});
  p.series.push_back({"rate", SeriesStyle::Reference, {0, 3}, {0.4, 0.4}, {}, {}, SeriesFlags_Level});
  const PlotAxes axes = fit_plot_axes(p);
  const auto r = hover_readout(p, axes, axes.x.map(2.0));
  REQUIRE(r);
  REQUIRE(r->lines.size() == 4);  // the curve's point, then the three levels
  CHECK(r->lines[1].series == 1);
  CHECK_FALSE(r->lines[3].own_x);
  CHECK_FALSE(hover_readout(p, axes, 0.0 - 0.5));  // no point in reach: no read-out of levels alone
  const std::vector<SeriesDrawing> d = series_drawings(p);
  CHECK(d[2].legend == "bound B (nearly on bound A: 0.942 against 0.948)");
  CHECK(d[3].legend == "rate");
  // Values as measured: the fewest digits that tell them apart (walk 17: "0.941358 against 0.948229").
  p.series[1].y = {0.948229, 0.948229}, p.series[2].y = {0.941358, 0.941358};
  CHECK(series_drawings(p)[2].legend == "bound B (nearly on bound A: 0.941 against 0.948)");
  p.series[2].y = {0.948129, 0.948129};
  CHECK(series_drawings(p)[2].legend == "bound B (nearly on bound A: 0.9481 against 0.9482)");
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

// The hover read-out and the text view name a map's cell by its axes' values (walk 9: "row 16,
// column 45" told a student nothing about x_1 and x_2). Expected places worked out by hand.
TEST_CASE("a map's cell is named by its axes' values, a slice's own, or its number", "[figures]") {
  Heatmap h;
  h.rows = 5, h.cols = 5;
  h.x_label = "x_1", h.y_label = "x_2 (bottom to top)";
  h.x_values = Heatmap::GridValues{-1.0, 1.0};  // centres -1, -0.5, 0, 0.5, 1
  h.y_values = Heatmap::GridValues{2.0, -2.0};  // row 0 at the top
  CHECK(cell_place(h, 0, 4) == "x_1 = 1, x_2 = 2");
  CHECK(cell_place(h, 3, 1) == "x_1 = -0.5, x_2 = -1");
  CHECK(point_place(h, 2.5, 2.5) == "x_1 = 0, x_2 = 0");       // the middle cell's centre
  CHECK(point_place(h, 0.0, 0.0) == "x_1 = -1.25, x_2 = 2.5");  // the image's top-left corner
  h.x_values.reset(), h.y_values.reset();
  h.x_label = "column j", h.y_label.clear();
  CHECK(cell_place(h, 1, 3) == "column j = 3, row 1");  // a numbered axis says its own name
  h.x_label = "key token, head 1 to head 2 from left to right";
  h.cols = 6, h.x_slices = {{3, 0.0, 2.0}, {3, 0.0, 2.0}};
  CHECK(cell_place(h, 0, 4) == "key token = 1, row 0");
  CHECK(point_place(h, 0.5, 6.0) == "key token = 2, row 0");  // the far edge: the last slice's last column
  // Slices with names (walk 12: cross-attention's j2 and j3 both read "column = 1").
  h.x_label = "column: queries 1..d | keys 1..d";
  h.x_slices = {{3, 1.0, 3.0, "queries"}, {3, 1.0, 3.0, "keys"}};
  CHECK(cell_place(h, 0, 0) == "column = 1 (queries), row 0");
  CHECK(cell_place(h, 0, 3) == "column = 1 (keys), row 0");
}

// Walk 11: on regression 1's distance plot the read-out gave exact Newton's last point (t = 4) for a
// pointer on gradient descent's curve near t = 300, and on mirror 3's it left out the curves whose
// checkpoints differ from the first curve's. Each series is now read at its own nearest point.
TEST_CASE("the hover read-out reads each series at its own point nearest the pointer", "[figures]") {
  Plot plot = Plot::titled("Distance").x("iteration t").y("distance");
  Series newton{"exact Newton", SeriesStyle::LineMarkers, {0, 1, 2, 3, 4}, {1, 0.1, 1e-3, 1e-7, 1e-15}, {}, {}};
  Series gd{"gradient descent", SeriesStyle::Line, {}, {}, {}, {}};
  for (int t = 0; t <= 300; ++t) gd.x.push_back(t), gd.y.push_back(std::exp(-0.05 * t));
  plot.series = {newton, gd};
  const PlotAxes axes = fit_plot_axes(plot);
  // The pointer over t = 290: gradient descent's point there; exact Newton's points are far away.
  const auto far = hover_readout(plot, axes, axes.x.map(290.0));
  REQUIRE(far);
  CHECK(far->x == 290.0);
  REQUIRE(far->lines.size() == 1);
  CHECK(far->lines[0].series == 1);
  CHECK(gd.x[far->lines[0].point] == 290.0);
  // Over t = 3: both, each at its own t = 3.
  const auto near = hover_readout(plot, axes, axes.x.map(3.0));
  REQUIRE(near);
  REQUIRE(near->lines.size() == 2);
  CHECK(newton.x[near->lines[0].point] == 3.0);
  CHECK(gd.x[near->lines[1].point] == 3.0);
  CHECK_FALSE(near->lines[1].own_x);
  // Checkpoints that differ (1021 against 1000): both listed, the other one saying where it is.
  Plot checkpoints = Plot::titled("D_k").x("iteration k").y("D_k");
  checkpoints.series = {{"p=1.75", SeriesStyle::Line, {10, 500, 1021, 1500}, {1, 0.1, 0.01, 0.001}, {}, {}},
                        {"p=2", SeriesStyle::Line, {10, 500, 1000, 2000}, {1, 0.2, 0.02, 0.002}, {}, {}}};
  const PlotAxes axes2 = fit_plot_axes(checkpoints);
  const auto both = hover_readout(checkpoints, axes2, axes2.x.map(1021.0));
  REQUIRE(both);
  CHECK(both->x == 1021.0);
  REQUIRE(both->lines.size() == 2);
  CHECK(checkpoints.series[1].x[both->lines[1].point] == 1000.0);
  CHECK(both->lines[1].own_x);
  CHECK_FALSE(hover_readout(checkpoints, axes2, 2.0));  // beyond the area's right edge: nothing in reach
}

// The text view states what a map spans (walk 11: "the map's axis ranges are never stated").
TEST_CASE("a map's extent runs to its image's edges, half a cell beyond the outer centres", "[figures]") {
  Heatmap h;
  h.rows = 5, h.cols = 5;
  h.x_label = "x_1", h.y_label = "x_2 (bottom to top)";
  h.x_values = Heatmap::GridValues{-1.0, 1.0};  // cells 0.5 wide
  h.y_values = Heatmap::GridValues{2.0, -2.0};  // cells 1 high, row 0 at the top
  CHECK(map_extent(h) == "x_1 from -1.25 to 1.25, x_2 from -2.5 to 2.5");
  h.y_values.reset();
  CHECK(map_extent(h) == "x_1 from -1.25 to 1.25");
  h.x_values.reset();
  CHECK(map_extent(h).empty());
  // Counted values (tokens) name their first and last (walk 13: "token from 30.5 to 130.5").
  h.y_label = "token", h.y_values = Heatmap::GridValues{31.0, 35.0, true};
  CHECK(map_extent(h) == "token from 31 to 35");
}

TEST_CASE("the hover names the ring or the path point under the pointer", "[figures]") {
  Heatmap h;
  h.rows = 10, h.cols = 10;
  Heatmap::Mark star{4, 4, "x*"};
  star.at_row = 4.2, star.at_col = 4.7;
  h.marks = {star};
  h.paths = {{"exact Newton", {1.0, 3.0, 4.2}, {1.0, 3.0, 4.7}}};
  // Cells 20 pixels wide: the ring wins over the path's last point, even one nearer the pointer.
  CHECK(map_point_name(h, 4.3, 4.6, 20, 20, 10) == "x* at column 4, row 4");
  CHECK(map_point_name(h, 4.25, 4.75, 20, 20, 10) == "x* at column 4, row 4");
  CHECK(map_point_name(h, 3.1, 3.0, 20, 20, 10) == "exact Newton, point 2 of 3 at column 3, row 3");
  CHECK(map_point_name(h, 1.1, 1.0, 20, 20, 10) == "exact Newton, point 1 of 3 (its start) at column 1, row 1");
  h.paths[0].point_name = "iteration t";  // a solver's iterates, counted as its plots count them
  CHECK(map_point_name(h, 3.1, 3.0, 20, 20, 10) == "exact Newton, iteration t = 1 at column 3, row 3");
  const auto rings = h.marks;
  h.marks.clear();  // else x* on its last point wins
  CHECK(map_point_name(h, 4.25, 4.75, 20, 20, 10) == "exact Newton, iteration t = 2 (its end) at column 4, row 4");
  h.marks = rings;
  h.paths.push_back({"tokens left out", {8.0, 8.0}, {0.0, 10.0}});  // a line: its label alone
  CHECK(map_point_name(h, 8.0, 0.1, 20, 20, 10) == "tokens left out at column 0, row 8");
  h.paths.pop_back();
  h.paths[0].point_name.clear();
  CHECK(map_point_name(h, 8.0, 8.0, 20, 20, 10).empty());     // nothing within 10 pixels
  CHECK(map_point_name(h, 2.0, 2.2, 20, 20, 10) == "exact Newton at column 2, row 2");  // on its line
  CHECK(map_point_name(h, 0.5, 4.5, 20, 20, 10).empty());     // far from the points and the lines
  // A cell mark without an exact point sits at its cell's centre; an unnamed axis counts its cells,
  // a named one says its name (walk 13: "row 1" beside the axis "query token").
  h.marks = {{7, 2, "j3"}};
  CHECK(map_point_name(h, 7.4, 2.6, 20, 20, 10) == "j3 at column 2, row 7");
  h.y_label = "query token";
  CHECK(cell_place(h, 1, 2) == "column 2, query token = 1");
}
