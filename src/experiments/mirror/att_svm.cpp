#include "experiments/mirror/att_svm.hpp"

#include <cmath>

#include "core/det_math.hpp"
#include "experiments/mirror/mirror_map.hpp"

namespace attnlab::mirror {

namespace {

// The dual coordinate ascent on flattened constraint matrices (rows of `A`, each of size m).
struct DualProblem {
  std::vector<Eigen::VectorXd> A;  // constraints <A_j, W> >= 1
  int m = 0;
};

struct DualResult {
  Eigen::VectorXd W, lambda;
  double max_violation = 0.0, gap = 0.0;
  int sweeps = 0;
  bool converged = false, feasible = true;
};

// g(delta) = <A_j, W(M + delta A_j)>: increasing in delta.
double coordinate_value(const Eigen::VectorXd& M, const Eigen::VectorXd& a, double delta, double q) {
  double g = 0.0;
  for (Eigen::Index k = 0; k < a.size(); ++k)
    if (a[k] != 0.0) g += a[k] * signed_power(M[k] + delta * a[k], q - 1.0);
  return g;
}

// g and g' = (q - 1) sum a_k^2 |M_k + delta a_k|^{q-2} with one power per entry; g' is infinite
// when an entry crosses 0 and q < 2 (the caller falls back to bisection then).
double coordinate_value(const Eigen::VectorXd& M, const Eigen::VectorXd& a, double delta, double q, double& slope) {
  double g = 0.0;
  slope = 0.0;
  for (Eigen::Index k = 0; k < a.size(); ++k) {
    if (a[k] == 0.0) continue;
    const double x = M[k] + delta * a[k], ax = std::fabs(x);
    if (ax == 0.0) {
      if (q < 2.0) slope = INFINITY;
      continue;
    }
    const double power = magnitude_power(ax, q - 2.0);  // |x|^{q-2}; |x|^{q-1} = |x| |x|^{q-2}
    g += a[k] * (x < 0.0 ? -ax * power : ax * power);
    slope += a[k] * a[k] * power;
  }
  slope *= q - 1.0;
  return g;
}

DualResult solve_dual(const DualProblem& prob, double p, int max_sweeps, double tolerance) {
  const double q = dual_exponent(p);
  const std::size_t J = prob.A.size();
  DualResult r;
  r.lambda = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(J));
  Eigen::VectorXd M = Eigen::VectorXd::Zero(prob.m);
  for (r.sweeps = 1; r.sweeps <= max_sweeps; ++r.sweeps) {
    for (std::size_t j = 0; j < J; ++j) {
      const Eigen::VectorXd& a = prob.A[j];
      double& lambda = r.lambda[static_cast<Eigen::Index>(j)];
      double delta;
      if (q == 2.0) {  // p = 2: a QP, the coordinate step is closed-form
        delta = std::max(-lambda, (1.0 - a.dot(M)) / a.squaredNorm());
      } else if (coordinate_value(M, a, -lambda, q) >= 1.0) {
        delta = -lambda;  // the optimum on lambda_j >= 0 is lambda_j = 0
      } else {
        // Bracket the root of g(delta) = 1 above -lambda, then bisect with secant steps.
        double lo = -lambda, hi = std::max(1e-12, lambda), g_lo = coordinate_value(M, a, lo, q) - 1.0;
        (void)g_lo;
        double g_hi = coordinate_value(M, a, hi, q) - 1.0;
        for (int k = 0; g_hi < 0.0 && k < 200; ++k) {
          lo = hi, g_lo = g_hi;
          hi *= 2.0;
          g_hi = coordinate_value(M, a, hi, q) - 1.0;
        }
        // Secant steps alternating with bisection: the secant converges fast on this smooth monotone
        // function, the bisection guarantees the bracket shrinks; stop at |g - 1| <= 1e-15.
        // Safeguarded Newton: a Newton step from the better end of the bracket when it stays inside,
        // else bisection; stop at |g - 1| <= 1e-15 or when the bracket cannot shrink.
        delta = std::fabs(g_lo) < std::fabs(g_hi) ? lo : hi;
        double slope = 0.0, g_at = coordinate_value(M, a, delta, q, slope) - 1.0;
        for (int k = 0; k < 200 && std::fabs(g_at) > 1e-15; ++k) {
          double next = delta - g_at / slope;
          if (!(next > lo && next < hi) || !std::isfinite(next)) next = 0.5 * (lo + hi);
          if (!(next > lo && next < hi)) break;
          delta = next;
          g_at = coordinate_value(M, a, delta, q, slope) - 1.0;
          if (g_at < 0.0) lo = delta;
          else hi = delta;
        }
      }
      if (delta != 0.0) {
        lambda += delta;
        M += delta * a;
      }
    }
    // Convergence: the primal W(M), its worst violation and the duality gap
    // ||M||_q^q - sum lambda (primal (1/p)||W||_p^p = (1/p)||M||_q^q).
    const double total = r.lambda.sum();
    if (!(total < 1e12)) {
      r.feasible = false;
      break;
    }
    r.W = M.unaryExpr([q](double x) { return signed_power(x, q - 1.0); });
    double violation = 0.0;
    for (const auto& a : prob.A) violation = std::max(violation, 1.0 - a.dot(r.W));
    double mq = 0.0;
    for (Eigen::Index k = 0; k < M.size(); ++k) mq += M[k] == 0.0 ? 0.0 : magnitude_power(std::fabs(M[k]), q);
    r.max_violation = std::max(0.0, violation);
    r.gap = std::fabs(mq - total) / std::max(1.0, mq / p);
    if (r.max_violation <= tolerance && r.gap <= tolerance) {
      r.converged = true;
      break;
    }
  }
  if (r.sweeps > max_sweeps) r.sweeps = max_sweeps;
  return r;
}

}  // namespace

