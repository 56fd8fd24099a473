#include "experiments/regression/regression_experiment.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "core/det_math.hpp"
#include "experiments/regression/generator.hpp"
#include "experiments/regression/problem_file.hpp"
#include "experiments/regression/regression_presets.hpp"
#include "experiments/regression/theory_checks.hpp"
#include "lab/text.hpp"

namespace attnlab::regression {

namespace {

const char* const kProblem = "docs/regression.md s.1";
const char* const kAlgorithm = "docs/regression.md s.3";
constexpr Method kAllMethods[kMethods] = {Method::Newton,  Method::ApproxDiag,   Method::ApproxW2,
                                          Method::Sampled, Method::SampledRank2, Method::GradientDescent};

Schema regression_schema() {
  std::vector<ParamSpec> s;
  auto add = [&](ParamSpec p) { s.push_back(std::move(p)); };
  add({"source", "problem", ParamType::Choice, 0, 0, "generate", "",
       "generate: draw a problem from the settings below. data: the loaded problem file (A, b, w and optionally "
       "x0; see the README).",
       kProblem, {"generate", "data"}});
  add({"function", "function u", ParamType::Choice, 0, 0, "exp", "",
       "u(x) = exp(A x), cosh(A x) or sinh(A x), entrywise.", kProblem, {"exp", "cosh", "sinh"}});
  add({"n", "rows n", ParamType::Integer, 1, 200000, "200", "", "Rows of A (n >= d).", kProblem});
  add({"d", "columns d", ParamType::Integer, 1, 200, "10", "", "Columns of A: the dimension of x.", kProblem});
  add({"norm_A", "||A||", ParamType::Real, 0.01, 100, "1", "", "Spectral norm of A (set exactly).", kProblem, {},
       true});
  add({"kappa", "condition number", ParamType::Real, 1, 1e6, "30", "",
       "Target condition number of A: the column scales spread geometrically over [1/kappa, 1] (the measured "
       "kappa is reported).",
       kProblem, {}, true});
  add({"density", "density of A", ParamType::Real, 1e-5, 1, "1", "",
       "Fraction of non-zero entries of A: nnz(A) sets the cost of an iteration.", kProblem, {}, true});
  add({"target", "target b", ParamType::Choice, 0, 0, "planted", "",
       "planted: b = u(x_true) / alpha(x_true), so c(x_true) = 0. simplex: random b >= 0 summing to 1. unit: "
       "random b of norm 1.",
       kProblem, {"planted", "simplex", "unit"}});
  add({"x_true_norm", "||x_true||", ParamType::Real, 0, 50, "1", "", "Norm of the planted point x_true.", kProblem});
  add({"w_rule", "weights w", ParamType::Choice, 0, 0, "uniform", "",
       "uniform: every w_i = w. practical: w^2 = 100 beta^ + l / sigma_min^2 with beta^ = ||B|| measured. paper: the "
       "same with the paper's safe beta = 8 n e^{2 R^2}.",
       kAlgorithm, {"uniform", "practical", "paper"}});
  add({"w", "weight w", ParamType::Real, 1e-4, 1e4, "1", "", "The uniform weight of the regulariser 1/2 ||W A x||^2.",
       kProblem, {}, true});
  add({"l", "target l", ParamType::Real, 1e-8, 1e3, "0.001", "",
       "The strong-convexity level H >= l I that the practical and paper weight rules aim at.", kAlgorithm, {}, true});
  add({"r0", "start distance r0", ParamType::Real, 0, 100, "1", "",
       "The shared start x0 = x* + r0 u for a random unit u (x* first found by damped Newton from x_true).",
       kAlgorithm});
  for (Method m : kAllMethods)
    add({method_key(m), std::string("run ") + method_key(m), ParamType::Boolean, 0, 0, "true", "",
         std::string("Run ") + method_label(m) + ".", kAlgorithm});
  add({"damped", "damp exact Newton", ParamType::Boolean, 0, 0, "false", "",
       "Armijo backtracking for exact Newton. Off by default: the paper's method takes full steps.", kAlgorithm});
  add({"sampling", "sampling rule", ParamType::Choice, 0, 0, "budget", "",
       "How leverage-score sampling keeps row i. budget (ours): probability min(1, samples tau_i / d), about "
       "'samples' rows, one knob. paper: our reading of Lemma 6.4 (the paper gives no constant and does not write "
       "p_i out): min(1, C tau_i log(d/delta) / eps1^2), at most "
       "C d log(d/delta) / eps1^2 rows in expectation, and A^T D~ A within (1 +- eps1) of A^T D A with probability "
       ">= 1 - delta (the notes count how often it was).",
       kAlgorithm, {"budget", "paper"}});
  add({"samples", "sample budget", ParamType::Real, 1, 1e7, "100", "rows",
       "Ours (sampling = budget): expected rows kept by leverage-score sampling, row i with probability "
       "min(1, samples tau_i / d).",
       kAlgorithm, {}, true});
  add({"C", "constant C", ParamType::Real, 0.01, 100, "4", "",
       "sampling = paper: the constant C of p_i = min(1, C tau_i log(d/delta) / eps1^2). The paper leaves it open; "
       "4 is ours: with it the matrix Chernoff bound (Tropp 2012) gives a failure probability <= "
       "d (delta/d)^(C/2) + d (delta/d)^(C/3) <= delta for d >= 2.",
       kAlgorithm, {}, true});
  add({"delta", "failure probability delta", ParamType::Real, 1e-9, 0.5, "0.1", "",
       "sampling = paper: the failure probability of one SubSample call (Algorithm 1 calls it with delta/T, so that all "
       "T iterations succeed together with probability >= 1 - delta).",
       kAlgorithm, {}, true});
  add({"eps1", "sampling accuracy eps1", ParamType::Real, 0.01, 0.99, "0.5", "",
       "sampling = paper: the spectral accuracy (1 - eps1) A^T D A <= A^T D~ A <= (1 + eps1) A^T D A that one call "
       "promises.",
       kAlgorithm, {}, true});
  add({"leverage", "leverage scores", ParamType::Choice, 0, 0, "sketch", "",
       "sketch (ours): approximate scores in O(nnz(A)) from a uniform-sample Gram matrix and a 16-column "
       "Johnson-Lindenstrauss projection. exact: tau_i = D_i a_i^T (A^T D A)^-1 a_i from a Cholesky factor "
       "(O(nnz(A) d + d^3) per step; a thin QR gives the same numbers).",
       kAlgorithm, {"sketch", "exact"}});
  add({"max_iterations", "iteration limit", ParamType::Integer, 1, 100000, "3000", "",
       "Iterations per solver at most (gradient descent needs thousands).", kAlgorithm});
  add({"tolerance", "stop at ||x - x*|| <=", ParamType::Real, 1e-15, 1, "1e-13", "",
       "A solver stops when its distance to x* is at most this.", kAlgorithm, {}, true});
  return Schema(std::move(s));
}

Eigen::VectorXd random_unit(int d, std::uint64_t seed) {
  Rng rng = Rng::for_stream(seed, 7);
  Eigen::VectorXd u(d);
  for (int i = 0; i < d; ++i) u[i] = rng.normal();
  return u / u.norm();
}

// ---- one solver's run: a work unit (docs/design.md "The run: prepare, units, merge, results") ---------------------------
// The solvers share only the prepared problem, x* and x0 (read-only), and every iteration draws
// from its own stream Rng::for_stream(seed, 1000003 method + t) (Solver::step), so one solver's
// trace does not depend on which others run, in which order, or where: one unit per solver.

// What results() needs of one solver, and all its unit sends: the trace per iteration (entry 0 is
// the start), the final state, and the timings, which only the notes show (they differ run to
// run; the table must not).
struct Trace {
  std::vector<double> distance, loss_gap, grad_norm, eps0;
  // Sampled methods only (else empty): rows kept, rows expected (sum_i p_i) and the spectral error
  // of A^T D~ A against A^T D A, per iteration (NaN at the start).
  std::vector<double> kept, expected_rows, sampling_eps;
  std::vector<double> path_x1, path_x2;  // the iterates, kept for d = 2 (the contour's paths)
  double flags = 0;                      // IterationFlag bits seen over the run
  double clamped = 0;                    // entries of D clamped, summed over the run
  double seconds = 0;                    // solver time, measurements excluded
  double seconds_to_1e10 = NAN;          // solver time until ||x - x*|| <= 1e-10, if reached
  std::string state, message;
  std::size_t size() const { return distance.size(); }
};

bool is_sampled(Method m) { return m == Method::Sampled || m == Method::SampledRank2; }

Trace trace_of(const Solver& s) {
  Trace t;
  unsigned flags = 0;
  for (const TraceRow& row : s.trace()) {
    t.distance.push_back(row.distance);
    t.loss_gap.push_back(row.loss_gap);
    t.grad_norm.push_back(row.grad_norm);
    t.eps0.push_back(row.eps0);
    if (is_sampled(s.method())) {
      t.kept.push_back(row.kept_rows >= 0 ? double(row.kept_rows) : NAN);
      t.expected_rows.push_back(row.expected_rows);
      t.sampling_eps.push_back(row.sampling_eps);
    }
    if (row.x.size() == 2) t.path_x1.push_back(row.x[0]), t.path_x2.push_back(row.x[1]);
    flags |= row.flags;
    t.clamped += row.clamped;
    if (std::isnan(t.seconds_to_1e10) && row.distance <= 1e-10) t.seconds_to_1e10 = row.seconds;
  }
  t.flags = flags;
  t.seconds = s.trace().back().seconds;
  t.state = to_string(s.state());
  t.message = s.message();
  return t;
}

// One sampled solver's sampling, summed up for its note (docs/regression.md s.3 SubSample; Lemma 6.4 / Theorem
// F.1 for the paper's rule): rows kept and expected per step against the law's bound, and how often
// A^T D~ A was within (1 +- eps1) of A^T D A.
std::string sampling_note(const std::string& label, const Trace& s, const SamplingSettings& settings, int n, int d) {
  double kept = 0, expected = 0, steps = 0, within = 0, measured = 0;
  std::vector<double> eps;
  for (std::size_t i = 1; i < s.kept.size(); ++i) {
    if (std::isnan(s.kept[i])) continue;
    kept += s.kept[i], expected += s.expected_rows[i], ++steps;
    if (std::isnan(s.sampling_eps[i])) continue;
    eps.push_back(s.sampling_eps[i]), ++measured;
    within += s.sampling_eps[i] <= settings.eps1;
  }
  if (steps == 0) return "";
  const bool paper = settings.rule == SamplingRule::Paper;
  std::string line = label + (paper ? printf_text(": the paper's sampling rule as we read Lemma 6.4 (ours: its p_i and C) with C = %.3g, delta = %.3g, "
                                                  "eps1 = %.3g", settings.C, settings.delta, settings.eps1)
                                    : std::string(": sampling with the budget rule (ours)"));
  line += settings.scores == LeverageScores::Exact ? ", exact leverage scores" : ", sketched leverage scores (ours)";
  line += printf_text(": %.4g rows kept per step on average, %.4g expected (sum of p_i)", kept / steps, expected / steps);
  line += paper ? printf_text("; the law's bound C d log(d/delta) / eps1^2 = %.4g", settings.expected_rows_bound(d))
                : printf_text("; the budget %.4g", settings.expected_rows_bound(d));
  if (expected / steps > 0.5 * n) line += printf_text(" (more than half of the n = %.0f rows: little is saved at this n)", n);
  if (!eps.empty()) {
    std::nth_element(eps.begin(), eps.begin() + eps.size() / 2, eps.end());
    line += printf_text("; A^T D~ A against A^T D A: median eps %.3g", eps[eps.size() / 2]);
    if (paper)
      line += printf_text(", within 1 +- eps1 at %.0f of %.0f steps (the lemma: each with probability >= %.3g)", within,
                          measured, 1.0 - settings.delta);
  }
  return line + ".";
}

// The partial's fields are written and read here only.
Partial to_partial(const Trace& t) {
  Partial p;
  p.put("distance", t.distance);
  p.put("loss_gap", t.loss_gap);
  p.put("grad_norm", t.grad_norm);
  p.put("eps0", t.eps0);
  if (!t.kept.empty())
    p.put("kept", t.kept), p.put("expected_rows", t.expected_rows), p.put("sampling_eps", t.sampling_eps);
  if (!t.path_x1.empty()) p.put("path_x1", t.path_x1), p.put("path_x2", t.path_x2);
  p.put("flags", t.flags);
  p.put("clamped", t.clamped);
  p.put("seconds", t.seconds);
  p.put("seconds_to_1e-10", t.seconds_to_1e10);
  p.put_text("state", t.state);
  p.put_text("message", t.message);
  return p;
}

Trace from_partial(const Partial& p) {
  Trace t;
  t.distance = p.values("distance");
  t.loss_gap = p.values("loss_gap");
  t.grad_norm = p.values("grad_norm");
  t.eps0 = p.values("eps0");
  if (p.has("kept"))
    t.kept = p.values("kept"), t.expected_rows = p.values("expected_rows"), t.sampling_eps = p.values("sampling_eps");
  if (p.has("path_x1")) t.path_x1 = p.values("path_x1"), t.path_x2 = p.values("path_x2");
  t.flags = p.value("flags");
  t.clamped = p.value("clamped");
  t.seconds = p.value("seconds");
  t.seconds_to_1e10 = p.value("seconds_to_1e-10");
  t.state = p.text("state");
  t.message = p.text("message");
  return t;
}

// A piece is one iteration: well under a millisecond at the reference size (n = 200, d = 10), but
// up to ~100 ms for large_sparse (n = 100000, d = 50: A^T D A costs n d^2), the smallest step a
// solver can take. The solver is made in the first piece, not in start_unit(): for W^2 and
// gradient descent that is an n d^2 product too.
class SolverTask final : public UnitTask {
 public:
  SolverTask(Method method, const Problem& problem, const Reference& reference, const SolverOptions& options)
      : method_(method), problem_(problem), reference_(reference), options_(options) {}
  bool run_piece() override {
    if (!solver_) solver_.emplace(method_, problem_, reference_, options_);
    solver_->step();
    return solver_->finished();
  }
  Partial finish() override { return to_partial(trace_of(*solver_)); }
  double fraction() const override {
    if (!solver_) return 0.0;
    if (solver_->finished()) return 1.0;
    return double(solver_->trace().size() - 1) / double(options_.max_iterations);
  }
  // The trace so far (a copy of at most max_iterations rows), so the curves grow while it runs.
  bool preview(Partial& out) const override {
    if (!solver_) return false;
    out = to_partial(trace_of(*solver_));
    return true;
  }

