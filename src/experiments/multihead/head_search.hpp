// The head search of the `multihead` pipeline (docs/multihead.md s.2, "head search"): every head is
// Theta_i = theta_p + N c_i along the recovered span, and a candidate's loss is the held-out error
// after the value regression (variable projection).
#pragma once
#include <cmath>
#include <cstdint>
#include <vector>

#include <Eigen/Dense>

#include "experiments/multihead/certification.hpp"

namespace attnlab::multihead {

constexpr int kGridSize = 25;  // the m = 2 head search's grid has kGridSize^2 cells

// The head search over Theta_i = theta_p + N c_i (variable projection: a candidate's loss is the
// held-out error after the value regression). m = 1 has nothing to search; m = 2 is a grid over
// (c_1, c_2) refined twice around its best cell; m >= 3 runs Nelder-Mead over the m (m - 1)
// coefficients from `kRestarts` random starts, one start per piece of work.
struct HeadSearch {
  static constexpr int kRestarts = 6;
  int m = 1, round = 0, next = 0, restarts_done = 0;
  double centre1 = 0.0, centre2 = 0.0, half = 1.0, best_loss = INFINITY, best1 = 0.0, best2 = 0.0;
  std::vector<double> grid;  // losses of the first round, for the heatmap
  Eigen::VectorXd best_c;    // m >= 3
  std::uint64_t seed = 1;
  void reset(int heads, const Span& span, std::uint64_t run_seed);
  bool done() const { return m == 1 || (m == 2 && round >= 3) || (m >= 3 && restarts_done >= kRestarts); }
  // Cells searched so far, for progress (a Nelder-Mead start counts as its 400 evaluations).
  std::int64_t searched() const {
    return m == 2 ? std::int64_t(round) * kGridSize * kGridSize + next : m >= 3 ? 400 * restarts_done : 0;
  }
  static std::int64_t cells(int m) { return m == 2 ? 3 * kGridSize * kGridSize : m >= 3 ? 400 * kRestarts : 0; }
  static std::vector<Eigen::MatrixXd> general_thetas(const Span& span, int d, int m, const Eigen::VectorXd& c);
  void restart(const Span& span, int d, const std::vector<Eigen::MatrixXd>& X, const std::vector<Eigen::MatrixXd>& Y);
  static std::vector<Eigen::MatrixXd> thetas(const Span& span, int d, double c1, double c2);
  void evaluate_next(const Span& span, int d, const std::vector<Eigen::MatrixXd>& X,
                     const std::vector<Eigen::MatrixXd>& Y);
  std::vector<Eigen::MatrixXd> best_thetas(const Span& span, int d) const;
};

}  // namespace attnlab::multihead
