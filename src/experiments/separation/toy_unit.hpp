// The `separation.toy` unit: a block of trials at one sweep point (success_sweep.hpp), each trial
// the four evaluations of the toy model (docs/separation.md s.1, s.4).
#pragma once
#include <cstdint>
#include <memory>

#include "experiments/separation/toy_run.hpp"
#include "lab/work_unit.hpp"

namespace attnlab::separation {

// Unit `unit` of the prepared run, which must outlive the task (read-only).
std::unique_ptr<UnitTask> toy_unit(const ToyRun& run, std::int64_t unit);

}  // namespace attnlab::separation
