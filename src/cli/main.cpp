// The native `attnlab` command (its commands: the table cli_commands() below). Bad input exits with code 2 and one
// line naming the parameter, the value and the allowed range.
//
// Index of this file
// [SECTION] Names and the options' usage
// [SECTION] Options and their parsing
// [SECTION] list, papers, help
// [SECTION] run and merge: output and shards
// [SECTION] inspect, reproduce, link, stories, bench
// [SECTION] The command table and the usage text
// [SECTION] main
#include <unistd.h>

#include <thread>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <fstream>
#include <iterator>
#include <iostream>
#include <string>
#include <vector>

#include "bench/workloads.hpp"
#include "cli/figure_files.hpp"
#include "cli/progress_bar.hpp"
#include "cli/reproduce.hpp"
#include "experiments/papers.hpp"
#include "experiments/registry.hpp"
#include "experiments/reproductions.hpp"
#include "experiments/stories.hpp"
#include "lab/find_named.hpp"
#include "lab/run_record.hpp"
#include "lab/runner.hpp"
#include "lab/shard.hpp"
#include "lab/thread_pool_runner.hpp"
#include "lab/url_hash.hpp"
#include "lab/version.hpp"
#include "lab/text.hpp"

using namespace attnlab;

namespace {

// [SECTION] Names and the options' usage

// Joins the registry's names: "separation" or "regression (source=data), mirror (data=file)".
std::string joined(const std::vector<std::string>& names, const char* separator = ", ") {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : separator) + n;
  return out;
}

std::string reproduction_list() { return joined(reproduction_names()); }

// The experiments that take a data file, each with the setting --data applies.
std::string data_experiments() {
  std::vector<std::string> names;
  for (const auto& id : experiment_ids()) {
    const Experiment::DataSelector s = make_experiment(id)->data_selector();
    if (!s.key.empty()) names.push_back(id + " (" + s.key + "=" + s.value + ")");
  }
  return names.empty() ? "none" : joined(names);
}

// The most threads --jobs may ask for, in `run` and in `reproduce`.
constexpr long long kMaxJobs = 256;

// The options that `run` and `link` share (part of the usage text, after the commands).
std::string run_options_usage() {
  return
    "run/link options:\n"
    "  --preset NAME                 start from a preset (see help EXPERIMENT)\n"
    "  --set KEY=VALUE               set one parameter (repeatable; applied after the preset)\n"
    "  --sweep SPEC                  same as --set sweep=SPEC, e.g. --sweep m=1:100:1 or --sweep n=100,200\n"
    "  --seed N                      random seed, 0..4294967295 (default 1)\n"
    "  --format csv|json             output format (default csv)\n"
    "  --out FILE                    write to FILE instead of standard output\n"
    "  --data FILE.json              a data file for the experiments that take one; it applies the\n"
    "                                setting that selects it (" + data_experiments() + ";\n"
    "                                the format: help EXPERIMENT)\n"
    "  --jobs N                      threads (default: every core, at most " + std::to_string(kMaxJobs) +
    "); results do not depend on N\n"
    "  --quiet                       no progress bar\n";
}

// [SECTION] Options and their parsing

struct UsageError {
  std::string message;
};

struct RunOptions {
  std::string experiment, preset, format = "csv", out;
  KeyValues sets;
  std::uint64_t seed = 1;
  bool quiet = false;
  long long point = 0, trial = 0;  // inspect only
  std::string data;                // --data FILE: user data for experiments that accept it
  std::string figures;             // run only: --figures DIR
  int jobs = 0;                    // run only: --jobs N (0: every core)
  std::string shard;               // run only: --shard I/K
  bool format_given = false;
};

enum class Command { Run, Inspect, Link };  // which options parse_run_options accepts

// A data file's text, refused by size before it is read (Experiment::kMaxDataBytes).
std::string read_data_file(const std::string& path) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  std::ifstream f(path, std::ios::binary);
  if (ec || !f) throw UsageError{"option --data: cannot read '" + path + "'"};
  Experiment::check_data_size(size);
  std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  return text;
}

// Gives --data's text to the experiment (before make_params, so a preset cannot fail on it).
void load_data(Experiment& e, const RunOptions& o, const std::string& text) {
  if (o.data.empty()) return;
  if (!e.accepts_data()) throw UsageError{"option --data: experiment '" + o.experiment + "' takes no data file"};
  e.set_data(text);
}

