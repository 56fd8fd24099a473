// `regression`: the solver lab for rescaled exp / cosh / sinh regression (Gao et al.;
// docs/regression.md). One generated (or loaded) problem, one start, several solvers side by side.
// Its parts: regression_schema (parameters, presets, decoding), regression_run (the shared
// structs), regression_unit (one solver's run) and regression_results (table, curves, notes).
#pragma once
#include <memory>

#include "lab/experiment.hpp"

namespace attnlab::regression {

std::unique_ptr<Experiment> make_regression_experiment();

}  // namespace attnlab::regression
