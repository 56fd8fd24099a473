// Axes of the plots (lab/plot_ticks.hpp): their ranges, ticks and tick labels.
//
// Index of this file
// [SECTION] Axes: fitting a range
// [SECTION] Ticks
// [SECTION] Labels and headings
#include "lab/plot_ticks.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "lab/plot_looks.hpp"
#include "lab/text.hpp"

namespace attnlab {

// [SECTION] Axes: fitting a range

double Axis::map(double v) const {
  if (log) return (std::log10(v) - std::log10(lo)) / (std::log10(hi) - std::log10(lo));
  return (v - lo) / (hi - lo);
}

bool Axis::usable(double v) const { return std::isfinite(v) && (!log || v > 0.0); }

Axis fit_axis(bool log, const std::vector<const std::vector<double>*>& data, AxisFit fit) {
  Axis a;
  a.log = log;
  double lo = INFINITY, hi = -INFINITY;
  for (const auto* v : data)
    for (double x : *v)
      if (a.usable(x)) lo = std::min(lo, x), hi = std::max(hi, x);
  if (!std::isfinite(lo)) lo = log ? 1.0 : 0.0, hi = log ? 10.0 : 1.0;
  if (hi == lo) {
    if (log) lo /= 2.0, hi *= 2.0;
    else lo -= 0.5, hi += 0.5;
  }
  // A little air at the ends, so a point at the data's extreme is not drawn on the frame (on a log
  // axis the same 3%, of its decades).
  if (log) {
    // Data over more than two decades: the axis ends at the whole decades around the data, so a
    // label lies at or beyond its smallest and its largest value (walk 14: 2e-16 under the lowest
    // label 1e-15, curves at 3 over the highest 0.01), and at least the same air as before. Narrower
    // data keeps its range (1, 2 and 5 ticks label it inside). A value within 1e-9 of a decade is on it.
    const double e_lo = std::log10(lo), e_hi = std::log10(hi);
    const double below = std::pow(10.0, std::floor(e_lo + 1e-9)), above = std::pow(10.0, std::ceil(e_hi - 1e-9));
    const double pad = std::pow(hi / lo, 0.03);
    const bool wide = fit == AxisFit_Decades && hi / lo > 100.0;
    // Narrower data on a value axis ends at the 1, 2 or 5 times a power of ten around it, which its
    // ticks label (walk 16: W's error ending at 0.0304 under the lowest label 0.05).
    const auto one_two_five = [](double v, bool up) {
      const double decade = std::pow(10.0, std::floor(std::log10(v) + 1e-9));
      const double steps[] = {1.0, 2.0, 5.0, 10.0};
      double out = up ? 10.0 * decade : decade;
      for (double m : steps)
        if (up ? m * decade >= v * (1 - 1e-9) : m * decade <= v * (1 + 1e-9)) out = up ? std::min(out, m * decade) : m * decade;
      return out;
    };
    const bool narrow_value = fit == AxisFit_Decades && !wide;
    if (wide) lo = std::min(lo / pad, below), hi = std::max(hi * pad, above);
    else if (narrow_value) lo = std::min(lo / pad, one_two_five(lo, false)), hi = std::max(hi * pad, one_two_five(hi, true));
    else lo /= pad, hi *= pad;
  } else {
    const double pad = 0.03 * (hi - lo);
    lo -= pad, hi += pad;
  }
  a.lo = lo, a.hi = hi;
  return a;
}

PlotAxes fit_plot_axes(const Plot& plot) {
  std::vector<const std::vector<double>*> xs, ys;
  for (const auto& s : plot.series) {
    xs.push_back(&s.x);
    ys.push_back(&s.y);
    if (!s.y_low.empty()) ys.push_back(&s.y_low), ys.push_back(&s.y_high);
  }
  PlotAxes a{fit_axis(plot.log_x, xs), fit_axis(plot.log_y, ys, AxisFit_Decades)};
  // Bars are drawn 0.8 of a slot wide (bar_half_width), so on a linear axis the end bars need half
  // a spacing of room beyond the first and last x.
  for (const auto& s : plot.series) {
    if (s.style != SeriesStyle::Bars || plot.log_x || s.x.size() < 2) continue;
    const auto [first, last] = std::minmax_element(s.x.begin(), s.x.end());
    if (!std::isfinite(*first) || !std::isfinite(*last) || !(*last > *first)) continue;
    const double half = 0.5 * (*last - *first) / static_cast<double>(s.x.size() - 1);
    a.x.lo = std::min(a.x.lo, *first - half), a.x.hi = std::max(a.x.hi, *last + half);
  }
  // Dodged marks (SeriesFlags_Dodge) sit a few pixels beside their x: more air at the ends, so the
  // outermost are not cut by the frame (walk 11, on a phone).
  const bool dodged = std::any_of(plot.series.begin(), plot.series.end(),
                                  [](const Series& s) { return (s.flags & SeriesFlags_Dodge) != 0; });
  if (dodged && !plot.log_x) {
    const double more = 0.05 * (a.x.hi - a.x.lo);
    a.x.lo -= more, a.x.hi += more;
  }
  a.x.whole = !xs.empty();  // on a log axis too: it labels its last whole number (axis_ticks)
  for (const auto* x : xs)
    for (double v : *x) {
      a.x.whole = a.x.whole && (!std::isfinite(v) || v == std::floor(v));
      if (a.x.usable(v)) a.x.whole_top = std::max(a.x.whole_top, v);
    }
  if (plot.fixed_y && !(plot.log_y && plot.y_min <= 0.0)) {  // a log axis from 0 fits its data (walk 17: empty)
    const double pad = 0.03 * (plot.y_max - plot.y_min);
    a.y.lo = plot.y_min - pad, a.y.hi = plot.y_max + pad;
  }
  apply_axis_flags(a.x, plot.x_flags);
  apply_axis_flags(a.y, plot.y_flags);
  // The rounding band reaches up to its level: the axis shows it (and the air above it).
  if (plot.rounding_level > 0.0 && a.y.usable(plot.rounding_level)) {
    if (a.y.log) a.y.hi = std::max(a.y.hi, plot.rounding_level * std::pow(a.y.hi / a.y.lo, 0.03));
    else a.y.hi = std::max(a.y.hi, plot.rounding_level + 0.03 * (a.y.hi - a.y.lo));
  }
  return a;
}

void apply_axis_flags(Axis& a, unsigned flags) {
  if ((flags & AxisFlags_Index) && !a.log) {
    // Whole-number ticks, and half an index of room at the ends so that end marks sit clear of the frame.
    a.whole = true;
    const double lo = std::ceil(a.lo), hi = std::floor(a.hi);
    if (lo <= hi) a.lo = std::min(a.lo, lo - 0.5), a.hi = std::max(a.hi, hi + 0.5);
  }
  if ((flags & AxisFlags_FromZero) && !a.log) {
    // 0 inside the range, on the frame when every value is on one side of it; the air at the far
    // end grows with the range (3% of it, as fit_axis leaves).
    const double air = 0.03 / 1.06 * (a.hi - a.lo);  // fit_axis's air: 3% of the data's range
    if (a.lo > 0.0) a.lo = 0.0, a.hi = (a.hi - air) * 1.03;
    if (a.hi < 0.0) a.hi = 0.0, a.lo = (a.lo + air) * 1.03;
  }
}

// [SECTION] Ticks

std::vector<double> nice_ticks(double lo, double hi, int target, double min_step) {
  std::vector<double> ticks;
  if (!(hi > lo)) return {lo};
  const double raw = (hi - lo) / std::max(1, target);
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  const double r = raw / mag;
  const double step = std::max(min_step, (r < 1.5 ? 1.0 : r < 3.0 ? 2.0 : r < 7.0 ? 5.0 : 10.0) * mag);
  for (double t = std::ceil(lo / step) * step; t <= hi + step * 1e-9; t += step)
    ticks.push_back(std::fabs(t) < step * 1e-9 ? 0.0 : t);
  return ticks;
}

double bar_half_width(double axis_pixels, std::size_t bars) {
  return bars > 1 ? std::max(0.5, 0.4 * axis_pixels / static_cast<double>(bars)) : 4.0;
}

namespace {
// A log axis's ticks: decades, or 1-2-5 values over less than two decades.
std::vector<double> log_ticks(const Axis& a, int target) {
  // Decades, every k-th one so that at most about `target` labels fit (1e-15 .. 10 gets 1e-15,
  // 1e-12, ... rather than 17 overlapping labels).
  const double first = std::ceil(std::log10(a.lo)), last = std::floor(std::log10(a.hi));
  const double decades = last - first + 1.0;
  double stride = std::max(1.0, std::ceil(decades / std::max(2, target)));
  // A stride up to half again as wide that lands on the last decade too, so both ends are labelled
  // (walk 16: a curve up at 3.3e3 under a top label of 10, labels every 4 decades from 1e-15).
  for (double wider = stride; wider <= std::floor(stride * 1.5) && decades > 1.0; ++wider)
    if (std::fmod(decades - 1.0, wider) == 0.0) {
      stride = wider;
      break;
    }
  std::vector<double> t;
  for (double e = first; e <= last; e += stride) t.push_back(std::pow(10.0, e));
  // No such stride: the top decade is labelled all the same, in place of the label under it when
  // that one is less than half a stride away (walk 17: 3.3e3 above a top label of 10, 1e-15 to 1e4).
  if (const double gap = t.empty() ? 0.0 : last - std::round(std::log10(t.back())); stride > 1.0 && gap > 0.0) {
    if (gap < stride / 2.0 && t.size() > 2) t.back() = std::pow(10.0, last);
    else t.push_back(std::pow(10.0, last));
  }
  if (t.size() >= 2 && t.size() <= 3 && stride == 1.0) {
    // Two or three decades leave much of the axis beyond them unlabelled (walk 13: curves ending at
    // 0.0025 under the lowest label 0.01): the outermost 2 or 5 times a power of ten inside the axis.
    for (double m : {2.0, 5.0})
      if (const double below = m * std::pow(10.0, first - 1.0); below >= a.lo) {
        t.insert(t.begin(), below);
        break;
      }
    for (double m : {5.0, 2.0})
      if (const double above = m * std::pow(10.0, last); above <= a.hi) {
        t.push_back(above);
        break;
      }
  }
  if (t.size() >= 2) return t;
  // Less than two decades: 1, 2 and 5 times a power of ten, spaced evenly enough on a log scale
  // (linear nice ticks, 60000 70000 80000 90000, would crowd its upper end).
  t.clear();
  for (double e = std::floor(std::log10(a.lo)); e <= last; ++e)
    for (double m : {1.0, 2.0, 5.0}) {
      const double v = m * std::pow(10.0, e);
      if (v >= a.lo && v <= a.hi) t.push_back(v);
    }
  if (t.size() < 2) return nice_ticks(a.lo, a.hi, target);
  return t;
}
}  // namespace

std::vector<double> unlabelled_decades(const Axis& a, const std::vector<double>& labelled) {
  std::vector<double> out;
  if (!a.log || !(a.lo > 0.0) || !(a.hi > a.lo)) return out;
  const int first = static_cast<int>(std::ceil(std::log10(a.lo) - 1e-9)), last = static_cast<int>(std::floor(std::log10(a.hi) + 1e-9));
  if (last - first > 60) return out;
  for (int k = first; k <= last; ++k) {
    const double v = std::pow(10.0, k);
    const bool has_label = std::any_of(labelled.begin(), labelled.end(),
                                       [&](double t) { return std::fabs(t - v) <= 1e-9 * v; });
    if (!has_label) out.push_back(v);
  }
  return out;
}

std::vector<double> axis_ticks(const Axis& a, int target) {
  if (!a.log) return nice_ticks(a.lo, a.hi, target, a.whole ? 1.0 : 0.0);
  std::vector<double> t = log_ticks(a, target);
  // A log axis of a few whole numbers (m = 1, 2, 3; up to kWholeLabelledUpTo) labels its last one too
  // (walk 16: log x over m = 1..3 labelled 1 and 2 only); one too close to the last label takes its place.
  if (const double top = a.whole_top; a.whole && top <= kWholeLabelledUpTo && !t.empty() && top > t.back()) {
    const double least_gap = (std::log10(a.hi) - std::log10(a.lo)) / (2.0 * std::max(2, target));
    if (std::log10(top / t.back()) < least_gap) t.back() = top;
    else t.push_back(top);
  }
  return t;
}

FrameTicks frame_ticks(const Axis& x, const Axis& y, double width, double height, double font) {
  const int y_target = std::max(2, std::min(6, static_cast<int>(height / (font * 2.2))));
  const int x_target = std::max(2, static_cast<int>(width / (font * 6)));
  return {axis_ticks(x, x_target), axis_ticks(y, y_target)};
}

std::vector<double> colour_bar_ticks(double low, double high, int target) {
  if (!(std::isfinite(low) && std::isfinite(high) && high > low)) return {low};
  std::vector<double> inside;
  const double slack = (high - low) * 1e-9;
  for (double t : nice_ticks(low, high, target))
    if (t >= low - slack && t <= high + slack) inside.push_back(t);
  if (inside.size() < 2) return {low, high};
  return inside;
}

bool x_tick_label_ends_at_edge(double x, double width, double right_edge) { return x + 0.5 * width > right_edge; }

// [SECTION] Labels and headings

std::string tick_label(double v, int digits) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  // The exponent without its '+' and leading zeros ("5.2e+07" -> "5.2e7", "1e-09" -> "1e-9"): a
  // label must fit the plot's left margin, which "5.2e+07" overflowed.
  std::string text = buf;
  const std::size_t e = text.find('e');
  if (e == std::string::npos) return text;
  std::string exponent = text.substr(e + 1);
  const bool negative = !exponent.empty() && exponent[0] == '-';
  if (!exponent.empty() && (exponent[0] == '+' || exponent[0] == '-')) exponent.erase(0, 1);
  exponent.erase(0, std::min(exponent.find_first_not_of('0'), exponent.size() - 1));
  return text.substr(0, e + 1) + (negative ? "-" : "") + exponent;
}

