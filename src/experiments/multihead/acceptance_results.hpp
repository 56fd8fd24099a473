// The `multihead.acceptance` results (docs/multihead.md s.5): per point the blocks' counts added in
// unit order (exact integers, so any split agrees), the rate with its Wilson 95% interval, a note
// per point and the fall per head between consecutive m of an m sweep.
#pragma once
#include <optional>
#include <vector>

#include "experiments/multihead/acceptance_run.hpp"
#include "lab/results.hpp"
#include "lab/work_unit.hpp"

namespace attnlab::multihead {

// `slots`: per unit, its partial once it came.
Results acceptance_results(const AcceptanceRun& run, const std::vector<std::optional<Partial>>& slots);

}  // namespace attnlab::multihead
