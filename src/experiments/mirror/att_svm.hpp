// l_p-AttSVM (docs/mirror.md s.3): the max-margin token selection that l_p-AttGD converges
// to in direction,  W_mm = argmin ||W||_p  s.t.  (x_{i alpha_i} - x_it)^T W z_i >= 1 (t != alpha_i),
// solved by dual coordinate ascent on  max_{lambda >= 0} sum lambda_j - (1/q) ||M||_q^q,
// M = sum_j lambda_j A_j, A_j = (x_{i alpha_i} - x_it) z_i^T, with W(lambda) = sign(M) |M|^{q-1}.
#pragma once
#include <Eigen/Dense>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "experiments/mirror/dataset.hpp"

namespace attnlab::mirror {

struct SvmSolution {
  Eigen::MatrixXd W;          // W_mm
  double norm_p = 0.0;        // ||W_mm||_p
  double max_violation = 0.0; // max_j (1 - <A_j, W>)_+
  double duality_gap = 0.0;   // (primal - dual) / max(1, primal)
  int sweeps = 0;
  bool converged = false;
  bool feasible = true;
  std::vector<std::pair<int, int>> support;  // (i, t): constraints with lambda_j > 0 (tight)
  bool locally_optimal = true;  // gamma_{i alpha_i} > gamma_it for every support token (docs/mirror.md s.3)
  std::string message;
};

// A solve done a bounded amount at a time. One solve takes from 0.2 ms (p = 2) to a second (p = 1.1,
// d = 16), far longer than a piece of a work unit may run (lab/work_unit.hpp), so the mirror
// experiment advances it piece by piece. The arithmetic is the same however it is sliced:
// solve_att_svm and solve_value_svm are this solver run in one go.
class SvmSolver {
 public:
  // The l_p-AttSVM, as solve_att_svm; `data` must outlive the solver.
  static SvmSolver attention(const Dataset& data, const std::vector<int>& alpha, const Eigen::VectorXd& v, double p,
                             int max_sweeps = 3000, double tolerance = 1e-10);
  // The v-SVM, as solve_value_svm; `data` must outlive the solver.
  static SvmSolver value(const Dataset& data, const std::vector<int>& alpha, double p, int max_sweeps = 3000,
                         double tolerance = 1e-10);
  SvmSolver(SvmSolver&&) noexcept;
  SvmSolver& operator=(SvmSolver&&) noexcept;
  ~SvmSolver();

  // Runs coordinate updates (at least one) until about `work` operations on entries are spent;
  // returns true once the solve is finished.
  bool advance(double work);
  SvmSolution solution() const;  // after advance() returned true

 private:
  struct State;
  explicit SvmSolver(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

// `v` only enters the local-optimality check (token scores gamma_it = Y_i v^T x_it).
SvmSolution solve_att_svm(const Dataset& data, const std::vector<int>& alpha, const Eigen::VectorXd& v, double p,
                          int max_sweeps = 3000, double tolerance = 1e-10);

// alpha is locally optimal when gamma_{i alpha_i} > gamma_it for every support token (i, t), with
// token scores gamma_it = Y_i v^T x_it (docs/mirror.md s.3).
bool locally_optimal(const Dataset& data, const std::vector<int>& alpha, const Eigen::VectorXd& v,
                     const std::vector<std::pair<int, int>>& support);

// The v-SVM of joint training: v_mm = argmin ||v||_p s.t. Y_i x_{i alpha_i}^T v >= 1 (same solver,
// d x 1 "matrices").
SvmSolution solve_value_svm(const Dataset& data, const std::vector<int>& alpha, double p, int max_sweeps = 3000,
                            double tolerance = 1e-10);

}  // namespace attnlab::mirror
