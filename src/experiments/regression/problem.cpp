#include "experiments/regression/problem.hpp"

#include <Eigen/Eigenvalues>
#include <cmath>

#include "experiments/regression/loss.hpp"
#include "lab/param.hpp"
#include "lab/schema.hpp"

namespace attnlab::regression {

const char* to_string(Hyperbolic f) { return kHyperbolicTable.name_of(f); }

MatrixFacts measure(const SparseRows& A) {
  const Eigen::MatrixXd gram = weighted_gram(A, Eigen::VectorXd::Ones(A.rows()));
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(gram, Eigen::EigenvaluesOnly);
  MatrixFacts f;
  f.norm = std::sqrt(std::max(0.0, eig.eigenvalues().maxCoeff()));
  f.sigma_min = std::sqrt(std::max(0.0, eig.eigenvalues().minCoeff()));
  f.nonzeros = A.nonZeros();
  return f;
}

void validate(const Problem& p, const std::string& source) {
  auto fail = [&](const std::string& what) { throw ParamError(source + ": " + what); };
  const int n = p.n(), d = p.d();
  if (d < 1) fail("A must have at least one column");
  if (n < d) fail("A is " + std::to_string(n) + " x " + std::to_string(d) + "; the problem needs n >= d");
  for (int k = 0; k < p.A.outerSize(); ++k)
    for (SparseRows::InnerIterator it(p.A, k); it; ++it)
      if (!std::isfinite(it.value()))
        fail("A(" + std::to_string(it.row()) + ", " + std::to_string(it.col()) + ") is not a finite number");
  auto check_vector = [&](const Eigen::VectorXd& v, const char* name, int size) {
    if (v.size() != size)
      fail(std::string(name) + " has " + std::to_string(v.size()) + " entries; it needs " + std::to_string(size));
    for (int i = 0; i < v.size(); ++i)
      if (!std::isfinite(v[i])) fail(std::string(name) + "[" + std::to_string(i) + "] is not a finite number");
  };
  check_vector(p.b, "b", n);
  check_vector(p.w, "w", n);
  check_vector(p.x0, "x0", d);
  if (p.b.norm() > 1.0 + 1e-12) fail("||b|| = " + format_number(p.b.norm()) + "; the problem needs ||b|| <= 1");
  const MatrixFacts f = measure(p.A);
  if (!(f.sigma_min > 1e-10 * std::max(1.0, f.norm)))
    fail("A is rank-deficient (smallest singular value " + format_number(f.sigma_min) +
         "); the problem needs full column rank");
  if (f.norm * p.x0.norm() > kMaxExponent)
    fail("||A|| ||x0|| = " + format_number(f.norm * p.x0.norm()) + " would overflow exp/cosh/sinh; allowed: at most " +
         format_number(kMaxExponent));
}

}  // namespace attnlab::regression
