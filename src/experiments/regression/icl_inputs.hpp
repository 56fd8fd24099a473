// The picture before a run of `regression.icl` (docs/design.md "The picture before a run"): the
// function u over the range the step's (A x)_i take, with the entries of A x_t on it, and the move
// sizes swept (docs/regression.md s.4). dA is not drawn (an SVD of an n x d matrix).
#pragma once
#include <cstdint>

#include "lab/experiment.hpp"
#include "lab/results.hpp"

namespace attnlab::regression {

// Throws ParamError as prepare() does (n < d, x_t overflowing).
Results icl_inputs(const Params& params, std::uint64_t seed);

}  // namespace attnlab::regression
