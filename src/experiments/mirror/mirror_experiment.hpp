// `mirror`: training one attention layer with l_p-AttGD and comparing the direction of W_k with the
// l_p-AttSVM solutions (Julistiono, Tarzanagh, Azizan; docs/mirror.md).
#pragma once
#include <memory>

#include "lab/experiment.hpp"

namespace attnlab::mirror {

std::unique_ptr<Experiment> make_mirror_experiment();

}  // namespace attnlab::mirror
