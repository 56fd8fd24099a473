// The `multihead.lower_bound` unit of one |S| (docs/multihead.md s.4): the first piece checks the
// gadget exactly and runs GF(2) elimination, then one Adam step per piece, then a last piece
// measures Adam's sign accuracy; and its partial codec.
#pragma once
#include <memory>
#include <optional>
#include <vector>

#include "experiments/multihead/lower_bound_run.hpp"
#include "lab/work_unit.hpp"

namespace attnlab::multihead {

// The unit of |S| = S (unit S - 1); it keeps its own copy of the settings.
std::unique_ptr<UnitTask> lower_bound_unit(const ParitySettings& run, int S);

// The rows reported so far (`slots`: per unit, its latest partial), in unit (|S|) order.
std::vector<ParityRow> parity_rows(const std::vector<std::optional<Partial>>& slots);

}  // namespace attnlab::multihead
