#include "experiments/mirror/mirror_map.hpp"

#include <algorithm>
#include <cmath>

namespace attnlab::mirror {

namespace {
// Entries per pass of the array kernels: a stack buffer, and sums still in index order.
constexpr std::size_t kChunk = 64;
}  // namespace

double magnitude_power(double a, double e) { return MagnitudePower(e)(a); }

double signed_power(double x, double e) {
  if (x == 0.0) return 0.0;
  const double a = std::fabs(x);
  return x < 0.0 ? -magnitude_power(a, e) : magnitude_power(a, e);
}

void signed_power_array(const double* x, double* out, std::size_t n, const MagnitudePower& power) {
  for (std::size_t k = 0; k < n; ++k) out[k] = std::fabs(x[k]);
  power.apply(out, out, n);
  for (std::size_t k = 0; k < n; ++k) out[k] = x[k] == 0.0 ? 0.0 : x[k] < 0.0 ? -out[k] : out[k];
}

double psi(const Eigen::MatrixXd& W, double p) {
  const MagnitudePower power(p);
  const double* w = W.data();
  double sum = 0.0;
  double magnitude[kChunk];
  for (std::size_t k0 = 0; k0 < std::size_t(W.size()); k0 += kChunk) {
    const std::size_t n = std::min(kChunk, std::size_t(W.size()) - k0);
    for (std::size_t k = 0; k < n; ++k) magnitude[k] = std::fabs(w[k0 + k]);
    power.apply(magnitude, magnitude, n);
    for (std::size_t k = 0; k < n; ++k) sum += w[k0 + k] == 0.0 ? 0.0 : magnitude[k];
  }
  return sum / p;
}

Eigen::MatrixXd grad_psi(const Eigen::MatrixXd& W, double p) {
  if (p == 2.0) return W;  // p = 2 is exactly gradient descent (docs/mirror.md s.2)
  Eigen::MatrixXd out(W.rows(), W.cols());
  signed_power_array(W.data(), out.data(), std::size_t(W.size()), MagnitudePower(p - 1.0));
  return out;
}

Eigen::MatrixXd grad_psi_inverse(const Eigen::MatrixXd& T, double p) {
  Eigen::MatrixXd W;
  grad_psi_inverse(T, p, W);
  return W;
}

void grad_psi_inverse(const Eigen::MatrixXd& T, double p, Eigen::MatrixXd& W) {
  if (p == 2.0) {
    W = T;
    return;
  }
  W.resize(T.rows(), T.cols());
  signed_power_array(T.data(), W.data(), std::size_t(T.size()), MagnitudePower(1.0 / (p - 1.0)));
}

double bregman(const Eigen::MatrixXd& W, const Eigen::MatrixXd& V, double p) {
  const double value = psi(W, p) - psi(V, p) - (grad_psi(V, p).array() * (W - V).array()).sum();
  return value > 0.0 ? value : 0.0;  // >= 0 in exact arithmetic; rounding can leave -1e-17
}

double entrywise_norm(const Eigen::MatrixXd& W, double r) {
  const double top = W.cwiseAbs().maxCoeff();
  if (!(top > 0.0)) return 0.0;
  const MagnitudePower power(r);
  const double* w = W.data();
  double sum = 0.0;
  double scaled[kChunk], magnitude[kChunk];
  for (std::size_t k0 = 0; k0 < std::size_t(W.size()); k0 += kChunk) {
    const std::size_t n = std::min(kChunk, std::size_t(W.size()) - k0);
    for (std::size_t k = 0; k < n; ++k) scaled[k] = std::fabs(w[k0 + k]) / top;
    power.apply(scaled, magnitude, n);
    for (std::size_t k = 0; k < n; ++k)
      if (scaled[k] > 0.0) sum += magnitude[k];  // in index order, as one loop would
  }
  return top * magnitude_power(sum, 1.0 / r);
}

}  // namespace attnlab::mirror
