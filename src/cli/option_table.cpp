#include "cli/option_table.hpp"

#include <algorithm>
#include <cstdlib>

#include "bench/workloads.hpp"
#include "cli/bench_format.hpp"
#include "experiments/registry.hpp"
#include "lab/export_format.hpp"
#include "lab/shard.hpp"
#include "lab/text.hpp"
#include "lab/url_hash.hpp"

namespace attnlab::cli {

namespace {

constexpr long long kMaxJobs = 256;  // the most threads --jobs may ask for

std::string joined(const std::vector<std::string>& items, const std::string& separator) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : separator) + s;
  return out;
}

// The experiments that take a data file, each with the setting --data applies.
std::string data_experiments() {
  std::vector<std::string> names;
  for (const auto& id : experiment_ids()) {
    const Experiment::DataSelector s = make_experiment(id)->data_selector();
    if (!s.key.empty()) names.push_back(id + " (" + s.key + "=" + s.value + ")");
  }
  return names.empty() ? "none" : joined(names, ", ");
}

OptionSpec choice(std::string name, std::vector<std::string> commands, std::vector<std::string> choices,
                  std::string help) {
  OptionSpec o{std::move(name), std::move(commands), ArgKind::Choice, joined(choices, "|"), std::move(help)};
  o.choices = std::move(choices);
  return o;
}

OptionSpec count(std::string name, std::vector<std::string> commands, std::string value_name, long long max,
                 std::string help) {
  OptionSpec o{std::move(name), std::move(commands), ArgKind::Count, std::move(value_name), std::move(help)};
  o.max = max;
  return o;
}

OptionSpec repeatable(OptionSpec o) {
  o.repeatable = true;
  return o;
}

std::vector<OptionSpec> make_table() {
  const std::vector<std::string> experiment_runs = {"run", "inspect", "link"};
  return {
      {"--preset", experiment_runs, ArgKind::Text, "NAME", "start from a preset (see help EXPERIMENT)"},
      repeatable({"--set", {"run", "inspect", "link", "reproduce"}, ArgKind::KeyValue, "KEY=VALUE",
                  "set one parameter (repeatable; applied after the preset; reproduce: to every panel)"}),
      repeatable({"--sweep", experiment_runs, ArgKind::Text, "SPEC",
                  "same as --set sweep=SPEC, e.g. --sweep m=1:100:1 or --sweep n=100,200"}),
      {"--seed", {"run", "inspect", "link", "reproduce"}, ArgKind::Seed, "N", "random seed, 0..4294967295 (default 1)"},
      choice("--format", {"run", "inspect", "merge"}, kTableFormats.names(),
             "output format (default csv; merge: else the --out extension; a shard is JSON)"),
      choice("--format", {"bench"}, kBenchFormats.names(), "a table of rates or JSON (default text)"),
      {"--out", {"run", "inspect", "merge"}, ArgKind::Text, "FILE", "write to FILE instead of standard output"},
      {"--out", {"reproduce"}, ArgKind::Text, "DIR", "the folder for one CSV per panel and index.csv (required)"},
      {"--data", {"run", "inspect", "merge"}, ArgKind::Text, "FILE.json",
       "a data file for the experiments that take one; it applies the setting that selects it (" +
           data_experiments() + "; the format: help EXPERIMENT); merge: the file the shards were computed from"},
      count("--jobs", {"run", "reproduce"}, "N", kMaxJobs,
            "threads (default: every core, at most " + std::to_string(kMaxJobs) + "); results do not depend on N"),
      {"--quiet", {"run", "merge", "reproduce"}, ArgKind::Flag, "", "no progress bar"},
      count("--point", {"inspect"}, "K", 9999, "the sweep point to inspect (default 0)"),
      count("--trial", {"inspect"}, "T", 999999, "the trial of that point (default 0)"),
      {"--figures", {"run", "merge"}, ArgKind::Text, "DIR",
       "also write each plot as DIR/<experiment>-<preset|custom>-seed<N>-plot<K>.svg and each heatmap as "
       "...-heatmap<K>.svg (with its colour bar) and ...-heatmap<K>.png (the matrix alone) (K = 1, 2, ...)"},
      {"--figures", {"reproduce"}, ArgKind::Text, "FDIR",
       "also write each of the paper's figures as one multi-panel SVG laid out as in the paper, "
       "FDIR/<paper>-<figure>-seed<N>.svg"},
      {"--shard", {"run"}, ArgKind::Shard, "I/K",
       "run only shard I of K of the run's work units and write their partial results (JSON) for 'merge'"},
      {"--paper-trials", {"reproduce"}, ArgKind::Flag, "", "use the paper's trial counts"},
      {"--seconds", {"bench"}, ArgKind::Seconds, "S", "time each workload for at least S seconds, in (0, 600] (default 1)"},
  };
}

bool takes(const OptionSpec& o, const std::string& command) {
  return std::find(o.commands.begin(), o.commands.end(), command) != o.commands.end();
}

std::string not_allowed(const OptionSpec& o, const std::string& value, const std::string& allowed) {
  return "option " + o.name + ": '" + value + "' is not allowed; allowed: " + allowed;
}

