#include "experiments/regression/icl_unit.hpp"

#include <algorithm>
#include <cmath>

namespace attnlab::regression {

Partial to_partial(const Row& row) {
  Partial p;
  for (std::size_t i = 0; i < row.size(); ++i) p.put(kIclColumns[i], row[i]);
  return p;
}

Row row_from_partial(const Partial& p) {
  Row row;
  for (const char* c : kIclColumns) row.push_back(p.value(c));
  return row;
}

// The point x_t where the step starts and the direction dx of a move of x, from their own stream
// (x_t = 0 when x_norm = 0). The run draws dA after them from the same stream.
Rng draw_point(const Params& params, std::uint64_t seed, int d, Eigen::VectorXd& x, Eigen::VectorXd& direction) {
  Rng rng = Rng::for_stream(seed, 11);
  x = Eigen::VectorXd(d);
  direction = Eigen::VectorXd(d);
  for (int i = 0; i < d; ++i) x[i] = rng.normal(), direction[i] = rng.normal();
  x *= params.real("x_norm") / x.norm();
  if (!std::isfinite(x[0])) x.setZero();  // x_norm = 0
  direction /= direction.norm();
  return rng;
}

// One move of size delta: b~, its distance to b, the residual identity, the bound.
Row measure_move(const IclRun& run, double delta) {
  Problem moved = run.problem;
  Eigen::VectorXd x_new = run.x;
  if (run.move_A) {
    moved.A = (Eigen::MatrixXd(run.problem.A) + delta * run.direction_A).sparseView();
    moved.A.makeCompressed();
  }
  else x_new = run.x + delta * run.direction;
  const Point after = evaluate(moved, x_new);
  const Eigen::VectorXd b_shifted = (after.u - run.base.c) / after.alpha;
  const double shift = (b_shifted - run.problem.b).norm();
  const double identity = (after.u - after.alpha * b_shifted - run.base.c).cwiseAbs().maxCoeff() /
                          std::max(1e-300, run.base.c.cwiseAbs().maxCoeff() + after.u.cwiseAbs().maxCoeff());
  // ||u' - u|| <= max|v| ||A' x' - A x|| (max over the segment is at an end), and
  // |alpha - alpha'| <= sqrt(n) ||u' - u||: ||b~ - b|| <= vmax m (1 + sqrt(n) ||b||) / |alpha'|,
  // with m = ||A|| delta (x moves) or delta ||x|| (A moves).
  const double vmax = std::max(run.base.v.cwiseAbs().maxCoeff(), after.v.cwiseAbs().maxCoeff());
  const double moved_by = run.move_A ? delta * run.x.norm() : run.measure_norm * delta;
  const double bound = vmax * moved_by * (1.0 + std::sqrt(double(run.problem.n())) * run.problem.b.norm()) /
                       std::fabs(after.alpha);
  return {delta, shift, shift / delta, bound, identity, after.alpha};
}

std::unique_ptr<UnitTask> icl_unit(const IclRun& run, std::int64_t unit) {
  const double delta = run.deltas[static_cast<std::size_t>(unit)];
  return make_single_piece_task([&run, delta] { return to_partial(measure_move(run, delta)); });
}

}  // namespace attnlab::regression
