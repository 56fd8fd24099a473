// The page's main run, without drawing: the experiment on screen and its settings (parameters,
// preset, seed, a loaded data file), Run / Pause / Step / Reset, time slices on this thread or
// units on a pool of workers (lab/unit_scheduler.hpp), the picture of the run's inputs shown before
// it has results, and where it computes. Every change of the settings resets the run to them
// (docs/design.md "The step(budget) contract, written once").
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "lab/choice_table.hpp"
#include "lab/experiment.hpp"
#include "lab/run_controller.hpp"
#include "lab/unit_scheduler.hpp"

namespace attnlab::page {

// The run buttons by name (the page API's appRunControl, the twin's toolbar).
enum class RunAction { Run, Pause, Step, Reset };
inline constexpr ChoiceTable<RunAction> kRunActions{
    {"run", RunAction::Run}, {"pause", RunAction::Pause}, {"step", RunAction::Step}, {"reset", RunAction::Reset}};

class PageRun {
 public:
  // Opens experiment `id` (a registry id; throws ParamError naming the known ones for another) at
  // its defaults, without preset or data, and resets the run.
  void open(const std::string& id);
  // A run computed elsewhere (a reproduction's finished panel): Done, with its settings.
  void open_finished(std::unique_ptr<Experiment> run, const Params& params, const std::string& preset, std::uint64_t seed);
  // New settings on screen (a link, a story step); the caller resets (apply() does).
  void apply(const Params& params, const std::string& preset, std::uint64_t seed);

  Experiment& experiment() { return run_.experiment(); }
  const Experiment& experiment() const { return run_.experiment(); }
  const RunController& controller() const { return run_; }
  Params& params() { return params_; }
  const Params& params() const { return params_; }
  const std::string& preset() const { return preset_; }
  void forget_preset() { preset_.clear(); }
  std::uint64_t seed() const { return seed_; }
  void set_seed(std::uint64_t seed) { seed_ = seed; }
  // The message line: the run's error, a refused link, a refused seed ("" when none).
  const std::string& error() const { return error_; }
  void set_error(const std::string& message) { error_ = message; }

  RunState state() const { return run_.state(); }
  const Results& results() const { return run_.results(); }
  // Run and Step refuse (silently: the buttons say why) while `blocked` is not "".
  void run(const std::string& blocked);
  void pause() { if (run_.state() == RunState::Running) run_.set_state(RunState::Paused); }
  void step_once(const std::string& blocked);
  // Back to Idle on the settings on screen: the workers' units are cancelled and the picture of
  // the inputs is drawn again.
  void reset();
  // A setting changed: the run restarts from it, running again if it was running.
  void settings_changed();
  // A frame's share: about `slice_seconds` on this thread, or what the workers sent back.
  void compute(double slice_seconds);
  double progress() const;

  // Where runs compute: threads= (-1 for the default), the pool of workers and its default size.
  void set_worker_pool(std::unique_ptr<WorkerPool> pool, int default_threads);
  WorkerPool* pool() const { return pool_.get(); }
  int threads_setting() const { return threads_; }
  void set_threads(int threads);  // -1: the default; stops the workers (the next frame resizes)
  int threads() const { return threads_ >= 0 ? threads_ : default_threads_; }
  bool computing_on_workers() const { return pool_ && threads() > 0 && !pool_->failed(); }
  std::string compute_text() const;  // where the run computes, for the status line
  const UnitScheduler& scheduler() const { return scheduler_; }
  void stop_workers() { scheduler_.stop(pool_.get()); }

  // User data for experiments that accept it (a regression problem file): "" or the error.
  std::string load_data(const std::string& json);
  std::string check_data_size(double bytes);  // "" when a file of `bytes` may be loaded
  const std::string& data_status() const { return data_status_; }

  // The picture of the run's inputs (Experiment::inputs), drawn at every reset; empty when the
  // settings are refused. Its version changes at every reset.
  const Results& inputs() const { return inputs_; }
  unsigned inputs_version() const { return inputs_version_; }
  // The results as CSV (with every parameter and the seed), "" before a run; `context` says what
  // view of the run this is (a story step and the student's prediction: StoryState::record_context).
  std::string csv(const KeyValues& context = {}) const;
  std::string json(const KeyValues& context = {}) const;  // the same as JSON, "{}" before a run

 private:
  void advance(const Budget& budget);
  RunController run_;
  Params params_;
  std::string preset_;
  std::uint64_t seed_ = 1;
  std::string error_;
  std::string data_status_, data_text_;
  std::unique_ptr<WorkerPool> pool_;
  int threads_ = -1, default_threads_ = 0;
  UnitScheduler scheduler_;
  Results inputs_;
  unsigned inputs_version_ = 0;
};

}  // namespace attnlab::page
