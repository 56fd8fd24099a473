#include "lab/plot_looks.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "lab/plot_ticks.hpp"

namespace attnlab {

namespace {
bool highlighted(const Series& s) { return (s.flags & SeriesFlags_Highlight) != 0; }

bool same_value(double a, double b) {
  if (!std::isfinite(a) || !std::isfinite(b)) return !std::isfinite(a) && !std::isfinite(b);
  return std::fabs(a - b) <= 1e-12 * std::max(std::fabs(a), std::fabs(b));
}
// Series of one colour family (palette.hpp colour_family) in colour-slot order: each keeps its own
// dash unless an earlier one of its family has it; then it takes the first dash its family lacks.
void spread_family_dashes(std::vector<SeriesDrawing>& out) {
  static constexpr Dash dashes[3] = {kSolid, kDashed, kDotted};
  std::vector<std::size_t> by_slot(out.size(), out.size());  // the non-reference series hold slots 0, 1, ...
  for (std::size_t k = 0; k < out.size(); ++k)
    if (!out[k].reference) by_slot[out[k].colour_slot] = k;
  unsigned used[kSeriesColours] = {};  // family -> the dashes (bits) it has
  for (std::size_t k : by_slot) {
    if (k == out.size()) break;
    unsigned& have = used[colour_family(out[k].colour_slot)];
    std::size_t mine = out[k].colour_slot % 3;
    for (std::size_t step = 0; step < 3 && (have >> mine & 1u); ++step) mine = (mine + 1) % 3;
    out[k].look.dash = dashes[mine];
    have |= 1u << mine;
  }
}
}  // namespace

bool same_points(const Series& a, const Series& b) {
  if (a.style == SeriesStyle::Bars || b.style == SeriesStyle::Bars) return false;
  if (a.x.empty() || a.x.size() != b.x.size() || a.y.size() != b.y.size() || a.x.size() != a.y.size()) return false;
  bool any = false;
  for (std::size_t i = 0; i < a.x.size(); ++i) {
    if (!same_value(a.x[i], b.x[i]) || !same_value(a.y[i], b.y[i])) return false;
    any = any || std::isfinite(a.y[i]);
  }
  return any;
}

std::pair<std::size_t, std::size_t> points_on(const Series& a, const Series& b, const PlotAxes& axes) {
  std::size_t on = 0, points = 0;
  if (a.style == SeriesStyle::Bars || b.style == SeriesStyle::Bars) return {0, 0};
  for (std::size_t i = 0; i < b.x.size() && i < b.y.size(); ++i) {
    if (!axes.x.usable(b.x[i]) || !axes.y.usable(b.y[i])) continue;
    ++points;
    if (i >= a.x.size() || i >= a.y.size() || !same_value(a.x[i], b.x[i]) || !axes.y.usable(a.y[i])) continue;
    on += std::fabs(axes.y.map(a.y[i]) - axes.y.map(b.y[i])) <= kSameWithin;
  }
  return {on, points};
}

// The earlier series that series k lies on at every point as drawn, or else the first it lies on
// over at least half its points (not the common start of curves that part), neither faint (a
// faint one under a highlighted one is meant to be behind): set in out[k]; returns (on, of) of a
// partial twin.
static std::pair<std::size_t, std::size_t> find_twin(const Plot& plot, std::vector<SeriesDrawing>& out, std::size_t k,
                                                     const PlotAxes& axes) {
  SeriesDrawing& d = out[k];
  int partly = -1;
  std::pair<std::size_t, std::size_t> partly_on{0, 0};
  for (std::size_t j = 0; j < k && !d.reference; ++j) {
    if (out[j].reference) continue;
    const auto on = points_on(plot.series[j], plot.series[k], axes);
    if (on.second > 0 && on.first == on.second) {
      d.coincides_with = static_cast<int>(j);
      return {0, 0};
    }
    if (on.first >= 3 && 2 * on.first >= on.second && partly < 0 && !d.dimmed && !out[j].dimmed)
      partly = static_cast<int>(j), partly_on = on;
  }
  if (partly >= 0) d.coincides_with = partly, d.coincides_partly = true;
  return partly_on;
}

// Two values in the fewest significant digits (3 to 6) that tell them apart (walk 17: "0.941358
// against 0.948229" where "0.941 against 0.948" says it).
static std::string apart(double a, double b) {
  for (int digits = 3;; ++digits) {
    const std::string x = tick_label(a, digits), y = tick_label(b, digits);
    if (x != y || digits == 6) return x + " against " + y;
  }
}

// A level (SeriesFlags_Level) within kCloseLevel of the y axis's height of an earlier level is drawn
// on it: its legend says so, with both values (walk 13: regression 2's bound 0.942 hid under 0.948).
static void name_close_levels(const Plot& plot, const PlotAxes& axes, std::vector<SeriesDrawing>& out) {
  const auto level = [&](std::size_t k) {
    const Series& s = plot.series[k];
    return (s.flags & SeriesFlags_Level) && !s.y.empty() && axes.y.usable(s.y[0]);
  };
  for (std::size_t k = 0; k < plot.series.size(); ++k)
    for (std::size_t j = 0; j < k && level(k); ++j)
      if (level(j) && std::fabs(axes.y.map(plot.series[k].y[0]) - axes.y.map(plot.series[j].y[0])) < kCloseLevel) {
        const std::string& other = plot.series[j].name;
        out[k].legend += " (nearly on " + other.substr(0, other.find(" (")) + ": " +
                         apart(plot.series[k].y[0], plot.series[j].y[0]) + ")";
        break;
      }
}

// The dodged series (SeriesFlags_Dodge) side by side, kDodgePixels apart and centred on their x.
static void set_dodges(const Plot& plot, std::vector<SeriesDrawing>& out) {
  std::vector<std::size_t> dodged;
  for (std::size_t k = 0; k < plot.series.size(); ++k)
    if (plot.series[k].flags & SeriesFlags_Dodge) dodged.push_back(k);
  if (dodged.size() < 2) return;
  for (std::size_t j = 0; j < dodged.size(); ++j)
    out[dodged[j]].dodge = kDodgePixels * (double(j) - 0.5 * double(dodged.size() - 1));
}

std::vector<SeriesDrawing> series_drawings(const Plot& plot, bool light_background) {
  const PlotAxes axes = fit_plot_axes(plot);
  const bool index_axis = ((plot.x_flags | plot.y_flags) & AxisFlags_Index) != 0;
  const bool any_highlight = std::any_of(plot.series.begin(), plot.series.end(), highlighted);
  std::vector<SeriesDrawing> out(plot.series.size());
  // Colour slots: the series drawn in full first (in order), then the dimmed ones.
  std::size_t slot = 0, references = 0;
  for (int pass = 0; pass < 2; ++pass)
    for (std::size_t k = 0; k < plot.series.size(); ++k) {
      const Series& s = plot.series[k];
      SeriesDrawing& d = out[k];
      d.reference = s.style == SeriesStyle::Reference;
      d.dimmed = any_highlight && !d.reference && !highlighted(s);
      if (d.reference || d.dimmed != (pass == 1)) continue;
      d.colour_slot = slot++;
    }
  for (std::size_t k = 0; k < plot.series.size(); ++k) {
    SeriesDrawing& d = out[k];
    d.look = series_look(d.colour_slot, light_background);
    if (d.reference) d.look.dash = kReferenceDashes[references++ % kReferencePatterns];
  }
  spread_family_dashes(out);
  for (std::size_t k = 0; k < plot.series.size(); ++k) {
    const Series& s = plot.series[k];
    SeriesDrawing& d = out[k];
    const bool marks = !d.reference && s.style != SeriesStyle::Bars && (index_axis || (s.flags & SeriesFlags_Marks));
    d.line = s.style != SeriesStyle::Bars && !marks;
    d.markers = !d.dimmed && (marks || (s.style == SeriesStyle::LineMarkers && s.x.size() <= kMarkedPointsMax));
    d.width = d.reference ? 1.5 : d.dimmed ? 1.2 : 2.0;
    d.legend = s.name;
    const std::pair<std::size_t, std::size_t> partly_on = find_twin(plot, out, k, axes);
    if (d.coincides_with >= 0) {
      // Drawn over the earlier one, dashed, while the earlier one is drawn wider: both show.
      const Series& twin = plot.series[static_cast<std::size_t>(d.coincides_with)];
      SeriesDrawing& under = out[static_cast<std::size_t>(d.coincides_with)];
      under.width = std::max(under.width, 4.5);
      if (d.look.dash.solid()) d.look.dash = kDashed;
      // An experiment may name the twin in the series itself ("...; identical to linear on D1").
      const bool named = s.name.find("identical to ") != std::string::npos || s.name.find("same as ") != std::string::npos;
      if (d.coincides_partly)
        d.legend += " (on top of " + twin.name.substr(0, twin.name.find(" (")) + " at " + std::to_string(partly_on.first) + " of " +
                    std::to_string(partly_on.second) + " points)";
      else if (!named)
        d.legend += " (same as " + twin.name + ")";
    }
  }
  set_dodges(plot, out);
  name_close_levels(plot, axes, out);
  // Marks at the same point: a mark that a later series' mark would cover is drawn larger than that
  // one (and first: drawing_order), so every mark there shows as a ring around the next.
  std::map<std::pair<double, double>, double> later;  // point -> the largest mark drawn there after
  for (std::size_t k = out.size(); k-- > 0;) {
    if (!out[k].markers || out[k].dodge != 0.0) continue;  // a dodged mark sits apart from the others
    const Series& s = plot.series[k];
    std::vector<double> scale(s.x.size(), 1.0);
    bool grown = false;
    for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
      if (!std::isfinite(s.x[i]) || !std::isfinite(s.y[i])) continue;
      const auto at = later.find({s.x[i], s.y[i]});
      if (at != later.end()) scale[i] = at->second + kCoveredMarkGrowth, grown = true;
    }
    for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i)
      if (std::isfinite(s.x[i]) && std::isfinite(s.y[i])) {
        double& largest = later[{s.x[i], s.y[i]}];
        largest = std::max(largest, scale[i]);
      }
    if (!grown) continue;
    out[k].mark_scale = std::move(scale);
    out[k].legend += " (larger marks where another curve's mark sits on top)";  // walk 11: unexplained
  }
  return out;
}

