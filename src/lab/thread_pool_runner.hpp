// Runs work units on several threads (native builds: the CLI and the tests). One list of units may
// span several runs (a whole-paper reproduction), so every core stays busy until the last unit.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "lab/experiment.hpp"

namespace attnlab {

struct UnitRef {
  std::size_t run;     // index into the runs
  std::int64_t unit;   // unit of that run
};

struct ThreadedRunReport {
  std::vector<std::string> errors;  // per run: the first unit's error, "" when every unit finished
  std::vector<double> seconds;      // per run: compute time summed over its units (all threads)
};

// Runs `units` (in that order of start) on `threads` threads (the calling thread is one of
// them), each unit to its end, absorbing each partial into its run under a lock; then calls
// `on_unit_done(ref, partial)` under the same lock (progress read-outs, shard files). A unit that throws marks its
// run failed and the run's remaining units are skipped. Results are the same for any `threads`.
ThreadedRunReport run_units_on_threads(const std::vector<Experiment*>& runs, const std::vector<UnitRef>& units,
                                       int threads, const std::function<void(const UnitRef&, const Partial&)>& on_unit_done = {});

// Every unit of every run, run by run.
std::vector<UnitRef> all_units(const std::vector<Experiment*>& runs);

}  // namespace attnlab
