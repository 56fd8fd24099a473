#include "lab/plot_looks.hpp"

#include <algorithm>
#include <cmath>

#include "lab/plot_ticks.hpp"

namespace attnlab {

namespace {
bool highlighted(const Series& s) { return (s.flags & SeriesFlags_Highlight) != 0; }

bool same_value(double a, double b) {
  if (!std::isfinite(a) || !std::isfinite(b)) return !std::isfinite(a) && !std::isfinite(b);
  return std::fabs(a - b) <= 1e-12 * std::max(std::fabs(a), std::fabs(b));
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

std::vector<SeriesDrawing> series_drawings(const Plot& plot, bool light_background) {
  const bool index_axis = ((plot.x_flags | plot.y_flags) & AxisFlags_Index) != 0;
  const bool any_highlight = std::any_of(plot.series.begin(), plot.series.end(), highlighted);
  std::vector<SeriesDrawing> out(plot.series.size());
  // Colour slots: the series drawn in full first (in order), then the dimmed ones.
  std::size_t slot = 0;
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
    const Series& s = plot.series[k];
    SeriesDrawing& d = out[k];
    d.look = series_look(d.colour_slot, light_background);
    if (d.reference) d.look.dash = kReferenceDash;
    const bool marks = !d.reference && s.style != SeriesStyle::Bars && (index_axis || (s.flags & SeriesFlags_Marks));
    d.line = s.style != SeriesStyle::Bars && !marks;
    d.markers = !d.dimmed && (marks || (s.style == SeriesStyle::LineMarkers && s.x.size() <= kMarkedPointsMax));
    d.width = d.reference ? 1.5 : d.dimmed ? 1.2 : 2.0;
    d.legend = s.name;
    for (std::size_t j = 0; j < k && d.coincides_with < 0; ++j)
      if (!d.reference && !out[j].reference && same_points(plot.series[j], s)) d.coincides_with = static_cast<int>(j);
    if (d.coincides_with >= 0) {
      // Drawn over the earlier one, dashed, while the earlier one is drawn wider: both show.
      SeriesDrawing& under = out[static_cast<std::size_t>(d.coincides_with)];
      under.width = std::max(under.width, 4.5);
      if (d.look.dash.solid()) d.look.dash = kDashed;
      // An experiment may name the twin in the series itself ("...; identical to linear on D1").
      const bool named = s.name.find("identical to ") != std::string::npos || s.name.find("same as ") != std::string::npos;
      if (!named) d.legend += " (same as " + plot.series[static_cast<std::size_t>(d.coincides_with)].name + ")";
    }
  }
  return out;
}

std::string rounding_band_label(double level) { return "rounding level (below " + tick_label(level) + ")"; }

std::vector<std::size_t> drawing_order(const Plot& plot) {
  std::vector<std::size_t> order;
  const bool any_highlight = std::any_of(plot.series.begin(), plot.series.end(), highlighted);
  for (int pass = 0; pass < 3; ++pass)
    for (std::size_t k = 0; k < plot.series.size(); ++k) {
      const Series& s = plot.series[k];
      const int rank = !any_highlight || s.style == SeriesStyle::Reference ? 1 : highlighted(s) ? 2 : 0;
      if (rank == pass) order.push_back(k);
    }
  return order;
}

}  // namespace attnlab
