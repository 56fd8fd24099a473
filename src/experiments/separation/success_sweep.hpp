// Runs trials of a separation experiment over the points of a sweep and tabulates the success
// rate with Wilson 95% intervals and the four component rates (docs/separation.md s.4).
// Shared by every separation experiment; each supplies its trial and its per-point columns.
#pragma once
#include <cmath>
#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/rng.hpp"
#include "experiments/separation/trial_outcome.hpp"
#include "lab/choice_table.hpp"
#include "lab/experiment.hpp"
#include "lab/sweep.hpp"
#include "lab/work_unit.hpp"

namespace attnlab::separation {

// Column names of the four component rates: F > 0 for softmax / linear on D1 / D0.
extern const char* const kComponentRates[4];

// The per-point trial count: `trials` ([OURS] default 1000 for smooth curves), or the paper's own
// count when the `paper_trials` switch is on (docs/separation.md s.4: 1000 for Fig. 3, 100 for Figs. 4, 5, 7).
// Where a value comes from: the paper's rule (m = log n, tau from the theorems) or its own
// parameter (m_rule, tau_rule: "fixed").
enum class ValueRule { Paper, Fixed };
inline constexpr ChoiceTable<ValueRule> kPaperOrFixedTable{{"paper", ValueRule::Paper}, {"fixed", ValueRule::Fixed}};

ParamSpec trials_spec();
ParamSpec paper_trials_spec(int paper_count);
std::int64_t trials_per_point(const Params& params, int paper_count);

// A closed-form curve to draw beside the measured rates (docs/separation.md s.5), taken from a table column.
// It is drawn only against the variables of its formula (`axes`: m, and n where m = log n follows n);
// against any other x (tau, a1, d, ...) the plot leaves it out and the table column stays.
struct Theory {
  std::string column;  // empty: none
  std::string label;
  bool on_success = true;          // on the success plot (true) or beside "softmax on D1" (false)
  std::vector<std::string> axes;   // the x columns it is drawn against
};

class SuccessSweep {
 public:
  // `sweep_key` names the Sweep parameter; every point runs `trials_per_point` trials. Returns the
  // cost of each work unit (trials x points).
  std::vector<std::int64_t> reset(const Schema& schema, const Params& params, std::uint64_t seed,
                                  const std::string& sweep_key, std::int64_t trials_per_point);

  // Work unit `unit` is a block of consecutive trials at every point, run trial-major (trial t at
  // every point, then t + 1), so a running sweep shows the whole curve early and refines it. Trial
  // t of every point uses the stream (seed, t): a unit's tallies depend only on (parameters, seed,
  // unit), and points share random numbers (common random numbers make neighbouring points
  // comparable, and let an m-sweep reuse one draw). One piece is one trial at one point.
  // `trial` is the task's own TrialOutcome(std::size_t point, std::int64_t t, Rng& rng): it may
  // keep scratch space and a cached draw, because no other task shares it.
  template <class TrialFn>
  std::unique_ptr<UnitTask> start_unit(std::int64_t unit, TrialFn trial) const {
    const std::int64_t first = unit * block_, last = std::min(trials_per_point_, first + block_);
    const std::int64_t points = static_cast<std::int64_t>(points_.size());
    auto tallies = std::make_shared<std::vector<OutcomeTally>>(points_.size());
    auto fn = std::make_shared<TrialFn>(std::move(trial));
    const std::uint64_t seed = seed_;
    return make_piecewise_task(
        (last - first) * points,
        [=](std::int64_t k) {
          const std::int64_t t = first + k / points;
          const std::size_t point = static_cast<std::size_t>(k % points);
          Rng rng = Rng::for_stream(seed, static_cast<std::uint64_t>(t));
          (*tallies)[point].add((*fn)(point, t, rng));
        },
        [tallies] { return to_partial(*tallies); },
        [tallies](Partial& out) {
          out = to_partial(*tallies);
          return true;
        });
  }
  // Keeps a unit's tallies (final or preview).
  void merge(std::int64_t unit, const Partial& partial);

  std::int64_t trials_per_point() const { return trials_per_point_; }
  std::uint64_t seed() const { return seed_; }
  // The inspector's labels of the points ("m = 7", or "the only point"), and its range check:
  // throws ParamError naming the point or trial out of range.
  std::vector<std::string> point_labels() const;
  void check_inspectable(std::size_t point, std::int64_t trial) const;
  const std::vector<Params>& points() const { return points_; }
  const Sweep& sweep() const { return sweep_; }

  // Table: `point_columns` (values from `describe(point index)`) then trials, successes,
  // success_rate, ci_low, ci_high, then exp_d1, exp_d1_low, exp_d1_high and the same for lin_d1,
  // exp_d0, lin_d0, then near_ties. Rows for points with at least one trial.
  Table table(const std::vector<std::string>& point_columns,
              const std::function<std::vector<double>(std::size_t)>& describe) const;
  // "Latest point: m = 10, success 0.999 (Wilson 95% [0.994, 1]) over 1000 trials": a one-line
  // read-out for the page's text and screen readers.
  std::string latest_point_summary(const Table& table, const std::string& x_column) const;
  // Plots of success (with error bars) and of the four component rates against the swept
  // parameter, with an optional theory curve from the table on one of them (when `x_column` is
  // one of its axes). Each component rate's legend says what success needs of it (fire or stay
  // silent); a rate equal at every point to an earlier one is drawn as a plain line over the
  // earlier one's markers and its legend says "identical to ...", so neither hides the other.
  std::vector<Plot> plots(const Table& table, const std::string& x_column, const Theory& theory) const;

 private:
  Sweep sweep_;
  std::vector<Params> points_;
  static Partial to_partial(const std::vector<OutcomeTally>& tallies);
  std::vector<OutcomeTally> tallies() const;  // per point, summed over the merged units

  std::vector<std::vector<OutcomeTally>> unit_tallies_;  // [unit][point]; empty until merged
  std::int64_t trials_per_point_ = 0;
  std::int64_t block_ = 1;  // trials per unit
  std::uint64_t seed_ = 0;
};

}  // namespace attnlab::separation
