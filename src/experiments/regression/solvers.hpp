// The solvers compared on one problem from one start (docs/regression.md s.3): exact Newton
// (optionally damped), the paper's approximate Newton x_{t+1} = x_t - H~^-1 grad L with four
// choices of H~, and gradient descent with Armijo backtracking. Each runs one iteration per step()
// so the page can interleave them and draw the traces live.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/rng.hpp"
#include "experiments/regression/leverage_sampling.hpp"
#include "experiments/regression/loss.hpp"

namespace attnlab::regression {

enum class Method { Newton, ApproxDiag, ApproxW2, Sampled, SampledRank2, GradientDescent };
constexpr int kMethods = 6;
const char* method_key(Method m);    // "newton", "approx_diag", ... (parameter and column names)
const char* method_label(Method m);  // "exact Newton", ...

// x*, found once per problem by damped exact Newton to ||grad L|| <= 1e-13 (docs/regression.md s.6).
struct Reference {
  Eigen::VectorXd x;
  double loss = 0.0;
  double grad_norm = 0.0;
  int iterations = 0;
  bool found = false;
  std::string message;
};
Reference find_minimiser(const Problem& p, const Eigen::VectorXd& start);

enum class SolverState { Running, Converged, Diverged, Stalled, MaxIterations };
const char* to_string(SolverState s);

// Flags of one iteration: states, not garbage (issue part 6).
enum IterationFlag : unsigned {
  kFallbackLdlt = 1,    // Cholesky of H~ failed; LDLT used
  kJitter = 2,          // LDLT failed too; H~ + lambda I used
  kClampedD = 4,        // negative entries of D clamped to 0 before sampling
  kBacktracked = 8,     // the line search shortened the step
};

struct TraceRow {
  int t = 0;                 // iteration; row 0 is the start
  double distance = 0.0;     // ||x_t - x*||
  double loss_gap = 0.0;     // L(x_t) - L*
  double grad_norm = 0.0;    // ||grad L(x_t)||
  double eps0 = NAN;         // measured: max |lambda(H^-1/2 H~ H^-1/2) - 1| of the step's H~
  double seconds = 0.0;      // cumulative solver time (measurements excluded)
  int kept_rows = -1;        // sampled methods: rows kept
  double expected_rows = NAN;  // sampled methods: sum_i p_i, the rows kept in expectation
  double sampling_eps = NAN;   // sampled methods: the spectral error of A^T D~ A against A^T D A
  int clamped = 0;           // entries of D clamped
  // The step's counted work (loss.hpp's Work) to build H~ (or H) and solve with it; NaN at the
  // start and for gradient descent, which builds none.
  double flops = NAN;
  double gram_rows = NAN;
  unsigned flags = 0;
  Eigen::VectorXd x;         // the iterate (kept for d = 2 paths)
};

struct SolverOptions {
  bool damped = false;        // exact Newton only: Armijo backtracking (off: the paper's method)
  SamplingSettings sampling;  // sampled methods: the keep probabilities and the scores
  int max_iterations = 100;
  double tolerance = 1e-13;   // stop at ||x - x*|| <= tolerance
  std::uint64_t seed = 1;
  bool keep_iterates = false;
};

class Solver {
 public:
  Solver(Method method, const Problem& problem, const Reference& reference, const SolverOptions& options);
  void step();  // one iteration (no-op once finished)
  bool finished() const { return state_ != SolverState::Running; }
  SolverState state() const { return state_; }
  const std::string& message() const { return message_; }
  Method method() const { return method_; }
  const std::vector<TraceRow>& trace() const { return trace_; }
  // Work done once before the first step (A^T W^2 A for approx_w2; else none).
  const Work& setup_work() const { return setup_work_; }
  // The H~ of `at` as a step builds it (`rng`: the step's stream): for the tests that check what
  // each method's H~ is.
  Eigen::MatrixXd approximation(const Point& at, Rng& rng) const { return approximate_hessian(at, rng).H; }

 private:
  // What one iteration's H~ was, beside the step itself (sampled methods: D, the sample, rows).
  struct Approximation {
    Eigen::MatrixXd H;
    Eigen::VectorXd D;         // sampled methods: the clamped middle matrix D = B_diag + W^2
    SampledDiagonal sample;    // sampled methods: D~
    Eigen::MatrixXd sampled_gram;  // sampled methods: A^T D~ A (H without the exact rank-2 part)
    int clamped = 0;
    unsigned flags = 0;
    Work work;                 // what building H~ and solving with it cost
  };
  // Appends the trace row of `at`; `used` is the iteration's H~ (empty for the start).
  void record(const Point& at, const Eigen::VectorXd& grad, double seconds, double eps0, double sampling_eps,
              const Approximation& used);
  Approximation approximate_hessian(const Point& at, Rng& rng) const;

  // How good the H~ of the step from `previous` was: {eps0 against the exact Hessian, the sampled
  // Gram's error against the unsampled one} (NaN where they do not apply).
  std::pair<double, double> measured_quality(const Approximation& used, const Point& previous) const;
  // Why x stopped moving at iteration t: a different critical point, or a fixed point.
  std::string stalled_message(int t) const;

  Method method_;
  const Problem& problem_;
  const Reference& reference_;
  SolverOptions options_;
  SolverState state_ = SolverState::Running;
  std::string message_;
  Point at_;
  Eigen::VectorXd grad_;
  Eigen::MatrixXd w2_gram_;  // A^T W^2 A, constant
  Work setup_work_;
  double gd_step_ = 1.0;
  double elapsed_ = 0.0;
  std::vector<TraceRow> trace_;
};

// Solves H z = g for symmetric H: Cholesky, else LDLT (flag), else with jitter (flag).
Eigen::VectorXd solve_symmetric(const Eigen::MatrixXd& H, const Eigen::VectorXd& g, unsigned& flags);

}  // namespace attnlab::regression
