#include "experiments/regression/regression_experiment.hpp"
#include "experiments/papers.hpp"

#include <optional>
#include <string>
#include <vector>

#include "experiments/regression/problem_file.hpp"
#include "experiments/regression/regression_inputs.hpp"
#include "experiments/regression/regression_results.hpp"
#include "experiments/regression/regression_run.hpp"
#include "experiments/regression/regression_schema.hpp"
#include "experiments/regression/regression_unit.hpp"
#include "lab/text.hpp"

namespace attnlab::regression {

namespace {

class RegressionExperiment final : public Experiment {
 public:
  RegressionExperiment() : Experiment(regression_schema(), regression_presets()) {
    info_ = {"regression", "Rescaled hyperbolic regression: Newton-type solvers",
             paper_citation("regression"),
             "Minimise 1/2 ||u(x) - <u(x), 1> b||^2 + 1/2 ||W A x||^2 for u = exp, cosh or sinh of A x. The paper's "
             "solver is Newton's method with an approximate Hessian (a sparse diagonal middle matrix; we sample it "
             "by leverage scores, our reading); it converges linearly at a rate set by the approximation, exact "
             "Newton quadratically, "
             "gradient descent slowly."};
  }
  DataSelector data_selector() const override { return {"source", "data"}; }
  void read_data(const std::string& json) override { data_ = read_problem_file(json); }

  // Every solver, on a small d = 2 problem (so the units carry paths and the contour is drawn).
  KeyValues smoke_settings() const override { return {{"n", "40"}, {"d", "2"}, {"max_iterations", "25"}}; }

  std::unique_ptr<UnitTask> start_unit(std::int64_t unit) const override {
    return make_solver_task(run_.methods[static_cast<std::size_t>(unit)], run_.problem, run_.reference, run_.options);
  }

  // The function u over the range of (A x)_i and the loss along the segment from x0 to x*
  // (docs/regression.md "In the lab"), built as prepare() builds them.
  Results inputs(const Params& params, std::uint64_t seed) const override {
    return regression_inputs(params, seed, data_ ? &*data_ : nullptr);
  }

  Results results() const override {
    // The solvers' traces in unit order (empty for units not started yet): every reduction
    // reads them in this order, so arrival order and slicing never change a byte.
    std::vector<Trace> traces;
    for (const auto& slot : slots_) traces.push_back(slot ? *slot : Trace{});
    return regression_results(run_, traces);
  }

 protected:
  std::vector<std::int64_t> prepare(const Params& params, std::uint64_t seed) override {
    run_.methods.clear();
    slots_.clear();
    run_.notes.clear();
    const bool from_data = kSourceTable.decode(params, "source") == ProblemSource::Data;
    // The problem, x* and the shared start x0: built by the code inputs() draws them with.
    Start start = prepare_start(params, seed, data_ ? &*data_ : nullptr);
    run_.problem = std::move(start.problem);
    run_.facts = start.facts;
    run_.reference = std::move(start.reference);
    Problem& problem = run_.problem;
    run_.theory = check_theory(problem, run_.reference, run_.facts);

    run_.options = solver_options(params, seed);
    run_.options.keep_iterates = problem.d() == 2;
    std::vector<Method> methods = selected_methods(params);
    if (problem.d() == 2) compute_contour(run_);
    describe_problem(from_data);
    run_.methods = std::move(methods);
    slots_.assign(run_.methods.size(), std::nullopt);
    // One unit per solver, costing its iteration budget (a solver that converges early ends early).
    return std::vector<std::int64_t>(run_.methods.size(), run_.options.max_iterations);
  }

  void merge(std::int64_t unit, const Partial& partial) override {
    slots_[static_cast<std::size_t>(unit)] = from_partial(partial);
  }

 private:
  // The problem's notes: its sizes and measured facts, x*, and the theorem's conditions.
  void describe_problem(bool from_data) {
    const Problem& problem = run_.problem;
    const MatrixFacts& facts = run_.facts;
    const Reference& reference = run_.reference;
    std::vector<std::string>& notes = run_.notes;
    notes.push_back(std::string(from_data ? "Loaded problem: " : "Problem: ") + to_string(problem.function) +
                    printf_text(", n = %.0f, d = %.0f, ||A|| = %.4g, ", problem.n(), problem.d(), facts.norm) +
                    printf_text("kappa(A) = %.4g, nnz(A) = %.0f, ||b|| = %.3g, ", facts.condition(),
                                double(facts.nonzeros), problem.b.norm()) +
                    printf_text("w in [%.4g, %.4g].", problem.w.minCoeff(), problem.w.maxCoeff()));
    notes.push_back(printf_text("x*: damped exact Newton, ||x*|| = %.6g, ||grad L(x*)|| = %.2g after %.0f steps, L* = %.10g.",
                                reference.x.norm(), reference.grad_norm, reference.iterations, reference.loss));
    if (problem.function != Hyperbolic::Exp && problem.x0.norm() == 0.0)
      notes.push_back("Warning: x0 = 0 is a critical point of L for cosh and sinh; Newton-type solvers stay there.");
    for (const std::string& line : run_.theory.lines) notes.push_back(line);
  }

  std::optional<ProblemFile> data_;
  RegressionRun run_;  // the prepared run, read-only while units run (start_unit hands out references to it)
  // Per unit: the latest partial (final, or a preview a later one replaces); empty until one came.
  std::vector<std::optional<Trace>> slots_;
};

}  // namespace

std::unique_ptr<Experiment> make_regression_experiment() { return std::make_unique<RegressionExperiment>(); }

}  // namespace attnlab::regression
