// The `regression` experiment's parameters (docs/regression.md): the schema, the presets
// (docs/regression.md s.5), the choice tables (text <-> typed value, lab/choice_table.hpp) and the
// decoding of validated params into the run's settings. `regression.icl` reuses the target table
// and the decoding of the settings it shares (shared_generator_settings).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "experiments/regression/generator.hpp"
#include "experiments/regression/leverage_sampling.hpp"
#include "experiments/regression/solvers.hpp"
#include "lab/experiment.hpp"
#include "lab/choice_table.hpp"

namespace attnlab::regression {

Schema regression_schema();
std::vector<Preset> regression_presets();

// The target b (parameter `target` of `regression` and `regression.icl`).
inline constexpr ChoiceTable<TargetKind> kTargetTable{
    {"planted", TargetKind::Planted}, {"simplex", TargetKind::Simplex}, {"unit", TargetKind::Unit}};

// Where the problem comes from (parameter `source` of `regression`).
enum class ProblemSource { Generate, Data };
inline constexpr ChoiceTable<ProblemSource> kSourceTable{{"generate", ProblemSource::Generate},
                                                          {"data", ProblemSource::Data}};

// The generator settings `regression` and `regression.icl` declare alike (function, n, d, norm_A,
// kappa, target); throws ParamError when n < d. The others keep GeneratorSettings' defaults.
GeneratorSettings shared_generator_settings(const Params& params);

// The generator settings a `regression` parameter set asks for; throws ParamError when n < d.
// Shared with the benchmark, which builds the presets' problems the same way.
GeneratorSettings generator_settings(const Params& params);

// The leverage-sampling settings (rule, scores, budget, C, delta, eps1) a parameter set asks for.
SamplingSettings sampling_settings(const Params& params);

// The options every solver of the run shares (damping, sampling, iteration limit, tolerance, the
// run's seed); keep_iterates is left to the caller, since it depends on the problem's d.
SolverOptions solver_options(const Params& params, std::uint64_t seed);

// The solvers switched on, in the schema's order; throws ParamError when none is.
std::vector<Method> selected_methods(const Params& params);

}  // namespace attnlab::regression