// The run's settings: the preset, then (with --data) the experiment's data selector, then --set.
Params run_params(const Experiment& e, const RunOptions& o) {
  KeyValues sets;
  if (!o.data.empty()) {
    const Experiment::DataSelector s = e.data_selector();
    sets.emplace_back(s.key, s.value);
  }
  sets.insert(sets.end(), o.sets.begin(), o.sets.end());
  return e.make_params(o.preset, sets);
}

// The value of --set: KEY=VALUE.
std::pair<std::string, std::string> parse_set(const std::string& kv) {
  const std::size_t eq = kv.find('=');
  if (eq == std::string::npos || eq == 0) throw UsageError{"option --set: '" + kv + "' is not KEY=VALUE"};
  return {kv.substr(0, eq), kv.substr(eq + 1)};
}

// A count option: a plain non-negative integer up to `max`.
long long parse_count(const std::string& option, const std::string& text, long long max) {
  const long long v = parse_digits(text, 10).value_or(-1);
  if (v < 0 || v > max)
    throw UsageError{"option " + option + ": '" + text + "' is not allowed; allowed: integer in [0, " +
                     std::to_string(max) + "]"};
  return v;
}

RunOptions parse_run_options(const std::vector<std::string>& args, Command command) {
  const bool inspect = command == Command::Inspect;
  RunOptions o;
  if (args.empty() || args[0].rfind("--", 0) == 0) throw UsageError{"missing EXPERIMENT (see 'attnlab list')"};
  o.experiment = args[0];
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= args.size()) throw UsageError{"option " + a + " needs a value"};
      return args[++i];
    };
    if (a == "--preset") o.preset = value();
    else if (a == "--seed") o.seed = parse_seed(value());
    else if (a == "--format") {
      o.format = value();
      o.format_given = true;
      if (o.format != "csv" && o.format != "json")
        throw UsageError{"option --format: '" + o.format + "' is not allowed; allowed: csv or json"};
    } else if (a == "--out") o.out = value();
    else if (a == "--quiet") o.quiet = true;
    else if (a == "--data") o.data = value();
    else if (inspect && a == "--point") o.point = parse_count(a, value(), 9999);
    else if (inspect && a == "--trial") o.trial = parse_count(a, value(), 999999);
    else if (command == Command::Run && a == "--figures") o.figures = value();
    else if (command == Command::Run && a == "--jobs") o.jobs = static_cast<int>(std::max(1LL, parse_count(a, value(), kMaxJobs)));
    else if (command == Command::Run && a == "--shard") o.shard = value();
    else if (a == "--sweep") o.sets.emplace_back("sweep", value());
    else if (a == "--set") o.sets.push_back(parse_set(value()));
    else {
      throw UsageError{"unknown option '" + a + "'"};
    }
  }
  const std::string twice = first_repeated_key(o.sets);
  if (!twice.empty())
    throw UsageError{"parameter '" + twice + "' is given twice (by --set" + (twice == "sweep" ? " or --sweep" : "") +
                     "); give it once"};
  return o;
}

// [SECTION] list, papers, help

int cmd_list() {
  for (const auto& id : experiment_ids()) {
    auto e = make_experiment(id);
    std::printf("%-20s %s\n", id.c_str(), e->info().title.c_str());
  }
  return 0;
}

// Every paper (src/experiments/papers.cpp): its title, authors, arXiv id, page, experiments, story
// and reproduction.
int cmd_papers() {
  for (const Paper& p : papers()) {
    std::printf("%s: %s\n  %s, arXiv %s, %s\n  experiments: %s\n", p.id.c_str(), p.title.c_str(), p.authors.c_str(),
                p.arxiv.c_str(), p.docs_page.c_str(), joined(p.experiments).c_str());
    std::printf("  story: %s\n  reproduction: %s\n", p.story.empty() ? "(none)" : p.story.c_str(),
                p.reproduction.empty() ? "(none)" : p.reproduction.c_str());
  }
  return 0;
}

