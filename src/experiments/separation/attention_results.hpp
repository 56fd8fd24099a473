// The `separation.self` / `separation.cross` results (docs/separation.md s.3, s.4): the success table
// with the planted-row law per point (planted_row_law.hpp), its plots, the latest point's summary
// and the notes on the lab's own choices.
#pragma once
#include <string>
#include <vector>

#include "experiments/separation/attention_run.hpp"
#include "lab/results.hpp"

namespace attnlab::separation {

Results attention_results(const AttentionRun& run);

// The lab's departures that this run's settings use (docs/separation.md s.3, s.4).
std::vector<std::string> attention_notes(const AttentionRun& run);

}  // namespace attnlab::separation
