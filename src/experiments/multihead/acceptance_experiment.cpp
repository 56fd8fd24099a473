// `multihead.acceptance` (docs/multihead.md s.5) as an Experiment: its parameters in
// acceptance_schema.cpp, its unit in acceptance_unit.cpp, its results in acceptance_results.cpp and
// the picture before a run in acceptance_inputs.cpp.
#include "experiments/multihead/acceptance_experiment.hpp"
#include "experiments/papers.hpp"

#include <memory>
#include <optional>

#include "experiments/multihead/acceptance_inputs.hpp"
#include "experiments/multihead/acceptance_results.hpp"
#include "experiments/multihead/acceptance_run.hpp"
#include "experiments/multihead/acceptance_schema.hpp"
#include "experiments/multihead/acceptance_unit.hpp"

namespace attnlab::multihead {

namespace {

class AcceptanceExperiment final : public Experiment {
 public:
  AcceptanceExperiment() : Experiment(acceptance_schema(), acceptance_presets()) {
    info_ = {"multihead.acceptance", "Multi-head attention: certification acceptance",
             paper_citation("multihead"),
             "A row is certified (the lab's certification, ours: on simplex edges) when its output lies on an edge of "
             "the token simplex, which needs every head to attend alike, so the acceptance rate falls steeply with every extra head; the notes give each rate "
             "with its Wilson 95% interval and the fall from one m to the next (87.2 and 105 times at d = 12, k = 3, "
             "eps = 0.1 from 1e6 inputs per m, seed 1: the story's step 2). The paper's learner is proved to succeed "
             "with (kd)^Theta(m) examples and (kd)^O(m^3) time on layers that meet its assumptions (Theorem 1.2); "
             "the fall per head at kd = 36 is our measurement."};
  }

  // A small sweep over the defaults: every point in two blocks.
  KeyValues smoke_settings() const override { return {{"samples", "12000"}}; }

  std::unique_ptr<UnitTask> start_unit(std::int64_t unit) const override { return acceptance_unit(run_, unit); }

  Results inputs(const Params& p, std::uint64_t seed) const override { return acceptance_inputs(schema_, p, seed); }

  Results results() const override { return acceptance_results(run_, slots_); }

 protected:
  // Units: sweep point x block of kBlock samples (the last block of a point may be shorter), in
  // that order; each costs its samples.
  std::vector<std::int64_t> prepare(const Params& p, std::uint64_t seed) override {
    run_.sweep = parse_sweep(schema_, "sweep", p.text("sweep"));
    run_.params.clear();
    if (run_.sweep.active())
      for (double v : run_.sweep.values) {
        Params q = p;
        schema_.set(q, run_.sweep.key, format_number(v));
        run_.params.push_back(q);
      }
    else
      run_.params.push_back(p);
    run_.samples = p.integer("samples");
    const double d = static_cast<double>(p.integer("d"));
    if (static_cast<double>(run_.samples) * static_cast<double>(run_.params.size()) * d * d * 4 > 2e12)
      throw ParamError("parameter 'samples': this sweep would take hours; allowed: fewer samples or points");
    run_.seed = seed;
    auto points = std::make_shared<std::vector<AcceptancePoint>>();
    for (const Params& q : run_.params) points->push_back(make_acceptance_point(q, seed));
    run_.points = std::move(points);
    run_.blocks = (run_.samples + kBlock - 1) / kBlock;
    slots_.assign(run_.params.size() * static_cast<std::size_t>(run_.blocks), std::nullopt);
    std::vector<std::int64_t> costs;
    for (std::size_t i = 0; i < run_.params.size(); ++i)
      for (std::int64_t b = 0; b < run_.blocks; ++b) costs.push_back(block_samples(run_, b));
    return costs;
  }

  void merge(std::int64_t unit, const Partial& partial) override { slots_[static_cast<std::size_t>(unit)] = partial; }

 private:
  AcceptanceRun run_;
  std::vector<std::optional<Partial>> slots_;  // per unit: (samples, accepted)
};

}  // namespace

std::unique_ptr<Experiment> make_acceptance_experiment() { return std::make_unique<AcceptanceExperiment>(); }

}  // namespace attnlab::multihead