int cmd_help(const std::string& id) {
  auto e = make_experiment(id);
  const ExperimentInfo& info = e->info();
  std::printf("%s: %s\n%s\n\n%s\n\nparameters (--set KEY=VALUE):\n", info.id.c_str(), info.title.c_str(),
              info.paper.c_str(), info.summary.c_str());
  for (const auto& s : e->schema().specs()) {
    std::printf("  %-16s %s; default %s%s\n", s.key.c_str(), describe_type(s).c_str(), s.default_value.c_str(),
                s.sweepable ? "; sweepable" : "");
    std::printf("  %-16s %s\n", "", s.help.c_str());
  }
  const Experiment::DataSelector data = e->data_selector();
  if (!data.key.empty())
    std::printf("\ndata file (--data FILE.json, which sets %s=%s): see the parameter '%s'\n", data.key.c_str(),
                data.value.c_str(), data.key.c_str());
  if (e->has_inspector()) std::printf("\ninspector: attnlab inspect %s [options] --point K --trial T\n", info.id.c_str());
  std::printf("\npresets (--preset NAME):\n");
  for (const auto& p : e->presets()) {
    std::printf("  %-16s %s\n", p.name.c_str(), p.title.c_str());
    std::string settings;
    for (const auto& [k, v] : p.values) settings += " " + k + "=" + v;
    std::printf("  %-16s sets%s\n  %-16s %s\n", "", settings.c_str(), "", p.description.c_str());
  }
  return 0;
}

// [SECTION] run and merge: output and shards

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

 private:
  std::string path_;
  std::ofstream file_;
};

// The finished run's table (CSV or JSON) and, with `figures`, its plots and heatmaps.
void write_run(const Experiment& e, const Params& params, const std::string& preset, std::uint64_t seed,
               const std::string& format, const std::string& figures, bool quiet, Output& out) {
  if (!figures.empty()) cli::prepare_figure_dir(figures);
  const RunRecord record = make_record(e, params, preset, seed);
  out.write(format == "json" ? to_json(record) + "\n" : to_csv(record));
  if (!figures.empty()) {
    const auto written = cli::write_figures(figures, record.experiment, preset, seed, record.results);
    if (!quiet) std::fprintf(stderr, "attnlab: wrote %zu figures to %s\n", written.size(), figures.c_str());
  }
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

int default_jobs() {
  const unsigned cores = std::thread::hardware_concurrency();
  return cores == 0 ? 1 : static_cast<int>(cores);
}

// The run's shard: its units' partials as a shard file (see lab/shard.hpp).
int run_shard(Experiment& e, const Params& params, const RunOptions& o, const std::string& data_text, Output& out) {
  if (o.format_given && o.format != "json")
    throw UsageError{"option --shard: a shard is written as JSON (its partial results); merge the shards to get CSV"};
  if (!o.figures.empty()) throw UsageError{"option --figures: figures come from 'attnlab merge', not from one shard"};
  Shard shard;
  shard.spec = parse_shard_spec(o.shard);
  shard.run = {kVersion, e.info().id, o.preset, o.seed, e.schema().to_key_values(params), data_digest(data_text),
               e.unit_count()};
  const std::vector<std::int64_t> mine = shard_units(e.unit_count(), shard.spec);
  std::vector<UnitRef> refs;
  for (std::int64_t u : mine) refs.push_back({0, u});
  std::map<std::int64_t, Partial> partials;
  ProgressBar bar(!o.quiet && isatty(STDERR_FILENO));
  std::int64_t done = 0, total = 0;
  for (std::int64_t u : mine) total += e.unit_cost(u);
  const auto report = run_units_on_threads({&e}, refs, o.jobs > 0 ? o.jobs : default_jobs(),
                                           [&](const UnitRef& ref, const Partial& p) {
                                             partials.emplace(ref.unit, p);
                                             done += e.unit_cost(ref.unit);
                                             bar.update({done, total});
                                           });
  bar.finish();
  if (!report.errors[0].empty()) throw std::runtime_error(report.errors[0]);
  for (auto& [u, p] : partials) shard.units.emplace_back(u, std::move(p));
  out.write(to_shard_json(shard));
  return 0;
}

int cmd_run(const std::vector<std::string>& args) {
  const RunOptions o = parse_run_options(args, Command::Run);
  auto e = make_experiment(o.experiment);
  const std::string data_text = o.data.empty() ? std::string() : read_data_file(o.data);
  load_data(*e, o, data_text);
  const Params params = run_params(*e, o);
  Output out(o.out);
  e->reset(params, o.seed);
  if (!o.shard.empty()) return run_shard(*e, params, o, data_text, out);
  if (!o.figures.empty()) cli::prepare_figure_dir(o.figures);
  ProgressBar bar(!o.quiet && isatty(STDERR_FILENO));
  const auto report = run_units_on_threads({e.get()}, all_units({e.get()}), o.jobs > 0 ? o.jobs : default_jobs(),
                                           [&](const UnitRef&, const Partial&) { bar.update(e->progress()); });
  bar.finish();
  if (!report.errors[0].empty()) throw std::runtime_error(report.errors[0]);
  write_run(*e, params, o.preset, o.seed, o.format, o.figures, o.quiet, out);
  return 0;
}

// `attnlab merge PART.json...`: the shards of one run, checked and put together.
int cmd_merge(const std::vector<std::string>& args) {
  std::vector<std::string> files;
  std::string out_path, format, data_path, figures;
  bool quiet = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= args.size()) throw UsageError{"option " + a + " needs a value"};
      return args[++i];
    };
    if (a == "--out") out_path = value();
    else if (a == "--format") {
      format = value();
      if (format != "csv" && format != "json")
        throw UsageError{"option --format: '" + format + "' is not allowed; allowed: csv or json"};
    } else if (a == "--data") data_path = value();
    else if (a == "--figures") figures = value();
    else if (a == "--quiet") quiet = true;
    else if (a.rfind("--", 0) == 0) throw UsageError{"unknown option '" + a + "'"};
    else files.push_back(a);
  }
  if (files.empty()) throw UsageError{"merge needs the shard files (PART.json...)"};
  if (format.empty()) {
    const bool json_out = out_path.size() >= 5 && out_path.compare(out_path.size() - 5, 5, ".json") == 0;
    format = json_out ? "json" : "csv";
  }
  std::vector<Shard> shards;
  for (const std::string& f : files) shards.push_back(parse_shard_json(read_shard_file(f), f));
  check_shards(shards, files);
  const RunIdentity& run = shards[0].run;
  if (run.version != kVersion)
    throw ParamError("the shards were written by attnlab " + run.version + " and this is " + kVersion +
                     "; merge them with the build that wrote them");
  auto e = make_experiment(run.experiment);
  if (!run.data_digest.empty()) {
    if (data_path.empty())
      throw UsageError{"the shards were computed from a data file: give it with --data FILE (digest " + run.data_digest + ")"};
    const std::string data_text = read_data_file(data_path);
    if (data_digest(data_text) != run.data_digest)
      throw UsageError{"option --data: '" + data_path + "' is not the data file the shards were computed from (digest " +
                       data_digest(data_text) + ", the shards' " + run.data_digest + ")"};
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
  write_run(*e, params, run.preset, run.seed, format, figures, quiet, out);
  return 0;
}

