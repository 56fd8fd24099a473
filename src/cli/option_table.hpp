// The CLI's options, once: each option's name, its argument and how it is checked, its help and
// the commands that take it. Parsing, validation, each command's refusal of an option it does not
// take and the options' part of the usage text all read this table (docs/design.md, "The CLI").
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace attnlab::cli {

// Bad usage: main prints "attnlab: MESSAGE (see 'attnlab COMMAND --help')" and exits with code 2.
struct UsageError {
  std::string message;
  std::string command = "";  // set by run_cli for an error inside a command
};

// How an option's argument is checked.
enum class ArgKind {
  Flag,     // no argument
  Text,     // any text (a name, a file, a folder; what it names is checked where it is used)
  Count,    // a plain integer in [0, max]
  Seed,     // a seed, 0..4294967295
  Choice,   // one of `choices`
  KeyValue, // KEY=VALUE (--set)
  Shard,    // I/K (lab/shard.hpp)
  Seconds,  // a plain decimal number in (0, 600]
};

struct OptionSpec {
  std::string name;                   // "--format"
  std::vector<std::string> commands;  // the commands that take it
  ArgKind kind = ArgKind::Flag;
  std::string value_name;             // "FILE", "N"; a Choice's is its choices joined by '|'
  std::string help;
  long long max = 0;                  // Count: the largest value
  std::vector<std::string> choices;   // Choice
  bool repeatable = false;            // otherwise given twice is refused
};

// The table, in the order the usage text lists it. One name may have a row per group of commands
// (--format is csv|json for run, inspect and merge, text|json for bench).
const std::vector<OptionSpec>& option_table();

// The options `command` takes, in table order.
std::vector<const OptionSpec*> options_of(const std::string& command);

// A command's arguments as the table read them: the words that are not options (in order), and
// each option given with its value ("" for a flag), in order. Every value has passed its check.
struct ParsedArgs {
  std::vector<std::string> positionals;
  std::vector<std::pair<std::string, std::string>> options;
  bool help = false;  // --help or -h was given: the command prints its usage and does nothing else

  bool has(const std::string& name) const;
  // The option's value, or `fallback` when it is not given.
  std::string text(const std::string& name, const std::string& fallback = "") const;
  long long count(const std::string& name, long long fallback) const;
};

// Reads `args` (the words after the command's name) for `command`. Throws UsageError for an option
// `command` does not take ("--out is not an option of link; link takes: --preset, ..."), a missing
// or refused value (naming the option, the value and what is allowed) and an option given twice.
ParsedArgs parse_options(const std::string& command, const std::vector<std::string>& args);

// "  --preset NAME      start from a preset ...\n" for each of `options`, with the commands that
// take each one when `with_commands`.
std::string options_usage(const std::vector<const OptionSpec*>& options, bool with_commands);

// The usage text's layout: a head ("  --out FILE", "  run EXPERIMENT [options]") padded to the
// help's column (kIndent), or on a line of its own when longer; the help wrapped at kWidth.
constexpr std::size_t kIndent = 32, kWidth = 100;
std::string usage_head(const std::string& head);
// Appends `text` to `out` in lines of at most `width` characters, each after `indent` spaces but
// the first, which continues the current line.
void wrap(std::string& out, const std::string& text, std::size_t indent = kIndent, std::size_t width = kWidth);

// "csv or json", "a, b or c".
std::string or_list(const std::vector<std::string>& items);

}  // namespace attnlab::cli
