// A quick run shown before the real one: the page's preview of an experiment (the first units of
// its run, so "never an empty screen") and the start page's small figures. It is its own
// Experiment, stepped on the main thread within a total time budget, so it never touches the run
// that Run computes nor what CSV, JSON, figures and Share export.
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "lab/experiment.hpp"

namespace attnlab::ui {

class PreviewRun {
 public:
  // Prepares a run of `params` (valid for `experiment_id`) that stops after `budget_seconds` of
  // computing, or at its end. Nothing is computed until advance().
  void start(const std::string& experiment_id, const Params& params, std::uint64_t seed, double budget_seconds);
  void stop() { experiment_.reset(), results_ = Results{}, fraction_ = 0.0; }
  // Computes for at most `slice_seconds` of the budget left; returns true when the results changed.
  bool advance(double slice_seconds);
  bool active() const { return experiment_ != nullptr; }
  bool has_results() const { return !results_.plots.empty(); }
  const Results& results() const { return results_; }
  double fraction() const { return fraction_; }  // of the whole run, in [0, 1]
  bool finished() const { return fraction_ >= 1.0; }
  const std::string& error() const { return error_; }
  unsigned version() const { return version_; }  // changes with the results

 private:
  std::unique_ptr<Experiment> experiment_;
  Params params_;
  std::uint64_t seed_ = 1;
  bool prepared_ = false;
  double budget_left_ = 0.0;
  Results results_;
  double fraction_ = 0.0;
  std::string error_;
  unsigned version_ = 0;
};

}  // namespace attnlab::ui