 private:
  Method method_;
  const Problem& problem_;      // the experiment's, read-only while units run
  const Reference& reference_;  // likewise
  SolverOptions options_;
  std::optional<Solver> solver_;
};

class RegressionExperiment final : public Experiment {
 public:
  RegressionExperiment() : schema_(regression_schema()), presets_(regression_presets()) {
    info_ = {"regression", "Rescaled hyperbolic regression: Newton-type solvers",
             "Gao, Song, Yin. An Iterative Algorithm for Rescaled Hyperbolic Functions Regression (arXiv 2305.00660)",
             "Minimise 1/2 ||u(x) - <u(x), 1> b||^2 + 1/2 ||W A x||^2 for u = exp, cosh or sinh of A x. The paper's "
             "solver is Newton's method with an approximate Hessian (a diagonal middle matrix, sampled by leverage "
             "scores); it converges linearly at a rate set by the approximation, exact Newton quadratically, "
             "gradient descent slowly."};
  }
  const ExperimentInfo& info() const override { return info_; }
  const Schema& schema() const override { return schema_; }
  const std::vector<Preset>& presets() const override { return presets_; }
  DataSelector data_selector() const override { return {"source", "data"}; }
  void read_data(const std::string& json) override { data_ = read_problem_file(json); }

  // Every solver, on a small d = 2 problem (so the units carry paths and the contour is drawn).
  KeyValues smoke_settings() const override { return {{"n", "40"}, {"d", "2"}, {"max_iterations", "25"}}; }

