// `regression.icl` (docs/regression.md s.4) as an Experiment: its parameters in icl_schema.cpp,
// its unit in icl_unit.cpp, its results in icl_results.cpp and the picture before a run in
// icl_inputs.cpp.
#include "experiments/regression/icl_experiment.hpp"
#include "experiments/papers.hpp"

#include <Eigen/SVD>
#include <optional>

#include "experiments/regression/generator.hpp"
#include "experiments/regression/icl_inputs.hpp"
#include "experiments/regression/icl_results.hpp"
#include "experiments/regression/icl_run.hpp"
#include "experiments/regression/icl_schema.hpp"
#include "experiments/regression/icl_unit.hpp"
#include "experiments/regression/regression_schema.hpp"

namespace attnlab::regression {

namespace {

class IclExperiment final : public Experiment {
 public:
  IclExperiment() : Experiment(icl_schema(), icl_presets()) {
    info_ = {"regression.icl", "Rescaled hyperbolic regression: the in-context learning shift",
             paper_citation("regression", "Corollary F.2"),
             "One step x_t -> x_{t+1} of a solver equals solving the same problem with a shifted target "
             "b~ = (u(x_{t+1}) - c(x_t)) / alpha(x_{t+1}): the residual identity holds exactly and ||b~ - b|| grows "
             "linearly with the step (slope 1 on log-log axes). The same holds for a move of A."};
  }

  // A few decades at one point per decade, on a small problem: several units, well under a second.
  KeyValues smoke_settings() const override {
    return {{"n", "40"}, {"d", "4"}, {"delta_min", "1e-6"}, {"per_decade", "1"}};
  }

  // One unit per move size delta (docs/design.md "The run: prepare, units, merge, results"): each
  // measures one move from the same prepared point, reading the problem only.
  std::unique_ptr<UnitTask> start_unit(std::int64_t unit) const override { return icl_unit(run_, unit); }

  Results results() const override { return icl_results(run_, slots_); }

  Results inputs(const Params& params, std::uint64_t seed) const override { return icl_inputs(params, seed); }

 protected:
  std::vector<std::int64_t> prepare(const Params& params, std::uint64_t seed) override {
    run_.deltas.clear();
    slots_.clear();
    const GeneratorSettings s = shared_generator_settings(params);
    run_.problem = generate(s, seed);
    Rng rng = draw_point(params, seed, s.d, run_.x, run_.direction);
    run_.move_A = kPerturbTable.decode(params, "perturb") == Perturb::A;
    if (run_.move_A) {  // a dense direction dA with ||dA||_2 = 1
      Eigen::MatrixXd E(s.n, s.d);
      for (int i = 0; i < s.n; ++i)
        for (int j = 0; j < s.d; ++j) E(i, j) = rng.normal();
      Eigen::JacobiSVD<Eigen::MatrixXd> svd(E);
      run_.direction_A = E / svd.singularValues()[0];
    }
    std::vector<double> deltas = sweep_deltas(params);
    const Point at = evaluate(run_.problem, run_.x);
    if (!at.finite) throw ParamError("parameter 'x_norm': exp/cosh/sinh of A x overflows at this x");
    run_.base = at;
    run_.deltas = std::move(deltas);
    run_.measure_norm = measure(run_.problem.A).norm;
    slots_.assign(run_.deltas.size(), std::nullopt);
    return std::vector<std::int64_t>(run_.deltas.size(), 1);
  }

  void merge(std::int64_t unit, const Partial& partial) override {
    slots_[static_cast<std::size_t>(unit)] = row_from_partial(partial);
  }

 private:
  IclRun run_;
  std::vector<std::optional<Row>> slots_;  // unit k's row, once it came
};

}  // namespace

std::unique_ptr<Experiment> make_icl_experiment() { return std::make_unique<IclExperiment>(); }

}  // namespace attnlab::regression
