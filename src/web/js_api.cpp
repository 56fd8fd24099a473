// The JavaScript API (Embind), the same in node and in the page. Everything crosses as JSON
// strings; parameters come in as a plain object {key: value} and pass the schema like any other
// input. Errors come back as {"error": "..."} with the schema's message, never as a crash.
//
// Index of this file
// [SECTION] Errors and arguments from JavaScript
// [SECTION] Describing experiments
// [SECTION] Session: a run in slices, and its work units
// [SECTION] Runs in one call, and the inspector
// [SECTION] Reproductions, stories, papers, oEmbed
// [SECTION] Bindings
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <memory>
#include <string>

#include "experiments/papers.hpp"
#include "experiments/registry.hpp"
#include "experiments/reproductions.hpp"
#include "experiments/stories.hpp"
#include "lab/deadline.hpp"
#include "lab/embed_snippet.hpp"
#include "lab/json_text.hpp"
#include "lab/partial_codec.hpp"
#include "lab/run_controller.hpp"
#include "lab/run_record.hpp"
#include "lab/runner.hpp"

namespace attnlab::web {

namespace {

// [SECTION] Errors and arguments from JavaScript

using emscripten::val;

std::string error_json(const std::string& message) { return json_text({{"error", message}}); }

// A string argument from JS, or a ParamError naming what was expected.
std::string string_arg(const val& v, const char* what) {
  if (v.isUndefined() || v.isNull()) return "";
  if (v.typeOf().as<std::string>() != "string") throw ParamError(std::string(what) + " must be a string");
  return v.as<std::string>();
}

KeyValues key_values_from(const val& object) {
  KeyValues out;
  if (object.isUndefined() || object.isNull()) return out;
  if (object.typeOf().as<std::string>() != "object" || val::global("Array").call<bool>("isArray", object))
    throw ParamError("parameters must be a plain object {key: value}");
  const val keys = val::global("Object").call<val>("keys", object);
  const int n = keys["length"].as<int>();
  for (int i = 0; i < n; ++i) {
    const std::string key = keys[i].as<std::string>();
    out.emplace_back(key, val::global("String")(object[key]).as<std::string>());
  }
  return out;
}

std::uint64_t seed_from(const val& seed) {
  const double x = seed.isNumber() ? seed.as<double>() : -1.0;
  if (!(x >= 0.0 && x <= 4294967295.0) || x != static_cast<double>(static_cast<std::uint64_t>(x))) {
    const std::string shown = seed.isNumber() ? format_number(x) : val::global("String")(seed).as<std::string>();
    throw ParamError("parameter 'seed': '" + shown + "' is not allowed; allowed: integer in [0, 4294967295]");
  }
  return static_cast<std::uint64_t>(x);
}

// [SECTION] Describing experiments

JsonValue param_json(const ParamSpec& s) {
  const char* types[] = {"integer", "real", "boolean", "choice", "sweep"};
  JsonValue j = {{"key", s.key},         {"label", s.label},
                 {"type", types[static_cast<int>(s.type)]},
                 {"default", s.default_value}, {"allowed", describe_type(s)},
                 {"unit", s.unit},       {"help", s.help}};
  if (s.type == ParamType::Integer || s.type == ParamType::Real) {
    j["min"] = s.min;
    j["max"] = s.max;
  }
  if (s.type == ParamType::Choice) j["choices"] = s.choices;
  return j;
}

std::string describe_json(const Experiment& e) {
  const ExperimentInfo& info = e.info();
  JsonValue params = JsonValue::array(), presets = JsonValue::array();
  for (const auto& s : e.schema().specs()) params.push_back(param_json(s));
  for (const Preset& p : e.presets())
    presets.push_back(
        {{"name", p.name}, {"title", p.title}, {"description", p.description}, {"values", json_object(p.values)}});
  // What the faces ask of an experiment besides its schema (lab/experiment.hpp): whether it has an
  // inspector, the setting that selects loaded data (null: it takes none), a small quick run.
  const Experiment::DataSelector data = e.data_selector();
  const JsonValue selector = data.key.empty() ? JsonValue(nullptr) : JsonValue{{"key", data.key}, {"value", data.value}};
  return json_text({{"id", info.id},
                    {"title", info.title},
                    {"paper", info.paper},
                    {"summary", info.summary},
                    {"params", std::move(params)},
                    {"presets", std::move(presets)},
                    {"inspector", e.has_inspector()},
                    {"data_selector", selector},
                    {"smoke_settings", json_object(e.smoke_settings())}});
}

std::string list_experiments() {
  JsonValue out = JsonValue::array();
  for (const auto& id : experiment_ids()) out.push_back({{"id", id}, {"title", make_experiment(id)->info().title}});
  return json_text(out);
}

std::string describe_experiment(const val& id) {
  try {
    return describe_json(*make_experiment(string_arg(id, "experiment id")));
  } catch (const std::exception& ex) {
    return error_json(ex.what());
  }
}

// [SECTION] Session: a run in slices, and its work units

// A run that a page drives in slices: new Session(id, preset, params, seed), then step(seconds)
// until progress() reaches 1. Results can be read at any time. The run is a RunController
// (lab/run_controller.hpp); an error ends it (the experiment is dropped, error() says why).
class Session {
 public:
  Session(const val& id, const val& preset, const val& params, const val& seed)
      : Session(id, preset, params, seed, val::undefined()) {}
  // `data`: optional JSON text for experiments that accept data (a regression problem file).
  Session(const val& id, const val& preset, const val& params, const val& seed, const val& data) {
    try {
      std::unique_ptr<Experiment> experiment = make_experiment(string_arg(id, "experiment id"));
      const std::string text = string_arg(data, "data");
      if (!text.empty()) experiment->set_data(text);
      preset_ = string_arg(preset, "preset");
      const Params p = experiment->make_params(preset_, key_values_from(params));
      run_.open(std::move(experiment), p, seed_from(seed));
      run_.prepare();  // a run that is impossible is refused here, not at the first step
    } catch (const std::exception& ex) {
      error_ = ex.what();
      run_.close();
    }
  }
  std::string error() const { return error_; }
  // Works for about `seconds` (0 < seconds <= 10) and returns the progress in [0, 1].
  double step(double seconds) {
    if (!run_.has_experiment()) return 1.0;
    if (!(seconds > 0.0 && seconds <= 10.0)) {
      error_ = "step: seconds must be in (0, 10]; got " + format_number(seconds);
      run_.close();
      return 1.0;
    }
    Budget b;
    b.seconds = seconds;
    run_.step(b);
    if (run_.failed()) {
      error_ = run_.error();
      run_.close();
      return 1.0;
    }
    return progress();
  }
  double progress() const { return run_.has_experiment() ? run_.fraction() : 1.0; }
  bool finished() const { return !run_.has_experiment() || run_.finished(); }
  // The run's table in `format` (lab/export_format.hpp); JSON without a run is the error.
  std::string table(TableFormat format) const {
    if (run_.has_experiment()) return record_text(record(), format);
    return format == TableFormat::Json ? error_json(error_) : "";
  }
  std::string json() const { return table(TableFormat::Json); }
  std::string csv() const { return table(TableFormat::Csv); }

