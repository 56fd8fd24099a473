// The `regression` run's figure for d = 2 (docs/regression.md s.5): log10(L - L*) on a grid
// around x*, x0 and, with cosh, -x*, with each solver's path drawn on it. Declared in
// regression_results.hpp.
#include <algorithm>
#include <cmath>

#include "core/det_math.hpp"
#include "experiments/regression/regression_results.hpp"
#include "lab/text.hpp"

namespace attnlab::regression {

void compute_contour(RegressionRun& run) {
  // The square around x*, x0 and, with cosh (L(x) = L(-x)), the other minimiser -x*, centred on
  // them with a margin: both minima and the start are inside the map.
  const Eigen::Vector2d star = run.reference.x, start = run.problem.x0;
  const bool mirrored = run.problem.function == Hyperbolic::Cosh;
  Eigen::Array2d corner_lo = star.array().min(start.array()), corner_hi = star.array().max(start.array());
  if (mirrored) corner_lo = corner_lo.min(-star.array()), corner_hi = corner_hi.max(-star.array());
  const double reach = std::max(1e-3, 0.65 * (corner_hi - corner_lo).maxCoeff());
  const Eigen::Array2d centre = 0.5 * (corner_lo + corner_hi);
  run.lo = centre - reach;
  run.hi = centre + reach;
  run.contour = Heatmap{"log10(L(x) - L*) around x* (d = 2), with each solver's iterates", "x_1", "x_2",
                        kContourGrid, kContourGrid, {}, 0.0, 1.0, "", {}, {}};
  double low = INFINITY, high = -INFINITY;
  for (int i = 0; i < kContourGrid; ++i)
    for (int j = 0; j < kContourGrid; ++j) {
      Eigen::VectorXd x(2);
      x << run.lo[0] + (j + 0.5) / kContourGrid * (run.hi[0] - run.lo[0]),
          run.hi[1] - (i + 0.5) / kContourGrid * (run.hi[1] - run.lo[1]);
      const Point at = evaluate(run.problem, x);
      const double v = at.finite ? dmath::log10(std::max(at.loss - run.reference.loss, 0.0) +
                                              1e-16 * std::max(1.0, std::fabs(run.reference.loss)))
                                 : NAN;
      run.contour.values.push_back(v);
      if (std::isfinite(v)) low = std::min(low, v), high = std::max(high, v);
    }
  run.contour.low = std::isfinite(low) ? low : 0.0;
  run.contour.high = std::isfinite(high) && high > low ? high : run.contour.low + 1.0;
  run.contour.x_label = "x_1";
  run.contour.y_label = "x_2 (bottom to top)";
  run.contour.value_label = "log10(L(x) - L*)";
  const double half_x = 0.5 / kContourGrid * (run.hi[0] - run.lo[0]), half_y = 0.5 / kContourGrid * (run.hi[1] - run.lo[1]);
  run.contour.x_values = Heatmap::GridValues{run.lo[0] + half_x, run.hi[0] - half_x};
  run.contour.y_values = Heatmap::GridValues{run.hi[1] - half_y, run.lo[1] + half_y};  // row 0 at the top
  auto cell = [&](const Eigen::VectorXd& x, double& row, double& col) {
    col = (x[0] - run.lo[0]) / (run.hi[0] - run.lo[0]) * kContourGrid;
    row = (run.hi[1] - x[1]) / (run.hi[1] - run.lo[1]) * kContourGrid;
  };
  double row = 0, col = 0;
  cell(run.reference.x, row, col);
  run.contour.marks.push_back({static_cast<int>(row), static_cast<int>(col), "x*", row, col});
  cell(run.problem.x0, row, col);
  run.contour.marks.push_back({static_cast<int>(row), static_cast<int>(col), "x0", row, col});
  if (mirrored) {
    cell(-run.reference.x, row, col);
    run.contour.marks.push_back({static_cast<int>(row), static_cast<int>(col), "-x*", row, col});
  }
}

namespace {

// The run's contour with each solver's iterates drawn as a path.
Heatmap contour_with_paths(const RegressionRun& run, const std::vector<Trace>& traces) {
  Heatmap h = run.contour;
  for (std::size_t k = 0; k < traces.size(); ++k) {
    Heatmap::Path path{method_label(run.methods[k]), {}, {}, "iteration t"};
    for (std::size_t i = 0; i < traces[k].path_x1.size(); ++i) {
      path.cols.push_back((traces[k].path_x1[i] - run.lo[0]) / (run.hi[0] - run.lo[0]) * kContourGrid);
      path.rows.push_back((run.hi[1] - traces[k].path_x2[i]) / (run.hi[1] - run.lo[1]) * kContourGrid);
    }
    h.paths.push_back(std::move(path));
  }
  return h;
}

}  // namespace

std::vector<Heatmap> results_figures(const RegressionRun& run, const std::vector<Trace>& traces) {
  std::vector<Heatmap> heatmaps;
  if (!run.methods.empty() && run.problem.d() == 2) heatmaps.push_back(contour_with_paths(run, traces));
  return heatmaps;
}

std::vector<std::string> minima_notes(const RegressionRun& run, const std::vector<Trace>& traces) {
  std::vector<std::string> notes;
  if (run.problem.function != Hyperbolic::Cosh || run.problem.d() != 2) return notes;
  const Eigen::Vector2d star = run.reference.x;
  double all_off = 0;  // over every solver: whether any path leaves the map
  for (std::size_t k = 0; k < traces.size(); ++k) {
    const Trace& s = traces[k];
    if (s.path_x1.empty()) continue;
    const Eigen::Vector2d end(s.path_x1.back(), s.path_x2.back());
    double off = 0;  // iterates outside the map's square (the path leaves the drawn area there)
    for (std::size_t i = 0; i < s.path_x1.size(); ++i)
      off += !(s.path_x1[i] >= run.lo[0] && s.path_x1[i] <= run.hi[0] && s.path_x2[i] >= run.lo[1] &&
               s.path_x2[i] <= run.hi[1]);
    notes.push_back(std::string(method_label(run.methods[k])) +
                    printf_text(": its last iterate lies %.3g from x* and %.3g from -x*; %.0f of its %.0f iterates "
                                "lie off the map.", (end - star).norm(), (end + star).norm(), off,
                                double(s.path_x1.size())));
    all_off += off;
  }
  notes.push_back(printf_text("Off the map: %.0f iterates of all the solvers' paths.", all_off));
  return notes;
}

}  // namespace attnlab::regression
