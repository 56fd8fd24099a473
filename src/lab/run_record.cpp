#include "lab/run_record.hpp"

#include <cmath>
#include <cstdio>

#include "lab/column_key.hpp"
#include "lab/json_text.hpp"
#include "lab/version.hpp"

namespace attnlab {

RunRecord make_record(const Experiment& experiment, const Params& params, const std::string& preset,
                      std::uint64_t seed) {
  RunRecord r;
  r.experiment = experiment.info().id;
  r.preset = preset;
  r.params = experiment.schema().to_key_values(params);
  r.seed = seed;
  r.progress = experiment.progress();
  r.results = experiment.results();
  // Every column's words, resolved here where the schema is known (lab/column_key.hpp).
  r.results.table.key = column_key(r.results.table, experiment.schema());
  return r;
}

RunRecord make_inspection_record(const Experiment& experiment, const Params& params, const std::string& preset,
                                 std::uint64_t seed, std::size_t point, std::int64_t trial) {
  RunRecord r;
  r.experiment = experiment.info().id;
  r.preset = preset;
  r.params = experiment.schema().to_key_values(params);
  r.seed = seed;
  r.progress = {1, 1};
  r.results = experiment.inspect(point, trial);
  r.context = {{"inspector_point", std::to_string(point)}, {"inspector_trial", std::to_string(trial)}};
  return r;
}

namespace {

std::string cell(double x) { return std::isnan(x) ? "" : format_number(x); }

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace

std::string to_csv(const RunRecord& r) {
  std::string out;
  out += "# attnlab_version=" + std::string(kVersion) + "\n";
  out += "# experiment=" + r.experiment + "\n";
  out += "# preset=" + (r.preset.empty() ? std::string("none") : r.preset) + "\n";
  out += "# seed=" + std::to_string(r.seed) + "\n";
  for (const auto& [k, v] : r.params) out += "# " + k + "=" + v + "\n";
  for (const auto& [k, v] : r.context) out += "# " + k + "=" + v + "\n";
  if (!r.progress.finished())
    out += "# partial=" + std::to_string(r.progress.done) + "/" + std::to_string(r.progress.total) + "\n";
  const Table& t = r.results.table;
  for (std::size_t i = 0; i < t.columns.size(); ++i) out += (i ? "," : "") + csv_field(t.columns[i]);
  out += "\n";
  for (const auto& row : t.rows) {
    for (std::size_t i = 0; i < row.size(); ++i) out += (i ? "," : "") + cell(row[i]);
    out += "\n";
  }
  return out;
}

namespace {

JsonValue heatmap_json(const Heatmap& h) {
  return {{"title", h.title}, {"x_label", h.x_label}, {"y_label", h.y_label}, {"rows", h.rows}, {"cols", h.cols},
          {"low", h.low},     {"high", h.high},       {"note", h.note},       {"values", h.values}};
}

}  // namespace

std::string to_json(const RunRecord& r) {
  JsonValue j = {{"attnlab_version", kVersion},
                 {"experiment", r.experiment},
                 {"preset", r.preset.empty() ? JsonValue(nullptr) : JsonValue(r.preset)},
                 {"seed", r.seed},
                 {"params", json_object(r.params)}};
  if (!r.context.empty()) j["context"] = json_object(r.context);
  j["complete"] = r.progress.finished();
  j["progress"] = r.progress.fraction();
  j["columns"] = r.results.table.columns;
  // What each column means, by name (lab/column_key.hpp); a column without words is left out.
  JsonValue key = JsonValue::object();
  for (const Table::KeyEntry& e : r.results.table.key)
    if (!e.words.empty()) key[e.name] = e.words;
  j["column_key"] = key;
  j["rows"] = r.results.table.rows;
  j["notes"] = r.results.notes;
  if (!r.results.heatmaps.empty()) {
    j["heatmaps"] = JsonValue::array();
    for (const Heatmap& h : r.results.heatmaps) j["heatmaps"].push_back(heatmap_json(h));
  }
  return json_text(j);
}

std::string record_text(const RunRecord& record, TableFormat format) {
  return format == TableFormat::Json ? to_json(record) : to_csv(record);
}

}  // namespace attnlab
