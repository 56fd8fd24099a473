// The solvers of docs/regression.md s.3 (solvers.hpp): their names, the reference minimiser and Solver's steps.
//
// Index of this file
// [SECTION] Names
// [SECTION] Symmetric solves
// [SECTION] The reference minimiser
// [SECTION] Solver: construction and the trace
// [SECTION] Solver: one step
// [SECTION] Solver: measurements and messages
#include "experiments/regression/solvers.hpp"

#include <Eigen/Cholesky>
#include <cmath>
#include <cstdio>

#include "lab/clock.hpp"

namespace attnlab::regression {

// [SECTION] Names

const char* method_key(Method m) {
  switch (m) {
    case Method::Newton: return "newton";
    case Method::ApproxDiag: return "approx_diag";
    case Method::ApproxW2: return "approx_w2";
    case Method::Sampled: return "sampled";
    case Method::SampledRank2: return "sampled_rank2";
    case Method::GradientDescent: return "gd";
  }
  return "";
}

const char* method_label(Method m) {
  switch (m) {
    case Method::Newton: return "exact Newton";
    case Method::ApproxDiag: return "approx. Newton, A^T (B_diag + W^2) A";
    case Method::ApproxW2: return "approx. Newton, A^T W^2 A";
    case Method::Sampled: return "approx. Newton, leverage-sampled";
    case Method::SampledRank2: return "approx. Newton, sampled + rank 2";
    case Method::GradientDescent: return "gradient descent (Armijo)";
  }
  return "";
}

const char* to_string(SolverState s) {
  switch (s) {
    case SolverState::Running: return "running";
    case SolverState::Converged: return "converged";
    case SolverState::Diverged: return "diverged";
    case SolverState::Stalled: return "stalled";
    case SolverState::MaxIterations: return "iteration limit";
  }
  return "";
}

// [SECTION] Symmetric solves

Eigen::VectorXd solve_symmetric(const Eigen::MatrixXd& H, const Eigen::VectorXd& g, unsigned& flags) {
  Eigen::LLT<Eigen::MatrixXd> llt(H);
  if (llt.info() == Eigen::Success) return llt.solve(g);
  flags |= kFallbackLdlt;
  Eigen::LDLT<Eigen::MatrixXd> ldlt(H);
  if (ldlt.info() == Eigen::Success) {
    Eigen::VectorXd z = ldlt.solve(g);
    if (z.allFinite() && (H * z - g).norm() <= 1e-8 * std::max(1.0, g.norm())) return z;
  }
  flags |= kJitter;
  const double scale = std::max(1e-300, H.diagonal().cwiseAbs().maxCoeff());
  for (double lambda = 1e-12 * scale;; lambda *= 10.0) {
    Eigen::MatrixXd shifted = H;
    shifted.diagonal().array() += lambda;
    Eigen::LDLT<Eigen::MatrixXd> jittered(shifted);
    Eigen::VectorXd z = jittered.solve(g);
    if ((jittered.info() == Eigen::Success && z.allFinite()) || lambda > scale) return z;
  }
}

// [SECTION] The reference minimiser

namespace {

// The rounding level of the gradient at `at`: c = u - alpha b cancels, so ||grad L|| cannot go much
// below eps |A|^T (|v| (|u| + |alpha| |b|) + w^2 |A x|) (docs/regression.md s.6).
double gradient_rounding_floor(const Problem& p, const Point& at) {
  const Eigen::VectorXd magnitude =
      at.v.cwiseAbs().cwiseProduct(at.u.cwiseAbs() + std::fabs(at.alpha) * p.b.cwiseAbs()) +
      p.w.cwiseAbs2().cwiseProduct(at.Ax.cwiseAbs());
  return 1e-14 * (SparseRows(p.A.cwiseAbs()).transpose() * magnitude).norm();
}

// The Newton direction H^-1 g (H: d x d, g: d); where H is not positive definite, H + lambda I with
// the smallest lambda of 0, 1e-10 s, 1e-9 s, ... (s: H's largest diagonal entry) that is
// (Levenberg-Marquardt), so every step descends; g itself when no shift up to 1e10 s helps.
Eigen::VectorXd shifted_newton_step(const Eigen::MatrixXd& H, const Eigen::VectorXd& g) {
  const double scale = std::max(1e-300, H.diagonal().cwiseAbs().maxCoeff());
  for (double lambda = 0.0;; lambda = lambda == 0.0 ? 1e-10 * scale : 10.0 * lambda) {
    Eigen::MatrixXd shifted = H;
    shifted.diagonal().array() += lambda;
    Eigen::LLT<Eigen::MatrixXd> llt(shifted);
    if (llt.info() == Eigen::Success) return llt.solve(g);
    if (lambda > 1e10 * scale) return g;
  }
}

}  // namespace

Reference find_minimiser(const Problem& p, const Eigen::VectorXd& start) {
  Reference r;
  Eigen::VectorXd x = start;
  Point at = evaluate(p, x);
  double first_grad = -1.0, best_grad = INFINITY;
  int polish = 0, best_at = 0;  // full Newton steps taken after reaching the tolerance
  for (r.iterations = 0; r.iterations < 300; ++r.iterations) {
    if (!at.finite) break;
    const Eigen::VectorXd g = gradient(p, at);
    const double grad_norm = g.norm();
    if (first_grad < 0.0) first_grad = grad_norm;
    if (r.found) {
      // Polishing: ||grad|| <= 1e-13 can still leave ||x - x*|| ~ 1e-13 / l; a few quadratic steps
      // take x* to double precision. Stop when the gradient no longer decreases.
      if (grad_norm >= r.grad_norm || ++polish > 4) break;
    }
    r.grad_norm = grad_norm;
    r.x = x;
    r.loss = at.loss;
    // docs/regression.md s.6: ||grad|| <= 1e-13, or the gradient's rounding level where that is higher.
    if (grad_norm <= std::max(1e-13, gradient_rounding_floor(p, at))) r.found = true;
    // Stagnation near the floor: 20 steps without a smaller gradient, already tiny: double precision
    // allows no better.
    if (grad_norm < best_grad) best_grad = grad_norm, best_at = r.iterations;
    if (!r.found && r.iterations - best_at >= 20 && best_grad <= 1e-9 * std::max(1.0, first_grad)) {
      r.found = true;
      break;
    }
    // Newton direction; where H is not positive definite, shift it (Levenberg-Marquardt) until it
    // is, so every step is a descent step that becomes Newton's near a minimiser.
    const Eigen::VectorXd step = shifted_newton_step(hessian(p, at), g);
    double eta = 1.0;
    Point next = evaluate(p, x - step);
    // Near the minimiser L's decrease drops below its rounding, and Armijo would shrink good full
    // steps: accept a full step that halves the gradient without raising L beyond rounding.
    const bool full_step_ok = next.finite && next.loss <= at.loss + 1e-14 * std::fabs(at.loss) &&
                              gradient(p, next).norm() <= 0.5 * grad_norm;
    if (!r.found && !full_step_ok) {  // Armijo backtracking on L until the tolerance is met
      while (!(next.finite && next.loss <= at.loss - 1e-4 * eta * g.dot(step)) && eta > 1e-20) {
        eta *= 0.5;
        next = evaluate(p, x - eta * step);
      }
      if (eta <= 1e-20) {
        // L cannot resolve the decrease (it is below L's rounding), but the gradient still can:
        // take the full Newton step if it makes the gradient smaller, else stop here.
        next = evaluate(p, x - step);
        eta = 1.0;
        if (!next.finite || gradient(p, next).norm() >= grad_norm) {
          r.found = grad_norm <= 1e-9 * std::max(1.0, first_grad);
          break;
        }
      }
    }
    if (!next.finite) break;
    x -= eta * step;
    at = next;
  }
  if (r.x.size() == 0) r.x = x, r.loss = at.loss;
  if (!r.found) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "damped Newton stopped at ||grad L|| = %.3g after %d steps", r.grad_norm,
                  r.iterations);
    r.message = at.finite ? buf : "damped Newton ran into overflow";
  }
  return r;
}

