// The `regression` unit: one solver's run (docs/design.md "The run: prepare, units, merge,
// results"), and its partial codec (a Trace to and from a Partial).
#pragma once
#include <memory>

#include "experiments/regression/regression_run.hpp"
#include "lab/work_unit.hpp"

namespace attnlab::regression {

// Unit task running `method` on the prepared problem from x0 until it finishes, one iteration per
// piece. `problem` and `reference` are the experiment's and must outlive the task (read-only).
std::unique_ptr<UnitTask> make_solver_task(Method method, const Problem& problem, const Reference& reference,
                                           const SolverOptions& options);

// The partial's fields are written and read here only.
Partial to_partial(const Trace& t);
Trace from_partial(const Partial& p);

}  // namespace attnlab::regression
