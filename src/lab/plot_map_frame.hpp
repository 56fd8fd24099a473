// The words and ticks around a heatmap (a matrix or a 2-D map), shared by the page's heatmap widget
// and its tests: the title and the caption wrapped to the width they are drawn in (never cut), and
// tick labels on both axes, at values of the grid (Heatmap::x_values) or at whole cell numbers.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "lab/results.hpp"

namespace attnlab {

struct MapTick {
  double at;          // along the image, 0 (left or top) to 1 (right or bottom)
  std::string label;  // the value there ("0.5", "12")
};

struct MapFrame {
  std::vector<std::string> title, caption;  // each in lines no wider than the width given
  std::vector<MapTick> x_ticks, y_ticks;
};

// The caption under the image: "x: X; y: Y; colour: V; note".
std::string heatmap_caption(const Heatmap& h);

// Where cell (row, col) of `h` is, in its axes' words, for the hover read-out and the text view:
// on an axis with values "x_1 = 0.52" (Heatmap::x_values, a slice's values: "key token = 2"), else
// the cell's number as the ticks count it, "column 45" ("row 16" for rows); x first.
std::string cell_place(const Heatmap& h, int row, int col);
// The same for a point in fractional cell coordinates (Heatmap::Path: cell k spans k to k + 1).
std::string point_place(const Heatmap& h, double row, double col);

// The ring, else the path point, of `h` within `reach` pixels of the pointer at (row, col) (fractional
// cells; a cell drawn cell_width x cell_height pixels), the nearest, in words with its own place:
// "x* at x_1 = -0.4, x_2 = 1.4" for a ring, "exact Newton, point 3 of 7 at ..." for a path's point
// (counted from 0, the start); "" when none is that near (walk 13: the hover read-out on x* named
// only the cell under it).
std::string map_point_name(const Heatmap& h, double row, double col, double cell_width, double cell_height, double reach);

// What a map's image spans on the axes with values, for the text view: "x_1 from -1.9 to 1.9, x_2 from
// -1.8 to 1.9" (to the image's edges); "" when neither axis has values.
std::string map_extent(const Heatmap& h);

// Ticks along one axis of `cells` cells whose centres hold `values` (or are numbered), about
// `target` of them, each inside the image.
std::vector<MapTick> map_ticks(int cells, const std::optional<Heatmap::GridValues>& values, int target);

// The frame of `h` drawn `width` wide with an image `image_width` x `image_height` (pixels).
MapFrame map_frame(const Heatmap& h, double width, double image_width, double image_height, double font,
                   const std::function<double(const std::string&)>& text_width);

}  // namespace attnlab
