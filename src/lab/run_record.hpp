// A finished (or partial) run with everything needed to reproduce it, and its CSV/JSON forms.
// Every export carries every parameter, the seed and the build version (docs/design.md "Reproducibility rules").
#pragma once
#include <cstdint>
#include <string>

#include "lab/experiment.hpp"

namespace attnlab {

struct RunRecord {
  std::string experiment;  // id
  std::string preset;      // may be empty
  KeyValues params;        // every parameter, canonical text, schema order
  std::uint64_t seed = 0;
  Progress progress;
  Results results;
  KeyValues context;  // what view of the run this is, e.g. {"inspector_point", "0"}; usually empty
};

RunRecord make_record(const Experiment& experiment, const Params& params, const std::string& preset,
                      std::uint64_t seed);

// One trial of one sweep point up close (Experiment::inspect on a reset experiment), with the
// point and trial in the record's context. Throws what inspect() throws.
RunRecord make_inspection_record(const Experiment& experiment, const Params& params, const std::string& preset,
                                 std::uint64_t seed, std::size_t point, std::int64_t trial);

// CSV: '#'-comment lines with version, experiment, preset, seed and each parameter, then the table.
std::string to_csv(const RunRecord& record);
// JSON: {"attnlab_version", "experiment", "preset", "seed", "params": {...}, "complete",
//        "columns": [...], "rows": [[...]], "notes": [...], and "heatmaps": [{"title", "x_label",
//        "y_label", "rows", "cols", "low", "high", "note", "values": [row-major]}] when there are
//        any}; NaN is written as null.
std::string to_json(const RunRecord& record);
std::string json_escape(const std::string& s);

}  // namespace attnlab
