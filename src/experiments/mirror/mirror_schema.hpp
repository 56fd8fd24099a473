// `mirror` (docs/mirror.md): the parameters, the presets, and the decoding of validated parameters
// into the prepared run (mirror_run.hpp).
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "experiments/mirror/mirror_run.hpp"
#include "lab/experiment.hpp"

namespace attnlab::mirror {

Schema mirror_schema();
std::vector<Preset> mirror_presets();

// The settings every run reads, from valid parameters (the sweep's p is set per run). Throws
// ParamError for data = file without a file.
RunSetup decode_setup(const Params& params, std::uint64_t seed, const std::shared_ptr<const Dataset>& file_data);

// The runs of valid `params` (validated by `schema`) at `seed`, with the loaded data file, if any.
// Throws ParamError for data = file without a file, and for runs that would take hours.
PreparedRun prepare_run(const Schema& schema, const Params& params, std::uint64_t seed,
                        const std::shared_ptr<const Dataset>& file_data);

}  // namespace attnlab::mirror