  // ---- work units, for runs spread over Web Workers or node worker_threads (lab/work_unit.hpp):
  // a worker's Session computes units (startUnit, advanceUnit in time slices, unitPreview,
  // finishUnit -> the partial as JSON text); the page's Session absorbs them.
  int unit_count() const { return run_.has_experiment() ? static_cast<int>(run_.experiment().unit_count()) : 0; }
  double unit_cost(int unit) const { return valid_unit(unit) ? double(run_.experiment().unit_cost(unit)) : 0.0; }
  bool unit_finished(int unit) const { return valid_unit(unit) && run_.experiment().unit_finished(unit); }
  // Returns "" or the error.
  std::string start_unit(int unit) {
    task_.reset();
    task_done_ = false;
    unit_error_.clear();
    return guarded([&] {
      if (!valid_unit(unit)) throw ParamError("unit " + std::to_string(unit) + " is out of range");
      task_ = run_.experiment().start_unit(unit);
    });
  }
  // Works on the started unit for about `seconds`; true once it is finished (or on an error,
  // which finishUnit() then returns).
  bool advance_unit(double seconds) {
    if (!task_ || task_done_) return true;
    Deadline deadline(std::min(10.0, std::max(0.0, seconds)));
    const std::string error = guarded([&] {
      while (!(task_done_ = task_->run_piece()) && !deadline.passed()) {
      }
    });
    if (!error.empty()) {
      unit_error_ = error;
      task_.reset();
    }
    return task_done_ || !task_;
  }
  double unit_fraction() const { return task_ ? task_->fraction() : 0.0; }
  std::string unit_preview() const {
    Partial p;
    return task_ && task_->preview(p) ? encode_partial(p) : std::string();
  }
  // The finished unit's partial as JSON text, or {"error": ...}.
  std::string finish_unit() {
    if (!task_) {
      const std::string error = !unit_error_.empty() ? unit_error_ : !error_.empty() ? error_ : "no unit was started";
      unit_error_.clear();
      return error_json(error);
    }
    if (!task_done_) return error_json("the unit is not finished: call advanceUnit() until it returns true");
    std::string out;
    const std::string error = guarded([&] { out = encode_partial(task_->finish()); });
    task_.reset();
    task_done_ = false;
    return error.empty() ? out : error_json(error);
  }
  // Abandons the started unit (a cancelled run): nothing is finished or kept.
  void drop_unit() {
    task_.reset();
    task_done_ = false;
    unit_error_.clear();
  }
  // Takes a unit's partial computed elsewhere; returns "" or the error.
  std::string absorb(int unit, const std::string& partial) {
    return guarded([&] { run_.experiment().absorb(unit, decode_partial(partial)); });
  }
  std::string absorb_preview(int unit, const std::string& partial) {
    return guarded([&] { run_.experiment().absorb_preview(unit, decode_partial(partial)); });
  }

