// Runs an experiment to completion in slices, reporting progress between slices (CLI, node API).
#pragma once
#include <functional>

#include "lab/experiment.hpp"

namespace attnlab {

void run_to_completion(Experiment& experiment, const std::function<void(const Progress&)>& on_progress = {},
                       double slice_seconds = 0.1);

}  // namespace attnlab
