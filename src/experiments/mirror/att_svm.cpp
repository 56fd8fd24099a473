// l_p-AttSVM by dual coordinate ascent (docs/mirror.md s.3).
//
// Index of this file
// [SECTION] Coordinate values
// [SECTION] DualSolver
// [SECTION] SvmSolver
#include "experiments/mirror/att_svm.hpp"

#include <cmath>
#include <utility>
#include <vector>

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

// [SECTION] Coordinate values

// x = M + delta a, and |x|^e per entry by `power` (the kernels run over whole arrays).
void shifted_powers(const Eigen::VectorXd& M, const Eigen::VectorXd& a, double delta, const MagnitudePower& power,
                    std::vector<double>& x, std::vector<double>& pw) {
  const std::size_t m = static_cast<std::size_t>(a.size());
  x.resize(m);
  pw.resize(m);
  const double *Mk = M.data(), *ak = a.data();
  double *xk = x.data(), *pk = pw.data();
  for (std::size_t k = 0; k < m; ++k) {
    xk[k] = Mk[k] + delta * ak[k];
    pk[k] = std::fabs(xk[k]);
  }
  power.apply(pw.data(), pw.data(), m);
}

// g(delta) = <A_j, W(M + delta A_j)>: increasing in delta. `power_q1`: |x|^{q-1}.
double coordinate_value(const Eigen::VectorXd& M, const Eigen::VectorXd& a, double delta,
                        const MagnitudePower& power_q1, std::vector<double>& x, std::vector<double>& pw) {
  shifted_powers(M, a, delta, power_q1, x, pw);
  const double *ak = a.data(), *xk = x.data(), *pk = pw.data();
  double g = 0.0;
  for (std::size_t k = 0; k < x.size(); ++k)  // a_k signed_power(x_k, q - 1)
    if (ak[k] != 0.0) g += ak[k] * (xk[k] == 0.0 ? 0.0 : xk[k] < 0.0 ? -pk[k] : pk[k]);
  return g;
}

// g and g' = (q - 1) sum a_k^2 |M_k + delta a_k|^{q-2} with one power per entry; g' is infinite
// when an entry crosses 0 and q < 2 (the caller falls back to bisection then). `power_q2`: |x|^{q-2}.
double coordinate_value(const Eigen::VectorXd& M, const Eigen::VectorXd& a, double delta, double q,
                        const MagnitudePower& power_q2, std::vector<double>& x, std::vector<double>& pw,
                        double& slope) {
  shifted_powers(M, a, delta, power_q2, x, pw);
  const double *ak = a.data(), *xk = x.data(), *pk = pw.data();
  double g = 0.0, dg = 0.0;  // two sums in index order, interleaved
  for (std::size_t k = 0; k < x.size(); ++k) {
    if (ak[k] == 0.0) continue;
    const double ax = std::fabs(xk[k]);
    if (ax == 0.0) {
      if (q < 2.0) dg = INFINITY;
      continue;
    }
    const double power = pk[k];  // |x|^{q-2}; |x|^{q-1} = |x| |x|^{q-2}
    g += ak[k] * (xk[k] < 0.0 ? -ax * power : ax * power);
    dg += ak[k] * ak[k] * power;
  }
  slope = dg * (q - 1.0);
  return g;
}

// [SECTION] DualSolver