  std::unique_ptr<UnitTask> start_unit(std::int64_t unit) const override {
    return std::make_unique<SolverTask>(methods_[static_cast<std::size_t>(unit)], problem_, reference_, options_);
  }

  Results results() const override;

 protected:
  std::vector<std::int64_t> prepare(const Params& params, std::uint64_t seed) override {
    methods_.clear();
    slots_.clear();
    notes_.clear();
    const bool from_data = params.text("source") == "data";
    if (from_data) {
      if (!data_)
        throw ParamError("parameter 'source': 'data' needs a problem file (CLI --data FILE.json, the page's Load "
                         "problem button, or the JS API); allowed: generate, or load a file first");
      problem_ = data_->problem;
      if (!data_->has_function) problem_.function = hyperbolic_from(params.text("function"));
    } else {
      problem_ = generate(generator_settings(params), seed);
    }
    facts_ = measure(problem_.A);
    // x*: damped exact Newton from x_true (or the file's x0, or 0), then the shared start.
    const Eigen::VectorXd from = problem_.x_true.size() ? problem_.x_true
                                 : problem_.x0.size()   ? problem_.x0
                                                        : Eigen::VectorXd::Zero(problem_.d());
    reference_ = find_minimiser(problem_, from);
    if (!reference_.found) throw ParamError("the minimiser x* was not found: " + reference_.message);
    const bool file_start = from_data && problem_.x0.size();
    if (!file_start) problem_.x0 = reference_.x + params.real("r0") * random_unit(problem_.d(), seed);
    if (facts_.norm * problem_.x0.norm() > kMaxExponent)
      throw ParamError("parameter 'r0': the start has ||A|| ||x0|| = " + format_number(facts_.norm * problem_.x0.norm()) +
                       ", which would overflow exp/cosh/sinh; allowed: a start with ||A|| ||x0|| <= 700");
    theory_ = check_theory(problem_, reference_, facts_);

    options_ = SolverOptions{};
    options_.damped = params.boolean("damped");
    options_.sampling = sampling_settings(params);
    options_.max_iterations = static_cast<int>(params.integer("max_iterations"));
    options_.tolerance = params.real("tolerance");
    options_.seed = seed;
    options_.keep_iterates = problem_.d() == 2;
    std::vector<Method> methods;
    for (Method m : kAllMethods)
      if (params.boolean(method_key(m))) methods.push_back(m);
    if (methods.empty()) throw ParamError("parameter 'newton': no solver is switched on; allowed: at least one solver");
    if (problem_.d() == 2) compute_contour();
    describe_problem(from_data);
    methods_ = std::move(methods);
    slots_.assign(methods_.size(), std::nullopt);
    // One unit per solver, costing its iteration budget (a solver that converges early ends early).
    return std::vector<std::int64_t>(methods_.size(), options_.max_iterations);
  }

