// The work-unit contract as a check (docs/design.md "The run: prepare, units, merge, results"): a run gives the same bytes
// in one go, in one-piece slices, split into k shards (each unit computed by another experiment
// object, written to a shard file's text, read back, absorbed out of order after a preview) and on
// threads; another seed gives another table. Used for every experiment's smoke run
// (test_work_units.cpp) and for settings that reach more of an experiment's code (its own tests).
#pragma once
#include <cstdint>
#include <string>

#include "lab/experiment.hpp"

namespace attnlab::testing {

// Everything a run shows (table, plots, heatmaps, notes), each double as its bits, so "equal"
// means byte-identical; wall-clock times ("12.3 ms", "1.05 s": in notes and legends only) are
// masked, since they are measured wherever a unit ran.
std::string fingerprint(const Results& results);

// CHECKs the contract for `id` with `settings` over the defaults and `seed` (Catch2 assertions).
void check_unit_schedules_agree(const std::string& id, const KeyValues& settings, std::uint64_t seed);

}  // namespace attnlab::testing
