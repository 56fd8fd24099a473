// The learners of the `multihead` experiment: the paper's phase I crude estimate of W_sum
// (docs/multihead.md s.2, Thm 5.1) and the baseline, Adam on the squared loss (docs/multihead.md s.5).
#pragma once
#include <cstdint>
#include <vector>

#include "experiments/multihead/layer.hpp"

namespace attnlab::multihead {

// W^ = (1/(kN)) sum_n (X_n^T 1)(1^T Y_n), accumulated one example at a time.
class CrudeEstimate {
 public:
  explicit CrudeEstimate(int d) : sum_(Eigen::MatrixXd::Zero(d, d)) {}
  void add(const Eigen::MatrixXd& X, const Eigen::MatrixXd& Y) {
    sum_.noalias() += X.colwise().sum().transpose() * Y.colwise().sum();
    ++count_;
    k_ = static_cast<int>(X.rows());
  }
  Eigen::MatrixXd estimate() const { return sum_ / (double(k_) * double(count_)); }
  long long count() const { return count_; }

 private:
  Eigen::MatrixXd sum_;
  long long count_ = 0;
  int k_ = 1;
};

struct AdamSettings {
  int samples = 5000;  // training examples
  int batch = 256;
  double lr = 1e-2;
  double init_scale = 0.1;  // initial parameters init_scale * N(0, 1)
  bool gaussian_inputs = false;
};

// Relative parameter errors of `learned` against `truth`, matched over head permutations (m <= 4).
struct ParameterError {
  double theta = 0.0, w = 0.0;
};
ParameterError parameter_error(const Layer& truth, const Layer& learned);

// Adam (beta 0.9 / 0.999) on the mean of 1/2 ||F(X) - Y||_F^2 over minibatches of a fixed training set,
// with a held-out test set of 1000 examples.
class AdamBaseline {
 public:
  AdamBaseline(const Layer& truth, int k, const AdamSettings& s, std::uint64_t seed);
  void step();
  int steps() const { return t_; }
  double test_mse() const;  // E ||F(X) - F^(X)||_F^2 on the test set
  const Layer& learned() const { return layer_; }

 private:
  Layer layer_, m1_, m2_;
  std::vector<Eigen::MatrixXd> train_x_, train_y_, test_x_, test_y_;
  AdamSettings s_;
  Rng rng_;
  GradientWorkspace workspace_;  // scratch of accumulate_gradient, reused by every step
  int t_ = 0;
};

}  // namespace attnlab::multihead
