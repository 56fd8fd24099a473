#include "lab/plot_map_frame.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "lab/plot_ticks.hpp"
#include "lab/text.hpp"

namespace attnlab {

std::string heatmap_caption(const Heatmap& h) {
  std::string s = "x: " + h.x_label + "; y: " + h.y_label;
  if (h.x_label.empty() && h.y_label.empty()) s.clear();
  if (!h.value_label.empty()) s += (s.empty() ? "colour: " : "; colour: ") + h.value_label;
  if (!h.note.empty()) s += "; " + h.note;
  return s;
}

namespace {

// The image's edges along an axis of `cells` cells whose centres hold `v`: half a cell beyond the first
// and the last centre (the second below the first on a falling axis).
std::pair<double, double> grid_edges(const Heatmap::GridValues& v, int cells) {
  const double step = cells > 1 ? (v.last - v.first) / double(cells - 1) : 1.0;
  return {v.first - 0.5 * step, v.last + 0.5 * step};
}

// The place `at` (in cells from the axis's start: cell k spans k to k + 1) on an axis of `cells` cells
// with these values or slices, in words (cell_place).
std::string axis_place(double at, int cells, const std::optional<Heatmap::GridValues>& values,
                       const std::vector<Heatmap::RowSlice>& slices, const std::string& label, const char* unnamed) {
  const auto value = [](const Heatmap::GridValues& v, double centres_from_first, int n) {
    return n > 1 ? v.first + (v.last - v.first) * centres_from_first / double(n - 1) : v.first;
  };
  const std::string named = axis_short_name(label, unnamed);
  // A path's end on the image's far edge (at == cells) is in the last slice (walk 12: "column 0").
  if (!slices.empty()) at = std::clamp(at, 0.0, double(cells) - 0.5);
  for (const Heatmap::RowSlice& s : slices) {
    if (at < s.rows)
      return named + " = " + printf_text("%.4g", value({s.first, s.last}, std::floor(at), s.rows)) +
             (s.name.empty() ? "" : " (" + s.name + ")");
    at -= s.rows;
  }
  if (values && std::isfinite(values->first) && std::isfinite(values->last))
    return named + " = " + printf_text("%.4g", value(*values, at - 0.5, cells));
  // Numbered cells: the axis's own name where it has one (walk 13: "row 1" beside "query token").
  const std::string number = std::to_string(static_cast<long>(std::floor(at)));
  return label.empty() ? std::string(unnamed) + " " + number : named + " = " + number;
}

// A path's point i as the hover names it: "exact Newton, iteration t = 3" (walk 18: "point 2 of 11" had to
// be turned into an iteration), else "point 2 of 11" counted from 1; the start and end said (walk 17);
// a line of two points is named by its label alone.
std::string path_point_name(const Heatmap::Path& p, std::size_t i) {
  const std::size_t n = p.rows.size();
  const std::string end = i == 0 ? " (its start)" : i + 1 == n ? " (its end)" : "";
  if (!p.point_name.empty()) return p.label + ", " + p.point_name + " = " + std::to_string(i) + end;
  if (n > 2) return p.label + ", point " + std::to_string(i + 1) + " of " + std::to_string(n) + end;
  return p.label;
}

}  // namespace

std::string map_extent(const Heatmap& h) {
  std::string out;
  const auto span = [&](const std::optional<Heatmap::GridValues>& v, int cells, const std::string& label,
                        const char* unnamed) {
    if (!v || cells < 1 || !std::isfinite(v->first) || !std::isfinite(v->last)) return;
    const auto [edge0, edge1] = v->counted ? std::make_pair(v->first, v->last) : grid_edges(*v, cells);
    out += (out.empty() ? "" : ", ") + axis_short_name(label, unnamed) + " from " + printf_text("%.4g", std::min(edge0, edge1)) +
           " to " + printf_text("%.4g", std::max(edge0, edge1));
  };
  span(h.x_values, h.cols, h.x_label, "column");
  span(h.y_values, h.rows, h.y_label, "row");
  return out;
}

std::string map_point_name(const Heatmap& h, double row, double col, double cell_width, double cell_height, double reach) {
  std::string name;
  double nearest = reach;
  const auto consider = [&](double r, double c, const std::string& words) {
    const double d = std::hypot((c - col) * cell_width, (r - row) * cell_height);
    if (d <= nearest) nearest = d, name = words + " at " + point_place(h, r, c);
  };
  // A ring first (walk 14: on x* the read-out named a path's last point beside it), then a path's point.
  for (const Heatmap::Mark& m : h.marks) {
    const bool point = std::isfinite(m.at_row) && std::isfinite(m.at_col);
    consider(point ? m.at_row : m.row + 0.5, point ? m.at_col : m.col + 0.5, m.label);
  }
  if (!name.empty()) return name;
  for (const Heatmap::Path& p : h.paths)
    for (std::size_t i = 0; i < p.rows.size() && i < p.cols.size(); ++i)
      consider(p.rows[i], p.cols[i], path_point_name(p, i));
  if (!name.empty()) return name;
  // Else the line between two points (walk 14: the "tokens left out" line was not named): its point
  // nearest the pointer, in pixels.
  for (const Heatmap::Path& p : h.paths)
    for (std::size_t i = 1; i < p.rows.size() && i < p.cols.size(); ++i) {
      const double ax = p.cols[i - 1] * cell_width, ay = p.rows[i - 1] * cell_height;
      const double bx = p.cols[i] * cell_width - ax, by = p.rows[i] * cell_height - ay;
      const double length2 = bx * bx + by * by;
      const double t = length2 > 0.0 ? std::clamp(((col * cell_width - ax) * bx + (row * cell_height - ay) * by) / length2, 0.0, 1.0) : 0.0;
      consider((ay + t * by) / cell_height, (ax + t * bx) / cell_width, p.label);
    }
  return name;
}

std::string cell_place(const Heatmap& h, int row, int col) { return point_place(h, row + 0.5, col + 0.5); }

std::string point_place(const Heatmap& h, double row, double col) {
  return axis_place(col, h.cols, h.x_values, h.x_slices, h.x_label, "column") + ", " +
         axis_place(row, h.rows, h.y_values, h.y_slices, h.y_label, "row");
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
  const auto [edge0, edge1] = grid_edges(*values, cells);
  for (double t : nice_ticks(std::min(edge0, edge1), std::max(edge0, edge1), target)) {
    const double at = (t - edge0) / (edge1 - edge0);
    if (at >= 0.0 && at <= 1.0) out.push_back({at, tick_label(t)});
  }
  return out;
}

namespace {

// The ticks of rows (columns) drawn from slices (Heatmap::y_slices, x_slices) of `cells` in all:
// each slice's own ticks, placed in its share of the image, none closer than `gap` (a fraction of
// the image) to the one before.
std::vector<MapTick> slice_ticks(const std::vector<Heatmap::RowSlice>& slices, int cells, int target, double gap) {
  std::vector<MapTick> out;
  int at_cell = 0;
  for (const Heatmap::RowSlice& s : slices) {
    const int share = std::max(2, target * s.rows / std::max(1, cells));
    for (const MapTick& t : map_ticks(s.rows, Heatmap::GridValues{s.first, s.last}, share)) {
      const double at = (at_cell + t.at * s.rows) / cells;
      if (out.empty() || at - out.back().at >= gap) out.push_back({at, t.label});
    }
    at_cell += s.rows;
  }
  return out;
}

}  // namespace

MapFrame map_frame(const Heatmap& h, double width, double image_width, double image_height, double font,
                   const std::function<double(const std::string&)>& text_width) {
  MapFrame f;
  f.title = wrap_lines(h.title, width, text_width);
  f.caption = wrap_lines(heatmap_caption(h), width, text_width);
  const int x_target = std::max(2, static_cast<int>(image_width / (font * 5.0)));
  f.x_ticks = h.x_slices.empty() ? map_ticks(h.cols, h.x_values, x_target)
                                 : slice_ticks(h.x_slices, h.cols, x_target, font * 1.5 / std::max(1.0, image_width));
  const int y_target = std::max(2, static_cast<int>(image_height / (font * 2.2)));
  f.y_ticks = h.y_slices.empty() ? map_ticks(h.rows, h.y_values, y_target)
                                 : slice_ticks(h.y_slices, h.rows, y_target, font * 1.2 / std::max(1.0, image_height));
  return f;
}

}  // namespace attnlab
