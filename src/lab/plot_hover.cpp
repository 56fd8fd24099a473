#include "lab/plot_hover.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "lab/text.hpp"

namespace attnlab {

std::optional<HoverReadout> hover_readout(const Plot& plot, const PlotAxes& axes, double at) {
  HoverReadout out;
  double nearest = INFINITY;  // of the points within reach, the nearest one's distance
  std::vector<HoverLine> levels;  // a level (SeriesFlags_Level) holds its value at every x (walk 13)
  for (std::size_t k = 0; k < plot.series.size(); ++k) {
    const Series& s = plot.series[k];
    if ((s.flags & SeriesFlags_Level) && !s.y.empty()) {
      levels.push_back({k, 0, false});
      continue;
    }
    std::size_t best = s.x.size();
    double gap = kHoverReach;
    for (std::size_t i = 0; i < s.x.size(); ++i) {
      if (!axes.x.usable(s.x[i])) continue;
      const double d = std::fabs(axes.x.map(s.x[i]) - at);
      if (d <= gap) best = i, gap = d;
    }
    if (best == s.x.size()) continue;
    out.lines.push_back({k, best, false});
    if (gap < nearest) out.x = s.x[best], nearest = gap;
  }
  if (out.lines.empty()) return std::nullopt;
  for (HoverLine& line : out.lines) line.own_x = plot.series[line.series].x[line.point] != out.x;
  out.lines.insert(out.lines.end(), levels.begin(), levels.end());
  return out;
}

std::string value_with_range(double value, double low, double high) {
  // The decimals that give each nonzero value at least three significant digits.
  int decimals = 0;
  for (double v : {value, low, high})
    if (v != 0.0) decimals = std::max(decimals, 2 - static_cast<int>(std::floor(std::log10(std::fabs(v)))));
  const double largest = std::max({std::fabs(value), std::fabs(low), std::fabs(high)});
  if (decimals > 6 || largest >= 1e5 || !std::isfinite(largest)) return printf_text("%.3g  [%.3g, %.3g]", value, low, high);
  char out[96];
  std::snprintf(out, sizeof out, "%.*f  [%.*f, %.*f]", decimals, value, decimals, low, decimals, high);
  return out;
}

}  // namespace attnlab
