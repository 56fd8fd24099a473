#include "experiments/multihead/multihead_experiment.hpp"
#include "experiments/papers.hpp"

#include "experiments/multihead/multihead_inputs.hpp"

#include <memory>
#include <optional>
#include <vector>

#include "experiments/multihead/instance.hpp"
#include "experiments/multihead/multihead_results.hpp"
#include "experiments/multihead/multihead_run.hpp"
#include "experiments/multihead/multihead_schema.hpp"
#include "experiments/multihead/multihead_unit.hpp"

namespace attnlab::multihead {

namespace {

// The experiment: its declarations (multihead_schema.cpp), its two units (multihead_unit.cpp) and
// its results (multihead_results.cpp).
class MultiheadExperiment final : public Experiment {
 public:
  MultiheadExperiment() : Experiment(multihead_schema(), multihead_presets()) {
    info_ = {"multihead", "Learning a multi-head attention layer",
             paper_citation("multihead"),
             "A hidden layer F(X) = sum_i softmax(X Theta_i X^T) X W_i labels random +-1 inputs. The paper proves that "
             "a layer meeting its non-degeneracy assumptions (Section 4) can be learned from (kd)^Theta(m) examples "
             "in (kd)^O(m^3) time, to a test loss E||F - F^||_F^2 <= (kd)^-Omega(m) with probability 1 - delta "
             "(Theorem 1.2; a guarantee on prediction error, with no bound stated on the error in Theta, which the "
             "lab compares): a crude estimate of W_sum, then certified examples whose output is "
             "explained by one attention pattern shared by all heads carve out Theta. The lab's small instances do "
             "not meet those assumptions (the notes measure how far). Adam, which has no such guarantee, is the "
             "baseline, and on these instances it wins by far."};
  }

  // Both units at toy scale, every stage visited: a wide eps certifies enough rows at d = 6 for
  // the span, the head search and the value regression.
  KeyValues smoke_settings() const override {
    return {{"d", "6"},          {"eps", "0.4"},     {"crude_samples", "1000"}, {"pool_samples", "1000"},
            {"refit_rounds", "2"}, {"cert_samples", "3000"}, {"heldout", "40"},   {"adam_samples", "100"},
            {"adam_steps", "20"},  {"batch", "16"}};
  }

  std::unique_ptr<UnitTask> start_unit(std::int64_t unit) const override {
    if (unit == kPipelineUnit) return std::make_unique<PipelineTask>(run_);
    return std::make_unique<AdamTask>(run_);
  }

  // The picture before a run: the hidden heads' attention on the first example the pipeline draws
  // (phase I's first, from stream 1 of the seed; docs/multihead.md s.1 and s.2). The learners see
  // the examples and their labels, never the heads.
  Results inputs(const Params& p, std::uint64_t seed) const override {
    InstanceSettings s;
    RunSettings run;
    decode_params(p, seed, s, run);
    const Layer truth = random_instance(s, seed);
    Rng data = Rng::for_stream(seed, 1);
    const Eigen::MatrixXd X = random_input(s.k, s.d, data, run.gaussian);
    Results r;
    r.heatmaps = attention_heatmaps(truth, X, "the run's first example");
    r.notes.push_back("Each row is one query token's attention over the example's tokens; the learners see only "
                      "examples and outputs, never the heads.");
    return r;
  }

  Results results() const override {
    if (!run_) return {};
    return multihead_results(*run_, meter_, slots_[kPipelineUnit], slots_[kAdamUnit]);
  }

 protected:
  std::vector<std::int64_t> prepare(const Params& p, std::uint64_t seed) override {
    InstanceSettings s;
    auto run = std::make_shared<RunSettings>();
    decode_params(p, seed, s, *run);
    run->truth = random_instance(s, seed);
    run->w_sum = run->truth.W_sum();
    meter_ = measure_assumptions(run->truth);
    run_ = std::move(run);
    slots_.assign(kUnits, std::nullopt);
    return {run_->pipeline_cost(), run_->adam_cost()};
  }

  void merge(std::int64_t unit, const Partial& partial) override { slots_[static_cast<std::size_t>(unit)] = partial; }

 private:
  std::shared_ptr<const RunSettings> run_;
  AssumptionMeter meter_;
  std::vector<std::optional<Partial>> slots_;  // per unit: its final partial or latest preview
};

}  // namespace

std::unique_ptr<Experiment> make_multihead_experiment() { return std::make_unique<MultiheadExperiment>(); }

}  // namespace attnlab::multihead
