// `mirror` (docs/mirror.md): l_p-AttGD runs for several p and seeds, each compared with the
// l_p-AttSVM solutions. The experiment delegates to its parts: mirror_schema.cpp (parameters,
// presets, decoding into the prepared run of mirror_run.hpp), mirror_unit.cpp (one unit per seed
// and its partial codec), mirror_results.cpp (results()) and mirror_inputs.cpp (inputs()).
#include "experiments/mirror/mirror_experiment.hpp"
#include "experiments/papers.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "experiments/mirror/mirror_inputs.hpp"
#include "experiments/mirror/mirror_results.hpp"
#include "experiments/mirror/mirror_run.hpp"
#include "experiments/mirror/mirror_schema.hpp"
#include "experiments/mirror/mirror_unit.hpp"

namespace attnlab::mirror {

namespace {

class MirrorExperiment final : public Experiment {
 public:
  MirrorExperiment() : Experiment(mirror_schema(), mirror_presets()) {
    info_ = {"mirror", "Mirror descent for attention (l_p-AttGD)",
             paper_citation("mirror"),
             "Train W of one attention layer with mirror descent on the potential (1/p) ||W||_p^p. The softmax "
             "concentrates on one token per sequence, and the direction of W_k converges to the l_p max-margin "
             "solution (l_p-AttSVM) for the run's own p: sparse for p near 1, dense for p = 3."};
  }
  DataSelector data_selector() const override { return {"data", "file"}; }
  void read_data(const std::string& json) override {
    file_data_ = std::make_shared<const Dataset>(read_dataset_file(json, 1));
  }

  std::unique_ptr<UnitTask> start_unit(std::int64_t unit) const override {
    const auto per_unit = static_cast<std::ptrdiff_t>(run_.runs_per_unit);
    const auto first = run_.runs.begin() + static_cast<std::ptrdiff_t>(unit) * per_unit;
    return make_seed_unit(run_.setup, std::vector<RunPlan>(first, first + per_unit));
  }

  Results results() const override { return mirror_results(run_, records_); }

  // The first seed's first sequence and its starting attention (mirror_inputs.cpp).
  Results inputs(const Params& params, std::uint64_t seed) const override {
    return mirror_inputs(schema_, params, seed, file_data_);
  }

  // Three seeds of p = 1.75 and 2 over 100 steps: three units of two runs each, with their SVMs.
  KeyValues smoke_settings() const override {
    return {{"seeds", "3"}, {"sweep", "p=1.75,2"}, {"iterations_rule", "fixed"}, {"iterations", "100"}};
  }

 protected:
  // Runs seed-major (seed 0's p's, then seed 1's, ...): unit u is seed u's runs.
  std::vector<std::int64_t> prepare(const Params& params, std::uint64_t seed) override {
    run_ = prepare_run(schema_, params, seed, file_data_);
    records_.assign(run_.runs.size(), std::nullopt);
    return run_.unit_costs;
  }

  // A unit's partial replaces every record of its runs (a preview holds the runs started so far).
  void merge(std::int64_t unit, const Partial& partial) override {
    const std::size_t first = static_cast<std::size_t>(unit) * run_.runs_per_unit;
    for (std::size_t place = 0; place < run_.runs_per_unit; ++place) {
      const std::string prefix = run_prefix(place);
      std::optional<RunRecord>& slot = records_[first + place];
      if (partial.has(prefix + "done")) slot = RunRecord::decode(partial, prefix, run_.data_d);
      else slot.reset();
    }
  }

 private:
  std::shared_ptr<const Dataset> file_data_;
  PreparedRun run_;        // the prepared run
  MergedRecords records_;  // per run, as merged so far
};

}  // namespace

std::unique_ptr<Experiment> make_mirror_experiment() { return std::make_unique<MirrorExperiment>(); }

}  // namespace attnlab::mirror
