// The `regression.icl` unit: one move of size delta from the prepared point (docs/regression.md
// s.4), one piece (one evaluation of u, plus a dense copy of A when A moves: about 15 ms at the
// largest, n = 5000, d = 200), and its partial codec.
#pragma once
#include <Eigen/Core>
#include <cstdint>
#include <memory>

#include "core/rng.hpp"
#include "experiments/regression/icl_run.hpp"
#include "lab/experiment.hpp"
#include "lab/work_unit.hpp"

namespace attnlab::regression {

// The point x_t where the step starts and the direction dx of a move of x, from their own stream
// (x_t = 0 when x_norm = 0); returns the stream, from which the run draws dA next.
Rng draw_point(const Params& params, std::uint64_t seed, int d, Eigen::VectorXd& x, Eigen::VectorXd& direction);

// One move of size delta: b~, its distance to b, the residual identity, the bound (kIclColumns).
Row measure_move(const IclRun& run, double delta);

// Unit `unit` of the prepared run, which must outlive the task (read-only).
std::unique_ptr<UnitTask> icl_unit(const IclRun& run, std::int64_t unit);

// The partial's fields are written and read here only.
Partial to_partial(const Row& row);
Row row_from_partial(const Partial& p);

}  // namespace attnlab::regression
