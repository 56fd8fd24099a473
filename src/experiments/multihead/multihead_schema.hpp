// `multihead`'s declarations (docs/multihead.md): the Schema, the presets, and the decoding of
// validated parameters into the run's settings. The choices ("inputs": boolean / gaussian, "refine":
// refit / paper_phase3) are ChoiceTables (lab/choice_table.hpp), decoded by decode_params.
#pragma once
#include <cstdint>
#include <vector>

#include "experiments/multihead/instance.hpp"
#include "experiments/multihead/multihead_run.hpp"
#include "lab/experiment.hpp"

namespace attnlab::multihead {

Schema multihead_schema();
std::vector<Preset> multihead_presets();

// Reads validated parameters into the instance's settings and the run's (all but `truth` and
// `w_sum`, which prepare() draws); throws ParamError for a run that would take hours.
void decode_params(const Params& p, std::uint64_t seed, InstanceSettings& s, RunSettings& run);

}  // namespace attnlab::multihead
