#include "experiments/regression/loss.hpp"

#include <cmath>

#include "core/det_math.hpp"

namespace attnlab::regression {

namespace {
// Eigen sizes its matrix-product blocks from the CPU's cache sizes, queried at run time natively
// but fixed defaults in wasm; different blocks sum in different orders. Fixed sizes on both
// targets keep the CLI and the page bit for bit the same.
const bool kFixedEigenBlocking = [] {
  Eigen::setCpuCacheSizes(32 * 1024, 256 * 1024, 2 * 1024 * 1024);
  return true;
}();
}  // namespace

Point evaluate(const Problem& p, const Eigen::VectorXd& x) {
  Point at;
  at.x = x;
  at.Ax = p.A * x;
  at.max_exponent = at.Ax.size() ? at.Ax.cwiseAbs().maxCoeff() : 0.0;
  if (!(at.max_exponent <= kMaxExponent)) {  // also catches NaN
    at.finite = false;
    at.loss = INFINITY;
    return at;
  }
  const Eigen::ArrayXd e = at.Ax.array();
  switch (p.function) {
    case Hyperbolic::Exp:
      at.u = e.unaryExpr([](double z) { return dmath::exp(z); }).matrix();
      at.v = at.u;
      break;
    case Hyperbolic::Cosh:  // dmath::cosh (core/det_math.hpp): the same numbers natively and in wasm
      at.u = e.unaryExpr([](double z) { return dmath::cosh(z); }).matrix();
      at.v = e.unaryExpr([](double z) { return dmath::sinh(z); }).matrix();
      break;
    case Hyperbolic::Sinh:
      at.u = e.unaryExpr([](double z) { return dmath::sinh(z); }).matrix();
      at.v = e.unaryExpr([](double z) { return dmath::cosh(z); }).matrix();
      break;
  }
  at.alpha = at.u.sum();
  at.c = at.u - at.alpha * p.b;
  at.cb = at.c.dot(p.b);
  const Eigen::VectorXd wAx = p.w.cwiseProduct(at.Ax);
  at.loss = 0.5 * at.c.squaredNorm() + 0.5 * wAx.squaredNorm();
  at.finite = std::isfinite(at.loss);
  return at;
}

Eigen::VectorXd gradient(const Problem& p, const Point& at) {
  const Eigen::VectorXd inner = at.v.cwiseProduct(at.c) - at.cb * at.v + p.w.cwiseAbs2().cwiseProduct(at.Ax);
  return p.A.transpose() * inner;
}

Eigen::VectorXd b_diagonal(const Point& at) {
  return at.v.cwiseAbs2() + at.u.cwiseProduct(at.c) - at.cb * at.u;
}

Eigen::MatrixXd weighted_gram(const SparseRows& A, const Eigen::VectorXd& weights, Work* work) {
  const int d = static_cast<int>(A.cols());
  Eigen::MatrixXd G = Eigen::MatrixXd::Zero(d, d);
  const auto* starts = A.outerIndexPtr();
  const auto* columns = A.innerIndexPtr();
  const double* values = A.valuePtr();
  const bool compressed = A.isCompressed();
  for (Eigen::Index i = 0; i < A.rows(); ++i) {
    const double w = weights[i];
    if (w == 0.0) continue;
    const auto begin = starts[i], end = compressed ? starts[i + 1] : begin + A.innerNonZeroPtr()[i];
    if (work) {
      const double k = double(end - begin);
      work->flops += k + k * (k + 1.0);
      work->gram_rows += 1.0;
    }
    for (auto a = begin; a < end; ++a) {
      const double s = w * values[a];
      double* column = G.col(columns[a]).data();
      for (auto b = a; b < end; ++b) column[columns[b]] += s * values[b];  // entries (k >= j): lower part
    }
  }
  return G.selfadjointView<Eigen::Lower>();
}

Eigen::MatrixXd hessian_rank2(const Problem& p, const Point& at, Work* work) {
  if (work) {
    const double d = double(p.d());
    work->flops += 4.0 * double(p.A.nonZeros()) + 6.0 * d * d;
  }
  const Eigen::VectorXd pv = p.A.transpose() * at.v;
  const Eigen::VectorXd qv = p.A.transpose() * at.v.cwiseProduct(p.b);
  return p.b.squaredNorm() * pv * pv.transpose() - qv * pv.transpose() - pv * qv.transpose();
}

Eigen::MatrixXd hessian(const Problem& p, const Point& at, Work* work) {
  const Eigen::VectorXd delta = b_diagonal(at) + p.w.cwiseAbs2();
  return weighted_gram(p.A, delta, work) + hessian_rank2(p, at, work);
}

Eigen::MatrixXd hessian_dense_formula(const Problem& p, const Point& at) {
  // B = diag(v o v) - (v o b) v^T - v (v o b)^T + ||b||^2 v v^T + diag(u o c) - <c, b> diag(u)
  const Eigen::VectorXd vb = at.v.cwiseProduct(p.b);
  Eigen::MatrixXd B = -vb * at.v.transpose() - at.v * vb.transpose() + p.b.squaredNorm() * at.v * at.v.transpose();
  B.diagonal() += at.v.cwiseAbs2() + at.u.cwiseProduct(at.c) - at.cb * at.u;
  B.diagonal() += p.w.cwiseAbs2();
  const Eigen::MatrixXd A = Eigen::MatrixXd(p.A);  // dense: tests only
  return A.transpose() * B * A;
}

double b_norm(const Problem& p, const Point& at) {
  const Eigen::VectorXd diag = b_diagonal(at), vb = at.v.cwiseProduct(p.b);
  const double bb = p.b.squaredNorm();
  auto apply = [&](const Eigen::VectorXd& z) -> Eigen::VectorXd {
    const double vz = at.v.dot(z), vbz = vb.dot(z);
    return diag.cwiseProduct(z) - vb * vz - at.v * vbz + bb * vz * at.v;
  };
  // Power iteration from a fixed start: converges to the largest |eigenvalue| of the symmetric B.
  Eigen::VectorXd z = Eigen::VectorXd::Ones(diag.size()) / std::sqrt(double(diag.size()));
  z += 0.5 * at.v.normalized();
  z.normalize();
  double estimate = 0.0;
  for (int k = 0; k < 300; ++k) {
    const Eigen::VectorXd y = apply(z);
    const double norm = y.norm();
    if (!(norm > 0.0)) return 0.0;
    const bool settled = std::fabs(norm - estimate) <= 1e-10 * norm;
    estimate = norm;
    z = y / norm;
    if (settled) break;
  }
  return estimate;
}

}  // namespace attnlab::regression
