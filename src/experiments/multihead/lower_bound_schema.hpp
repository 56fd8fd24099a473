// `multihead.lower_bound`'s parameters (docs/multihead.md s.4): the schema, the preset and the
// decoding of validated params into the run's settings.
#pragma once
#include <cstdint>
#include <vector>

#include "experiments/multihead/lower_bound_run.hpp"
#include "lab/experiment.hpp"

namespace attnlab::multihead {

Schema lower_bound_schema();
std::vector<Preset> lower_bound_presets();

// The run's settings; throws ParamError for an |S| the dimensions cannot hold.
ParitySettings lower_bound_settings(const Params& p, std::uint64_t seed);

}  // namespace attnlab::multihead
