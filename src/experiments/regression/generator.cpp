#include "experiments/regression/generator.hpp"

#include <cmath>
#include <vector>

#include "core/det_math.hpp"
#include "core/rng.hpp"
#include "experiments/regression/loss.hpp"
#include "lab/param.hpp"
#include "lab/schema.hpp"

namespace attnlab::regression {

namespace {

// Gaussian entries at a `density` fraction of places (each place independently), so nnz(A) is
// about density n d. Column j is scaled by kappa^{-j/(d-1)}: with n >> d the Gaussian part is
// well conditioned, so kappa(A) is close to the target (the measured value is reported).
SparseRows random_matrix(const GeneratorSettings& s, Rng& rng) {
  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve(static_cast<std::size_t>(s.density * s.n * s.d * 1.1) + 16);
  for (int j = 0; j < s.d; ++j) {
    const double scale = s.d > 1 ? dmath::pow(s.condition, -double(j) / double(s.d - 1)) : 1.0;
    bool any = false;
    for (int i = 0; i < s.n; ++i) {
      if (s.density < 1.0 && !(rng.uniform() < s.density)) continue;
      entries.emplace_back(i, j, scale * rng.normal());
      any = true;
    }
    if (!any) entries.emplace_back(static_cast<int>(rng.below(static_cast<std::uint64_t>(s.n))), j, scale);
  }
  SparseRows A(s.n, s.d);
  A.setFromTriplets(entries.begin(), entries.end());
  A.makeCompressed();
  return A;
}

Eigen::VectorXd random_unit(int size, Rng& rng) {
  Eigen::VectorXd v(size);
  for (int i = 0; i < size; ++i) v[i] = rng.normal();
  return v / v.norm();
}

}  // namespace

double weight_for(const Problem& p, WeightRule rule, double l, double R) {
  const MatrixFacts f = measure(p.A);
  double beta = 0.0;
  if (rule == WeightRule::Practical) {
    Problem unweighted = p;
    unweighted.w = Eigen::VectorXd::Zero(p.n());
    beta = b_norm(unweighted, evaluate(unweighted, Eigen::VectorXd::Zero(p.d())));
    if (p.x_true.size() == p.d()) beta = std::max(beta, b_norm(unweighted, evaluate(unweighted, p.x_true)));
  } else {
    beta = 8.0 * p.n() * dmath::exp(2.0 * R * R);  // docs/regression.md s.3: a safe explicit beta
  }
  return std::sqrt(100.0 * beta + l / (f.sigma_min * f.sigma_min));
}

Problem generate(const GeneratorSettings& s, std::uint64_t seed) {
  Rng rng = Rng::for_stream(seed, 0);
  Problem p;
  p.function = s.function;
  p.A = random_matrix(s, rng);
  const MatrixFacts f = measure(p.A);
  if (!(f.sigma_min > 0.0))
    throw ParamError("parameter 'density': " + format_number(s.density) +
                     " left A rank-deficient in this draw; allowed: a larger density (or another seed)");
  p.A *= s.norm / f.norm;
  p.x_true = s.x_true_norm * random_unit(s.d, rng);
  if (s.norm * s.x_true_norm > kMaxExponent)
    throw ParamError("parameter 'x_true_norm': ||A|| ||x_true|| = " + format_number(s.norm * s.x_true_norm) +
                     " would overflow exp/cosh/sinh; allowed: at most " + format_number(kMaxExponent));
  switch (s.target) {
    case TargetKind::Planted: {
      // b = u(x_true) / alpha(x_true): then c(x_true) = 0 (docs/regression.md s.5).
      Problem unweighted = p;
      unweighted.b = Eigen::VectorXd::Zero(s.n);
      unweighted.w = Eigen::VectorXd::Zero(s.n);
      const Point at = evaluate(unweighted, p.x_true);
      p.b = at.u / at.alpha;
      if (!(p.b.norm() <= 1.0))
        throw ParamError("parameter 'target': planted b = u(x_true) / alpha(x_true) has norm " +
                         format_number(p.b.norm()) + " (alpha = " + format_number(at.alpha) +
                         " is near 0 for sinh); allowed: ||b|| <= 1, so use target simplex or unit");
      break;
    }
    case TargetKind::Simplex: {
      p.b.resize(s.n);  // uniform on the simplex: normalised exponentials
      for (int i = 0; i < s.n; ++i) p.b[i] = -dmath::log(1.0 - rng.uniform());
      p.b /= p.b.sum();
      break;
    }
    case TargetKind::Unit:
      p.b = random_unit(s.n, rng);
      break;
  }
  p.w = Eigen::VectorXd::Constant(s.n, 1.0);
  const double R = std::max({4.0, s.norm, s.x_true_norm});
  const double w = s.weight_rule == WeightRule::Uniform ? s.w : weight_for(p, s.weight_rule, s.l, R);
  p.w = Eigen::VectorXd::Constant(s.n, w);
  return p;
}

}  // namespace attnlab::regression
