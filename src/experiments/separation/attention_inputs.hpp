// The picture before a run of `separation.self` / `separation.cross` (docs/design.md "The picture
// before a run"): the D1 and the D0 input of trial 0, as the network sees them (docs/separation.md s.3).
#pragma once
#include <cstdint>

#include "experiments/separation/attention_datasets.hpp"
#include "lab/experiment.hpp"
#include "lab/results.hpp"
#include "lab/sweep.hpp"

namespace attnlab::separation {

// Two heatmaps, D1 then D0, of the inputs that trial 0 of seed `seed` draws at settings `s` (the
// first sweep point): self-attention's A, or cross-attention's queries A1 beside its keys A2 = A3.
// Large inputs show a slice of consecutive tokens around the special ones. Nothing is computed
// from the inputs: no attention, no readout. When `swept` sweeps a1, D1's title says that its
// strength is the sweep's first.
Results attention_inputs(const AttentionSettings& s, std::uint64_t seed, const Sweep& swept = {});

// The picture at the first sweep point of `params` (validated for attention_schema(model)).
Results attention_inputs(AttentionModel model, const Schema& schema, const Params& params, std::uint64_t seed);

}  // namespace attnlab::separation
