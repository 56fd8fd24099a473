// The picture before a run of `separation.toy` (docs/design.md "The picture before a run"): trial
// 0's D1 and D0 inputs v = A x as the network sees them, token by token, with the range
// [log n, 1.4 log n] of the unplanted scores (docs/separation.md s.1). For n above 4000 every k-th
// token (and the planted one) is drawn.
#pragma once
#include <cstdint>

#include "experiments/separation/toy_model.hpp"
#include "lab/experiment.hpp"
#include "lab/results.hpp"

namespace attnlab::separation {

// The picture at the settings of one point.
Results toy_inputs_at(const ToySettings& s, std::uint64_t seed);

// The picture at the first sweep point of `params` (validated for `schema`, the toy's).
Results toy_inputs(const Schema& schema, const Params& params, std::uint64_t seed);

}  // namespace attnlab::separation
