// `regression.icl`'s parameters (docs/regression.md s.4): the schema, the presets, the choice table
// of `perturb` and the move sizes a run sweeps. The function, the problem's size and the target are
// decoded as `regression` decodes them (regression_schema.hpp: shared_generator_settings).
#pragma once
#include <vector>

#include "lab/choice_table.hpp"
#include "lab/experiment.hpp"

namespace attnlab::regression {

// What one step moves (parameter `perturb`).
enum class Perturb { X, A };
inline constexpr ChoiceTable<Perturb> kPerturbTable{{"x", Perturb::X}, {"A", Perturb::A}};

Schema icl_schema();
std::vector<Preset> icl_presets();

// The move sizes delta swept, from delta_min to delta_max at per_decade points per decade; throws
// ParamError when delta_max is not above delta_min.
std::vector<double> sweep_deltas(const Params& params);

}  // namespace attnlab::regression
