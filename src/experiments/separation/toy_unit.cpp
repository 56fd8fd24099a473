#include "experiments/separation/toy_unit.hpp"

namespace attnlab::separation {

std::unique_ptr<UnitTask> toy_unit(const ToyRun& run, std::int64_t unit) {
  // The task's own trial scratch and, for an m-sweep, the trial last drawn at the widest m.
  return run.sweep.start_unit(unit, [&run, trial = ToyTrial(), cached_trial = std::int64_t(-1)](
                                        std::size_t point, std::int64_t t, Rng& rng) mutable {
    if (!run.share_widths) return trial.run(run.settings[point], rng);
    if (t != cached_trial) {
      ToySettings widest = run.settings[point];
      widest.m = run.widest;
      trial.run_widest(widest, rng);
      cached_trial = t;
    }
    return trial.outcome_at(run.settings[point].m, run.settings[point].tau);
  });
}

}  // namespace attnlab::separation