LegendLayout legend_layout(const std::vector<std::string>& labels, double span, double font,
                           const std::function<double(const std::string&)>& text_width) {
  LegendLayout l;
  l.rows = labels.empty() ? 0 : 1;
  double x = 0.0, y = 0.0;
  const double room = std::max(font, span - font * kLegendLabel);  // for the label beside its sample
  for (const std::string& label : labels) {
    std::vector<std::string> lines = text_width(label) <= room ? std::vector<std::string>{label}
                                                               : wrap_lines(label, room, text_width);
    double widest = 0.0;
    for (const std::string& line : lines) widest = std::max(widest, text_width(line));
    const double entry = font * (kLegendLabel + kLegendGap) + widest;
    // An entry goes to a new row when it would pass the edge, or after an entry of several lines.
    const bool tall_before = !l.lines.empty() && l.lines.back().size() > 1;
    if (x > 0.0 && (x + entry > span || lines.size() > 1 || tall_before)) {
      const double below = tall_before ? static_cast<double>(l.lines.back().size()) : 1.0;
      x = 0.0, y += font * 1.3 * below, l.rows += static_cast<int>(below);
    }
    l.x.push_back(x);
    l.y.push_back(y);
    x += entry;
    l.lines.push_back(std::move(lines));
  }
  if (!l.lines.empty()) l.rows += static_cast<int>(l.lines.back().size()) - 1;
  return l;
}