  void merge(std::int64_t unit, const Partial& partial) override {
    slots_[static_cast<std::size_t>(unit)] = from_partial(partial);
  }

 private:
  // For d = 2: log10(L - L*) on a grid around x* that covers x0 (computed once per run).
  static constexpr int kGrid = 120;
  void compute_contour() {
    const double reach = std::max(1e-3, 1.3 * (problem_.x0 - reference_.x).cwiseAbs().maxCoeff());
    lo_ = reference_.x.array() - reach;
    hi_ = reference_.x.array() + reach;
    contour_ = Heatmap{"log10(L(x) - L*) around x* (d = 2), with each solver's iterates", "x_1", "x_2",
                       kGrid, kGrid, {}, 0.0, 1.0, "", {}, {}};
    double low = INFINITY, high = -INFINITY;
    for (int i = 0; i < kGrid; ++i)
      for (int j = 0; j < kGrid; ++j) {
        Eigen::VectorXd x(2);
        x << lo_[0] + (j + 0.5) / kGrid * (hi_[0] - lo_[0]), hi_[1] - (i + 0.5) / kGrid * (hi_[1] - lo_[1]);
        const Point at = evaluate(problem_, x);
        const double v = at.finite ? dmath::log10(std::max(at.loss - reference_.loss, 0.0) +
                                                1e-16 * std::max(1.0, std::fabs(reference_.loss)))
                                   : NAN;
        contour_.values.push_back(v);
        if (std::isfinite(v)) low = std::min(low, v), high = std::max(high, v);
      }
    contour_.low = std::isfinite(low) ? low : 0.0;
    contour_.high = std::isfinite(high) && high > low ? high : contour_.low + 1.0;
    contour_.note = "x_1 left to right, x_2 bottom to top";
    contour_.value_label = "log10(L(x) - L*)";
    auto cell = [&](const Eigen::VectorXd& x, double& row, double& col) {
      col = (x[0] - lo_[0]) / (hi_[0] - lo_[0]) * kGrid;
      row = (hi_[1] - x[1]) / (hi_[1] - lo_[1]) * kGrid;
    };
    double row = 0, col = 0;
    cell(reference_.x, row, col);
    contour_.marks.push_back({static_cast<int>(row), static_cast<int>(col), "x*"});
    cell(problem_.x0, row, col);
    contour_.marks.push_back({static_cast<int>(row), static_cast<int>(col), "x0"});
  }

