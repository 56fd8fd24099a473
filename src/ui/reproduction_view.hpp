// "Reproduce the paper" in the page: every panel of a reproduction (experiments/reproductions.hpp)
// runs one after another in the frame's time slices; each panel shows a small success plot as soon
// as it has results, and a finished panel opens in the main view without running again.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "lab/run_controller.hpp"
#include "lab/unit_scheduler.hpp"

namespace attnlab::ui {

class ReproductionView {
 public:
  // Prepares every panel (validating all of them first); throws ParamError.
  void start(const std::string& name, bool paper_trials, std::uint64_t seed);
  bool started() const { return !panels_.empty(); }
  bool finished() const { return current_ >= panels_.size(); }
  void pause(bool paused) { paused_ = paused; }
  void stop_workers(WorkerPool* pool) { scheduler_.stop(pool); }
  bool paused() const { return paused_; }
  // Computes for about `seconds` on this thread (the current panel), or, given a pool of workers,
  // spreads every panel's units over `threads` of them and absorbs what came back.
  void advance(double seconds, WorkerPool* pool = nullptr, int threads = 0);
  // Draws the panels; returns the index of the panel the user chose to open, or -1.
  int draw();
  // Moves a finished panel's experiment out (for the main view) with its parameters, preset and
  // seed; the panel keeps its results for drawing. Null (parameters still set) if already taken.
  std::unique_ptr<Experiment> take(int panel, Params& params, std::string& preset, std::uint64_t& seed);
  double progress() const;
  // {"name", "paper_trials", "seed", "finished", "compute_seconds", "wall_seconds", "summary_column",
  //  "panels": [{"panel", "experiment", "preset", "done", "seconds", "points", "summary": [...]}]}
  //  ("summary": the reproduction's summary column, e.g. success_rate, one value per point so far)
  std::string json() const;
  std::string status_text() const;
  // The paper's figures as multi-panel SVGs (experiments/reproduction_figures.hpp) from the panels'
  // results so far (panels without results are drawn empty); `figure` indexes figure_count().
  std::size_t figure_count() const;
  std::string figure_title(std::size_t figure) const;
  std::string figure_svg(std::size_t figure) const;
  std::string figure_file(std::size_t figure, const std::string& extension) const;  // "separation-fig4-seed1.svg"

 private:
  struct Panel {
    std::string name, experiment, preset, title;
    RunController run;  // the panel's run; its results stay after the experiment is taken
    double seconds = 0.0;
    bool done = false;
  };
  std::string name_, summary_column_;
  bool paper_trials_ = false;
  std::uint64_t seed_ = 1;
  std::vector<Panel> panels_;
  std::size_t current_ = 0;
  bool paused_ = false;
  double wall_start_ = 0.0, wall_end_ = 0.0;
  UnitScheduler scheduler_;
  void note_finished_panels();  // marks panels done and moves current_ to the first one that is not
};

}  // namespace attnlab::ui