LegendLayout legend_layout(const std::vector<Series>& series, double span, double font,
                           const std::function<double(const std::string&)>& text_width) {
  std::vector<std::string> labels;
  for (const Series& s : series) labels.push_back(s.name);
  return legend_layout(labels, span, font, text_width);
}

std::string plot_heading(const Plot& plot) {
  return plot.y_label.empty() ? plot.title : plot.title + "  (" + plot.y_label + ")";
}

PlotFrame plot_frame(const Plot& plot, const std::vector<SeriesDrawing>& drawings, double width, double height,
                     double font, const std::function<double(const std::string&)>& text_width, bool legend) {
  // The legend sits in rows under the x label; lay it out first to reserve the space.
  // Laid out by the legend's texts (a coinciding series says so: lab/plot_looks.hpp).
  std::vector<std::string> labels;
  for (const SeriesDrawing& d : drawings) labels.push_back(d.legend);
  const LegendLayout l = legend ? legend_layout(labels, width - font * 4.4, font, text_width) : LegendLayout{};
  const double left = font * 3.6;
  const std::string heading = plot_heading(plot);
  std::vector<std::string> lines;
  if (!heading.empty()) lines = wrap_lines(heading, std::max(font, width - left - font * 0.5), text_width);
  const double extra = lines.size() > 1 ? 1.3 * static_cast<double>(lines.size() - 1) : 0.0;
  PlotFrame f{left, width - font * 0.8, font * (1.6 + extra), height - font * (2.6 + 1.3 * l.rows), l.rows,
              {}, {}, l.lines, lines};
  // The entries, in rows under the x label (they never hide the data).
  for (std::size_t k = 0; k < l.x.size(); ++k) {
    f.legend_x.push_back(f.left + l.x[k]);
    f.legend_y.push_back(f.bottom + font * 2.6 + l.y[k]);
  }
  return f;
}

}  // namespace attnlab
