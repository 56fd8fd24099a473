// The picture before a run of `multihead.lower_bound` (docs/multihead.md s.4): the function each
// parity layer computes, from its construction (knots and weights; the exact check over all inputs
// is the run's), and the first examples the run draws (stream 21 of the seed, Gaussian
// elimination's, the same for every |S|).
#pragma once
#include <cstdint>

#include "lab/experiment.hpp"
#include "lab/results.hpp"

namespace attnlab::multihead {

struct Gadget;
// The first output of the parity layer `g` (knots scaled by rho) at u, times the token's sign.
double gadget_output(const Gadget& g, double rho, double u);

// Throws ParamError as prepare() does.
Results lower_bound_inputs(const Params& p, std::uint64_t seed);

}  // namespace attnlab::multihead