  Heatmap contour_with_paths(const std::vector<Trace>& traces) const {
    Heatmap h = contour_;
    for (std::size_t k = 0; k < traces.size(); ++k) {
      Heatmap::Path path{method_label(methods_[k]), {}, {}};
      for (std::size_t i = 0; i < traces[k].path_x1.size(); ++i) {
        path.cols.push_back((traces[k].path_x1[i] - lo_[0]) / (hi_[0] - lo_[0]) * kGrid);
        path.rows.push_back((hi_[1] - traces[k].path_x2[i]) / (hi_[1] - lo_[1]) * kGrid);
      }
      h.paths.push_back(std::move(path));
    }
    return h;
  }

  void describe_problem(bool from_data) {
    notes_.push_back(std::string(from_data ? "Loaded problem: " : "Problem: ") + to_string(problem_.function) +
                     printf_text(", n = %.0f, d = %.0f, ||A|| = %.4g, ", problem_.n(), problem_.d(), facts_.norm) +
                     printf_text("kappa(A) = %.4g, nnz(A) = %.0f, ||b|| = %.3g, ", facts_.condition(), double(facts_.nonzeros),
                         problem_.b.norm()) +
                     printf_text("w in [%.4g, %.4g].", problem_.w.minCoeff(), problem_.w.maxCoeff()));
    notes_.push_back(printf_text("x*: damped exact Newton, ||x*|| = %.6g, ||grad L(x*)|| = %.2g after %.0f steps, L* = %.10g.",
                         reference_.x.norm(), reference_.grad_norm, reference_.iterations, reference_.loss));
    if (problem_.function != Hyperbolic::Exp && problem_.x0.norm() == 0.0)
      notes_.push_back("Warning: x0 = 0 is a critical point of L for cosh and sinh; Newton-type solvers stay there.");
    for (const std::string& line : theory_.lines) notes_.push_back(line);
  }

