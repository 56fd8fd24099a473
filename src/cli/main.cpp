// The native `attnlab` command: its commands are the table in cli/command_table.cpp, its options
// the table in cli/option_table.cpp. Bad input exits with code 2 and one line naming the parameter
// or option, the value and what is allowed; a failure while running exits with code 1.
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "cli/command_table.hpp"
#include "lab/param.hpp"

int main(int argc, char** argv) {
  using namespace attnlab;
  try {
    return cli::run_cli(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const cli::UsageError& e) {
    const std::string help = "attnlab " + (e.command.empty() ? "" : e.command + " ") + "--help";
    std::fprintf(stderr, "attnlab: %s (see '%s')\n", readable_message(e.message).c_str(), help.c_str());
    return 2;
  } catch (const ParamError& e) {
    std::fprintf(stderr, "attnlab: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "attnlab: error: %s\n", readable_message(e.what()).c_str());
    return 1;
  }
}
