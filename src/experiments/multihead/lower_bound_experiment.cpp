// `multihead.lower_bound` (docs/multihead.md s.4) as an Experiment: its parameters in
// lower_bound_schema.cpp, its unit in lower_bound_unit.cpp, its results in lower_bound_results.cpp
// and the picture before a run in lower_bound_inputs.cpp.
#include "experiments/multihead/lower_bound_experiment.hpp"
#include "experiments/papers.hpp"

#include <optional>

#include "experiments/multihead/lower_bound_inputs.hpp"
#include "experiments/multihead/lower_bound_results.hpp"
#include "experiments/multihead/lower_bound_run.hpp"
#include "experiments/multihead/lower_bound_schema.hpp"
#include "experiments/multihead/lower_bound_unit.hpp"

namespace attnlab::multihead {

namespace {

class LowerBoundExperiment final : public Experiment {
 public:
  LowerBoundExperiment() : Experiment(lower_bound_schema(), lower_bound_presets()) {
    info_ = {"multihead.lower_bound", "Multi-head attention: the lower bound",
             paper_citation("multihead", "Sections 2.3 and 11"),
             "8|S| + 8 heads on two tokens compute a parity of 2|S| bits exactly (ours: the paper's layer of Lemma "
             "11.7 has 8dM + 8 heads for any function of <w, z_1 - z_2>, w in {-M..M}^d; a parity needs knots only "
             "over -|S|..|S|), so any statistical-query learner needs d^Omega(|S|) queries or a tolerance of "
             "d^-Omega(|S|) (Theorem 11.2, part 2); Remark 11.13 names noisy gradient descent among them. Adam on exact "
             "minibatch gradients is not formally such a learner, yet its sign accuracy falls as |S| grows; Gaussian "
             "elimination over GF(2), which is not a statistical-query algorithm, finds S from 12 examples at d = 10 "
             "(the parities preset, seed 1). The "
             "cryptographic bound (learning with rounding, Section 11.4) is not shown; the notes say why."};
  }

  // Two |S| on small dimensions, a few Adam steps each.
  KeyValues smoke_settings() const override {
    return {{"max_S", "2"}, {"verify_d", "4"}, {"train_d", "5"}, {"adam_samples", "200"}, {"adam_steps", "5"},
            {"batch", "16"}};
  }

  std::unique_ptr<UnitTask> start_unit(std::int64_t unit) const override {
    return lower_bound_unit(run_, static_cast<int>(unit) + 1);
  }

  Results inputs(const Params& p, std::uint64_t seed) const override { return lower_bound_inputs(p, seed); }

  Results results() const override { return lower_bound_results(run_, slots_); }

 protected:
  // Units: one per |S| = 1 .. max_S, each costing its pieces (the check, the Adam steps, the sign
  // accuracy).
  std::vector<std::int64_t> prepare(const Params& p, std::uint64_t seed) override {
    const ParitySettings run = lower_bound_settings(p, seed);
    run_ = run;
    slots_.assign(static_cast<std::size_t>(run.max_S), std::nullopt);
    return std::vector<std::int64_t>(static_cast<std::size_t>(run.max_S), run.adam_steps + 2);
  }

  void merge(std::int64_t unit, const Partial& partial) override { slots_[static_cast<std::size_t>(unit)] = partial; }

 private:
  ParitySettings run_;
  std::vector<std::optional<Partial>> slots_;  // per unit: its row
};

}  // namespace

std::unique_ptr<Experiment> make_lower_bound_experiment() { return std::make_unique<LowerBoundExperiment>(); }

}  // namespace attnlab::multihead