// [SECTION] inspect, reproduce, link, stories, bench

int cmd_inspect(const std::vector<std::string>& args) {
  const RunOptions o = parse_run_options(args, Command::Inspect);
  auto e = make_experiment(o.experiment);
  if (!e->has_inspector()) throw ParamError("experiment '" + o.experiment + "' has no inspector");
  load_data(*e, o, o.data.empty() ? std::string() : read_data_file(o.data));
  const Params params = run_params(*e, o);
  Output out(o.out);
  e->reset(params, o.seed);
  const RunRecord record =
      make_inspection_record(*e, params, o.preset, o.seed, static_cast<std::size_t>(o.point), o.trial);
  out.write(o.format == "json" ? to_json(record) + "\n" : to_csv(record));
  return 0;
}

int cmd_reproduce(const std::vector<std::string>& args) {
  if (args.empty() || args[0].rfind("--", 0) == 0)
    throw UsageError{"missing PAPER (one of: " + reproduction_list() + ")"};
  cli::ReproduceOptions o;
  o.name = args[0];
  reproduction_panels(o.name);  // names the known papers when unknown
  const unsigned cores = std::thread::hardware_concurrency();
  o.jobs = cores == 0 ? 1 : static_cast<int>(cores);
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= args.size()) throw UsageError{"option " + a + " needs a value"};
      return args[++i];
    };
    if (a == "--out") o.out_dir = value();
    else if (a == "--seed") o.seed = parse_seed(value());
    else if (a == "--jobs") o.jobs = static_cast<int>(std::max(1LL, parse_count(a, value(), kMaxJobs)));
    else if (a == "--quiet") o.quiet = true;
    else if (a == "--paper-trials") o.sets.emplace_back("paper_trials", "true");
    else if (a == "--figures") o.figures = value();
    else if (a == "--set") o.sets.push_back(parse_set(value()));
    else {
      throw UsageError{"unknown option '" + a + "'"};
    }
  }
  if (o.out_dir.empty()) throw UsageError{"reproduce needs --out DIR"};
  return cli::reproduce(o);
}

