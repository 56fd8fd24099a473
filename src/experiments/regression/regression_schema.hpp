// The `regression` experiment's parameters (docs/regression.md): the schema, the presets
// (docs/regression.md s.5), the choice tables (text <-> typed value) and the decoding of validated
// params into the run's settings. `regression.icl` reuses the target table.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "experiments/regression/generator.hpp"
#include "experiments/regression/leverage_sampling.hpp"
#include "experiments/regression/solvers.hpp"
#include "lab/experiment.hpp"
#include "lab/find_named.hpp"

namespace attnlab::regression {

Schema regression_schema();
std::vector<Preset> regression_presets();

// One row of a choice table: the text a Choice parameter accepts and the value it stands for.
template <class T>
struct Choice {
  const char* name;
  T value;
};

// The texts of a choice table, in order (a ParamSpec's choices).
template <class T, std::size_t N>
std::vector<std::string> choice_names(const Choice<T> (&table)[N]) {
  std::vector<std::string> names;
  for (const Choice<T>& c : table) names.push_back(c.name);
  return names;
}

// The value `name` stands for in `table`; `key` names the parameter in the ParamError an unknown
// name gets (the schema has validated the name, so this is for values that did not pass it).
template <class T, std::size_t N>
T choice_value(const Choice<T> (&table)[N], const std::string& name, const std::string& key) {
  return find_named(table, name, [](const Choice<T>& c) { return c.name; }, "value", "allowed",
                    " for parameter '" + key + "'")
      .value;
}

// The target b (parameter `target` of `regression` and `regression.icl`).
inline constexpr Choice<TargetKind> kTargetChoices[] = {
    {"planted", TargetKind::Planted}, {"simplex", TargetKind::Simplex}, {"unit", TargetKind::Unit}};

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
