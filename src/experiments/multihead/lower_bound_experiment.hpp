// `multihead.lower_bound`: the paper's lower-bound construction (docs/multihead.md s.4) checked
// exactly, gradient descent trained on it, and Gaussian elimination over GF(2) beside it.
#pragma once
#include <memory>

#include "lab/experiment.hpp"

namespace attnlab::multihead {

std::unique_ptr<Experiment> make_lower_bound_experiment();

}  // namespace attnlab::multihead
