// `multihead.acceptance`'s parameters (docs/multihead.md s.5): the schema and the presets (against
// m, eps and the attention norm).
#pragma once
#include <vector>

#include "lab/experiment.hpp"

namespace attnlab::multihead {

Schema acceptance_schema();
std::vector<Preset> acceptance_presets();

}  // namespace attnlab::multihead
