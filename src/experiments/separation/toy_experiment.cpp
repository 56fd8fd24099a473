// The toy model of the paper's Sections 3-5 (docs/separation.md s.1) as an Experiment: its
// parameters in toy_schema.cpp, its unit in toy_unit.cpp, its results in toy_results.cpp and the
// picture before a run in toy_inputs.cpp.
#include "experiments/separation/toy_experiment.hpp"
#include "experiments/papers.hpp"

#include <algorithm>
#include <cmath>

#include "experiments/separation/toy_inputs.hpp"
#include "experiments/separation/toy_inspector.hpp"
#include "experiments/separation/toy_results.hpp"
#include "experiments/separation/toy_run.hpp"
#include "experiments/separation/toy_schema.hpp"
#include "experiments/separation/toy_unit.hpp"

namespace attnlab::separation {

namespace {

// The largest run accepted (units of n * (m + 8) per trial): about 20 minutes natively.
constexpr double kMaxWork = 1e12;

class ToyExperiment final : public Experiment {
 public:
  ToyExperiment() : Experiment(toy_schema(), toy_presets()) {
    info_ = {"separation.toy", "Softmax vs linear: the toy model",
             paper_citation("separation", "Sections 3-5, Fig. 3"),
             "Dataset D1 plants one large score 4 log n among n moderate ones; D0 has none. Softmax puts almost "
             "all weight on the planted token, so a random-sign readout fires on D1 and stays silent on D0. "
             "Linear attention spreads weight evenly and fires on neither."};
  }

  KeyValues smoke_settings() const override { return {{"n", "200"}, {"sweep", "m=1:4:1"}, {"trials", "40"}}; }

  std::vector<std::int64_t> prepare(const Params& params, std::uint64_t seed) override {
    const std::int64_t trials = trials_per_point(params, 1000);
    std::vector<std::int64_t> costs = run_.sweep.reset(schema_, params, seed, "sweep", trials);
    const Sweep& swept = run_.sweep.sweep();
    run_.settings.clear();
    run_.widest = 0;
    run_.trials = trials;
    run_.m_from_rule = kLogNOrFixedTable.decode(params, "m_rule") == ValueRule::Paper && !swept.sweeps("m");
    run_.rounding = params.text("m_rounding");
    double work = 0.0;  // readout look-ups and exponentials, about a nanosecond each natively
    for (const Params& p : run_.sweep.points()) {
      run_.settings.push_back(toy_settings(p, swept.sweeps("m")));
      run_.widest = std::max(run_.widest, run_.settings.back().m);
      work += double(run_.settings.back().n) * (run_.settings.back().m + 8.0) * double(trials);
    }
    // An m-sweep with a shared readout evaluates each trial once at the widest m (ToyTrial::run_widest).
    run_.share_widths = swept.sweeps("m") && params.boolean("shared_readout");
    if (run_.share_widths) work /= double(run_.settings.size());
    if (work > kMaxWork)
      throw ParamError("parameter 'trials': " + format_number(double(trials)) +
                       " trials over this sweep would take hours (" + format_number(std::round(work / 1e9)) +
                       " s natively); allowed: fewer trials, sweep points, n or m (at most about 1e12 units of work)");
    return costs;
  }

  std::unique_ptr<UnitTask> start_unit(std::int64_t unit) const override { return toy_unit(run_, unit); }

  void merge(std::int64_t unit, const Partial& partial) override { run_.sweep.merge(unit, partial); }

  // One trial against Lemmas 4.1 / 4.2 (toy_inspector.hpp): O(n (m + Monte Carlo draws)).
  bool has_inspector() const override { return true; }
  std::vector<std::string> inspector_points() const override { return run_.sweep.point_labels(); }
  Results inspect(std::size_t point, std::int64_t trial) const override {
    run_.sweep.check_inspectable(point, trial);
    return inspect_toy_trial(run_.settings[point], run_.sweep.seed(), trial);
  }

  Results inputs(const Params& params, std::uint64_t seed) const override { return toy_inputs(schema_, params, seed); }

  Results results() const override { return toy_results(run_); }

 private:
  ToyRun run_;
};

}  // namespace

std::unique_ptr<Experiment> make_toy_experiment() { return std::make_unique<ToyExperiment>(); }

}  // namespace attnlab::separation
