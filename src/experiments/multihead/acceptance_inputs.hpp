// The picture before a run of `multihead.acceptance` (docs/multihead.md s.5): the hidden heads'
// attention at the sweep's last point (the most heads, when it sweeps m) on the first example that
// point's first block draws.
#pragma once
#include <cstdint>

#include "lab/experiment.hpp"
#include "lab/results.hpp"

namespace attnlab::multihead {

Results acceptance_inputs(const Schema& schema, const Params& p, std::uint64_t seed);

}  // namespace attnlab::multihead
