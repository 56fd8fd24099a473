// `mirror` (docs/mirror.md): the picture before a run. The first seed's first sequence (its tokens,
// and for d = 2 its query, in the plane) and the attention it starts from, softmax(X W0 z): what the
// run starts from, nothing it measures (no trained W, no margins, no SVM).
#pragma once
#include <cstdint>
#include <memory>

#include "experiments/mirror/dataset.hpp"
#include "lab/experiment.hpp"

namespace attnlab::mirror {

// From valid `params` at `seed` (the sweep's first p), with the loaded data file, if any. Throws
// ParamError for data = file without a file, as reset() does.
Results mirror_inputs(const Schema& schema, const Params& params, std::uint64_t seed,
                      const std::shared_ptr<const Dataset>& file_data);

}  // namespace attnlab::mirror
