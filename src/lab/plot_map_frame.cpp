#include "lab/plot_map_frame.hpp"

#include <algorithm>
#include <cmath>

#include "lab/plot_ticks.hpp"
#include "lab/text.hpp"

namespace attnlab {

std::string heatmap_caption(const Heatmap& h) {
  std::string s = "x: " + h.x_label + "; y: " + h.y_label;
  if (!h.value_label.empty()) s += "; colour: " + h.value_label;
  if (!h.note.empty()) s += "; " + h.note;
  return s;
}

std::vector<MapTick> map_ticks(int cells, const std::optional<Heatmap::GridValues>& values, int target) {
  std::vector<MapTick> out;
  if (cells <= 0) return out;
  const double n = static_cast<double>(cells);
  if (!values || !(std::isfinite(values->first) && std::isfinite(values->last))) {
    // Numbered cells: whole numbers, each at its cell's centre.
    for (double t : nice_ticks(0.0, n - 1.0, target, 1.0)) out.push_back({(t + 0.5) / n, tick_label(t)});
    return out;
  }
  // Values: the image spans half a cell beyond the first and the last centre.
  const double step = cells > 1 ? (values->last - values->first) / (n - 1.0) : 1.0;
  const double edge0 = values->first - 0.5 * step, edge1 = values->last + 0.5 * step;
  for (double t : nice_ticks(std::min(edge0, edge1), std::max(edge0, edge1), target)) {
    const double at = (t - edge0) / (edge1 - edge0);
    if (at >= 0.0 && at <= 1.0) out.push_back({at, tick_label(t)});
  }
  return out;
}

MapFrame map_frame(const Heatmap& h, double width, double image_width, double image_height, double font,
                   const std::function<double(const std::string&)>& text_width) {
  MapFrame f;
  f.title = wrap_lines(h.title, width, text_width);
  f.caption = wrap_lines(heatmap_caption(h), width, text_width);
  f.x_ticks = map_ticks(h.cols, h.x_values, std::max(2, static_cast<int>(image_width / (font * 5.0))));
  f.y_ticks = map_ticks(h.rows, h.y_values, std::max(2, static_cast<int>(image_height / (font * 2.2))));
  return f;
}

}  // namespace attnlab
