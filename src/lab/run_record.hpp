// A finished (or partial) run with everything needed to reproduce it, and its CSV/JSON forms.
// Every export carries every parameter, the seed and the build version (docs/design.md "Reproducibility rules").
#pragma once
#include <cstdint>
#include <string>

#include "lab/experiment.hpp"
#include "lab/export_format.hpp"

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
//        any}; numbers as format_number() writes them, NaN as null (lab/json_text.hpp).
std::string to_json(const RunRecord& record);
// The record in `format` (lab/export_format.hpp): to_csv() or to_json().
std::string record_text(const RunRecord& record, TableFormat format);
// `s` as a JSON string literal (lab/json_text.hpp's escaping), for the code outside lab that still
// writes JSON text piece by piece (src/ui, bench/workloads.cpp).
std::string json_escape(const std::string& s);

}  // namespace attnlab
