#include "experiments/regression/regression_experiment.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "core/det_math.hpp"
#include "experiments/regression/generator.hpp"
#include "experiments/regression/problem_file.hpp"
#include "experiments/regression/regression_presets.hpp"
#include "experiments/regression/theory_checks.hpp"
#include "lab/legacy_experiment.hpp"
#include "lab/clock.hpp"
#include "lab/text.hpp"

namespace attnlab::regression {

namespace {

const char* const kProblem = "spec/regression.md s.1";
const char* const kAlgorithm = "spec/regression.md s.3";
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
  add({"samples", "sample budget", ParamType::Real, 1, 1e7, "100", "rows",
       "Expected rows kept by leverage-score sampling: row i is kept with probability min(1, samples tau_i / d).",
       kAlgorithm, {}, true});
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

class RegressionExperiment final : public LegacyExperiment {
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
  bool accepts_data() const override { return true; }
  void set_data(const std::string& json) override { data_ = read_problem_file(json); }

  void legacy_reset(const Params& params, std::uint64_t seed) override {
    solvers_.clear();
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

    SolverOptions o;
    o.damped = params.boolean("damped");
    o.samples = params.real("samples");
    o.max_iterations = static_cast<int>(params.integer("max_iterations"));
    o.tolerance = params.real("tolerance");
    o.seed = seed;
    o.keep_iterates = problem_.d() == 2;
    for (Method m : kAllMethods)
      if (params.boolean(method_key(m))) solvers_.emplace_back(m, problem_, reference_, o);
    if (solvers_.empty()) throw ParamError("parameter 'newton': no solver is switched on; allowed: at least one solver");
    max_iterations_ = o.max_iterations;
    next_ = 0;
    if (problem_.d() == 2) compute_contour();
    describe_problem(params, from_data);
  }

  // One unit = one iteration of one solver, round-robin over the running ones.
  void legacy_step(const Budget& budget) override {
    const double deadline = now_seconds() + budget.seconds;
    for (std::int64_t units = 0; units < budget.max_units; ++units) {
      std::size_t tried = 0;
      while (tried < solvers_.size() && solvers_[next_].finished()) next_ = (next_ + 1) % solvers_.size(), ++tried;
      if (tried == solvers_.size()) return;
      solvers_[next_].step();
      next_ = (next_ + 1) % solvers_.size();
      if (now_seconds() >= deadline) return;
    }
  }

  Progress legacy_progress() const override {
    Progress p;
    for (const Solver& s : solvers_) {
      const std::int64_t done = static_cast<std::int64_t>(s.trace().size()) - 1;
      p.done += done;
      p.total += s.finished() ? done : max_iterations_;
    }
    return p;
  }

  Results results() const override;

 private:
  // For d = 2: log10(L - L*) on a grid around x* that covers x0 (computed once per reset).
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

  Heatmap contour_with_paths() const {
    Heatmap h = contour_;
    for (const Solver& s : solvers_) {
      Heatmap::Path path{method_label(s.method()), {}, {}};
      for (const TraceRow& x : s.trace()) {
        if (x.x.size() != 2) continue;
        path.cols.push_back((x.x[0] - lo_[0]) / (hi_[0] - lo_[0]) * kGrid);
        path.rows.push_back((hi_[1] - x.x[1]) / (hi_[1] - lo_[1]) * kGrid);
      }
      h.paths.push_back(std::move(path));
    }
    return h;
  }

  void describe_problem(const Params& params, bool from_data) {
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
    (void)params;
  }

