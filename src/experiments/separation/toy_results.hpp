// The `separation.toy` results (docs/separation.md s.1, s.4): the success table with the theory
// 1 - 2^-m per point, its plots, the latest point's summary and the notes on the lab's own choices.
#pragma once
#include <string>
#include <vector>

#include "experiments/separation/toy_run.hpp"
#include "lab/results.hpp"

namespace attnlab::separation {

Results toy_results(const ToyRun& run);

// The lab's departures that this run's settings use (docs/separation.md s.1, s.4).
std::vector<std::string> toy_notes(const ToyRun& run);

}  // namespace attnlab::separation
