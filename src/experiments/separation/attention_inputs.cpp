#include "experiments/separation/attention_inputs.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/det_math.hpp"
#include "core/rng.hpp"
#include "lab/text.hpp"
#include "experiments/separation/attention_schema.hpp"
#include "experiments/separation/attention_trial.hpp"

namespace attnlab::separation {

namespace {

// Cells per heatmap: two of them stay within the page's budget for the picture before a run.
constexpr int kMostCells = 20000;
constexpr int kMostRows = 100;

struct Span {
  int first, last;  // tokens [first, last)
};

// `size` consecutive tokens around `token`, inside [0, n).
Span around(int token, int size, int n) {
  const int first = std::clamp(token - size / 2, 0, n - size);
  return {first, first + size};
}

// The token slices a heatmap shows: all n tokens if they fit, else one slice holding every special
// token, else one slice around each (in token order).
std::vector<Span> slices(int n, int rows, int a, int b) {
  if (n <= rows) return {{0, n}};
  const int low = std::min(a, b), high = std::max(a, b);
  if (high - low < rows) return {around((low + high) / 2, rows, n)};
  const int half = rows / 2;
  Span first = around(low, half, n), second = around(high, half, n);
  if (second.first < first.last) return {{first.first, second.last}};
  return {first, second};
}

std::string describe(const std::vector<Span>& spans, int n) {
  if (spans.size() == 1 && spans[0].first == 0 && spans[0].last == n) return "";
  std::string text = "rows: tokens ";
  for (std::size_t i = 0; i < spans.size(); ++i) {
    if (i > 0) text += ", then ";
    text += std::to_string(spans[i].first) + " to " + std::to_string(spans[i].last - 1);
  }
  return text + " of 0 to " + std::to_string(n - 1);
}

// One input (planted strength a, special tokens t) as a heatmap: self-attention's A (n x d), or
// cross-attention's queries A1 (in units of log n, so they share a colour scale with the 0/1 keys)
// beside the keys A2 = A3 (n x 2d).
Heatmap input_map(const AttentionSettings& s, const char* dataset, double a, const SpecialTokens& t,
                  const std::string& strength_note) {
  const bool self = s.model == AttentionModel::Self;
  const int cols = self ? s.d : 2 * s.d;
  const int rows = std::max(1, std::min({s.n, kMostRows, kMostCells / cols}));
  const std::vector<Span> spans = slices(s.n, rows, t.planted, self ? t.planted : t.query);
  const double query_unit = self ? 1.0 : 1.0 / dmath::log(static_cast<double>(s.n));

  Heatmap h;
  // The planted strength a drawn (walk 11: the map never said which a1 it shows).
  h.title = std::string("Inputs: ") + dataset + printf_text(" (planted strength a = %.4g", a) + strength_note + ")" +
            (self ? ", token matrix A (queries = keys = values)" : ", queries beside keys (= values)");
  h.x_label = self ? "column: 1 planted | 2..d-1 class | d constant"
                   : "column: queries 1..d (1 planted) | keys 1..d (1 planted, 2..d class)";
  h.y_label = "token";
  h.value_label = self ? "entry of A" : "entry (queries in units of log n)";
  h.note = describe(spans, s.n);
  // Walk 12: the queries' half is one colour but for column 1, and nothing said why.
  if (!self)
    h.note += std::string(h.note.empty() ? "" : "; ") +
              "every query is log n (1 here) in columns 2..d and 0 in column 1, except j2, whose column 1 is a "
              "log n (shown as a)";
  h.cols = cols;
  // Ticks in the caption's terms: tokens counted from 0 in each slice, columns from 1 (the label's).
  if (spans.size() == 1) h.y_values = Heatmap::GridValues{double(spans[0].first), double(spans[0].last - 1), true};
  if (spans.size() > 1)
    for (const Span& span : spans)
      h.y_slices.push_back({span.last - span.first, double(span.first), double(span.last - 1)});
  if (self) h.x_values = Heatmap::GridValues{1.0, double(cols)};
  // Queries 1..d, then keys 1..d: a place names its half (walk 12: j2 and j3 both read "column = 1").
  else h.x_slices = {{s.d, 1.0, double(s.d), "queries"}, {s.d, 1.0, double(s.d), "keys"}};
  RowGroups queries, keys;
  for (const Span& span : spans) {
    if (h.rows > 0)  // a line where the tokens between the slices are left out
      h.paths.push_back({"tokens left out", {double(h.rows), double(h.rows)}, {0.0, double(cols)}});
    build_input_slice(s, a, t, span.first, span.last, queries, keys);
    for (int j = span.first; j < span.last; ++j) {
      const std::size_t g = static_cast<std::size_t>(j - span.first);
      if (j == t.planted) h.marks.push_back({h.rows, self ? 0 : s.d, "j3"});
      if (!self && j == t.query) h.marks.push_back({h.rows, 0, "j2"});
      if (self) {
        h.values.insert(h.values.end(), keys.row(g), keys.row(g) + s.d);
      } else {
        for (int i = 0; i < s.d; ++i) h.values.push_back(queries.row(g)[i] * query_unit);
        h.values.insert(h.values.end(), keys.row(g), keys.row(g) + s.d);
      }
      ++h.rows;
    }
  }
  return h;
}

}  // namespace

Results attention_inputs(const AttentionSettings& s, std::uint64_t seed, const Sweep& swept) {
  // Trial 0's stream (seed, 0), as the sweep's trial 0 at every point (docs/separation.md s.4,
  // "Common random numbers").
  Rng rng = Rng::for_stream(seed, 0);
  AttentionTrialDraw draw;
  draw_trial(s, rng, draw);
  Results r;
  // Walk 20: over an a1 sweep the map showed a = 0.1 beside a question about a1 = 1, unexplained.
  r.heatmaps.push_back(input_map(s, "D1", s.a1, draw.d1, swept.sweeps("a1") ? " = a1, the sweep's first" : ""));
  // D0 plants j3 too, weakly (a0 < 0.1: Definitions D.1 and F.1): its title says so beside the ring.
  r.heatmaps.push_back(input_map(s, "D0", s.a0, draw.d0, ""));
  // One colour scale for both, so D0's weak planted entry looks weak beside D1's.
  double high = 0.0;
  for (const Heatmap& h : r.heatmaps) high = std::max(high, *std::max_element(h.values.begin(), h.values.end()));
  for (Heatmap& h : r.heatmaps) {
    h.low = 0.0;
    h.high = high > 0.0 ? high : 1.0;
  }
  const bool self = s.model == AttentionModel::Self;
  r.notes.push_back(self ? "D1 plants j3 = " + std::to_string(draw.d1.planted) + ", D0 plants j3 = " +
                               std::to_string(draw.d0.planted) + " (tokens count from 0)."
                         : "D1: query j2 = " + std::to_string(draw.d1.query) + ", planted key j3 = " +
                               std::to_string(draw.d1.planted) + "; D0: j2 = " + std::to_string(draw.d0.query) +
                               ", j3 = " + std::to_string(draw.d0.planted) + " (tokens count from 0).");
  return r;
}

Results attention_inputs(AttentionModel model, const Schema& schema, const Params& params, std::uint64_t seed) {
  const Sweep swept = parse_sweep(schema, "sweep", params.text("sweep"));
  return attention_inputs(attention_settings(model, first_sweep_point(schema, params, "sweep"), swept), seed, swept);
}

}  // namespace attnlab::separation
