// `regression`: the solver lab for rescaled exp / cosh / sinh regression (Gao et al.;
// docs/regression.md). One generated (or loaded) problem, one start, several solvers side by side.
#pragma once
#include <memory>

#include "experiments/regression/generator.hpp"
#include "experiments/regression/leverage_sampling.hpp"
#include "lab/experiment.hpp"

namespace attnlab::regression {

std::unique_ptr<Experiment> make_regression_experiment();

// The generator settings a `regression` parameter set asks for; throws ParamError when n < d.
// Shared with the benchmark, which builds the presets' problems the same way.
GeneratorSettings generator_settings(const Params& params);

// The leverage-sampling settings (rule, scores, budget, C, delta, eps1) a parameter set asks for.
SamplingSettings sampling_settings(const Params& params);

}  // namespace attnlab::regression