 private:
  bool valid_unit(int unit) const { return run_.has_experiment() && unit >= 0 && unit < run_.experiment().unit_count(); }
  RunRecord record() const { return make_record(run_.experiment(), run_.params(), preset_, run_.seed()); }
  template <class Fn>
  std::string guarded(Fn&& fn) {
    if (!run_.has_experiment()) return error_.empty() ? "the session has no run" : error_;
    try {
      fn();
      return "";
    } catch (const std::exception& ex) {
      return ex.what();
    }
  }

  std::unique_ptr<UnitTask> task_;
  bool task_done_ = false;  // run_piece() returned true: finish() may be called
  std::string unit_error_;  // what ended the unit in advance_unit(), for finish_unit()
  RunController run_;
  std::string preset_, error_;
};

// [SECTION] Runs in one call, and the inspector

// One call, to completion: returns the run's JSON (or {"error": ...}).
std::string run_experiment_with_data(const val& id, const val& preset, const val& params, const val& seed,
                                    const val& data) {
  Session s(id, preset, params, seed, data);
  if (!s.error().empty()) return error_json(s.error());
  while (!s.finished()) s.step(1.0);
  return s.error().empty() ? s.json() : error_json(s.error());
}

std::string run_experiment(const val& id, const val& preset, const val& params, const val& seed) {
  return run_experiment_with_data(id, preset, params, seed, val::undefined());
}

std::string run_experiment_csv(const val& id, const val& preset, const val& params, const val& seed) {
  Session s(id, preset, params, seed);
  while (!s.finished()) s.step(1.0);
  return s.error().empty() ? s.csv() : "error: " + s.error();
}

// A small non-negative integer argument (inspector point and trial), or a ParamError.
std::int64_t index_arg(const val& v, const char* what) {
  const double x = v.isNumber() ? v.as<double>() : -1.0;
  if (!(x >= 0.0 && x <= 1e7) || x != static_cast<double>(static_cast<std::int64_t>(x)))
    throw ParamError(std::string(what) + " must be an integer in [0, 10000000]");
  return static_cast<std::int64_t>(x);
}

// One trial of one sweep point up close (Experiment::inspect): JSON with the per-token table,
// the notes and the heatmaps, the same as `attnlab inspect ... --format json`.
std::string inspect_experiment(const val& id, const val& preset, const val& params, const val& seed, const val& point,
                               const val& trial) {
  try {
    auto e = make_experiment(string_arg(id, "experiment id"));
    const std::string preset_name = string_arg(preset, "preset");
    const Params p = e->make_params(preset_name, key_values_from(params));
    const std::uint64_t s = seed_from(seed);
    const std::int64_t k = index_arg(point, "point"), t = index_arg(trial, "trial");
    e->reset(p, s);
    const RunRecord record = make_inspection_record(*e, p, preset_name, s, static_cast<std::size_t>(k), t);
    return to_json(record);
  } catch (const std::exception& ex) {
    return error_json(ex.what());
  }
}

// [SECTION] Reproductions, stories, papers, oEmbed

// The panels of a whole-paper reproduction: [{"panel", "experiment", "preset"}], or {"error"}.
std::string reproduction_panels_json(const val& name) {
  try {
    JsonValue out = JsonValue::array();
    for (const Panel& p : reproduction_panels(string_arg(name, "reproduction name")))
      out.push_back({{"panel", p.name}, {"experiment", p.experiment}, {"preset", p.preset}});
    return json_text(out);
  } catch (const std::exception& ex) {
    return error_json(ex.what());
  }
}

// The oEmbed answer for the lab at `pageUrl` opened at `hash` (lab/embed_snippet.hpp), or the error
// naming a size outside 240 to 4000.
std::string oembed_for(const std::string& page_url, const std::string& hash, const std::string& title, int width,
                       int height) {
  try { return oembed_json(page_url, hash, title, width, height); } catch (const std::exception& ex) { return error_json(ex.what()); }
}
// {"width", "height"}: the size the Embed dialog and the oEmbed files offer (lab/embed_snippet.hpp).
std::string embed_default_size() { return json_text(JsonValue{{"width", kEmbedWidth}, {"height", kEmbedHeight}}); }

// The guided stories (experiments/stories.hpp), every step with its text, link and settings.
std::string list_stories() { return stories_to_json(stories()); }

// Every paper (src/experiments/papers.hpp): [{"id", "title", "authors", "arxiv", "docsPage",
// "experiments": [...], "story", "reproduction"}], in the table's order.
std::string list_papers() {
  JsonValue out = JsonValue::array();
  for (const Paper& p : papers())
    out.push_back({{"id", p.id},
                   {"title", p.title},
                   {"authors", p.authors},
                   {"arxiv", p.arxiv},
                   {"docsPage", p.docs_page},
                   {"experiments", p.experiments},
                   {"story", p.story},
                   {"reproduction", p.reproduction}});
  return json_text(out);
}

}  // namespace

}  // namespace attnlab::web