  ExperimentInfo info_;
  Schema schema_;
  std::vector<Preset> presets_;
  std::optional<ProblemFile> data_;
  // The prepared run, read-only while units run (start_unit hands out references to it).
  Problem problem_;
  MatrixFacts facts_;
  Reference reference_;
  TheoryReport theory_;
  SolverOptions options_;
  std::vector<Method> methods_;  // unit k runs methods_[k]
  std::vector<std::string> notes_;
  Heatmap contour_;
  Eigen::Array2d lo_, hi_;
  // Per unit: the latest partial (final, or a preview a later one replaces); empty until one came.
  std::vector<std::optional<Trace>> slots_;
};

Results RegressionExperiment::results() const {
  // The solvers' traces in unit order (empty for units not started yet): every reduction below
  // reads them in this order, so arrival order and slicing never change a byte.
  std::vector<Trace> traces;
  for (const auto& slot : slots_) traces.push_back(slot ? *slot : Trace{});
  Results r;
  Table& t = r.table;
  t.columns = {"t"};
  for (Method m : methods_) {
    // Wall-clock times are not in the table (they differ run to run); the notes report them.
    for (const char* c : {"distance", "loss_gap", "grad_norm", "ratio", "eps0"})
      t.columns.push_back(std::string(method_key(m)) + "_" + c);
    if (is_sampled(m))
      for (const char* c : {"kept", "expected_rows", "sampling_eps"}) t.columns.push_back(std::string(method_key(m)) + "_" + c);
  }
  std::size_t rows = 0;
  for (const Trace& s : traces) rows = std::max(rows, s.size());
  const double nan = NAN;
  for (std::size_t i = 0; i < rows; ++i) {
    std::vector<double> row{double(i)};
    for (std::size_t k = 0; k < traces.size(); ++k) {
      const Trace& s = traces[k];
      const bool sampled = is_sampled(methods_[k]);
      if (i >= s.size()) {
        row.insert(row.end(), sampled ? 8 : 5, nan);
        continue;
      }
      const double ratio = i > 0 && s.distance[i - 1] > 0.0 ? s.distance[i] / s.distance[i - 1] : nan;
      row.insert(row.end(), {s.distance[i], s.loss_gap[i], s.grad_norm[i], ratio, s.eps0[i]});
      if (sampled) row.insert(row.end(), {s.kept[i], s.expected_rows[i], s.sampling_eps[i]});
    }
    t.rows.push_back(std::move(row));
  }
  auto column = [&](const std::string& name) {
    std::vector<double> v;
    const int k = t.column(name);
    for (const auto& row : t.rows) v.push_back(row[static_cast<std::size_t>(k)]);
    return v;
  };
  std::vector<double> iterations = column("t");
  // The Newton-type solvers finish in tens of iterations, gradient descent may take thousands: the
  // main plots show the Newton-type range, and gradient descent gets its own plot over all of it.
  std::size_t newton_range = 10;
  for (std::size_t k = 0; k < traces.size(); ++k)
    if (methods_[k] != Method::GradientDescent) newton_range = std::max(newton_range, traces[k].size() + 2);
  newton_range = std::min(newton_range, rows);
  auto plot = [&](const char* title, const char* y_label, const char* suffix, bool log_y, std::size_t range) {
    Plot p{title, "iteration t", y_label, false, log_y, false, 0, 1, {}};
    for (Method m : methods_) {
      std::vector<double> y = column(std::string(method_key(m)) + suffix);
      y.resize(range);
      // A diverging solver's values leave the page: they stop at 1e6 times the start (the
      // divergence itself is reported as the solver's state in the notes).
      if (log_y && !y.empty() && std::isfinite(y[0]) && y[0] > 0.0)
        for (double& v : y)
          if (v > 1e6 * y[0]) v = NAN;
      p.series.push_back({method_label(m), SeriesStyle::LineMarkers,
                          std::vector<double>(iterations.begin(), iterations.begin() + range), y, {}, {}});
    }
    return p;
  };
  r.plots.push_back(plot("Distance to the minimiser", "||x_t - x*||", "_distance", true, newton_range));
  r.plots.push_back(plot("Gradient norm", "||grad L(x_t)||", "_grad_norm", true, newton_range));
  r.plots.push_back(plot("Loss gap", "L(x_t) - L*", "_loss_gap", true, newton_range));
  // Correct digits -log10 ||x_t - x*||: exact Newton doubles them per step, linear rates add a constant.
  Plot digits = plot("Correct digits", "-log10 ||x_t - x*||", "_distance", false, newton_range);
  for (Series& series : digits.series)
    for (double& v : series.y) v = v > 0.0 ? -dmath::log10(v) : NAN;
  r.plots.push_back(digits);
  Plot ratio = plot("Contraction ratio", "||x_{t+1} - x*|| / ||x_t - x*||", "_ratio", false, newton_range);
  ratio.fixed_y = true;
  ratio.y_min = 0.0;
  ratio.y_max = 1.2;
  const double last = newton_range > 1 ? double(newton_range - 1) : 1.0;
  ratio.series.push_back({"theorem's rate 0.4", SeriesStyle::Reference, {0.0, last}, {0.4, 0.4}, {}, {}});
  // The median eps0 of a solver's steps (NaN when it measured none, e.g. exact Newton).
  auto median_eps0 = [](const Trace& s) {
    std::vector<double> eps;
    for (double e : s.eps0)
      if (std::isfinite(e)) eps.push_back(e);
    if (eps.empty()) return double(NAN);
    std::nth_element(eps.begin(), eps.begin() + eps.size() / 2, eps.end());
    return eps[eps.size() / 2];
  };
  // The median ratio ||x_{t+1} - x*|| / ||x_t - x*|| over the steps from t = 1 on that stay above
  // the rounding floor (1e-12): the measured linear rate the preset texts quote.
  auto median_contraction = [](const Trace& s) {
    std::vector<double> ratios;
    for (std::size_t i = 2; i < s.size(); ++i)
      if (s.distance[i - 1] > 0.0 && s.distance[i] > 1e-12 && std::isfinite(s.distance[i]))
        ratios.push_back(s.distance[i] / s.distance[i - 1]);
    if (ratios.empty()) return double(NAN);
    std::nth_element(ratios.begin(), ratios.begin() + ratios.size() / 2, ratios.end());
    return ratios[ratios.size() / 2];
  };
  // Each approximation's own bound 2 eps0 (median over its steps), where it holds (eps0 < 1/2).
  for (std::size_t k = 0; k < traces.size(); ++k) {
    const double bound = 2.0 * median_eps0(traces[k]);
    if (bound < 1.0)
      ratio.series.push_back({std::string("bound 2 eps0, ") + method_key(methods_[k]), SeriesStyle::Reference, {0.0, last},
                              {bound, bound}, {}, {}});
  }
  r.plots.push_back(ratio);
  r.plots.push_back(
      plot("Quality of each Hessian approximation", "eps0 = max |lambda(H^-1 H~) - 1|", "_eps0", true, newton_range));
  // The sampler's own claim (docs/regression.md s.3, Lemma 6.4): A^T D~ A against A^T D A at every step.
  Plot sampling{"Leverage sampling: A^T D~ A against A^T D A", "iteration t",
                "eps = max |lambda((A^T D A)^-1 A^T D~ A) - 1|", false, true, false, 0, 1, {}};
  for (Method m : methods_)
    if (is_sampled(m)) {
      std::vector<double> y = column(std::string(method_key(m)) + "_sampling_eps");
      y.resize(newton_range);
      sampling.series.push_back({method_label(m), SeriesStyle::LineMarkers,
                                 std::vector<double>(iterations.begin(), iterations.begin() + newton_range), y, {}, {}});
    }
  if (!sampling.series.empty()) {
    if (options_.sampling.rule == SamplingRule::Paper) {
      const double eps1 = options_.sampling.eps1;
      sampling.series.push_back({"the paper's eps1", SeriesStyle::Reference, {0.0, last}, {eps1, eps1}, {}, {}});
    }
    r.plots.push_back(sampling);
  }
  for (Method m : methods_)
    if (m == Method::GradientDescent && rows > newton_range) {
      Plot gd{"Gradient descent over all its iterations", "iteration t", "||x_t - x*||", false, true, false, 0, 1, {}};
      gd.series.push_back({method_label(m), SeriesStyle::Line, iterations, column("gd_distance"), {}, {}});
      r.plots.push_back(gd);
    }

  // Solver states and speed.
  for (std::size_t k = 0; k < traces.size(); ++k) {
    const Trace& s = traces[k];
    const std::string label = method_label(methods_[k]);
    if (s.size() == 0) {
      r.notes.push_back(label + ": waiting to start.");
      continue;
    }
    const int its = static_cast<int>(s.size()) - 1;
    std::string line = label + ": " + s.state +
                       printf_text(" after %.0f iterations, %.3g ms per iteration", its,
                           its > 0 ? 1e3 * s.seconds / its : 0.0);
    if (!std::isnan(s.seconds_to_1e10)) line += printf_text(", ||x - x*|| <= 1e-10 after %.3g ms", 1e3 * s.seconds_to_1e10);
    const double eps = median_eps0(s);
    if (!std::isnan(eps)) {
      // Near x* the error maps as e -> (I - H~^-1 H) e, whose eigenvalues 1 - 1/mu (mu an eigenvalue
      // of H^-1 H~, |mu - 1| <= eps0) are at most eps0 / (1 - eps0) in size: below 2 eps0 while
      // eps0 <= 1/2, and no contraction at all is promised once eps0 >= 1/2 (docs/regression.md s.3).
      line += printf_text(", median eps0 %.3g", eps);
      if (eps < 0.5)
        line += printf_text(" (local rate bound eps0 / (1 - eps0) = %.3g <= 2 eps0 = %.3g)", eps / (1.0 - eps), 2.0 * eps);
      else if (eps < 1.0)
        line += printf_text(" (eps0 >= 1/2: the local factor eps0 / (1 - eps0) = %.3g is not below 1, no contraction)",
                            eps / (1.0 - eps));
      else
        line += " (eps0 >= 1: no local rate bound)";
      const double contraction = median_contraction(s);
      if (!std::isnan(contraction)) line += printf_text(", median contraction %.3g per step", contraction);
    }
    const unsigned flags = static_cast<unsigned>(s.flags);
    if (flags & kFallbackLdlt) line += "; Cholesky failed, LDLT used";
    if (flags & kJitter) line += "; LDLT failed, jitter added";
    if (flags & kClampedD) line += printf_text("; %.0f negative entries of D clamped to 0", s.clamped);
    if (!s.message.empty()) line += "; " + s.message;
    r.notes.push_back(line + ".");
    if (is_sampled(methods_[k])) {
      const std::string note = sampling_note(label, s, options_.sampling, problem_.n(), problem_.d());
      if (!note.empty()) r.notes.push_back(note);
    }
  }
  for (const std::string& n : notes_) r.notes.push_back(n);
  if (std::any_of(methods_.begin(), methods_.end(), is_sampled)) {
    if (options_.sampling.rule == SamplingRule::Budget)
      r.notes.push_back("Ours: leverage-score sampling keeps row i with probability min(1, samples tau_i / d), not the "
                        "rule min(1, C tau_i log(d/delta) / eps1^2) that we read from Lemma 6.4 (sampling = paper).");
    if (options_.sampling.scores == LeverageScores::Sketch)
      r.notes.push_back("Ours: the leverage scores are sketched (a uniform-sample Gram matrix and a 16-column "
                        "Johnson-Lindenstrauss projection), not exact (leverage = exact).");
  }

  if (!methods_.empty() && problem_.d() == 2) r.heatmaps.push_back(contour_with_paths(traces));
  return r;
}

}  // namespace

GeneratorSettings generator_settings(const Params& p) {
  GeneratorSettings s;
  s.function = hyperbolic_from(p.text("function"));
  s.n = static_cast<int>(p.integer("n"));
  s.d = static_cast<int>(p.integer("d"));
  if (s.n < s.d)
    throw ParamError("parameter 'n': " + std::to_string(s.n) + " is less than d = " + std::to_string(s.d) +
                     "; allowed: n >= d");
  s.norm = p.real("norm_A");
  s.condition = p.real("kappa");
  s.density = p.real("density");
  const std::string& t = p.text("target");
  s.target = t == "simplex" ? TargetKind::Simplex : t == "unit" ? TargetKind::Unit : TargetKind::Planted;
  s.x_true_norm = p.real("x_true_norm");
  const std::string& w = p.text("w_rule");
  s.weight_rule = w == "practical" ? WeightRule::Practical : w == "paper" ? WeightRule::PaperConstants
                                                                            : WeightRule::Uniform;
  s.w = p.real("w");
  s.l = p.real("l");
  return s;
}

SamplingSettings sampling_settings(const Params& p) {
  SamplingSettings s;
  s.rule = p.text("sampling") == "paper" ? SamplingRule::Paper : SamplingRule::Budget;
  s.scores = p.text("leverage") == "exact" ? LeverageScores::Exact : LeverageScores::Sketch;
  s.samples = p.real("samples");
  s.C = p.real("C");
  s.delta = p.real("delta");
  s.eps1 = p.real("eps1");
  return s;
}

std::unique_ptr<Experiment> make_regression_experiment() { return std::make_unique<RegressionExperiment>(); }

}  // namespace attnlab::regression
