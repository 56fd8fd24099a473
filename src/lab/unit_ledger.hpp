// The rules of handing units to workers, written once and free of experiments: which unit goes
// out next, what a worker's message means (a unit of another generation or not in flight is
// dropped; a rerun starts its unit over), and the progress by the units' costs. The page's
// UnitScheduler (lab/unit_scheduler.hpp) keeps its books here, and so does the JS API's worker path
// (web/api/attnlab-api.mjs computeOnWorkers, through src/web/scheduler_bindings.cpp).
#pragma once
#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <utility>

#include "lab/choice_table.hpp"

namespace attnlab {

class UnitLedger {
 public:
  enum class Act { Drop, Absorb, Preview, Rerun, Fail };
  enum class Kind { Done, Progress, Error, Rerun };

  // A new generation: nothing in flight, no reruns; `total_cost` of every unit of every run,
  // `done_cost` of the units already finished.
  void start(int generation, double total_cost, double done_cost);
  // Unit `unit` of run `run` (of cost `cost`) waits to go out, after those added before it.
  void add(std::size_t run, std::int64_t unit, double cost);
  void clear();  // forgets the units waiting and in flight (a cancelled generation)
  int generation() const { return generation_; }

  bool has_next() const { return !pending_.empty(); }
  std::size_t next_run() const { return pending_.front().run; }
  std::int64_t next_unit() const { return pending_.front().unit; }
  void posted();  // the next unit went out: in flight from now

  // What to do with a worker's message about `unit` under `run_key` (RunKey::encode()) in
  // `generation`; `run` is set to the key's run. Throws std::runtime_error naming a malformed key.
  // Absorb: done (its cost counts as done); Preview: progress at `fraction` (clamped to [0, 1]);
  // Rerun: the unit starts over; Fail: the unit failed; Drop: another generation's, or not in flight.
  Act accept(Kind kind, int generation, const std::string& run_key, std::int64_t unit, double fraction, std::size_t& run);

  bool all_in() const { return pending_.empty() && in_flight_.empty(); }
  std::size_t pending() const { return pending_.size(); }
  std::size_t in_flight() const { return in_flight_.size(); }
  int reruns() const { return reruns_; }
  // (done + in-flight fractions) / total, by cost; 1 when there is no cost at all.
  double progress() const;

 private:
  struct Unit {
    std::size_t run;
    std::int64_t unit;
    double cost;
  };
  int generation_ = 0;
  double total_ = 0.0, done_ = 0.0;
  int reruns_ = 0;
  std::deque<Unit> pending_;
  std::map<std::pair<std::size_t, std::int64_t>, std::pair<double, double>> in_flight_;  // -> (fraction, cost)
};

// The pool's message types ("done", "progress", "rerun", "error": web/workers/unit_pool.js).
inline constexpr ChoiceTable<UnitLedger::Kind> kWorkerEventKinds{{"done", UnitLedger::Kind::Done},
                                                                 {"progress", UnitLedger::Kind::Progress},
                                                                 {"rerun", UnitLedger::Kind::Rerun},
                                                                 {"error", UnitLedger::Kind::Error}};

}  // namespace attnlab
