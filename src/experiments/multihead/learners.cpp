#include "experiments/multihead/learners.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/det_math.hpp"

namespace attnlab::multihead {

namespace {
Layer zeros_like(const Layer& l) {
  Layer z;
  for (int i = 0; i < l.heads(); ++i) {
    z.Theta.push_back(Eigen::MatrixXd::Zero(l.d(), l.d()));
    z.W.push_back(Eigen::MatrixXd::Zero(l.d(), l.d()));
  }
  return z;
}
}  // namespace

ParameterError parameter_error(const Layer& truth, const Layer& learned) {
  const int m = truth.heads();
  std::vector<int> perm(static_cast<std::size_t>(m));
  std::iota(perm.begin(), perm.end(), 0);
  double theta_norm = 0.0, w_norm = 0.0;
  for (int i = 0; i < m; ++i) theta_norm += truth.Theta[i].squaredNorm(), w_norm += truth.W[i].squaredNorm();
  ParameterError best{INFINITY, INFINITY};
  do {
    double dt = 0.0, dw = 0.0;
    for (int i = 0; i < m; ++i) {
      dt += (learned.Theta[perm[i]] - truth.Theta[i]).squaredNorm();
      dw += (learned.W[perm[i]] - truth.W[i]).squaredNorm();
    }
    const ParameterError e{std::sqrt(dt / theta_norm), std::sqrt(dw / w_norm)};
    if (e.theta + e.w < best.theta + best.w) best = e;
  } while (std::next_permutation(perm.begin(), perm.end()));
  return best;
}

AdamBaseline::AdamBaseline(const Layer& truth, int k, const AdamSettings& s, std::uint64_t seed)
    : s_(s), rng_(Rng::for_stream(seed, 3)) {
  Rng data = Rng::for_stream(seed, 2);
  for (int n = 0; n < s.samples; ++n) {
    train_x_.push_back(random_input(k, truth.d(), data, s.gaussian_inputs));
    train_y_.push_back(apply(truth, train_x_.back()));
  }
  for (int n = 0; n < 1000; ++n) {
    test_x_.push_back(random_input(k, truth.d(), data, s.gaussian_inputs));
    test_y_.push_back(apply(truth, test_x_.back()));
  }
  layer_ = zeros_like(truth);
  Rng init = Rng::for_stream(seed, 4);
  for (int i = 0; i < truth.heads(); ++i)
    for (Eigen::Index e = 0; e < layer_.Theta[i].size(); ++e) {
      layer_.Theta[i].data()[e] = s.init_scale * init.normal();
      layer_.W[i].data()[e] = s.init_scale * init.normal();
    }
  m1_ = zeros_like(truth);
  m2_ = zeros_like(truth);
}

void AdamBaseline::step() {
  Layer grad = zeros_like(layer_);
  const int batch = std::min(s_.batch, static_cast<int>(train_x_.size()));
  for (int b = 0; b < batch; ++b) {
    const std::size_t n = static_cast<std::size_t>(rng_.below(train_x_.size()));
    accumulate_gradient(layer_, train_x_[n], train_y_[n], grad, workspace_);
  }
  ++t_;
  const double b1 = 0.9, b2 = 0.999, eps = 1e-8;
  const double c1 = 1.0 - dmath::pow(b1, t_), c2 = 1.0 - dmath::pow(b2, t_);  // deterministic pow
  auto update = [&](Eigen::MatrixXd& p, Eigen::MatrixXd& m, Eigen::MatrixXd& v, const Eigen::MatrixXd& g) {
    const Eigen::MatrixXd gb = g / batch;
    m = b1 * m + (1.0 - b1) * gb;
    v = b2 * v + (1.0 - b2) * gb.cwiseAbs2();
    p.array() -= s_.lr * (m.array() / c1) / ((v.array() / c2).sqrt() + eps);
  };
  for (int i = 0; i < layer_.heads(); ++i) {
    update(layer_.Theta[i], m1_.Theta[i], m2_.Theta[i], grad.Theta[i]);
    update(layer_.W[i], m1_.W[i], m2_.W[i], grad.W[i]);
  }
}

double AdamBaseline::test_mse() const {
  double total = 0.0;
  for (std::size_t n = 0; n < test_x_.size(); ++n) total += (apply(layer_, test_x_[n]) - test_y_[n]).squaredNorm();
  return total / double(test_x_.size());
}

}  // namespace attnlab::multihead