  ExperimentInfo info_;
  Schema schema_;
  std::vector<Preset> presets_;
  std::optional<ProblemFile> data_;
  Problem problem_;
  MatrixFacts facts_;
  Reference reference_;
  TheoryReport theory_;
  std::vector<Solver> solvers_;
  std::vector<std::string> notes_;
  int max_iterations_ = 0;
  std::size_t next_ = 0;
  Heatmap contour_;
  Eigen::Array2d lo_, hi_;
};

Results RegressionExperiment::results() const {
  Results r;
  Table& t = r.table;
  t.columns = {"t"};
  for (const Solver& s : solvers_)
    // Wall-clock times are not in the table (they differ run to run); the notes report them.
    for (const char* c : {"distance", "loss_gap", "grad_norm", "ratio", "eps0"})
      t.columns.push_back(std::string(method_key(s.method())) + "_" + c);
  std::size_t rows = 0;
  for (const Solver& s : solvers_) rows = std::max(rows, s.trace().size());
  const double nan = NAN;
  for (std::size_t i = 0; i < rows; ++i) {
    std::vector<double> row{double(i)};
    for (const Solver& s : solvers_) {
      if (i >= s.trace().size()) {
        row.insert(row.end(), 5, nan);
        continue;
      }
      const TraceRow& x = s.trace()[i];
      const double ratio = i > 0 && s.trace()[i - 1].distance > 0.0 ? x.distance / s.trace()[i - 1].distance : nan;
      row.insert(row.end(), {x.distance, x.loss_gap, x.grad_norm, ratio, x.eps0});
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
  for (const Solver& s : solvers_)
    if (s.method() != Method::GradientDescent) newton_range = std::max(newton_range, s.trace().size() + 2);
  newton_range = std::min(newton_range, rows);
  auto plot = [&](const char* title, const char* y_label, const char* suffix, bool log_y, std::size_t range) {
    Plot p{title, "iteration t", y_label, false, log_y, false, 0, 1, {}};
    for (const Solver& s : solvers_) {
      std::vector<double> y = column(std::string(method_key(s.method())) + suffix);
      y.resize(range);
      // A diverging solver's values leave the page: they stop at 1e6 times the start (the
      // divergence itself is reported as the solver's state in the notes).
      if (log_y && !y.empty() && std::isfinite(y[0]) && y[0] > 0.0)
        for (double& v : y)
          if (v > 1e6 * y[0]) v = NAN;
      p.series.push_back({method_label(s.method()), SeriesStyle::LineMarkers,
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
  // Each approximation's own bound 2 eps0 (median over its steps), where it is below the plot's top.
  for (const Solver& s : solvers_) {
    std::vector<double> eps;
    for (const TraceRow& x : s.trace())
      if (std::isfinite(x.eps0)) eps.push_back(x.eps0);
    if (eps.empty()) continue;
    std::nth_element(eps.begin(), eps.begin() + eps.size() / 2, eps.end());
    const double bound = 2.0 * eps[eps.size() / 2];
    if (bound < 1.2)
      ratio.series.push_back({std::string("2 eps0, ") + method_key(s.method()), SeriesStyle::Reference, {0.0, last},
                              {bound, bound}, {}, {}});
  }
  r.plots.push_back(ratio);
  r.plots.push_back(
      plot("Quality of each Hessian approximation", "eps0 = max |lambda(H^-1 H~) - 1|", "_eps0", true, newton_range));
  for (const Solver& s : solvers_)
    if (s.method() == Method::GradientDescent && rows > newton_range) {
      Plot gd{"Gradient descent over all its iterations", "iteration t", "||x_t - x*||", false, true, false, 0, 1, {}};
      gd.series.push_back({method_label(s.method()), SeriesStyle::Line, iterations, column("gd_distance"), {}, {}});
      r.plots.push_back(gd);
    }

  // Solver states and speed.
  for (const Solver& s : solvers_) {
    const auto& tr = s.trace();
    const int its = static_cast<int>(tr.size()) - 1;
    std::string line = std::string(method_label(s.method())) + ": " + to_string(s.state()) +
                       printf_text(" after %.0f iterations, %.3g ms per iteration", its,
                           its > 0 ? 1e3 * tr.back().seconds / its : 0.0);
    for (const TraceRow& x : tr)
      if (x.distance <= 1e-10) {
        line += printf_text(", ||x - x*|| <= 1e-10 after %.3g ms", 1e3 * x.seconds);
        break;
      }
    unsigned flags = 0;
    int clamped = 0;
    std::vector<double> eps;
    for (const TraceRow& x : tr) {
      flags |= x.flags;
      clamped += x.clamped;
      if (std::isfinite(x.eps0)) eps.push_back(x.eps0);
    }
    if (!eps.empty()) {
      std::nth_element(eps.begin(), eps.begin() + eps.size() / 2, eps.end());
      line += printf_text(", median eps0 %.3g (rate bound 2 eps0 = %.3g)", eps[eps.size() / 2], 2.0 * eps[eps.size() / 2]);
    }
    if (flags & kFallbackLdlt) line += "; Cholesky failed, LDLT used";
    if (flags & kJitter) line += "; LDLT failed, jitter added";
    if (flags & kClampedD) line += printf_text("; %.0f negative entries of D clamped to 0", clamped);
    if (!s.message().empty()) line += "; " + s.message();
    r.notes.push_back(line + ".");
  }
  for (const std::string& n : notes_) r.notes.push_back(n);

  if (problem_.d() == 2) r.heatmaps.push_back(contour_with_paths());
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

std::unique_ptr<Experiment> make_regression_experiment() { return std::make_unique<RegressionExperiment>(); }

}  // namespace attnlab::regression
