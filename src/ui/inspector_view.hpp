// The inspector tab: one trial of one sweep point up close (Experiment::inspect), for experiments
// that have one (Experiment::has_inspector): its notes, heatmaps and plots, laid out in the order
// the experiment returns them. Recomputed only when the experiment, its parameters, the seed, the
// point or the trial change.
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "lab/experiment.hpp"
#include "ui/heatmap_widget.hpp"

namespace attnlab::ui {

class InspectorView {
 public:
  void draw(const Experiment& current, const Params& params, const std::string& preset, std::uint64_t seed);
  // The point and trial shown (from a link); out-of-range values are reported when drawn.
  void select(int point, int trial);
  int point() const { return point_; }
  int trial() const { return trial_; }
  // The current inspection as JSON ("{}" before the first one); for the page API and tests.
  std::string json() const { return json_; }
  const Results& results() const { return results_; }  // the inspection's plots and heatmaps
  double gamma() const { return sqrt_scale_ ? 0.5 : 1.0; }  // the colour scale shown
  void forget_gl_objects() { heatmaps_.forget_gl_objects(); }

 private:
  void recompute(const Experiment& current, const Params& params, const std::string& preset, std::uint64_t seed);

  std::unique_ptr<Experiment> experiment_;  // its own instance: inspecting never disturbs a run
  Params params_;
  std::string preset_;
  std::uint64_t seed_ = 0;
  int point_ = 0, trial_ = 0;
  int computed_point_ = -1, computed_trial_ = -1;
  std::vector<std::string> point_labels_;
  Results results_;
  std::string error_, json_ = "{}";
  unsigned version_ = 0;
  bool sqrt_scale_ = false;
  HeatmapWidget heatmaps_;
};

}  // namespace attnlab::ui
