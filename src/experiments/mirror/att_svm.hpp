// l_p-AttSVM (spec/mirror_descent.md s.3): the max-margin token selection that l_p-AttGD converges
// to in direction,  W_mm = argmin ||W||_p  s.t.  (x_{i alpha_i} - x_it)^T W z_i >= 1 (t != alpha_i),
// solved by dual coordinate ascent on  max_{lambda >= 0} sum lambda_j - (1/q) ||M||_q^q,
// M = sum_j lambda_j A_j, A_j = (x_{i alpha_i} - x_it) z_i^T, with W(lambda) = sign(M) |M|^{q-1}.
#pragma once
#include <Eigen/Dense>
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
  bool locally_optimal = true;  // gamma_{i alpha_i} > gamma_it for every support token (spec s.3)
  std::string message;
};

// `v` only enters the local-optimality check (token scores gamma_it = Y_i v^T x_it).
SvmSolution solve_att_svm(const Dataset& data, const std::vector<int>& alpha, const Eigen::VectorXd& v, double p,
                          int max_sweeps = 3000, double tolerance = 1e-10);

// alpha is locally optimal when gamma_{i alpha_i} > gamma_it for every support token (i, t), with
// token scores gamma_it = Y_i v^T x_it (spec s.3).
bool locally_optimal(const Dataset& data, const std::vector<int>& alpha, const Eigen::VectorXd& v,
                     const std::vector<std::pair<int, int>>& support);

// The v-SVM of joint training: v_mm = argmin ||v||_p s.t. Y_i x_{i alpha_i}^T v >= 1 (same solver,
// d x 1 "matrices").
SvmSolution solve_value_svm(const Dataset& data, const std::vector<int>& alpha, double p, int max_sweeps = 3000,
                            double tolerance = 1e-10);

}  // namespace attnlab::mirror
