// Runs trials of a separation experiment over the points of a sweep and tabulates the success
// rate with Wilson 95% intervals and the four component rates (spec/separation.md s.4).
// Shared by every separation experiment; each supplies its trial and its per-point columns.
#pragma once
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "core/rng.hpp"
#include "experiments/separation/trial_outcome.hpp"
#include "lab/clock.hpp"
#include "lab/experiment.hpp"
#include "lab/sweep.hpp"

namespace attnlab::separation {

// Column names of the four component rates: F > 0 for softmax / linear on D1 / D0.
extern const char* const kComponentRates[4];

class SuccessSweep {
 public:
  // `sweep_key` names the Sweep parameter; `trials_key` the per-point trial count.
  void reset(const Schema& schema, const Params& params, std::uint64_t seed, const std::string& sweep_key,
             const std::string& trials_key);

  // Runs trials in order (point-major) within the budget. Trial t of every point uses the
  // stream (seed, t), so results do not depend on slicing (and points share random numbers).
  template <class TrialFn>  // TrialOutcome(std::size_t point, Rng& rng)
  void step(const Budget& budget, TrialFn&& trial) {
    const double deadline = now_seconds() + budget.seconds;
    for (std::int64_t units = 0; units < budget.max_units && point_ < points_.size(); ++units) {
      Rng rng = Rng::for_stream(seed_, static_cast<std::uint64_t>(tallies_[point_].trials));
      tallies_[point_].add(trial(point_, rng));
      ++done_;
      if (tallies_[point_].trials >= trials_per_point_) ++point_;
      if (now_seconds() >= deadline) break;
    }
  }

  Progress progress() const { return {done_, static_cast<std::int64_t>(points_.size()) * trials_per_point_}; }
  const std::vector<Params>& points() const { return points_; }
  const Sweep& sweep() const { return sweep_; }

  // Table: `point_columns` (values from `describe(point index)`) then trials, successes,
  // success_rate, ci_low, ci_high, then exp_d1, exp_d1_low, exp_d1_high and the same for lin_d1,
  // exp_d0, lin_d0, then near_ties. Rows for points
  // with at least one trial, so a running sweep shows its partial curve.
  Table table(const std::vector<std::string>& point_columns,
              const std::function<std::vector<double>(std::size_t)>& describe) const;
  // Plots of success (with error bars and an optional theory curve taken from column
  // `theory_column`) and of the four component rates against the swept parameter.
  // "Latest point: m = 10, success 0.999 (Wilson 95% [0.994, 1]) over 1000 trials": a one-line
  // read-out for the page's text and screen readers.
  std::string latest_point_summary(const Table& table, const std::string& x_column) const;
  std::vector<Plot> plots(const Table& table, const std::string& x_column, const std::string& theory_column,
                          const std::string& theory_label) const;

 private:
  Sweep sweep_;
  std::vector<Params> points_;
  std::vector<OutcomeTally> tallies_;
  std::int64_t trials_per_point_ = 0;
  std::int64_t done_ = 0;
  std::size_t point_ = 0;
  std::uint64_t seed_ = 0;
};

}  // namespace attnlab::separation
