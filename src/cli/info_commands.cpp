// `attnlab list`, `papers`, `help`, `link`, `stories`, `reproduce` and `bench`, and the settings the
// run-like commands share.
#include <cstdio>

#include "bench/workloads.hpp"
#include "cli/bench_format.hpp"
#include "cli/command_table.hpp"
#include "cli/commands.hpp"
#include "cli/reproduce.hpp"
#include "experiments/papers.hpp"
#include "experiments/registry.hpp"
#include "experiments/reproductions.hpp"
#include "experiments/stories.hpp"
#include "lab/url_hash.hpp"

namespace attnlab::cli {

namespace {

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// The same CLI arguments that open a step's settings ("separation.toy --preset fig3b --set ...").
std::string settings_arguments(const StorySettings& s) {
  std::string out = s.experiment + (s.preset.empty() ? "" : " --preset " + s.preset);
  for (const auto& [k, v] : s.params) out += " --set " + k + "=" + v;
  return out + " --seed " + std::to_string(s.seed);
}

}  // namespace

RunSettings run_settings(const ParsedArgs& args) {
  RunSettings s;
  s.experiment = args.positionals.at(0);
  s.preset = args.text("--preset");
  if (args.has("--seed")) s.seed = parse_seed(args.text("--seed"));
  for (const auto& [name, value] : args.options) {
    if (name == "--sweep") s.sets.emplace_back("sweep", value);
    if (name == "--set") s.sets.emplace_back(value.substr(0, value.find('=')), value.substr(value.find('=') + 1));
  }
  const std::string twice = first_repeated_key(s.sets);
  if (!twice.empty())
    throw UsageError{"parameter '" + twice + "' is given twice (by --set" + (twice == "sweep" ? " or --sweep" : "") +
                     "); give it once"};
  return s;
}

int cmd_list(const ParsedArgs&) {
  for (const auto& id : experiment_ids())
    std::printf("%-20s %s\n", id.c_str(), make_experiment(id)->info().title.c_str());
  return 0;
}

// Every paper (src/experiments/papers.cpp): its title, authors, arXiv id, page, experiments, story
// and reproduction.
int cmd_papers(const ParsedArgs&) {
  for (const Paper& p : papers()) {
    std::printf("%s: %s\n  %s, arXiv %s, %s\n  experiments: %s\n", p.id.c_str(), p.title.c_str(), p.authors.c_str(),
                p.arxiv.c_str(), p.docs_page.c_str(), joined(p.experiments).c_str());
    std::printf("  story: %s\n  reproduction: %s\n", p.story.empty() ? "(none)" : p.story.c_str(),
                p.reproduction.empty() ? "(none)" : p.reproduction.c_str());
  }
  return 0;
}

int cmd_help(const ParsedArgs& args) {
  if (args.positionals.empty()) return std::fputs(usage().c_str(), stdout), 0;
  auto e = make_experiment(args.positionals[0]);
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

int cmd_link(const ParsedArgs& args) {
  const RunSettings s = run_settings(args);
  auto e = make_experiment(s.experiment);
  HashState st;
  st.experiment = e->info().id;
  st.params = e->schema().to_key_values(e->make_params(s.preset, s.sets));
  st.has_seed = true;
  st.seed = s.seed;
  std::printf("#%s\n", encode_hash(st).c_str());
  return 0;
}

std::string story_text(const Story& s, bool full) {
  std::string out = s.id + ": " + s.paper + " (" + s.authors + ")\n  " + s.result + "\n";
  for (std::size_t k = 0; k < s.steps.size(); ++k) {
    const StoryStep& step = s.steps[k];
    out += "  " + std::to_string(k + 1) + ". " + step.title + "  #" +
           encode_story_hash({s.id, k, std::nullopt}, step, {}, step.settings.seed, {}) + "\n     attnlab run " +
           settings_arguments(step.settings) + "\n";
    if (full) out += "     " + step.text + "\n     Question: " + step.question + "\n";
    if (!step.prediction) continue;
    // The question and what the student may answer; never the answer (the choices' ranges).
    const StoryPrediction& p = *step.prediction;
    out += "     Predict first: " + p.question + "\n";
    for (std::size_t i = 0; i < p.choices.size(); ++i)
      out += "       (" + std::string(1, static_cast<char>('a' + i)) + ") " + p.choices[i].label + "\n";
    if (p.choices.empty())
      out += "       a number in [" + format_number(p.min) + ", " + format_number(p.max) + "]" + (p.percent ? " %" : "") + "\n";
  }
  return out;
}

int cmd_stories(const ParsedArgs& args) {
  const bool full = !args.positionals.empty();
  if (full) story(args.positionals[0]);  // an unknown id: the error names the stories
  for (const Story& s : stories())
    if (!full || s.id == args.positionals[0]) std::fputs(story_text(s, full).c_str(), stdout);
  return 0;
}

int cmd_reproduce(const ParsedArgs& args) {
  ReproduceOptions o;
  o.name = args.positionals.at(0);
  reproduction_panels(o.name);  // names the known papers when unknown
  if (!args.has("--out")) throw UsageError{"reproduce needs --out DIR"};
  o.out_dir = args.text("--out");
  if (args.has("--seed")) o.seed = parse_seed(args.text("--seed"));
  o.jobs = jobs_of(args);
  o.quiet = args.has("--quiet");
  o.figures = args.text("--figures");
  for (const auto& [name, value] : args.options) {
    if (name == "--paper-trials") o.sets.emplace_back("paper_trials", "true");
    if (name == "--set") o.sets.emplace_back(value.substr(0, value.find('=')), value.substr(value.find('=') + 1));
  }
  return reproduce(o);
}

int cmd_bench(const ParsedArgs& args) {
  const double seconds = args.has("--seconds") ? std::strtod(args.text("--seconds").c_str(), nullptr) : 1.0;
  const BenchFormat format = kBenchFormats.decode("--format", args.text("--format", "text"));
  const auto results = run_benchmarks(seconds);
  if (format == BenchFormat::Json) {
    std::printf("%s\n", bench_json(results).c_str());
  } else {
    for (const auto& r : results)
      std::printf("%-34s %12.4g %s  (%lld in %.2f s)\n", r.name.c_str(), r.rate, r.unit.c_str(), r.units, r.seconds);
  }
  return 0;
}

}  // namespace attnlab::cli
