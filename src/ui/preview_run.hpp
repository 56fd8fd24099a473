// A quick run of a story's settings for the start page's small figures (the first units of its
// run, so "never an empty screen"). It is its own
// Experiment, stepped on the main thread within a total time budget, so it never touches the run
// that Run computes nor what CSV, JSON, figures and Share export. A RunController
// (lab/run_controller.hpp) holds the run; this class adds the total budget.
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "lab/run_controller.hpp"

namespace attnlab::ui {

class PreviewRun {
 public:
  // Prepares a run of `params` (valid for `experiment_id`) that stops after `budget_seconds` of
  // computing, or at its end. Nothing is computed until advance().
  void start(const std::string& experiment_id, const Params& params, std::uint64_t seed, double budget_seconds);
  void stop() { run_.close(); }
  // Computes for at most `slice_seconds` of the budget left; returns true when the results changed.
  bool advance(double slice_seconds);
  bool active() const { return run_.has_experiment(); }
  bool has_results() const { return !run_.results().plots.empty(); }
  const Results& results() const { return run_.results(); }
  double fraction() const { return run_.fraction(); }  // of the whole run, in [0, 1]
  bool finished() const { return fraction() >= 1.0; }
  const std::string& error() const { return run_.error(); }
  unsigned version() const { return run_.version(); }  // changes with the results

 private:
  RunController run_;
  double budget_left_ = 0.0;
};

}  // namespace attnlab::ui
