// The inspector: one trial of `separation.self` / `separation.cross` computed densely, row by row,
// with everything the paper's argument looks at (docs/separation.md s.2-3, s.5): the n x n softmax
// and linear attention matrices of D1 and D0, the matrix A, the planted row's attention weights,
// each row's readout margin and the four values of F (heatmaps and plots in that order).
#pragma once
#include <cstdint>

#include "experiments/separation/attention_datasets.hpp"
#include "lab/results.hpp"

namespace attnlab::separation {

// At most this many rows and columns per heatmap; larger matrices are block-averaged.
constexpr int kHeatmapCells = 200;

// Trial `trial` of seed `seed` (the same draw the sweep used). O(n^2 d) time, O(n d) memory.
Results inspect_trial(const AttentionSettings& s, std::uint64_t seed, std::int64_t trial);

}  // namespace attnlab::separation