int cmd_link(const std::vector<std::string>& args) {
  const RunOptions o = parse_run_options(args, Command::Link);
  auto e = make_experiment(o.experiment);
  HashState st;
  st.experiment = e->info().id;
  st.params = e->schema().to_key_values(e->make_params(o.preset, o.sets));
  st.has_seed = true;
  st.seed = o.seed;
  std::printf("#%s\n", encode_hash(st).c_str());
  return 0;
}

// The same CLI arguments that open a step's settings ("separation.toy --preset fig3b --set ...").
std::string settings_arguments(const StorySettings& s) {
  std::string out = s.experiment + (s.preset.empty() ? "" : " --preset " + s.preset);
  for (const auto& [k, v] : s.params) out += " --set " + k + "=" + v;
  return out + " --seed " + std::to_string(s.seed);
}

int cmd_stories(const std::vector<std::string>& args) {
  if (args.size() > 1) throw UsageError{"stories takes at most one story id"};
  const bool full = !args.empty();
  if (full) story(args[0]);  // an unknown id: the error names the stories
  for (const Story& s : stories()) {
    if (full && s.id != args[0]) continue;
    std::printf("%s: %s (%s)\n  %s\n", s.id.c_str(), s.paper.c_str(), s.authors.c_str(), s.result.c_str());
    for (std::size_t k = 0; k < s.steps.size(); ++k) {
      const StoryStep& step = s.steps[k];
      std::printf("  %zu. %s  #story=%s&step=%zu\n     attnlab run %s\n", k + 1, step.title.c_str(), s.id.c_str(), k + 1,
                  settings_arguments(step.settings).c_str());
      if (!full) continue;
      std::printf("     %s\n     Question: %s\n", step.text.c_str(), step.question.c_str());
      if (step.prediction) std::printf("     Predict first: %s\n", step.prediction->question.c_str());
    }
  }
  return 0;
}

int cmd_bench(const std::vector<std::string>& args) {
  double seconds = 1.0;
  std::string format = "text";
  for (std::size_t i = 0; i < args.size(); ++i) {
    if ((args[i] == "--seconds" || args[i] == "--format") && i + 1 >= args.size())
      throw UsageError{"option " + args[i] + " needs a value"};
    if (args[i] == "--seconds") {
      const std::string& text = args[++i];
      seconds = is_plain_decimal(text) ? std::strtod(text.c_str(), nullptr) : 0.0;
      if (!(seconds > 0.0 && seconds <= kMaxBenchSeconds))
        throw UsageError{"option --seconds: '" + text + "' is not allowed; allowed: number in (0, 600]"};
    } else if (args[i] == "--format") {
      format = args[++i];
      if (format != "text" && format != "json")
        throw UsageError{"option --format: '" + format + "' is not allowed; allowed: text or json"};
    } else {
      throw UsageError{"unknown option '" + args[i] + "'"};
    }
  }
  const auto results = run_benchmarks(seconds);
  if (format == "json") {
    std::printf("%s\n", bench_json(results).c_str());
  } else {
    for (const auto& r : results)
      std::printf("%-34s %12.4g %s  (%lld in %.2f s)\n", r.name.c_str(), r.rate, r.unit.c_str(), r.units, r.seconds);
  }
  return 0;
}

// [SECTION] The command table and the usage text

// The CLI's commands, once: the usage text, the dispatch and the unknown-command message read it.
struct CliCommand {
  const char* name;
  std::string synopsis;  // the usage lines, each command's first line starting with its name
  int (*handler)(const std::vector<std::string>& rest);
};

std::string usage();

