// `regression`: the solver lab for rescaled exp / cosh / sinh regression (Gao et al.;
// spec/regression.md). One generated (or loaded) problem, one start, several solvers side by side.
#pragma once
#include <memory>

#include "lab/experiment.hpp"

namespace attnlab::regression {

std::unique_ptr<Experiment> make_regression_experiment();

}  // namespace attnlab::regression
