#include "experiments/separation/inspector.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/rng.hpp"
#include "experiments/separation/attention_trial.hpp"
#include "lab/schema.hpp"

namespace attnlab::separation {

namespace {

// Accumulates an n_rows x n_cols matrix into block means of at most kHeatmapCells per side.
class BlockAverage {
 public:
  BlockAverage(int n_rows, int n_cols)
      : rows_block_((n_rows + kHeatmapCells - 1) / kHeatmapCells),
        cols_block_((n_cols + kHeatmapCells - 1) / kHeatmapCells),
        rows_((n_rows + rows_block_ - 1) / rows_block_),
        cols_((n_cols + cols_block_ - 1) / cols_block_),
        sum_(static_cast<std::size_t>(rows_) * cols_, 0.0),
        count_(sum_.size(), 0.0) {}
  Heatmap::Mark mark(int i, int j, const std::string& label) const { return {i / rows_block_, j / cols_block_, label}; }
  void add(int i, int j, double v) {
    const std::size_t k = static_cast<std::size_t>(i / rows_block_) * cols_ + j / cols_block_;
    sum_[k] += v;
    count_[k] += 1.0;
  }
  Heatmap heatmap(const std::string& title, const std::string& x_label, const std::string& y_label) const {
    Heatmap h{title, x_label, y_label, rows_, cols_, {}, 0.0, 1.0, "", {}, {}};
    for (std::size_t k = 0; k < sum_.size(); ++k) h.values.push_back(count_[k] > 0 ? sum_[k] / count_[k] : 0.0);
    if (rows_block_ > 1 || cols_block_ > 1)
      h.note = "each cell is the mean over a block of " + std::to_string(rows_block_) + " x " +
               std::to_string(cols_block_) + " entries";
    return h;
  }

 private:
  int rows_block_, cols_block_, rows_, cols_;
  std::vector<double> sum_, count_;
};

void set_scale(Heatmap& h, double low, double high) {
  h.low = low;
  h.high = high > low ? high : low + 1.0;
}

double max_of(const Heatmap& h) { return *std::max_element(h.values.begin(), h.values.end()); }

std::string short_number(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", x);
  return buf;
}

std::string verdict(double f) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.4g (%s)", f, f > 0.0 ? "fires" : "silent");
  return buf;
}

}  // namespace

namespace {

// The matrix A (self-attention) or A2 = A3 (cross-attention) of one input (keys: n x d), with its
// column types and the planted token ringed.
Heatmap input_matrix_map(const AttentionSettings& s, const RowGroups& keys, const SpecialTokens& tokens) {
  const bool self = s.model == AttentionModel::Self;
  BlockAverage a(s.n, s.d);
  for (int j = 0; j < s.n; ++j)
    for (int i = 0; i < s.d; ++i) a.add(j, i, keys.row(static_cast<std::size_t>(j))[i]);
  Heatmap h = a.heatmap(self ? "A of D1 (A1 = A2 = A3)" : "A2 = A3 of D1",
                        self ? "column: 1 planted | 2..d-1 class one-hot | d constant"
                             : "column: 1 planted | 2..d class one-hot",
                        "token");
  set_scale(h, 0.0, max_of(h));
  h.value_label = "entry of A";
  h.marks.push_back(a.mark(tokens.planted, 0, "j3"));
  return h;
}

// The planted row's attention (D1) and every row's margin, from the trial's table (n rows: token,
// class, j3 flags, four margins, the planted row's two weight columns).
std::vector<Plot> trial_plots(const AttentionSettings& s, const Table& t) {
  const bool self = s.model == AttentionModel::Self;
  auto column = [&](int k) {
    std::vector<double> v;
    for (const auto& row : t.rows) v.push_back(row[static_cast<std::size_t>(k)]);
    return v;
  };
  const std::vector<double> tokens_x = column(0);
  Plot margins = Plot::titled("Row margins max_l <c_j0, y_l> - tau (rows above 0 make F fire)")
      .x("query token j0").y("margin").x_axis(AxisFlags_Index);
  const char* names[4] = {"softmax, D1", "linear, D1", "softmax, D0", "linear, D0"};
  for (int k = 0; k < 4; ++k) margins.series.push_back({names[k], SeriesStyle::Line, tokens_x, column(4 + k), {}, {}});
  margins.series.push_back({"threshold (margin 0)", SeriesStyle::Reference, {0.0, double(s.n - 1)}, {0.0, 0.0}, {}, {}});
  Plot row = Plot::titled(self ? "D1: attention row of the planted token j3"
                               : "D1: attention row of the query token j2")
      .x("key token j1").y("attention weight").y_range(0.0, 1.0).x_axis(AxisFlags_Index);
  row.series.push_back({"softmax", SeriesStyle::Bars, tokens_x, column(8), {}, {}});
  row.series.push_back({"linear", SeriesStyle::Line, tokens_x, column(9), {}, {}});
  std::vector<Plot> plots;
  plots.push_back(std::move(row));
  plots.push_back(std::move(margins));
  return plots;
}

}  // namespace

