// The `multihead.lower_bound` results (docs/multihead.md s.4): one row per |S|, Adam's sign
// accuracy against chance, the gadget's exact error, a note per |S| and why the cryptographic
// bound is not shown.
#pragma once
#include <optional>
#include <vector>

#include "experiments/multihead/lower_bound_run.hpp"
#include "lab/results.hpp"
#include "lab/work_unit.hpp"

namespace attnlab::multihead {

// `slots`: per unit, its latest partial (reduced in unit order).
Results lower_bound_results(const ParitySettings& run, const std::vector<std::optional<Partial>>& slots);

}  // namespace attnlab::multihead
