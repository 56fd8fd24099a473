// One run of an experiment as every face drives it (docs/design.md "One run: the RunController"):
// the page's main run, its preview, each panel of a reproduction, the JS API's Session and
// run_to_completion. It holds the experiment and the run's settings, resets the experiment lazily
// (at the first slice), computes in slices on this thread or lets the caller absorb units computed
// elsewhere, keeps a copy of the results with a version that changes with them, and catches what
// a slice throws (state Failed, error()). It knows no thread pool, worker or screen.
#pragma once
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <string>

#include "lab/experiment.hpp"

namespace attnlab {

// Idle: nothing computed since the last reset. Running / Paused: the face's buttons (the
// controller computes in either when asked). Done: every unit finished. Failed: a slice threw.
enum class RunState { Idle, Running, Paused, Done, Failed };
const char* to_string(RunState s);  // "ready", "running", "paused", "done", "failed"

class RunController {
 public:
  RunController() = default;
  // A run of an experiment the caller owns and has already reset() (run_to_completion).
  explicit RunController(Experiment& prepared);

  // Takes the experiment and the settings of its run; the run starts over (Idle, nothing computed,
  // no results, no error). The experiment is reset only at the first slice (or prepare()).
  void open(std::unique_ptr<Experiment> experiment, const Params& params, std::uint64_t seed);
  // A run computed elsewhere with these settings (a reproduction's finished panel): Done.
  void open_finished(std::unique_ptr<Experiment> experiment, const Params& params, std::uint64_t seed);
  // The same experiment with new settings, or the same settings again: the run starts over.
  void reset(const Params& params, std::uint64_t seed);
  void reset() { reset(params_, seed_); }
  // Drops the experiment and the run (no results, no error).
  void close();
  // Moves the experiment out (e.g. to the main view); results() stay readable here.
  std::unique_ptr<Experiment> take_experiment();

  bool has_experiment() const { return experiment_ != nullptr; }
  Experiment& experiment() { return *experiment_; }
  const Experiment& experiment() const { return *experiment_; }
  const Params& params() const { return params_; }
  std::uint64_t seed() const { return seed_; }

  // Resets the experiment now if the run has not been (validates the run's settings together);
  // throws ParamError, with the state unchanged, for a run that is impossible.
  void prepare();
  bool prepared() const { return prepared_; }

  // One slice on this thread: prepares lazily, then Experiment::step(budget).
  void step(const Budget& budget);
  // The general form, for callers that also absorb units computed elsewhere: prepares lazily, then
  // calls `compute(experiment)`, which returns true when it changed the results. Whatever it throws
  // (or the reset) ends the run: state Failed, error() the message. Done once every unit finished.
  void advance(const std::function<bool(Experiment&)>& compute);

  RunState state() const { return state_; }
  // The face's Run / Pause / Step (Running, Paused) and Idle; Done and Failed come from advance().
  void set_state(RunState s) { state_ = s; }
  bool failed() const { return state_ == RunState::Failed; }
  const std::string& error() const { return error_; }
  // Throws what ended the run again (run_to_completion); nothing when it did not fail.
  void rethrow_error() const;

  // The results of the units computed so far (copied from the experiment when they changed).
  const Results& results() const;
  // Changes whenever results() may have changed: a slice, absorbed units, a reset.
  unsigned version() const { return version_; }
  Progress progress() const;
  // The share of the run computed, in [0, 1]: 0 before the run is prepared.
  double fraction() const { return prepared_ ? progress().fraction() : 0.0; }
  bool finished() const { return prepared_ && experiment_ && progress().finished(); }

 private:
  void start_over();
  std::unique_ptr<Experiment> owned_;
  Experiment* experiment_ = nullptr;  // owned_ or the caller's
  Params params_;
  std::uint64_t seed_ = 1;
  bool prepared_ = false;
  RunState state_ = RunState::Idle;
  std::string error_;
  std::exception_ptr thrown_;
  unsigned version_ = 0;
  mutable Results results_;
  mutable unsigned results_version_ = 0;  // the version results_ was copied at
};

}  // namespace attnlab
