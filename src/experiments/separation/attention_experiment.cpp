// The self- and cross-attention networks of the paper's Appendices D-F (docs/separation.md s.2-s.4)
// as Experiments: their parameters in attention_schema.cpp (the presets in attention_presets.cpp),
// the unit in attention_unit.cpp, the results in attention_results.cpp and the picture before a
// run in attention_inputs.cpp.
#include "experiments/separation/attention_experiment.hpp"
#include "experiments/papers.hpp"

#include <algorithm>

#include "experiments/separation/attention_inputs.hpp"
#include "experiments/separation/attention_results.hpp"
#include "experiments/separation/attention_run.hpp"
#include "experiments/separation/attention_schema.hpp"
#include "experiments/separation/attention_unit.hpp"
#include "experiments/separation/inspector.hpp"

namespace attnlab::separation {

namespace {

// The largest run accepted, in units of about a nanosecond natively (see prepare()).
constexpr double kMaxWork = 1e12;
// The inspector computes every row of the n x n matrices: O(n^2 d).
constexpr int kMaxInspectorTokens = 5000;

class AttentionExperiment final : public Experiment {
 public:
  explicit AttentionExperiment(AttentionModel model)
      : Experiment(attention_schema(model),
                   model == AttentionModel::Self ? self_attention_presets() : cross_attention_presets()) {
    run_.model = model;
    if (model == AttentionModel::Self)
      info_ = {"separation.self", "Softmax vs linear: self-attention",
               paper_citation("separation", "Def. D.1, Figs. 4 and 5"),
               "A = A1 = A2 = A3 holds one-hot classes, a constant column and one planted token j3 of strength a "
               "(small in D0, large in D1). Softmax attention lets the planted row concentrate on j3, so a "
               "random-sign readout fires on D1; linear attention keeps every row near uniform."};
    else
      info_ = {"separation.cross", "Softmax vs linear: cross-attention",
               paper_citation("separation", "Def. F.1, Fig. 7"),
               "The query row j2 scores the planted key j3 at (1 + a) log n and every other key at log n. "
               "Softmax turns that gap into weight n^a / (n^a + n - 1) on j3 and the readout fires on D1; "
               "linear attention gives j3 only (1 + a) / (n + a), so its rows stay near uniform."};
  }

  KeyValues smoke_settings() const override { return {{"n", "60"}, {"sweep", "m=1:4:1"}, {"trials", "40"}}; }

  std::vector<std::int64_t> prepare(const Params& params, std::uint64_t seed) override {
    const std::int64_t trials = trials_per_point(params, 100);
    std::vector<std::int64_t> costs = run_.sweep.reset(schema_, params, seed, "sweep", trials);
    const Sweep& swept = run_.sweep.sweep();
    run_.trials = trials;
    run_.tau_from_rule = kPaperOrFixedTable.decode(params, "tau_rule") == ValueRule::Paper && !swept.sweeps("tau");
    run_.m_from_rule = kPaperOrFixedTable.decode(params, "m_rule") == ValueRule::Paper && !swept.sweeps("m");
    run_.settings.clear();
    double work = 0.0;  // per trial: 4 attentions over <= d + 1 groups, and the readout
    run_.widest = 0;
    for (const Params& p : run_.sweep.points()) {
      run_.settings.push_back(attention_settings(run_.model, p, swept));
      const AttentionSettings& s = run_.settings.back();
      run_.widest = std::max(run_.widest, s.m);
      const double d = s.d, groups = d + 1.0;
      work += (4.0 * groups * groups * d + 4.0 * groups * d * s.m + 50.0) * double(trials);
    }
    run_.share_widths = swept.sweeps("m") && params.boolean("shared_readout");
    if (run_.share_widths) work /= double(run_.settings.size());
    if (work > kMaxWork)
      throw ParamError("parameter 'trials': " + format_number(double(trials)) +
                       " trials over this sweep would take hours; allowed: fewer trials, sweep points, d or m");
    return costs;
  }

  std::unique_ptr<UnitTask> start_unit(std::int64_t unit) const override { return attention_unit(run_, unit); }

  void merge(std::int64_t unit, const Partial& partial) override { run_.sweep.merge(unit, partial); }

  Results results() const override { return attention_results(run_); }

  // The D1 and D0 inputs of trial 0 at the first sweep point: what the run starts from.
  Results inputs(const Params& params, std::uint64_t seed) const override {
    return attention_inputs(run_.model, schema_, params, seed);
  }

  bool has_inspector() const override { return true; }
  std::vector<std::string> inspector_points() const override { return run_.sweep.point_labels(); }

  Results inspect(std::size_t point, std::int64_t trial) const override {
    run_.sweep.check_inspectable(point, trial);
    const AttentionSettings& s = run_.settings[point];
    if (s.n > kMaxInspectorTokens)
      throw ParamError("the inspector draws n x n matrices; parameter 'n' must be at most " +
                       std::to_string(kMaxInspectorTokens) + " to inspect (got " + std::to_string(s.n) + ")");
    return inspect_trial(s, run_.sweep.seed(), trial);
  }

 private:
  AttentionRun run_;
};

}  // namespace

std::unique_ptr<Experiment> make_self_attention_experiment() {
  return std::make_unique<AttentionExperiment>(AttentionModel::Self);
}
std::unique_ptr<Experiment> make_cross_attention_experiment() {
  return std::make_unique<AttentionExperiment>(AttentionModel::Cross);
}

}  // namespace attnlab::separation