// The dual coordinate ascent, resumable between coordinate updates: sweeps over the constraints,
// each followed by the convergence check on the primal W(M), its worst violation and the duality
// gap ||M||_q^q - sum lambda (primal (1/p)||W||_p^p = (1/p)||M||_q^q).
class DualSolver {
 public:
  DualSolver(DualProblem prob, double p, int max_sweeps, double tolerance)
      : prob_(std::move(prob)),
        p_(p),
        q_(dual_exponent(p)),
        max_sweeps_(max_sweeps),
        tolerance_(tolerance),
        power_q_(q_),
        power_q1_(q_ - 1.0),
        power_q2_(q_ - 2.0) {
    r_.lambda = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(prob_.A.size()));
    M_ = Eigen::VectorXd::Zero(prob_.m);
    r_.sweeps = 1;
    if (max_sweeps_ < 1) finished_ = true, r_.sweeps = max_sweeps_;
  }

  bool advance(double work) {
    // Rough costs in operations on entries (about 1 ns each natively): the closed-form QP step reads
    // a few vectors; the root finding takes several powers per entry; the check reads every A_j.
    const double m = static_cast<double>(prob_.m);
    const double coordinate_cost = q_ == 2.0 ? 4.0 * m : 150.0 * m;
    const double check_cost = (static_cast<double>(prob_.A.size()) + 100.0) * m;
    while (!finished_ && work > 0.0) {
      if (j_ < prob_.A.size()) {
        update_coordinate(j_++);
        work -= coordinate_cost;
        continue;
      }
      work -= check_cost;
      if (end_sweep()) {
        finished_ = true;
      } else if (++r_.sweeps > max_sweeps_) {
        r_.sweeps = max_sweeps_;
        finished_ = true;
      }
      j_ = 0;
    }
    return finished_;
  }

  const DualResult& result() const { return r_; }
  double p() const { return p_; }

 private:
  void update_coordinate(std::size_t j) {
    const Eigen::VectorXd& a = prob_.A[j];
    double& lambda = r_.lambda[static_cast<Eigen::Index>(j)];
    const Eigen::VectorXd& M = M_;
    const double q = q_;
    double delta;
    if (q == 2.0) {  // p = 2: a QP, the coordinate step is closed-form
      delta = std::max(-lambda, (1.0 - a.dot(M)) / a.squaredNorm());
    } else if (const double g0 = value(M, a, -lambda); g0 >= 1.0) {
      delta = -lambda;  // the optimum on lambda_j >= 0 is lambda_j = 0
    } else {
      // Bracket the root of g(delta) = 1 above -lambda, then a safeguarded Newton: a Newton step
      // from the better end of the bracket when it stays inside, else bisection; stop at
      // |g - 1| <= 1e-15 or when the bracket cannot shrink.
      double lo = -lambda, hi = std::max(1e-12, lambda), g_lo = g0 - 1.0;
      double g_hi = value(M, a, hi) - 1.0;
      for (int k = 0; g_hi < 0.0 && k < 200; ++k) {
        lo = hi, g_lo = g_hi;
        hi *= 2.0;
        g_hi = value(M, a, hi) - 1.0;
      }
      delta = std::fabs(g_lo) < std::fabs(g_hi) ? lo : hi;
      double slope = 0.0, g_at = value(M, a, delta, slope) - 1.0;
      for (int k = 0; k < 200 && std::fabs(g_at) > 1e-15; ++k) {
        double next = delta - g_at / slope;
        if (!(next > lo && next < hi) || !std::isfinite(next)) next = 0.5 * (lo + hi);
        if (!(next > lo && next < hi)) break;
        delta = next;
        g_at = value(M, a, delta, slope) - 1.0;
        if (g_at < 0.0) lo = delta;
        else hi = delta;
      }
    }
    if (delta != 0.0) {
      lambda += delta;
      M_ += delta * a;
    }
  }

  double value(const Eigen::VectorXd& M, const Eigen::VectorXd& a, double delta) {
    return coordinate_value(M, a, delta, power_q1_, x_, pw_);
  }
  double value(const Eigen::VectorXd& M, const Eigen::VectorXd& a, double delta, double& slope) {
    return coordinate_value(M, a, delta, q_, power_q2_, x_, pw_, slope);
  }

  // The check after a sweep; true when the solve stops here (infeasible or converged).
  bool end_sweep() {
    const double total = r_.lambda.sum();
    if (!(total < 1e12)) {
      r_.feasible = false;
      return true;
    }
    r_.W.resize(M_.size());
    signed_power_array(M_.data(), r_.W.data(), std::size_t(M_.size()), power_q1_);
    double violation = 0.0;
    for (const auto& a : prob_.A) violation = std::max(violation, 1.0 - a.dot(r_.W));
    pw_.resize(std::size_t(M_.size()));
    for (Eigen::Index k = 0; k < M_.size(); ++k) pw_[std::size_t(k)] = std::fabs(M_[k]);
    power_q_.apply(pw_.data(), pw_.data(), pw_.size());
    double mq = 0.0;
    for (Eigen::Index k = 0; k < M_.size(); ++k) mq += M_[k] == 0.0 ? 0.0 : pw_[std::size_t(k)];
    r_.max_violation = std::max(0.0, violation);
    r_.gap = std::fabs(mq - total) / std::max(1.0, mq / p_);
    r_.converged = r_.max_violation <= tolerance_ && r_.gap <= tolerance_;
    return r_.converged;
  }

  DualProblem prob_;
  double p_, q_;
  int max_sweeps_;
  double tolerance_;
  DualResult r_;
  MagnitudePower power_q_, power_q1_, power_q2_;  // |x|^q, |x|^{q-1}, |x|^{q-2}
  Eigen::VectorXd M_;     // sum_j lambda_j A_j
  std::vector<double> x_, pw_;  // scratch: M + delta A_j and its powers
  std::size_t j_ = 0;     // the next coordinate of the current sweep
  bool finished_ = false;
};

}  // namespace

