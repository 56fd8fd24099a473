#include "cli/command_table.hpp"

#include <cstdint>
#include <cstdio>

#include "cli/commands.hpp"
#include "experiments/reproductions.hpp"
#include "lab/find_named.hpp"
#include "lab/version.hpp"

namespace attnlab::cli {

namespace {

constexpr std::size_t kAny = SIZE_MAX;

std::string reproduction_list() {
  std::string out;
  for (const auto& n : reproduction_names()) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// "  run EXPERIMENT [options]" and what it does.
std::string synopsis(const CliCommand& c) {
  std::string out = usage_head("  " + c.name + (c.arguments.empty() ? "" : " " + c.arguments) +
                               (options_of(c.name).empty() ? "" : " [options]"));
  wrap(out, c.description);
  return out;
}

const CliCommand& find_command(const std::string& name) {
  const auto name_of = [](const CliCommand& c) { return c.name; };
  if (const CliCommand* c = find_named_or_null(cli_commands(), name, name_of)) return *c;
  throw UsageError{"unknown command '" + name + "' (commands: " + known_names(cli_commands(), name_of) + ")"};
}

}  // namespace

const std::vector<CliCommand>& cli_commands() {
  static const std::vector<CliCommand> commands = {
      {"list", "", 0, 0, "", "the experiments", cmd_list},
      {"papers", "", 0, 0, "", "the papers: title, authors, arXiv id, experiments, story", cmd_papers},
      {"help", "[EXPERIMENT]", 0, 1, "",
       "this text; with EXPERIMENT its parameters (type, range, default, help) and presets", cmd_help},
      {"run", "EXPERIMENT", 1, 1, "missing EXPERIMENT ('attnlab list' lists them)",
       "run it and write the results table (with --shard I/K: one shard's partial results for 'merge')",
       cmd_run},
      {"merge", "PART.json...", 1, kAny, "merge needs the shard files (PART.json...)",
       "put the K shards of one run together: the same table one process writes (format: --format, else the --out "
       "extension)",
       cmd_merge},
      {"inspect", "EXPERIMENT", 1, 1, "missing EXPERIMENT ('attnlab list' lists them)",
       "one trial of sweep point K (default 0) up close: per-token table as CSV; --format json adds the attention "
       "matrices",
       cmd_inspect},
      {"link", "EXPERIMENT", 1, 1, "missing EXPERIMENT ('attnlab list' lists them)",
       "print the page's URL hash for these settings", cmd_link},
      {"stories", "[STORY]", 0, 1, "",
       "the guided stories (one per paper): each step's title, link and settings; with STORY also each step's text "
       "and question",
       cmd_stories},
      {"reproduce", "PAPER", 1, 1, "missing PAPER (one of: " + reproduction_list() + ")",
       "every figure panel of a paper (PAPER: " + reproduction_list() +
           "): one CSV per panel and DIR/index.csv; panels run on N threads (default: cores)",
       cmd_reproduce},
      {"bench", "", 0, 0, "", "throughput of the benchmark workloads", cmd_bench},
  };
  return commands;
}

std::string usage() {
  std::string text = "usage: attnlab COMMAND [ARGS]   (attnlab COMMAND --help: its options)\n\ncommands:\n";
  for (const CliCommand& c : cli_commands()) text += synopsis(c);
  text += "  --version\n\noptions (in brackets: the commands that take each one):\n";
  std::vector<const OptionSpec*> all;
  for (const OptionSpec& o : option_table()) all.push_back(&o);
  return text + options_usage(all, true);
}

std::string command_usage(const CliCommand& command) {
  const std::vector<const OptionSpec*> options = options_of(command.name);
  std::string text = "usage: attnlab " + command.name + (command.arguments.empty() ? "" : " " + command.arguments) +
                     (options.empty() ? "" : " [options]") + "\n\n" + synopsis(command);
  if (options.empty()) return text + "\n" + command.name + " takes no options\n";
  return text + "\noptions of " + command.name + ":\n" + options_usage(options, false);
}

int run_cli(const std::vector<std::string>& args) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    std::fputs(usage().c_str(), args.empty() ? stderr : stdout);
    return args.empty() ? 2 : 0;
  }
  if (args[0] == "--version") return std::printf("attnlab %s\n", kVersion), 0;
  const CliCommand& command = find_command(args[0]);
  try {
    const ParsedArgs parsed = parse_options(command.name, std::vector<std::string>(args.begin() + 1, args.end()));
    if (parsed.help) return std::fputs(command_usage(command).c_str(), stdout), 0;
    const std::size_t words = parsed.positionals.size();
    if (words < command.min_words) throw UsageError{command.missing};
    if (words > command.max_words)
      throw UsageError{command.name + " takes " + (command.max_words == 0 ? "no arguments" : command.arguments) + "; '" +
                       parsed.positionals[command.max_words] + "' is one too many"};
    return command.handler(parsed);
  } catch (UsageError& e) {
    e.command = command.name;
    throw;
  }
}

}  // namespace attnlab::cli