// Checks `value` against the option's kind; throws UsageError naming the option.
void check_value(const OptionSpec& o, const std::string& value) {
  switch (o.kind) {
    case ArgKind::Flag:
    case ArgKind::Text:
      return;
    case ArgKind::Count: {
      const long long v = parse_digits(value, 10).value_or(-1);
      if (v < 0 || v > o.max) throw UsageError{not_allowed(o, value, "integer in [0, " + std::to_string(o.max) + "]")};
      return;
    }
    case ArgKind::Seed:
      parse_seed(value);  // a ParamError naming the seed and its range
      return;
    case ArgKind::Choice:
      if (std::find(o.choices.begin(), o.choices.end(), value) == o.choices.end())
        throw UsageError{not_allowed(o, value, or_list(o.choices))};
      return;
    case ArgKind::KeyValue: {
      const std::size_t eq = value.find('=');
      if (eq == std::string::npos || eq == 0) throw UsageError{"option " + o.name + ": '" + value + "' is not KEY=VALUE"};
      return;
    }
    case ArgKind::Shard:
      parse_shard_spec(value);  // a ParamError: "option --shard: ... allowed: I/K with ..."
      return;
    case ArgKind::Seconds: {
      const double s = is_plain_decimal(value) ? std::strtod(value.c_str(), nullptr) : 0.0;
      if (!(s > 0.0 && s <= kMaxBenchSeconds)) throw UsageError{not_allowed(o, value, "number in (0, 600]")};
      return;
    }
  }
}

std::string names_of(const std::vector<const OptionSpec*>& options) {
  std::vector<std::string> names;
  for (const OptionSpec* o : options) names.push_back(o->name);
  return names.empty() ? "no options" : joined(names, ", ");
}

}  // namespace

const std::vector<OptionSpec>& option_table() {
  static const std::vector<OptionSpec> table = make_table();
  return table;
}

std::vector<const OptionSpec*> options_of(const std::string& command) {
  std::vector<const OptionSpec*> out;
  for (const OptionSpec& o : option_table())
    if (takes(o, command)) out.push_back(&o);
  return out;
}

void wrap(std::string& out, const std::string& text, std::size_t indent, std::size_t width) {
  std::size_t column = indent;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(start, end - start);
    if (column > indent && column + 1 + word.size() > width) {
      out += "\n" + std::string(indent, ' ');
      column = indent;
    } else if (column > indent) {
      out += ' ';
      ++column;
    }
    out += word;
    column += word.size();
    start = end + 1;
  }
  out += '\n';
}

std::string or_list(const std::vector<std::string>& items) {
  if (items.size() < 2) return joined(items, "");
  return joined(std::vector<std::string>(items.begin(), items.end() - 1), ", ") + " or " + items.back();
}

bool ParsedArgs::has(const std::string& name) const {
  return std::any_of(options.begin(), options.end(), [&](const auto& o) { return o.first == name; });
}

std::string ParsedArgs::text(const std::string& name, const std::string& fallback) const {
  for (const auto& [n, v] : options)
    if (n == name) return v;
  return fallback;
}

long long ParsedArgs::count(const std::string& name, long long fallback) const {
  return has(name) ? std::strtoll(text(name).c_str(), nullptr, 10) : fallback;
}

ParsedArgs parse_options(const std::string& command, const std::vector<std::string>& args) {
  const std::vector<const OptionSpec*> mine = options_of(command);
  ParsedArgs parsed;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") {
      parsed.help = true;
      continue;
    }
    if (a.size() < 2 || a[0] != '-') {
      parsed.positionals.push_back(a);
      continue;
    }
    const auto it = std::find_if(mine.begin(), mine.end(), [&](const OptionSpec* o) { return o->name == a; });
    if (it == mine.end()) {
      const bool known = std::any_of(option_table().begin(), option_table().end(),
                                     [&](const OptionSpec& o) { return o.name == a; });
      throw UsageError{(known ? a + " is not an option of " + command : "unknown option '" + a + "'") + "; " + command +
                       " takes: " + names_of(mine)};
    }
    const OptionSpec& o = **it;
    if (!o.repeatable && parsed.has(o.name)) throw UsageError{"option " + o.name + " is given twice; give it once"};
    std::string value;
    if (o.kind != ArgKind::Flag) {
      if (i + 1 >= args.size()) throw UsageError{"option " + o.name + " needs a value (" + o.value_name + ")"};
      value = args[++i];
      check_value(o, value);
    }
    parsed.options.emplace_back(o.name, value);
  }
  return parsed;
}

std::string usage_head(const std::string& head) {
  if (head.size() + 1 < kIndent) return head + std::string(kIndent - head.size(), ' ');
  return head + "\n" + std::string(kIndent, ' ');
}

std::string options_usage(const std::vector<const OptionSpec*>& options, bool with_commands) {
  std::string out;
  for (const OptionSpec* o : options) {
    out += usage_head("  " + o->name + (o->value_name.empty() ? "" : " " + o->value_name));
    wrap(out, o->help + (with_commands ? " [" + joined(o->commands, ", ") + "]" : ""), kIndent, kWidth);
  }
  return out;
}

}  // namespace attnlab::cli
