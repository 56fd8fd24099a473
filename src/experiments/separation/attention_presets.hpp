// The paper's attention figures as presets (docs/separation.md s.4): Fig. 4 (self-attention,
// X = I), Fig. 5 (self-attention, X = 1) and Fig. 7 (cross-attention), each with the paper's exact
// settings and two or three sentences on what the paper claims and what to look for (docs/separation.md s.5).
#pragma once
#include <vector>

#include "lab/experiment.hpp"

namespace attnlab::separation {

std::vector<Preset> self_attention_presets();   // fig4a..fig4f, fig5a..fig5f
std::vector<Preset> cross_attention_presets();  // fig7a..fig7e

}  // namespace attnlab::separation
