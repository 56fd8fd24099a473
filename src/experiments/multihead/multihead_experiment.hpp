// `multihead`: learning a multi-head attention layer from examples (Chen and Li;
// docs/multihead.md). This version runs the paper's phase I (the crude estimate of W_sum) and the
// gradient-descent baseline (Adam) on generated instances with an assumption meter.
#pragma once
#include <memory>

#include "lab/experiment.hpp"

namespace attnlab::multihead {

std::unique_ptr<Experiment> make_multihead_experiment();

}  // namespace attnlab::multihead
