// `separation.self` (Def. D.1, Figs. 4 and 5) and `separation.cross` (Def. F.1, Fig. 7): softmax
// against linear attention in the paper's attention networks (docs/separation.md sections 2-5).
#pragma once
#include <memory>

#include "lab/experiment.hpp"

namespace attnlab::separation {

std::unique_ptr<Experiment> make_self_attention_experiment();
std::unique_ptr<Experiment> make_cross_attention_experiment();

}  // namespace attnlab::separation