SvmSolution solve_att_svm(const Dataset& data, const std::vector<int>& alpha, const Eigen::VectorXd& v, double p,
                          int max_sweeps, double tolerance) {
  const int d = data.d();
  DualProblem prob;
  prob.m = d * d;
  std::vector<std::pair<int, int>> index;
  for (int i = 0; i < data.n(); ++i) {
    const Eigen::MatrixXd& X = data.X[static_cast<std::size_t>(i)];
    for (int t = 0; t < data.T(); ++t) {
      if (t == alpha[static_cast<std::size_t>(i)]) continue;
      const Eigen::VectorXd a = (X.row(alpha[static_cast<std::size_t>(i)]) - X.row(t)).transpose();
      Eigen::MatrixXd Aj = a * data.z[static_cast<std::size_t>(i)].transpose();
      prob.A.emplace_back(Eigen::Map<Eigen::VectorXd>(Aj.data(), prob.m));
      index.emplace_back(i, t);
    }
  }
  const DualResult r = solve_dual(prob, p, max_sweeps, tolerance);
  SvmSolution s;
  s.sweeps = r.sweeps;
  s.converged = r.converged;
  s.feasible = r.feasible;
  if (!r.feasible) {
    s.message = "infeasible: no W makes the selected tokens win by a margin (the dual grows without bound)";
    s.W = Eigen::MatrixXd::Zero(d, d);
    return s;
  }
  s.W = Eigen::Map<const Eigen::MatrixXd>(r.W.data(), d, d);
  s.norm_p = entrywise_norm(s.W, p);
  s.max_violation = r.max_violation;
  s.duality_gap = r.gap;
  const double top = r.lambda.size() ? r.lambda.maxCoeff() : 0.0;
  for (std::size_t j = 0; j < index.size(); ++j)
    if (r.lambda[static_cast<Eigen::Index>(j)] > 1e-9 * top) s.support.push_back(index[j]);
  s.locally_optimal = locally_optimal(data, alpha, v, s.support);
  if (!s.converged)
    s.message = "not converged after " + std::to_string(r.sweeps) + " sweeps (violation " +
                std::to_string(s.max_violation) + ", gap " + std::to_string(s.duality_gap) + ")";
  return s;
}

bool locally_optimal(const Dataset& data, const std::vector<int>& alpha, const Eigen::VectorXd& v,
                     const std::vector<std::pair<int, int>>& support) {
  for (const auto& [i, t] : support) {
    const Eigen::MatrixXd& X = data.X[static_cast<std::size_t>(i)];
    if (!(data.Y[i] * v.dot(X.row(alpha[static_cast<std::size_t>(i)])) > data.Y[i] * v.dot(X.row(t)))) return false;
  }
  return true;
}

SvmSolution solve_value_svm(const Dataset& data, const std::vector<int>& alpha, double p, int max_sweeps,
                            double tolerance) {
  DualProblem prob;
  prob.m = data.d();
  for (int i = 0; i < data.n(); ++i)
    prob.A.push_back(data.Y[i] * data.X[static_cast<std::size_t>(i)].row(alpha[static_cast<std::size_t>(i)]).transpose());
  const DualResult r = solve_dual(prob, p, max_sweeps, tolerance);
  SvmSolution s;
  s.sweeps = r.sweeps;
  s.converged = r.converged;
  s.feasible = r.feasible;
  s.W = r.feasible ? Eigen::MatrixXd(r.W) : Eigen::MatrixXd::Zero(data.d(), 1);
  s.norm_p = r.feasible ? entrywise_norm(s.W, p) : 0.0;
  s.max_violation = r.max_violation;
  s.duality_gap = r.gap;
  if (!r.feasible) s.message = "infeasible: no v classifies the selected tokens with a margin";
  return s;
}

}  // namespace attnlab::mirror
