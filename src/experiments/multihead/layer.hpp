// The multi-head attention layer of Chen and Li (docs/multihead.md s.1):
//   F(X) = sum_i softmax(X Theta_i X^T) X W_i,  X in {+-1}^{k x d} (tokens as rows),
// softmax per row; and its gradient for training by Adam (the baseline learner).
#pragma once
#include <Eigen/Dense>
#include <vector>

#include "core/rng.hpp"

namespace attnlab::multihead {

struct Layer {
  std::vector<Eigen::MatrixXd> Theta, W;  // m heads, each d x d
  int heads() const { return static_cast<int>(Theta.size()); }
  int d() const { return Theta.empty() ? 0 : static_cast<int>(Theta[0].rows()); }
  // W_1 + ... + W_m: what F(X) applies when every head attends alike (phase I estimates it).
  Eigen::MatrixXd W_sum() const;
};

// A uniform X in {+-1}^{k x d} (the paper's inputs), or with N(0, 1) entries when `gaussian`.
Eigen::MatrixXd random_input(int k, int d, Rng& rng, bool gaussian = false);
// Row-wise softmax, max-subtracted.
Eigen::MatrixXd row_softmax(const Eigen::MatrixXd& logits);
void row_softmax_in_place(Eigen::MatrixXd& logits);
Eigen::MatrixXd apply(const Layer& layer, const Eigen::MatrixXd& X);

// The scratch matrices of accumulate_gradient, kept between calls so that a training step
// allocates nothing (allocation is most of the cost at the paper's sizes, and more so in wasm).
struct GradientWorkspace {
  std::vector<Eigen::MatrixXd> S, XW;                          // per head: k x k, k x d
  Eigen::MatrixXd F, dF, X_Theta, S_X, dS, dLogits, Xt_dLogits;  // k x d, k x d, k x d, k x d, k x k, k x k, d x k
  Eigen::VectorXd inner;                                       // k
};

// Adds d(1/2 ||F(X) - Y||^2) / d(parameters) to `grad` (same shapes as `layer`) and returns the
// squared error. X, Y: k x d.
double accumulate_gradient(const Layer& layer, const Eigen::MatrixXd& X, const Eigen::MatrixXd& Y, Layer& grad,
                           GradientWorkspace& work);

}  // namespace attnlab::multihead
