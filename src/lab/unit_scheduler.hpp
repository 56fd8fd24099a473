// Runs the work units of one or more experiment runs on a pool of workers (the page's Web Workers,
// the JS API's worker threads) and absorbs what comes back, so curves grow as units arrive while
// the main thread only draws. The scheduler knows nothing of the browser: a WorkerPool does the
// talking (src/web/worker_pool.cpp for the page, src/web/scheduler_bindings.cpp for the JS API).
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "lab/experiment.hpp"
#include "lab/unit_ledger.hpp"

namespace attnlab {

// Which run of which generation a unit belongs to: written "g<generation>r<run>" on the wire to
// the workers and read back from their messages, here and nowhere else.
struct RunKey {
  int generation = 0;
  std::size_t run = 0;
  std::string encode() const;
  // Throws std::runtime_error naming the text and the expected form for anything else.
  static RunKey decode(const std::string& text);
  bool operator==(const RunKey& o) const { return generation == o.generation && run == o.run; }
};

struct WorkerEvent {
  // Rerun: the unit's worker was lost and the pool runs the unit again (message: why).
  using Kind = UnitLedger::Kind;
  Kind kind = Kind::Done;
  int generation = 0;
  std::string run_key;  // RunKey::encode() of the unit's run, as the worker echoed it
  std::int64_t unit = 0;
  std::string partial;  // Done: the unit's partial; Progress: a preview or ""
  double fraction = 0.0;
  double seconds = 0.0;  // Done: the unit's computing time on its worker
  std::string message;   // Error, Rerun
};

class WorkerPool {
 public:
  virtual ~WorkerPool() = default;
  virtual void resize(int workers) = 0;
  virtual int size() const = 0;
  virtual bool failed() const = 0;  // no worker could start: compute on the main thread instead
  virtual bool ready() const = 0;   // at least one worker is up
  virtual int busy() const = 0;     // workers with a unit
  // Posts a unit to an idle worker (with the run's settings if that worker has not seen them);
  // false when every worker is busy.
  virtual bool post(const std::string& run_key, const std::string& spec_json, std::int64_t unit, int generation) = 0;
  virtual std::vector<WorkerEvent> take_events() = 0;
  virtual void cancel(int generation) = 0;
  virtual std::string memory_text() const = 0;  // "2 workers, 34 MB each" for the status line
};

class UnitScheduler {
 public:
  struct Run {
    Experiment* experiment;  // reset, and kept alive by the owner while the scheduler runs
    std::string spec_json;   // {"id", "params": {...}, "seed", "data"}: what a worker needs
  };
  // A new generation of work: every unit of the runs not finished yet, run by run.
  void start(std::vector<Run> runs);
  // Cancels what is in flight (the workers drop it within a slice) and forgets the runs.
  void stop(WorkerPool* pool);
  bool active() const { return !runs_.empty(); }
  int generation() const { return ledger_.generation(); }
  // Posts units to idle workers and absorbs what came back (UnitLedger::accept's rules: messages of
  // another generation or about a unit not in flight are dropped). Returns the indices of the runs
  // that changed; throws std::runtime_error naming the unit for a unit that failed, or naming the
  // key for a malformed run key.
  std::vector<std::size_t> tick(WorkerPool& pool);
  // One frame's share on `pool` sized to `workers`, the one way every caller drives workers (the
  // page's run, the reproduction, the JS API): resizes the pool; once a worker is up, starts
  // `make_runs()` when nothing is scheduled, then ticks. The runs that changed, or nothing while no
  // worker is up yet.
  std::optional<std::vector<std::size_t>> drive(WorkerPool& pool, int workers, const std::function<std::vector<Run>()>& make_runs);
  // Units finished, counting in-flight units by their reported fraction; by the runs' costs.
  double progress() const;
  // Computing time of run `run`'s finished units, summed over the workers (kept after the runs
  // finish, until the next start()).
  double compute_seconds(std::size_t run) const { return run < seconds_.size() ? seconds_[run] : 0.0; }
  // Units that ran again because their worker was lost, since start(), and the last such message.
  int reruns() const { return ledger_.reruns(); }
  const std::string& last_rerun() const { return last_rerun_; }
  // For the status line: "A worker stopped; its unit ran again" (or how many), "" when none did.
  std::string rerun_text() const;
  std::size_t in_flight() const { return ledger_.in_flight(); }
  std::size_t pending() const { return ledger_.pending(); }

  // The settings a worker needs to compute units of `experiment`'s run.
  static std::string spec_json(const Experiment& experiment, const Params& params, std::uint64_t seed,
                               const std::string& data_text);

 private:
  UnitLedger ledger_;  // the rules: what goes out next, what a message means, the progress
  std::vector<Run> runs_;
  std::vector<double> seconds_;
  std::string last_rerun_;
};

}  // namespace attnlab
