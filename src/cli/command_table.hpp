// The CLI's commands, once: each command's name, the words it takes besides options, what it does
// and its handler. The usage text, `attnlab COMMAND --help`, the dispatch and the unknown-command
// message read this table; the options come from the option table (cli/option_table.hpp).
#pragma once
#include <string>
#include <vector>

#include "cli/option_table.hpp"

namespace attnlab::cli {

struct CliCommand {
  std::string name;
  std::string arguments;     // the words besides options, as the usage shows them: "EXPERIMENT"
  std::size_t min_words = 0, max_words = 0;  // how many such words it takes (max: SIZE_MAX for any number)
  std::string missing;       // the message when too few are given
  std::string description;   // what it does
  int (*handler)(const ParsedArgs& args) = nullptr;
};

const std::vector<CliCommand>& cli_commands();

// The whole usage text: every command, then every option with the commands that take it.
std::string usage();
// One command's usage: its synopsis and description, then its options.
std::string command_usage(const CliCommand& command);

// Runs `attnlab ARGS...` (the words after the program's name); returns the exit code. Throws
// UsageError, ParamError and std::exception as the commands do (main prints them).
int run_cli(const std::vector<std::string>& args);

}  // namespace attnlab::cli
