#include "experiments/mirror/mirror_map.hpp"

#include <cmath>

#include "core/det_math.hpp"

namespace attnlab::mirror {

double magnitude_power(double a, double e) {
  if (e == 1.0) return a;
  if (e == 0.5) return std::sqrt(a);
  if (e == -0.5) return 1.0 / std::sqrt(a);
  if (e == 1.5) return a * std::sqrt(a);
  if (e == 2.0) return a * a;
  return dmath::pow(a, e);  // integer exponents are exact products there
}

namespace {
// sign(x) |x|^e, with |x|^e from the project's deterministic pow (same bits natively and in wasm).
double signed_power(double x, double e) {
  if (x == 0.0) return 0.0;
  const double a = std::fabs(x);
  return x < 0.0 ? -magnitude_power(a, e) : magnitude_power(a, e);
}
}  // namespace

double psi(const Eigen::MatrixXd& W, double p) {
  double sum = 0.0;
  for (Eigen::Index k = 0; k < W.size(); ++k) sum += W.data()[k] == 0.0 ? 0.0 : magnitude_power(std::fabs(W.data()[k]), p);
  return sum / p;
}

Eigen::MatrixXd grad_psi(const Eigen::MatrixXd& W, double p) {
  if (p == 2.0) return W;  // p = 2 is exactly gradient descent (spec s.2)
  return W.unaryExpr([p](double x) { return signed_power(x, p - 1.0); });
}

Eigen::MatrixXd grad_psi_inverse(const Eigen::MatrixXd& T, double p) {
  if (p == 2.0) return T;
  return T.unaryExpr([p](double x) { return signed_power(x, 1.0 / (p - 1.0)); });
}

double bregman(const Eigen::MatrixXd& W, const Eigen::MatrixXd& V, double p) {
  const double value = psi(W, p) - psi(V, p) - (grad_psi(V, p).array() * (W - V).array()).sum();
  return value > 0.0 ? value : 0.0;  // >= 0 in exact arithmetic; rounding can leave -1e-17
}

double entrywise_norm(const Eigen::MatrixXd& W, double r) {
  const double top = W.cwiseAbs().maxCoeff();
  if (!(top > 0.0)) return 0.0;
  double sum = 0.0;
  for (Eigen::Index k = 0; k < W.size(); ++k) {
    const double x = std::fabs(W.data()[k]) / top;
    if (x > 0.0) sum += magnitude_power(x, r);
  }
  return top * magnitude_power(sum, 1.0 / r);
}

}  // namespace attnlab::mirror
