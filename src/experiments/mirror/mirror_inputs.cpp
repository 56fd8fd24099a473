// `mirror` (docs/mirror.md): the picture before a run (docs/mirror.md s.1 and s.4). It draws what
// the first seed's runs start from, with the runs' own draws: the first sequence (sequence 0, as the
// notes count) of the seed's data (synthetic_first_sequence draws X[0] and z[0] as
// synthetic_dataset does) and W0 (random_start, as the unit draws it). Every p of a seed starts
// from the same data and W0, so the sweep's first p only matters for the cone start, whose W0
// holds the SVM of its p: that attention is not drawn.
#include "experiments/mirror/mirror_inputs.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "core/det_math.hpp"
#include "experiments/mirror/mirror_run.hpp"
#include "experiments/mirror/mirror_schema.hpp"
#include "lab/sweep.hpp"

namespace attnlab::mirror {

namespace {

// The first sequence of seed index 0's data, and its query.
Dataset first_sequence(const RunSetup& setup) {
  if (setup.data_kind == DataKind::Synthetic) return synthetic_first_sequence(setup.T, setup.d, setup.seed);
  return dataset_for(setup, 0);  // the toy or the loaded file: fixed, nothing to draw
}

// The tokens as a T x d heatmap on a colour scale symmetric about 0.
Heatmap token_heatmap(const Eigen::MatrixXd& X) {
  Heatmap h;
  h.title = "Inputs: sequence 0's tokens, one per row";
  h.x_label = "coordinate";
  h.y_label = "token";
  h.rows = static_cast<int>(X.rows());
  h.cols = static_cast<int>(X.cols());
  double top = 0.0;
  for (int t = 0; t < h.rows; ++t)
    for (int k = 0; k < h.cols; ++k) {
      h.values.push_back(X(t, k));
      top = std::max(top, std::fabs(X(t, k)));
    }
  if (!(top > 0.0)) top = 1.0;
  h.low = -top;
  h.high = top;
  h.value_label = "token entry";
  return h;
}

// A mark at each row's point (a token is a point, not a line through the origin).
Series points_of(std::string name, const Eigen::MatrixXd& points) {
  Series s{std::move(name), SeriesStyle::LineMarkers, {}, {}, {}, {}};
  s.flags = SeriesFlags_Marks;
  for (Eigen::Index t = 0; t < points.rows(); ++t) {
    s.x.push_back(points(t, 0));
    s.y.push_back(points(t, 1));
  }
  return s;
}

// d = 2: the tokens and the query as points in the plane.
Plot token_plane(const Dataset& data) {
  Plot plot = Plot::titled("Inputs: sequence 0's tokens and its query in the plane")
                  .x("first coordinate").y("second coordinate");
  // A few tokens: one series each, so the legend names every point ("which token" is a story's
  // question); more: one series (a story's plot shows at most kSeriesShownMax).
  const Eigen::Index T = data.X[0].rows();
  if (T + 1 <= static_cast<Eigen::Index>(kSeriesShownMax) && T <= 4) {
    for (Eigen::Index t = 0; t < T; ++t) plot.series.push_back(points_of("token " + std::to_string(t), data.X[0].row(t)));
  } else {
    plot.series.push_back(points_of("tokens of sequence 0", data.X[0]));
  }
  // The query may be one of the tokens (the joint toy's is token 0): the legend says which, since its mark
  // then covers that token's.
  std::string query = "query z";
  for (Eigen::Index t = 0; t < data.X[0].rows(); ++t)
    if (data.X[0].row(t).transpose() == data.z[0]) {
      query += " (same as token " + std::to_string(t) + ")";  // the legend's "same as" names it: no second one
      break;
    }
  plot.series.push_back(points_of(query, data.z[0].transpose()));
  // A margin above and below the points, so no mark sits half on the frame.
  double low = data.z[0][1], high = data.z[0][1];
  for (Eigen::Index t = 0; t < data.X[0].rows(); ++t)
    low = std::min(low, data.X[0](t, 1)), high = std::max(high, data.X[0](t, 1));
  const double margin = 0.1 * std::max(high - low, 1e-6);
  return plot.y_range(low - margin, high + margin);
}

// softmax(X W0 z) over the first sequence's tokens: the attention before the first step.
Plot starting_attention(const Dataset& data, const Eigen::MatrixXd& W0) {
  const Eigen::VectorXd logits = data.X[0] * (W0 * data.z[0]);
  const int T = static_cast<int>(logits.size());
  const double top = logits.maxCoeff();
  std::vector<double> weights(static_cast<std::size_t>(T));
  double sum = 0.0;
  for (int t = 0; t < T; ++t) sum += (weights[static_cast<std::size_t>(t)] = dmath::exp(logits[t] - top));
  Series bars{"attention at the start", SeriesStyle::Bars, {}, {}, {}, {}};
  for (int t = 0; t < T; ++t) {
    bars.x.push_back(t);
    bars.y.push_back(weights[static_cast<std::size_t>(t)] / sum);
  }
  Plot plot = Plot::titled("Inputs: starting attention over sequence 0's tokens")
                  .x("token (counted from 0)").y("attention weight").y_range(0, 1).x_axis(AxisFlags_Index);
  plot.series.push_back(std::move(bars));
  // A level across the plot, read at every token by a hover (walk 17: its ends at tokens -0.5 and 7.5).
  plot.series.push_back({"even split 1/T", SeriesStyle::Reference, {0.0, T - 1.0}, {1.0 / T, 1.0 / T}, {}, {}});
  plot.series.back().flags = SeriesFlags_Level;
  return plot;
}

}  // namespace

Results mirror_inputs(const Schema& schema, const Params& params, std::uint64_t seed,
                      const std::shared_ptr<const Dataset>& file_data) {
  const Params first = first_sweep_point(schema, params, "sweep");
  const RunSetup setup = decode_setup(first, seed, file_data);
  const Dataset data = first_sequence(setup);
  Results out;
  if (data.d() == 2) out.plots.push_back(token_plane(data));
  else out.heatmaps.push_back(token_heatmap(data.X[0]));
  if (setup.init_cone) {
    out.notes.push_back("The cone start puts the SVM direction into W0, so its starting attention is not drawn.");
  } else {
    out.plots.push_back(starting_attention(data, random_start(setup, 0, data.d())));
  }
  return out;
}

}  // namespace attnlab::mirror
