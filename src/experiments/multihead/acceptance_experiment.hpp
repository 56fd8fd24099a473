// `multihead.acceptance`: how often certification accepts a row, against the number of heads m
// (and eps, and the attention norm). The paper's cost is exponential in m because every head's
// attention must land in the same window at once (docs/multihead.md s.2, s.5).
#pragma once
#include <memory>

#include "lab/experiment.hpp"

namespace attnlab::multihead {

std::unique_ptr<Experiment> make_acceptance_experiment();

}  // namespace attnlab::multihead
