#include "lab/runner.hpp"

#include "lab/run_controller.hpp"

namespace attnlab {

void run_to_completion(Experiment& experiment, const std::function<void(const Progress&)>& on_progress,
                       double slice_seconds) {
  RunController run(experiment);
  Budget budget;
  budget.seconds = slice_seconds;
  while (!run.finished()) {
    run.step(budget);
    run.rethrow_error();
    if (on_progress) on_progress(run.progress());
  }
}

}  // namespace attnlab