Results inspect_trial(const AttentionSettings& s, std::uint64_t seed, std::int64_t trial) {
  Rng rng = Rng::for_stream(seed, static_cast<std::uint64_t>(trial));
  AttentionTrialDraw draw;
  draw_trial(s, rng, draw);
  const bool self = s.model == AttentionModel::Self;
  const int classes = class_count(s.model, s.d);

  Results r;
  Table& t = r.table;
  t.columns = {"token", "class", "j3_d1", "j3_d0", "margin_exp_d1", "margin_lin_d1", "margin_exp_d0",
               "margin_lin_d0", "planted_row_exp_d1", "planted_row_lin_d1"};
  t.rows.assign(static_cast<std::size_t>(s.n), std::vector<double>(t.columns.size(), 0.0));
  for (int j = 0; j < s.n; ++j) {
    auto& row = t.rows[static_cast<std::size_t>(j)];
    row[0] = j;
    row[1] = token_class(j, classes);
    row[2] = j == draw.d1.planted;
    row[3] = j == draw.d0.planted;
  }

  RowGroups queries, keys, c;
  double f[4] = {0, 0, 0, 0};
  const char* dataset_name[2] = {"D1", "D0"};
  std::vector<Heatmap> attention_maps;
  Heatmap matrix_a;
  for (int k = 0; k < 4; ++k) {
    const Evaluation& e = kEvaluations[k];
    const SpecialTokens& tokens = e.d1 ? draw.d1 : draw.d0;
    build_input(s, e.d1 ? s.a1 : s.a0, tokens, Layout::Dense, queries, keys);
    if (k == 0) matrix_a = input_matrix_map(s, keys, tokens);  // D1's
    // The row whose attention the bar chart shows: j3 (self) or the query token j2 (cross).
    const int planted_row = self ? tokens.planted : tokens.query;
    BlockAverage weights(s.n, s.n);
    attend(queries, keys, s.x, e.norm, c, [&](std::size_t q, const std::vector<double>& w) {
      for (std::size_t j = 0; j < w.size(); ++j) weights.add(static_cast<int>(q), static_cast<int>(j), w[j]);
      if (e.d1 && static_cast<int>(q) == planted_row)
        for (std::size_t j = 0; j < w.size(); ++j) t.rows[j][8 + k] = w[j];
    });
    const Readout& y = draw.readout(k, s.shared_readout);
    f[k] = evaluate_rows_readout(c, y, s.tau).value;
    const std::vector<double> margins = row_margins(c, y, s.tau);
    for (int j = 0; j < s.n; ++j) t.rows[static_cast<std::size_t>(j)][4 + k] = margins[static_cast<std::size_t>(j)];
    const std::string name = std::string(e.norm == Normalisation::Softmax ? "softmax" : "linear") +
                             " attention, " + dataset_name[e.d1 ? 0 : 1];
    Heatmap h = weights.heatmap(name, "key token j1", "query token j0");
    h.value_label = "attention weight";
    h.marks.push_back(weights.mark(planted_row, tokens.planted, self ? "(j3, j3)" : "(j2, j3)"));
    attention_maps.push_back(std::move(h));
  }
  // One colour scale for the four maps, so "flat" means flat and D0 compares with D1.
  double high = 0.0;
  for (const Heatmap& h : attention_maps) high = std::max(high, max_of(h));
  for (Heatmap& h : attention_maps) set_scale(h, 0.0, high);
  // In reading order (Experiment::inspect): softmax | linear for D1, the same for D0, then A beside
  // the planted row's weights, then every row's margin.
  for (Heatmap& h : attention_maps) r.heatmaps.push_back(std::move(h));
  r.heatmaps.push_back(std::move(matrix_a));

  r.plots = trial_plots(s, t);

  const bool success = f[0] > 0.0 && f[1] == 0.0 && f[2] == 0.0 && f[3] == 0.0;
  r.notes.push_back("F_exp(D1) = " + verdict(f[0]) + ", F_lin(D1) = " + verdict(f[1]) + ", F_exp(D0) = " +
                    verdict(f[2]) + ", F_lin(D0) = " + verdict(f[3]) + ": " + (success ? "success" : "no success") +
                    " in this trial.");
  std::string where = "Trial " + std::to_string(trial) + ": n = " + std::to_string(s.n) + ", d = " +
                      std::to_string(s.d) + ", m = " + std::to_string(s.m) + ", tau = " + short_number(s.tau) +
                      "; D1 plants j3 = " + std::to_string(draw.d1.planted);
  if (!self) where += " with query j2 = " + std::to_string(draw.d1.query);
  where += ", D0 plants j3 = " + std::to_string(draw.d0.planted) + " (tokens count from 0).";
  r.notes.push_back(where);
  r.notes.push_back(self ? "Look for: softmax row j3 of D1 puts its weight on j3 (a bright spot on the diagonal with "
                           "X = I, a bright column with X = 1); linear attention stays near 1/n everywhere."
                         : "Look for: softmax row j2 of D1 puts weight n^a1 / (n^a1 + n - 1) on key j3 (one bright "
                           "cell); every other row is exactly uniform, 1/n; linear attention stays near 1/n.");
  return r;
}

}  // namespace attnlab::separation