// [SECTION] SvmSolver

// What a solve needs besides the dual: how to turn its result into an SvmSolution.
struct SvmSolver::State {
  DualSolver dual;
  bool value_svm = false;               // the v-SVM (d x 1) rather than the attention SVM (d x d)
  const Dataset* data = nullptr;
  std::vector<int> alpha;
  Eigen::VectorXd v;                    // attention SVM: for the local-optimality check
  std::vector<std::pair<int, int>> index;  // attention SVM: constraint j is token (i, t)
};

SvmSolver::SvmSolver(std::unique_ptr<State> state) : state_(std::move(state)) {}
SvmSolver::SvmSolver(SvmSolver&&) noexcept = default;
SvmSolver& SvmSolver::operator=(SvmSolver&&) noexcept = default;
SvmSolver::~SvmSolver() = default;

SvmSolver SvmSolver::attention(const Dataset& data, const std::vector<int>& alpha, const Eigen::VectorXd& v, double p,
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
  auto state = std::unique_ptr<State>(
      new State{DualSolver(std::move(prob), p, max_sweeps, tolerance), false, &data, alpha, v, std::move(index)});
  return SvmSolver(std::move(state));
}

SvmSolver SvmSolver::value(const Dataset& data, const std::vector<int>& alpha, double p, int max_sweeps,
                           double tolerance) {
  DualProblem prob;
  prob.m = data.d();
  for (int i = 0; i < data.n(); ++i)
    prob.A.push_back(data.Y[i] * data.X[static_cast<std::size_t>(i)].row(alpha[static_cast<std::size_t>(i)]).transpose());
  auto state = std::unique_ptr<State>(
      new State{DualSolver(std::move(prob), p, max_sweeps, tolerance), true, &data, alpha, Eigen::VectorXd(), {}});
  return SvmSolver(std::move(state));
}

bool SvmSolver::advance(double work) { return state_->dual.advance(work); }

SvmSolution SvmSolver::solution() const {
  const DualResult& r = state_->dual.result();
  const Dataset& data = *state_->data;
  const int d = data.d();
  SvmSolution s;
  s.sweeps = r.sweeps;
  s.converged = r.converged;
  s.feasible = r.feasible;
  if (state_->value_svm) {
    s.W = r.feasible ? Eigen::MatrixXd(r.W) : Eigen::MatrixXd::Zero(d, 1);
    s.norm_p = r.feasible ? entrywise_norm(s.W, state_->dual.p()) : 0.0;
    s.max_violation = r.max_violation;
    s.duality_gap = r.gap;
    if (!r.feasible) s.message = "infeasible: no v classifies the selected tokens with a margin";
    return s;
  }
  if (!r.feasible) {
    s.message = "infeasible: no W makes the selected tokens win by a margin (the dual grows without bound)";
    s.W = Eigen::MatrixXd::Zero(d, d);
    return s;
  }
  s.W = Eigen::Map<const Eigen::MatrixXd>(r.W.data(), d, d);
  s.norm_p = entrywise_norm(s.W, state_->dual.p());
  s.max_violation = r.max_violation;
  s.duality_gap = r.gap;
  const double top = r.lambda.size() ? r.lambda.maxCoeff() : 0.0;
  for (std::size_t j = 0; j < state_->index.size(); ++j)
    if (r.lambda[static_cast<Eigen::Index>(j)] > 1e-9 * top) s.support.push_back(state_->index[j]);
  s.locally_optimal = locally_optimal(data, state_->alpha, state_->v, s.support);
  if (!s.converged)
    s.message = "not converged after " + std::to_string(r.sweeps) + " sweeps (violation " +
                std::to_string(s.max_violation) + ", gap " + std::to_string(s.duality_gap) + ")";
  return s;
}

SvmSolution solve_att_svm(const Dataset& data, const std::vector<int>& alpha, const Eigen::VectorXd& v, double p,
                          int max_sweeps, double tolerance) {
  SvmSolver solver = SvmSolver::attention(data, alpha, v, p, max_sweeps, tolerance);
  solver.advance(INFINITY);
  return solver.solution();
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
  SvmSolver solver = SvmSolver::value(data, alpha, p, max_sweeps, tolerance);
  solver.advance(INFINITY);
  return solver.solution();
}

}  // namespace attnlab::mirror
