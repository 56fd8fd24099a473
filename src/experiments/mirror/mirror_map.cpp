#include "experiments/mirror/mirror_map.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>

#include "core/det_math.hpp"

namespace attnlab::mirror {

namespace {
// Cube root by Newton's method from a bit-level first guess: IEEE operations only, so the same
// bits natively and in wasm, about 4x cheaper than exp(log(a) / 3).
double cube_root(double a) {
  if (a == 0.0 || !std::isfinite(a)) return a;
  // First guess: divide the exponent by 3 in the bit pattern (within a few percent), then Halley's
  // iteration y <- y (y^3 + 2a) / (2 y^3 + a), which triples the correct digits each time.
  std::uint64_t bits;
  std::memcpy(&bits, &a, sizeof bits);
  bits = bits / 3 + 0x2a9f7893782da1ceULL;
  double y;
  std::memcpy(&y, &bits, sizeof y);
  for (int k = 0; k < 3; ++k) {
    const double y3 = y * y * y;
    y = y * (y3 + 2.0 * a) / (2.0 * y3 + a);
  }
  return y;
}
bool near(double e, double target) { return std::fabs(e - target) < 1e-12; }
}  // namespace

double magnitude_power(double a, double e) {
  if (e == 1.0) return a;
  if (e == 0.5) return std::sqrt(a);
  if (e == -0.5) return 1.0 / std::sqrt(a);
  if (e == 1.5) return a * std::sqrt(a);
  if (e == 2.0) return a * a;
  // The paper's p = 1.75 gives exponents 3/4, 4/3, 1/3 and 7/3 (q = 7/3).
  if (near(e, 0.75)) return std::sqrt(a) * std::sqrt(std::sqrt(a));
  if (near(e, 4.0 / 3.0)) return a * cube_root(a);
  if (near(e, 1.0 / 3.0)) return cube_root(a);
  if (near(e, 7.0 / 3.0)) return a * a * cube_root(a);
  return dmath::pow(a, e);  // integer exponents are exact products there
}

double signed_power(double x, double e) {
  if (x == 0.0) return 0.0;
  const double a = std::fabs(x);
  return x < 0.0 ? -magnitude_power(a, e) : magnitude_power(a, e);
}

double psi(const Eigen::MatrixXd& W, double p) {
  double sum = 0.0;
  for (Eigen::Index k = 0; k < W.size(); ++k) sum += W.data()[k] == 0.0 ? 0.0 : magnitude_power(std::fabs(W.data()[k]), p);
  return sum / p;
}

Eigen::MatrixXd grad_psi(const Eigen::MatrixXd& W, double p) {
  if (p == 2.0) return W;  // p = 2 is exactly gradient descent (docs/mirror.md s.2)
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
