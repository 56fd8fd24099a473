// What an experiment produces: a table (one row per sweep point, say) and plots built from it.
#pragma once
#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace attnlab {

struct Table {
  std::vector<std::string> columns;
  std::vector<std::vector<double>> rows;  // each row has columns.size() entries; NaN = missing
  int column(const std::string& name) const;  // index or -1
  // What the columns mean in a student's words (lab/column_key.hpp): exact names, or patterns with
  // one '*' ("exp_d1*", "*_low") whose words join; a column named as a parameter needs no entry.
  struct KeyEntry {
    std::string name, words;
  };
  std::vector<KeyEntry> key;
};

enum class SeriesStyle { LineMarkers, Line, Reference, Bars };

// Named flags of a series, combined with | (as ImPlot's): how it is drawn beyond its style.
enum SeriesFlags : unsigned {
  SeriesFlags_None = 0,
  SeriesFlags_Marks = 1u << 0,      // marks at its points, no line joining them (categories, indices)
  SeriesFlags_Highlight = 1u << 1,  // the series the text names: the plot's other series are dimmed
  // Its marks are drawn a few pixels beside their x, apart from the plot's other dodged series (marks
  // that would sit on each other: several sequences at one p); the data, read-out and table keep x.
  SeriesFlags_Dodge = 1u << 2,
  // A level (chance, a bound): drawn across the whole plot at its first point's y, not only between
  // its first and last x (walk 11: multihead 3's chance line ran from bar middle to bar middle).
  SeriesFlags_Level = 1u << 3,
};

struct Series {
  std::string name;
  SeriesStyle style = SeriesStyle::LineMarkers;
  std::vector<double> x, y;
  std::vector<double> y_low, y_high;  // error bars; empty when none
  unsigned flags = SeriesFlags_None;  // SeriesFlags
};

// Named flags of an axis, combined with | (as ImPlot's).
enum AxisFlags : unsigned {
  AxisFlags_None = 0,
  // Its values are indices (a token, a sequence, a sweep point): ticks at whole numbers only, and
  // every series of the plot is drawn as marks (no line between two indices).
  AxisFlags_Index = 1u << 0,
  // An amount (work, a count): a linear axis starts at 0, so a difference is drawn to scale.
  AxisFlags_FromZero = 1u << 1,
};

// A relative error below this is rounding of doubles (eps = 2.2e-16 over the thousands of operations
// of a figure's quantity): the level of Plot::rounding_band in the figures that measure one.
inline constexpr double kRoundingLevel = 1e-12;

// A story's plot shows at most this many series, or highlights the one its text names
// (SeriesFlags_Highlight): more are not told apart.
inline constexpr std::size_t kSeriesShownMax = 6;

// Declared by name: Plot::titled("Loss").x("iteration t").y("loss").log_y_axis().y_range(0, 1)
// .x_axis(AxisFlags_Index)
// (the setters' names differ from the fields', which readers of a Plot use unchanged).
struct Plot {
  std::string title;
  std::string x_label;
  std::string y_label;
  bool log_x = false;
  bool log_y = false;
  bool fixed_y = false;  // use [y_min, y_max] instead of fitting the data
  double y_min = 0.0, y_max = 1.0;
  unsigned x_flags = AxisFlags_None, y_flags = AxisFlags_None;  // AxisFlags
  // Values of y below this are rounding error (a relative error of doubles): drawn as a band
  // labelled "rounding level" under it; 0 for none.
  double rounding_level = 0.0;
  std::vector<Series> series;

  static Plot titled(std::string text) {
    Plot p;
    p.title = std::move(text);
    return p;
  }
  Plot& x(std::string label) { x_label = std::move(label); return *this; }
  Plot& y(std::string label) { y_label = std::move(label); return *this; }
  Plot& log_x_axis(bool on = true) { log_x = on; return *this; }
  Plot& log_y_axis(bool on = true) { log_y = on; return *this; }
  // A fixed y range instead of one fitted to the data.
  Plot& y_range(double low, double high) { fixed_y = true; y_min = low; y_max = high; return *this; }
  Plot& x_axis(unsigned flags) { x_flags = flags; return *this; }
  Plot& y_axis(unsigned flags) { y_flags = flags; return *this; }
  Plot& rounding_band(double level) { rounding_level = level; return *this; }
};

// A matrix drawn as a colour-mapped image (the inspector's attention matrices). Large matrices
// arrive down-sampled: each cell is then the mean over a block of entries (`note` says so).
struct Heatmap {
  std::string title;
  std::string x_label, y_label;
  int rows = 0, cols = 0;
  std::vector<double> values;  // rows x cols, row-major
  double low = 0.0, high = 1.0;  // the colour scale
  std::string note;
  struct Mark {
    int row, col;
    std::string label;  // e.g. "planted (j2, j3)"
    // Where the point it marks lies exactly, in fractional cells (cell k spans k to k + 1), when it
    // is a point of a map rather than a cell (x* on the loss map); else NaN.
    double at_row = NAN, at_col = NAN;
  };
  std::vector<Mark> marks;  // cells to outline: single entries that matter but are one pixel wide
  struct Path {
    std::string label;
    std::vector<double> rows, cols;  // fractional cell coordinates, e.g. a solver's iterates
    // What its points count, from 0 at its start ("iteration t": a solver's iterates, as its plots
    // count them); empty: a path of more than two points numbers them "point 1 of n", a line none.
    std::string point_name = {};
  };
  std::vector<Path> paths;
  std::string value_label;  // what the colours show, beside the colour bar ("attention weight"); may be empty
  // The values of a grid's axes: at the first and the last column's (row's) centre. None: the
  // columns (rows) are numbered 0, 1, ... (tokens, heads). Either way both axes carry tick labels
  // (lab/plot_map_frame.hpp).
  struct GridValues {
    double first, last;
    // The values count items (tokens 31 to 130): the text view's extent names the first and the
    // last, not the image's edges half a cell beyond them (walk 13: "token from 30.5 to 130.5").
    bool counted = false;
  };
  std::optional<GridValues> x_values, y_values;
  // Rows drawn from several slices of a longer grid (tokens 0 to 49, then 950 to 999), top to
  // bottom: each slice's row count and the values at its first and last row's centre. When set,
  // the y ticks are each slice's own (y_values is then left unset).
  struct RowSlice {
    int rows;
    double first, last;
    // The slice's own name where slices share their values (the queries and the keys, each
    // column 1..d; head 1 and head 2): a place in it reads "column = 1 (keys)". Empty: none.
    std::string name;
  };
  std::vector<RowSlice> y_slices;
  // Columns drawn from slices side by side (head 1's key tokens 0 to k-1, then head 2's ...), left
  // to right, as y_slices for rows: the x ticks are each slice's own (x_values is then left unset).
  std::vector<RowSlice> x_slices;
};

struct Results {
  Table table;
  std::vector<Plot> plots;
  std::vector<Heatmap> heatmaps;
  std::vector<std::string> notes;  // states and remarks shown beside the plots
};

}  // namespace attnlab
