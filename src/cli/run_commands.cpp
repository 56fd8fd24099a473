// `attnlab run`, `merge` and `inspect`: a run's table (CSV or JSON), its figures, its shards.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <thread>

#include "cli/commands.hpp"
#include "cli/figure_files.hpp"
#include "cli/progress_bar.hpp"
#include "experiments/registry.hpp"
#include "lab/run_record.hpp"
#include "lab/shard.hpp"
#include "lab/thread_pool_runner.hpp"
#include "lab/version.hpp"

namespace attnlab::cli {

namespace {

// A data file's text, refused by size before it is read (Experiment::kMaxDataBytes).
std::string read_data_file(const std::string& path) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  std::ifstream f(path, std::ios::binary);
  if (ec || !f) throw UsageError{"option --data: cannot read '" + path + "'"};
  Experiment::check_data_size(size);
  return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

// A shard file's text, refused by size before it is read (a shard of a large run is a few MB).
std::string read_shard_file(const std::string& path) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) throw UsageError{"merge: cannot read '" + path + "'"};
  if (size > kMaxShardBytes)
    throw UsageError{"merge: '" + path + "' has " + std::to_string(size) + " bytes; allowed: at most " +
                     std::to_string(kMaxShardBytes) + " (is it a shard file?)"};
  std::ifstream f(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

// Where results go: stdout, or a file opened before the run starts (so a bad path fails at once).
class Output {
 public:
  explicit Output(const std::string& path) : path_(path) {
    if (!path_.empty()) {
      file_.open(path_, std::ios::binary);
      if (!file_) throw std::runtime_error("cannot open '" + path_ + "' for writing");
    }
  }
  void write(const std::string& text) {
    if (path_.empty()) {
      if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() || std::fflush(stdout) != 0)
        throw std::runtime_error("cannot write the results to standard output");
      return;
    }
    if (!(file_ << text).flush()) throw std::runtime_error("cannot write '" + path_ + "'");
  }
  // The record in `format`, ending with a newline.
  void write(const RunRecord& record, TableFormat format) {
    const std::string text = record_text(record, format);
    write(text.empty() || text.back() == '\n' ? text : text + "\n");
  }

 private:
  std::string path_;
  std::ofstream file_;
};

// The experiment with --data's text given (before make_params, so a preset cannot fail on it), and
// the run's settings: the preset, then (with --data) the experiment's data selector, then --set.
struct Prepared {
  std::unique_ptr<Experiment> experiment;
  std::string data_text;
  Params params;
};
Prepared prepare(const ParsedArgs& args, const RunSettings& s) {
  Prepared p{make_experiment(s.experiment), "", {}};
  KeyValues sets;
  if (args.has("--data")) {
    p.data_text = read_data_file(args.text("--data"));
    if (!p.experiment->accepts_data())
      throw UsageError{"option --data: experiment '" + s.experiment + "' takes no data file"};
    p.experiment->set_data(p.data_text);
    const Experiment::DataSelector selector = p.experiment->data_selector();
    sets.emplace_back(selector.key, selector.value);
  }
  sets.insert(sets.end(), s.sets.begin(), s.sets.end());
  p.params = p.experiment->make_params(s.preset, sets);
  return p;
}

TableFormat format_of(const ParsedArgs& args, TableFormat fallback) {
  return args.has("--format") ? kTableFormats.decode("--format", args.text("--format")) : fallback;
}

// The finished run's table and, with --figures, its plots and heatmaps.
void write_run(const Experiment& e, const Params& params, const std::string& preset, std::uint64_t seed,
               TableFormat format, const ParsedArgs& args, Output& out) {
  const std::string figures = args.text("--figures");
  if (!figures.empty()) prepare_figure_dir(figures);
  const RunRecord record = make_record(e, params, preset, seed);
  out.write(record, format);
  if (!figures.empty()) {
    const auto written = write_figures(figures, record.experiment, preset, seed, record.results);
    if (!args.has("--quiet")) std::fprintf(stderr, "attnlab: wrote %zu figures to %s\n", written.size(), figures.c_str());
  }
}

// The run's shard: its units' partials as a shard file (see lab/shard.hpp).
int run_shard(Experiment& e, const Prepared& p, const RunSettings& s, const ParsedArgs& args, Output& out) {
  if (format_of(args, TableFormat::Json) != TableFormat::Json)
    throw UsageError{"option --shard: a shard is written as JSON (its partial results); merge the shards to get CSV"};
  if (args.has("--figures")) throw UsageError{"option --figures: figures come from 'attnlab merge', not from one shard"};
  Shard shard;
  shard.spec = parse_shard_spec(args.text("--shard"));
  shard.run = {kVersion, e.info().id, s.preset, s.seed, e.schema().to_key_values(p.params), data_digest(p.data_text),
               e.unit_count()};
  const std::vector<std::int64_t> mine = shard_units(e.unit_count(), shard.spec);
  std::vector<UnitRef> refs;
  for (std::int64_t u : mine) refs.push_back({0, u});
  std::map<std::int64_t, Partial> partials;
  ProgressBar bar(!args.has("--quiet") && isatty(STDERR_FILENO));
  std::int64_t done = 0, total = 0;
  for (std::int64_t u : mine) total += e.unit_cost(u);
  const auto report = run_units_on_threads({&e}, refs, jobs_of(args), [&](const UnitRef& ref, const Partial& partial) {
    partials.emplace(ref.unit, partial);
    done += e.unit_cost(ref.unit);
    bar.update({done, total});
  });
  bar.finish();
  if (!report.errors[0].empty()) throw std::runtime_error(report.errors[0]);
  for (auto& [u, partial] : partials) shard.units.emplace_back(u, std::move(partial));
  out.write(to_shard_json(shard));
  return 0;
}

}  // namespace

