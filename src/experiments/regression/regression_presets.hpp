// The `regression` presets (issue: presets; docs/regression.md s.5).
#pragma once
#include <vector>

#include "lab/experiment.hpp"

namespace attnlab::regression {

std::vector<Preset> regression_presets();

}  // namespace attnlab::regression
