#include "lab/run_record.hpp"

#include <cmath>
#include <cstdio>

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

std::string json_escape(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

std::string to_json(const RunRecord& r) {
  auto num = [](double x) { return std::isfinite(x) ? format_number(x) : std::string("null"); };
  std::string out = "{";
  out += "\"attnlab_version\":" + json_escape(kVersion);
  out += ",\"experiment\":" + json_escape(r.experiment);
  out += ",\"preset\":" + (r.preset.empty() ? std::string("null") : json_escape(r.preset));
  out += ",\"seed\":" + std::to_string(r.seed);
  out += ",\"params\":{";
  for (std::size_t i = 0; i < r.params.size(); ++i)
    out += (i ? "," : "") + json_escape(r.params[i].first) + ":" + json_escape(r.params[i].second);
  out += "}";
  if (!r.context.empty()) {
    out += ",\"context\":{";
    for (std::size_t i = 0; i < r.context.size(); ++i)
      out += (i ? "," : "") + json_escape(r.context[i].first) + ":" + json_escape(r.context[i].second);
    out += "}";
  }
  out += ",\"complete\":" + std::string(r.progress.finished() ? "true" : "false");
  out += ",\"progress\":" + num(r.progress.fraction());
  const Table& t = r.results.table;
  out += ",\"columns\":[";
  for (std::size_t i = 0; i < t.columns.size(); ++i) out += (i ? "," : "") + json_escape(t.columns[i]);
  out += "],\"rows\":[";
  for (std::size_t j = 0; j < t.rows.size(); ++j) {
    out += j ? ",[" : "[";
    for (std::size_t i = 0; i < t.rows[j].size(); ++i) out += (i ? "," : "") + num(t.rows[j][i]);
    out += "]";
  }
  out += "],\"notes\":[";
  for (std::size_t i = 0; i < r.results.notes.size(); ++i) out += (i ? "," : "") + json_escape(r.results.notes[i]);
  out += "]";
  if (!r.results.heatmaps.empty()) {
    out += ",\"heatmaps\":[";
    for (std::size_t i = 0; i < r.results.heatmaps.size(); ++i) {
      const Heatmap& h = r.results.heatmaps[i];
      out += (i ? ",{" : "{") + std::string("\"title\":") + json_escape(h.title) +
             ",\"x_label\":" + json_escape(h.x_label) + ",\"y_label\":" + json_escape(h.y_label) +
             ",\"rows\":" + std::to_string(h.rows) + ",\"cols\":" + std::to_string(h.cols) +
             ",\"low\":" + num(h.low) + ",\"high\":" + num(h.high) + ",\"note\":" + json_escape(h.note) +
             ",\"values\":[";
      for (std::size_t k = 0; k < h.values.size(); ++k) out += (k ? "," : "") + num(h.values[k]);
      out += "]}";
    }
    out += "]";
  }
  out += "}";
  return out;
}

}  // namespace attnlab
