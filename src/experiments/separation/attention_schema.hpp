// `separation.self` and `separation.cross`'s parameters (docs/separation.md s.2-s.4): the schema, the
// choice tables of `uneven_n` and `x` (those of m_rule, tau_rule and m_rounding are shared:
// success_sweep.hpp, toy_model.hpp) and the decoding of one sweep point's validated params into a
// trial's settings. The presets are the paper's figures, in attention_presets.hpp.
#pragma once
#include "experiments/separation/attention_datasets.hpp"
#include "experiments/separation/attention_presets.hpp"
#include "lab/choice_table.hpp"
#include "lab/experiment.hpp"
#include "lab/sweep.hpp"

namespace attnlab::separation {

// Parameter `uneven_n`: what to do when the class count does not divide n.
enum class UnevenN { Truncate, RoundDown };
inline constexpr ChoiceTable<UnevenN> kUnevenNTable{{"truncate", UnevenN::Truncate},
                                                     {"round_down", UnevenN::RoundDown}};
// Parameter `x`: the score matrix X.
inline constexpr ChoiceTable<ScoreMatrix> kScoreMatrixTable{{"identity", ScoreMatrix::Identity},
                                                            {"ones", ScoreMatrix::AllOnes}};

Schema attention_schema(AttentionModel model);

// The settings of sweep point `p` of a run that sweeps `swept`; throws ParamError when n rounds
// down below 2 tokens or lock_b gives b below 0.01.
AttentionSettings attention_settings(AttentionModel model, const Params& p, const Sweep& swept);

}  // namespace attnlab::separation
