// `separation.toy`'s parameters (docs/separation.md s.1): the schema, the presets (the paper's
// Fig. 3 panels and a teaching sweep), the choice table of m_rule and the decoding of one sweep
// point's validated params into the trial's settings.
#pragma once
#include <vector>

#include "experiments/separation/success_sweep.hpp"
#include "experiments/separation/toy_model.hpp"
#include "lab/choice_table.hpp"
#include "lab/experiment.hpp"

namespace attnlab::separation {

// Parameter `m_rule`: the paper's m = log n (Section 7.1) or the parameter m.
inline constexpr ChoiceTable<ValueRule> kLogNOrFixedTable{{"log_n", ValueRule::Paper}, {"fixed", ValueRule::Fixed}};

Schema toy_schema();
std::vector<Preset> toy_presets();

// One point's settings; `m_swept`: m is the swept parameter (then m_rule does not apply).
ToySettings toy_settings(const Params& p, bool m_swept);

}  // namespace attnlab::separation
