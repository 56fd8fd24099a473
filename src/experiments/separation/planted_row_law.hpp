// The planted-row law, ours (docs/separation.md s.3, "Detection: the planted-row law"): how often
// softmax attention fires on D1 if only the row that sees the planted token counted.
#pragma once
#include "experiments/separation/attention_datasets.hpp"

namespace attnlab::separation {

// On D1 the row that sees the planted token j3 (row j3 for self-attention, the query row j2 for
// cross-attention) puts softmax weight `w` on j3 and `u` on each other token of j3's class; a
// readout column fires on that row for a share `q` of the sign patterns on the row's large
// coordinates, so m columns detect D1 with probability `detection` = 1 - (1 - q)^m.
struct PlantedRow {
  double w = 0.0;
  double u = 0.0;
  double q = 0.0;
  double detection = 0.0;
};

PlantedRow planted_row_law(const AttentionSettings& s);

}  // namespace attnlab::separation
