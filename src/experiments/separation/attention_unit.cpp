#include "experiments/separation/attention_unit.hpp"

#include "experiments/separation/attention_trial.hpp"

namespace attnlab::separation {

std::unique_ptr<UnitTask> attention_unit(const AttentionRun& run, std::int64_t unit) {
  // The task's own scratch and, for an m-sweep, the trial last evaluated at the widest m.
  return run.sweep.start_unit(unit, [&run, trial = AttentionTrial(), cached_trial = std::int64_t(-1)](
                                        std::size_t point, std::int64_t t, Rng& rng) mutable {
    if (!run.share_widths) return trial.run(run.settings[point], rng);
    if (t != cached_trial) {  // an m-sweep evaluates each trial once, at the widest m
      AttentionSettings widest = run.settings[point];
      widest.m = run.widest;
      trial.run_widest(widest, rng);
      cached_trial = t;
    }
    return trial.outcome_at(run.settings[point].m);
  });
}

}  // namespace attnlab::separation