int jobs_of(const ParsedArgs& args) {
  const unsigned cores = std::thread::hardware_concurrency();
  const long long jobs = args.count("--jobs", cores == 0 ? 1 : cores);
  return static_cast<int>(jobs < 1 ? 1 : jobs);  // --jobs 0 runs on one thread
}

int cmd_run(const ParsedArgs& args) {
  const RunSettings s = run_settings(args);
  Prepared p = prepare(args, s);
  Experiment& e = *p.experiment;
  Output out(args.text("--out"));
  e.reset(p.params, s.seed);
  if (args.has("--shard")) return run_shard(e, p, s, args, out);
  if (args.has("--figures")) prepare_figure_dir(args.text("--figures"));
  ProgressBar bar(!args.has("--quiet") && isatty(STDERR_FILENO));
  const auto report = run_units_on_threads({&e}, all_units({&e}), jobs_of(args),
                                           [&](const UnitRef&, const Partial&) { bar.update(e.progress()); });
  bar.finish();
  if (!report.errors[0].empty()) throw std::runtime_error(report.errors[0]);
  write_run(e, p.params, s.preset, s.seed, format_of(args, TableFormat::Csv), args, out);
  return 0;
}

// `attnlab merge PART.json...`: the shards of one run, checked and put together.
int cmd_merge(const ParsedArgs& args) {
  const std::vector<std::string>& files = args.positionals;
  const std::string out_path = args.text("--out");
  const bool json_out = out_path.size() >= 5 && out_path.compare(out_path.size() - 5, 5, ".json") == 0;
  const TableFormat format = format_of(args, json_out ? TableFormat::Json : TableFormat::Csv);
  std::vector<Shard> shards;
  for (const std::string& f : files) shards.push_back(parse_shard_json(read_shard_file(f), f));
  check_shards(shards, files);
  const RunIdentity& run = shards[0].run;
  if (run.version != kVersion)
    throw ParamError("the shards were written by attnlab " + run.version + " and this is " + kVersion +
                     "; merge them with the build that wrote them");
  auto e = make_experiment(run.experiment);
  if (!run.data_digest.empty()) {
    if (!args.has("--data"))
      throw UsageError{"the shards were computed from a data file: give it with --data FILE (digest " + run.data_digest + ")"};
    const std::string data_text = read_data_file(args.text("--data"));
    if (data_digest(data_text) != run.data_digest)
      throw UsageError{"option --data: '" + args.text("--data") +
                       "' is not the data file the shards were computed from (digest " + data_digest(data_text) +
                       ", the shards' " + run.data_digest + ")"};
    e->set_data(data_text);
  }
  const Params params = e->make_params("", run.params);
  if (e->schema().to_key_values(params) != run.params)
    throw ParamError("the shards' parameters are not in this build's canonical form; merge them with the build that "
                     "wrote them");
  Output out(out_path);
  e->reset(params, run.seed);
  if (e->unit_count() != run.unit_count)
    throw ParamError("the shards say the run has " + std::to_string(run.unit_count) + " units; this build makes " +
                     std::to_string(e->unit_count()));
  for (const Shard& s : shards)
    for (const auto& [unit, partial] : s.units) e->absorb(unit, partial);
  write_run(*e, params, run.preset, run.seed, format, args, out);
  return 0;
}

int cmd_inspect(const ParsedArgs& args) {
  const RunSettings s = run_settings(args);
  Prepared p = prepare(args, s);
  Experiment& e = *p.experiment;
  if (!e.has_inspector()) throw ParamError("experiment '" + s.experiment + "' has no inspector");
  Output out(args.text("--out"));
  e.reset(p.params, s.seed);
  const RunRecord record = make_inspection_record(e, p.params, s.preset, s.seed,
                                                  static_cast<std::size_t>(args.count("--point", 0)),
                                                  args.count("--trial", 0));
  out.write(record, format_of(args, TableFormat::Csv));
  return 0;
}

}  // namespace attnlab::cli