// [SECTION] Solver: construction and the trace

Solver::Solver(Method method, const Problem& problem, const Reference& reference, const SolverOptions& options)
    : method_(method), problem_(problem), reference_(reference), options_(options) {
  at_ = evaluate(problem_, problem_.x0);
  grad_ = gradient(problem_, at_);
  if (method_ == Method::ApproxW2) w2_gram_ = weighted_gram(problem_.A, problem_.w.cwiseAbs2(), &setup_work_);
  if (method_ == Method::GradientDescent) {
    // First trial step 1 / ||H(x0)||: the line search adapts it from there.
    const double h = hessian(problem_, at_).norm();
    gd_step_ = h > 0.0 ? 1.0 / h : 1.0;
  }
  record(at_, grad_, 0.0, NAN, NAN, Approximation{});
}

void Solver::record(const Point& at, const Eigen::VectorXd& grad, double seconds, double eps0, double sampling_eps,
                    const Approximation& used) {
  TraceRow row;
  row.t = static_cast<int>(trace_.size());
  row.distance = (at.x - reference_.x).norm();
  row.loss_gap = at.loss - reference_.loss;
  row.grad_norm = grad.norm();
  row.eps0 = eps0;
  row.seconds = seconds;
  const bool sampled = used.D.size() > 0;
  row.kept_rows = sampled ? used.sample.kept : -1;
  row.expected_rows = sampled ? used.sample.expected_rows : NAN;
  row.sampling_eps = sampling_eps;
  row.clamped = used.clamped;
  if (used.H.size()) row.flops = used.work.flops, row.gram_rows = used.work.gram_rows;
  row.flags = used.flags;
  if (options_.keep_iterates) row.x = at.x;
  trace_.push_back(row);
  if (row.distance <= options_.tolerance) state_ = SolverState::Converged;
  else if (row.t >= options_.max_iterations) state_ = SolverState::MaxIterations;
}

