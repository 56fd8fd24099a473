// `separation.toy`: the toy model of docs/separation.md section 1 as an Experiment.
#pragma once
#include <memory>

#include "lab/experiment.hpp"

namespace attnlab::separation {

std::unique_ptr<Experiment> make_toy_experiment();

}  // namespace attnlab::separation