// [SECTION] Bindings

EMSCRIPTEN_BINDINGS(attnlab_api) {
  using namespace attnlab::web;
  emscripten::function("listExperiments", &list_experiments);
  emscripten::function("describeExperiment", &describe_experiment);
  emscripten::function("runExperiment", &run_experiment);
  emscripten::function("runExperiment", &run_experiment_with_data);
  emscripten::function("runExperimentCsv", &run_experiment_csv);
  emscripten::function("inspectExperiment", &inspect_experiment);
  emscripten::function("reproductionPanels", &reproduction_panels_json);
  emscripten::function("listStories", &list_stories);
  emscripten::function("listPapers", &list_papers);
  emscripten::function("oembedJson", &oembed_for);
  emscripten::function("embedDefaultSize", &embed_default_size);
  emscripten::class_<Session>("Session")
      .constructor<emscripten::val, emscripten::val, emscripten::val, emscripten::val>()
      .constructor<emscripten::val, emscripten::val, emscripten::val, emscripten::val, emscripten::val>()
      .function("error", &Session::error)
      .function("step", &Session::step)
      .function("progress", &Session::progress)
      .function("finished", &Session::finished)
      .function("json", &Session::json)
      .function("csv", &Session::csv)
      .function("unitCount", &Session::unit_count)
      .function("unitCost", &Session::unit_cost)
      .function("unitFinished", &Session::unit_finished)
      .function("startUnit", &Session::start_unit)
      .function("advanceUnit", &Session::advance_unit)
      .function("unitFraction", &Session::unit_fraction)
      .function("unitPreview", &Session::unit_preview)
      .function("finishUnit", &Session::finish_unit)
      .function("dropUnit", &Session::drop_unit)
      .function("absorb", &Session::absorb)
      .function("absorbPreview", &Session::absorb_preview);
}
