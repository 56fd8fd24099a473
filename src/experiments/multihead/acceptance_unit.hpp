// The `multihead.acceptance` unit: one block of samples of one point certified with the true W_sum
// (docs/multihead.md s.5), from the unit's own stream (point + 1) * 2^32 + block of the seed
// (stream 0 is the instance's), so a block's count depends on nothing but (parameters, seed,
// point, block). A piece is kPiece samples; the partial is (samples, accepted).
#pragma once
#include <cstdint>
#include <memory>

#include "experiments/multihead/acceptance_run.hpp"
#include "lab/work_unit.hpp"

namespace attnlab::multihead {

// The instance of one point's validated params.
AcceptancePoint make_acceptance_point(const Params& p, std::uint64_t seed);

// The samples of block `block` of a point.
std::int64_t block_samples(const AcceptanceRun& run, std::int64_t block);

// Unit `unit` of the prepared run (the task shares the points).
std::unique_ptr<UnitTask> acceptance_unit(const AcceptanceRun& run, std::int64_t unit);

}  // namespace attnlab::multihead