// [SECTION] Solver: one step

Solver::Approximation Solver::approximate_hessian(const Point& at, Rng& rng) const {
  Approximation out;
  if (method_ == Method::ApproxW2) {
    out.H = w2_gram_;
    return out;
  }
  Eigen::VectorXd D = b_diagonal(at) + problem_.w.cwiseAbs2();
  if (method_ == Method::ApproxDiag) {
    out.H = weighted_gram(problem_.A, D, &out.work);
    return out;
  }
  // Sampling needs D >= 0 (docs/regression.md s.3): clamp and flag.
  for (int i = 0; i < D.size(); ++i)
    if (D[i] < 0.0) D[i] = 0.0, ++out.clamped;
  if (out.clamped) out.flags |= kClampedD;
  out.sample = leverage_sample(problem_.A, D, options_.sampling, rng, &out.work);
  out.sampled_gram = weighted_gram(problem_.A, out.sample.D, &out.work);
  out.H = out.sampled_gram;
  if (method_ == Method::SampledRank2) out.H += hessian_rank2(problem_, at, &out.work);
  out.D = std::move(D);
  return out;
}

void Solver::step() {
  if (finished()) return;
  const double t0 = now_seconds();
  const int t = static_cast<int>(trace_.size());
  Rng rng = Rng::for_stream(options_.seed, 1000003ULL * static_cast<std::uint64_t>(method_) + static_cast<std::uint64_t>(t));
  Approximation used;
  unsigned& flags = used.flags;
  Eigen::VectorXd direction;
  if (method_ == Method::GradientDescent) {
    direction = grad_;
  } else {
    if (method_ == Method::Newton) used.H = hessian(problem_, at_, &used.work);
    else used = approximate_hessian(at_, rng);
    direction = solve_symmetric(used.H, grad_, flags);
    const double d = double(problem_.d());
    used.work.flops += d * d * d / 3.0 + 2.0 * d * d;  // the Cholesky factor and its two triangular solves
  }
  // The paper's update takes the full step; exact Newton may be damped, gradient descent is.
  double eta = method_ == Method::GradientDescent ? std::min(1e300, 2.0 * gd_step_) : 1.0;
  Point next = evaluate(problem_, at_.x - eta * direction);
  const bool line_search = method_ == Method::GradientDescent || (method_ == Method::Newton && options_.damped);
  if (line_search) {
    const double slope = grad_.dot(direction);
    int halvings = 0;
    while (!(next.finite && next.loss <= at_.loss - 1e-4 * eta * slope) && halvings < 80) {
      eta *= 0.5;
      ++halvings;
      next = evaluate(problem_, at_.x - eta * direction);
    }
    if (halvings > (method_ == Method::GradientDescent ? 1 : 0)) flags |= kBacktracked;
    if (halvings == 80) {
      elapsed_ += now_seconds() - t0;
      state_ = SolverState::Stalled;
      message_ = "the line search found no decrease at iteration " + std::to_string(t);
      return;
    }
    if (method_ == Method::GradientDescent) gd_step_ = eta;
  }
  if (!next.finite) {
    elapsed_ += now_seconds() - t0;
    state_ = SolverState::Diverged;
    char buf[160];
    if (next.max_exponent > kMaxExponent)
      std::snprintf(buf, sizeof buf, "diverged at iteration %d: max |(A x)_i| = %.3g would overflow exp/cosh/sinh", t,
                    next.max_exponent);
    else
      std::snprintf(buf, sizeof buf, "diverged at iteration %d: the loss is not finite", t);
    message_ = buf;
    return;
  }
  const bool moved = next.x != at_.x;
  Point previous = std::move(at_);
  at_ = std::move(next);
  grad_ = gradient(problem_, at_);
  elapsed_ += now_seconds() - t0;
  // Measured outside the timing.
  const auto [eps0, sampling_eps] = measured_quality(used, previous);
  record(at_, grad_, elapsed_, eps0, sampling_eps, used);
  if (!moved && !finished()) {
    state_ = SolverState::Stalled;
    message_ = stalled_message(t);
  }
}

