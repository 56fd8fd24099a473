// `regression.icl`: Corollary F.2 of Gao et al. (docs/regression.md s.4), the "in-context learning"
// reading of one solver step: moving x (or A) is the same as keeping it and shifting the target to
//   b~ = (u(x') - c(x)) / alpha(x'),  with  u(x') - alpha(x') b~ = c(x) exactly,
// and ||b~ - b|| grows linearly with the move. Swept over decades of the move's size.
#pragma once
#include <memory>

#include "lab/experiment.hpp"

namespace attnlab::regression {

std::unique_ptr<Experiment> make_icl_experiment();

}  // namespace attnlab::regression