std::optional<RoundingBandBox> rounding_band_box(const Plot& plot, const Axis& y, double left, double top,
                                                 double bottom, double font) {
  if (!(plot.rounding_level > 0.0) || !y.usable(plot.rounding_level)) return std::nullopt;
  const double band_top = std::max(top, bottom - y.map(plot.rounding_level) * (bottom - top));
  if (!(band_top < bottom)) return std::nullopt;
  return RoundingBandBox{band_top, bottom, left + font * 0.4, std::min(band_top + font * 0.2, bottom - font * 1.1),
                         rounding_band_label(plot.rounding_level)};
}

std::string rounding_band_label(double level) { return "rounding level (below " + tick_label(level) + ")"; }

std::vector<std::size_t> drawing_order(const Plot& plot, const std::vector<SeriesDrawing>& drawings) {
  const bool any_highlight = std::any_of(plot.series.begin(), plot.series.end(), highlighted);
  std::vector<int> group(plot.series.size());  // 0: marks, 1: lines without marks
  for (std::size_t k = 0; k < plot.series.size(); ++k) {
    group[k] = drawings[k].markers ? 0 : 1;
    if (drawings[k].coincides_with >= 0) group[k] = std::max(group[k], group[static_cast<std::size_t>(drawings[k].coincides_with)]);
  }
  std::vector<std::size_t> order;
  for (int pass = 0; pass < 3; ++pass)
    for (int g = 0; g < 2; ++g)
      for (std::size_t k = 0; k < plot.series.size(); ++k) {
        const Series& s = plot.series[k];
        const int rank = !any_highlight || s.style == SeriesStyle::Reference ? 1 : highlighted(s) ? 2 : 0;
        if (rank == pass && group[k] == g) order.push_back(k);
      }
  return order;
}

}  // namespace attnlab
