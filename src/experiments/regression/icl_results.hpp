// The `regression.icl` results (docs/regression.md s.4): the moves' table, the target shift against
// the move with its bound and a slope-1 line, the residual identity, and the notes (the log-log
// slope, the largest identity error, a warning when alpha nears 0).
#pragma once
#include <optional>
#include <vector>

#include "experiments/regression/icl_run.hpp"
#include "lab/results.hpp"

namespace attnlab::regression {

// `slots`: per unit, its row once it came (reduced in unit order, whatever order they came in).
Results icl_results(const IclRun& run, const std::vector<std::optional<Row>>& slots);

}  // namespace attnlab::regression
