#include "lab/runner.hpp"

namespace attnlab {

void run_to_completion(Experiment& experiment, const std::function<void(const Progress&)>& on_progress,
                       double slice_seconds) {
  Budget budget;
  budget.seconds = slice_seconds;
  while (!experiment.progress().finished()) {
    experiment.step(budget);
    if (on_progress) on_progress(experiment.progress());
  }
}

}  // namespace attnlab