const std::vector<CliCommand>& cli_commands() {
  static const std::vector<CliCommand> commands = {
      {"list", "  list                          the experiments\n",
       [](const std::vector<std::string>&) { return cmd_list(); }},
      {"papers", "  papers                        the papers: title, authors, arXiv id, experiments, story\n",
       [](const std::vector<std::string>&) { return cmd_papers(); }},
      {"help", "  help EXPERIMENT               its parameters (type, range, default, help) and presets\n",
       [](const std::vector<std::string>& rest) {
         if (rest.empty()) return std::fputs(usage().c_str(), stdout), 0;
         return cmd_help(rest[0]);
       }},
      {"run",
       "  run EXPERIMENT [options] [--jobs N] [--figures DIR]\n"
       "                                run it and write the results table; --figures also writes\n"
       "                                each plot as DIR/<experiment>-<preset|custom>-seed<N>-plot<K>.svg\n"
       "                                and each heatmap as ...-heatmap<K>.svg (with its colour bar)\n"
       "                                and ...-heatmap<K>.png (the matrix alone) (K = 1, 2, ...)\n"
       "  run EXPERIMENT [options] --shard I/K --out PART.json\n"
       "                                run only shard I of K of the run's work units and write their\n"
       "                                partial results (JSON) for 'merge'\n",
       cmd_run},
      {"merge",
       "  merge PART.json... [--out FILE] [--format csv|json] [--data FILE] [--figures DIR]\n"
       "                                put the K shards of one run together: the same table one\n"
       "                                process writes (format: --format, else the --out extension)\n",
       cmd_merge},
      {"inspect",
       "  inspect EXPERIMENT [options] [--point K] [--trial T]\n"
       "                                one trial of sweep point K (default 0) up close: per-token\n"
       "                                table as CSV; --format json adds the attention matrices\n",
       cmd_inspect},
      {"link", "  link EXPERIMENT [options]     print the page's URL hash for these settings\n", cmd_link},
      {"stories",
       "  stories [STORY]               the guided stories (one per paper): each step's title, link\n"
       "                                and settings; with STORY also each step's text and question\n",
       cmd_stories},
      {"reproduce",
       "  reproduce PAPER --out DIR [--paper-trials] [--set KEY=VALUE] [--seed N] [--jobs N] [--quiet]\n"
       "            [--figures FDIR]    every figure panel of a paper (PAPER: " + reproduction_list() + "): one CSV\n"
       "                                per panel and DIR/index.csv; --paper-trials uses the\n"
       "                                paper's trial counts; panels run on N threads (default: cores);\n"
       "                                --figures writes each of the paper's figures as one multi-panel\n"
       "                                SVG laid out as in the paper, FDIR/<paper>-<figure>-seed<N>.svg\n",
       cmd_reproduce},
      {"bench",
       "  bench [--seconds S] [--format text|json]\n"
       "                                throughput of the benchmark workloads\n",
       cmd_bench},
  };
  return commands;
}

// The usage text: every command's synopsis, then the options.
std::string usage() {
  std::string text = "usage: attnlab COMMAND [ARGS]\n\ncommands:\n";
  for (const CliCommand& c : cli_commands()) text += c.synopsis;
  return text + "  --version\n\n" + run_options_usage();
}

}  // namespace

// [SECTION] main

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  try {
    if (args.empty() || args[0] == "--help" || args[0] == "-h") {
      std::fputs(usage().c_str(), args.empty() ? stderr : stdout);
      return args.empty() ? 2 : 0;
    }
    const std::string cmd = args[0];
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    if (cmd == "--version") return std::printf("attnlab %s\n", kVersion), 0;
    const auto name_of = [](const CliCommand& c) { return std::string(c.name); };
    if (const CliCommand* c = find_named_or_null(cli_commands(), cmd, name_of)) return c->handler(rest);
    throw UsageError{"unknown command '" + cmd + "' (commands: " + known_names(cli_commands(), name_of) + ")"};
  } catch (const UsageError& e) {
    std::fprintf(stderr, "attnlab: %s (see 'attnlab --help')\n", readable_message(e.message).c_str());
    return 2;
  } catch (const ParamError& e) {
    std::fprintf(stderr, "attnlab: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "attnlab: error: %s\n", readable_message(e.what()).c_str());
    return 1;
  }
}
