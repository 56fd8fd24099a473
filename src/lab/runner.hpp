// Runs an experiment the caller has reset() to completion in slices on this thread (a RunController,
// lab/run_controller.hpp), reporting progress between slices; rethrows what a slice throws.
#pragma once
#include <functional>

#include "lab/experiment.hpp"

namespace attnlab {

void run_to_completion(Experiment& experiment, const std::function<void(const Progress&)>& on_progress = {},
                       double slice_seconds = 0.1);

}  // namespace attnlab
