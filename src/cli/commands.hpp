// The handlers of the CLI's commands (cli/command_table.hpp lists them): each takes its arguments
// as the option table read them and returns the exit code.
#pragma once
#include <cstdint>

#include "cli/option_table.hpp"
#include "lab/schema.hpp"
#include "lab/story.hpp"

namespace attnlab::cli {

// cli/run_commands.cpp: the commands that compute a run's table.
int cmd_run(const ParsedArgs& args);
int cmd_merge(const ParsedArgs& args);
int cmd_inspect(const ParsedArgs& args);

// cli/info_commands.cpp: the commands that describe, link, reproduce and measure.
int cmd_list(const ParsedArgs& args);
int cmd_papers(const ParsedArgs& args);
int cmd_help(const ParsedArgs& args);
int cmd_link(const ParsedArgs& args);
int cmd_stories(const ParsedArgs& args);
int cmd_reproduce(const ParsedArgs& args);
int cmd_bench(const ParsedArgs& args);
// `stories`' text of one story: each step's title, link and command, its prediction's question and
// choices (never the answer); with `full` (stories ID) also each step's text and question.
std::string story_text(const Story& story, bool full);

// The settings the run-like commands (run, inspect, link) share: --set and --sweep in the order
// given (refused when one parameter is given twice), --preset, --seed.
struct RunSettings {
  std::string experiment, preset;
  KeyValues sets;
  std::uint64_t seed = 1;
};
RunSettings run_settings(const ParsedArgs& args);

// --jobs N, else every core (run and reproduce).
int jobs_of(const ParsedArgs& args);

}  // namespace attnlab::cli