// [SECTION] Solver: measurements and messages

// How good this H~ was against the exact Hessian at x_t, eps0 = max |lambda - 1| over the
// generalised eigenvalues of (H~, H) (docs/regression.md s.3), and for the sampled methods how good
// A^T D~ A was against A^T D A, the sampler's own claim (Lemma 6.4).
std::pair<double, double> Solver::measured_quality(const Approximation& used, const Point& previous) const {
  double eps0 = NAN, sampling_eps = NAN;
  if (used.H.size() && method_ != Method::Newton) {
    const Eigen::MatrixXd H = hessian(problem_, previous);
    eps0 = spectral_error(used.H, H);
    if (used.D.size()) {
      // H = A^T D A + the rank-2 part when nothing was clamped (delta = B_diag + W^2 = D, docs/regression.md s.2).
      const Eigen::MatrixXd unsampled =
          used.clamped ? weighted_gram(problem_.A, used.D) : Eigen::MatrixXd(H - hessian_rank2(problem_, previous));
      sampling_eps = spectral_error(used.sampled_gram, unsampled);
    }
  }
  return {eps0, sampling_eps};
}

std::string Solver::stalled_message(int t) const {
  char buf[200];
  const TraceRow& last = trace_.back();
  const bool elsewhere = last.distance > 1e-6 * std::max(1.0, reference_.x.norm()) &&
                         last.grad_norm <= 1e-8 * std::max(1.0, trace_.front().grad_norm);
  if (elsewhere)
    std::snprintf(buf, sizeof buf, "reached a different critical point (||grad L|| = %.2g, ||x - x*|| = %.3g): "
                  "the convergence result is local", last.grad_norm, last.distance);
  else
    std::snprintf(buf, sizeof buf, "x stopped changing at iteration %d (a fixed point at double precision, "
                  "||x - x*|| = %.3g)", t, last.distance);
  return buf;
}

}  // namespace attnlab::regression
