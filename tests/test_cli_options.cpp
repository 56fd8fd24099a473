// The CLI's option table (src/cli/option_table.hpp) and command table: parsing, the checks of each
// argument, the refusal of an option a command does not take, the usage text made from the table,
// and the export formats' choice tables (native only: the CLI is not built to wasm).
#include <catch2/catch.hpp>
#include <set>

#include "bench/workloads.hpp"
#include "cli/bench_format.hpp"
#include "cli/command_table.hpp"
#include "cli/commands.hpp"
#include "experiments/stories.hpp"
#include "cli/option_table.hpp"
#include "lab/export_format.hpp"
#include "lab/param.hpp"

using namespace attnlab;
using namespace attnlab::cli;

namespace {

std::string refusal(const std::string& command, const std::vector<std::string>& args) {
  try {
    parse_options(command, args);
  } catch (const UsageError& e) {
    return e.message;
  } catch (const ParamError& e) {
    return e.what();
  }
  return "(accepted)";
}

std::set<std::string> names_of(const std::string& command) {
  std::set<std::string> out;
  for (const OptionSpec* o : options_of(command)) out.insert(o->name);
  return out;
}

}  // namespace

TEST_CASE("each command takes exactly its options", "[cli]") {
  using Names = std::set<std::string>;
  CHECK(names_of("link") == Names{"--preset", "--set", "--sweep", "--seed"});
  CHECK(names_of("run") == Names{"--preset", "--set", "--sweep", "--seed", "--format", "--out", "--data", "--jobs",
                                 "--quiet", "--figures", "--shard"});
  CHECK(names_of("inspect") ==
        Names{"--preset", "--set", "--sweep", "--seed", "--format", "--out", "--data", "--point", "--trial"});
  CHECK(names_of("merge") == Names{"--format", "--out", "--data", "--figures", "--quiet"});
  CHECK(names_of("reproduce") == Names{"--set", "--seed", "--out", "--jobs", "--quiet", "--figures", "--paper-trials"});
  CHECK(names_of("bench") == Names{"--seconds", "--format"});
  for (const char* none : {"list", "papers", "help", "stories"}) CHECK(names_of(none).empty());
  // Every option in the table belongs to a command of the command table.
  std::set<std::string> commands;
  for (const CliCommand& c : cli_commands()) commands.insert(c.name);
  for (const OptionSpec& o : option_table())
    for (const std::string& c : o.commands) CHECK(commands.count(c) == 1);
}

TEST_CASE("an option a command does not take is refused, naming what it takes", "[cli]") {
  CHECK(refusal("link", {"separation.toy", "--out", "x"}) ==
        "--out is not an option of link; link takes: --preset, --set, --sweep, --seed");
  CHECK(refusal("link", {"separation.toy", "--jobs", "2"}).rfind("--jobs is not an option of link;", 0) == 0);
  CHECK(refusal("link", {"separation.toy", "--format", "json"}).rfind("--format is not an option of link;", 0) == 0);
  CHECK(refusal("link", {"separation.toy", "--data", "f.json"}).rfind("--data is not an option of link;", 0) == 0);
  CHECK(refusal("inspect", {"separation.toy", "--shard", "1/2"}).rfind("--shard is not an option of inspect;", 0) == 0);
  CHECK(refusal("list", {"--quiet"}) == "--quiet is not an option of list; list takes: no options");
  CHECK(refusal("run", {"x", "--nope"}).rfind("unknown option '--nope'; run takes: --preset,", 0) == 0);
}

TEST_CASE("each argument is checked by its kind, naming the option and what is allowed", "[cli]") {
  CHECK(refusal("run", {"x", "--format", "xml"}) == "option --format: 'xml' is not allowed; allowed: csv or json");
  CHECK(refusal("bench", {"--format", "csv"}) == "option --format: 'csv' is not allowed; allowed: text or json");
  CHECK(refusal("run", {"x", "--jobs", "257"}) == "option --jobs: '257' is not allowed; allowed: integer in [0, 256]");
  CHECK(refusal("inspect", {"x", "--point", "-1"}).find("allowed: integer in [0, 9999]") != std::string::npos);
  CHECK(refusal("run", {"x", "--seed", "4294967296"}).find("[0, 4294967295]") != std::string::npos);
  CHECK(refusal("run", {"x", "--set", "=1"}) == "option --set: '=1' is not KEY=VALUE");
  CHECK(refusal("run", {"x", "--shard", "4/3"}).find("option --shard:") != std::string::npos);
  CHECK(refusal("bench", {"--seconds", "601"}).find("allowed: number in (0, 600]") != std::string::npos);
  CHECK(refusal("run", {"x", "--out"}) == "option --out needs a value (FILE)");
  CHECK(refusal("run", {"x", "--seed", "1", "--seed", "2"}) == "option --seed is given twice; give it once");
  CHECK(refusal("run", {"x", "--set", "a=1", "--set", "b=2", "--quiet"}) == "(accepted)");
}

TEST_CASE("the parsed arguments keep the words and the options in order", "[cli]") {
  const ParsedArgs a = parse_options("run", {"--set", "n=3", "separation.toy", "--sweep", "m=1:2:1", "--jobs", "0"});
  CHECK(a.positionals == std::vector<std::string>{"separation.toy"});
  REQUIRE(a.options.size() == 3);
  CHECK(a.options[1] == std::make_pair(std::string("--sweep"), std::string("m=1:2:1")));
  CHECK(a.count("--jobs", 8) == 0);
  CHECK(a.count("--point", 5) == 5);
  CHECK(a.text("--out", "-") == "-");
  CHECK(parse_options("link", {"x", "--help"}).help);
}

TEST_CASE("the usage text is made from the tables", "[cli]") {
  const std::string text = usage();
  for (const CliCommand& c : cli_commands()) CHECK(text.find("\n  " + c.name) != std::string::npos);
  for (const OptionSpec& o : option_table()) CHECK(text.find("\n  " + o.name) != std::string::npos);
  CHECK(text.find("--jobs N") != std::string::npos);
  CHECK(text.find("[run, reproduce]") != std::string::npos);  // the commands that take --jobs
  // A command's usage lists exactly its options.
  for (const CliCommand& c : cli_commands()) {
    const std::string own = command_usage(c);
    for (const OptionSpec& o : option_table()) {
      const bool listed = own.find("\n  " + o.name + " ") != std::string::npos ||
                          own.find("\n  " + o.name + "\n") != std::string::npos;
      const bool takes = names_of(c.name).count(o.name) == 1;
      CHECK(listed == takes);
    }
  }
  for (const std::string& line : [&] {
         std::vector<std::string> lines;
         std::size_t start = 0;
         for (std::size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1)
           lines.push_back(text.substr(start, end - start));
         return lines;
       }())
    CHECK(line.size() <= kWidth);
}

TEST_CASE("the export formats are choice tables", "[cli][lab]") {
  CHECK(kTableFormats.names() == std::vector<std::string>{"csv", "json"});
  CHECK(kTableFormats.decode("--format", "json") == TableFormat::Json);
  CHECK_THROWS_WITH(kTableFormats.decode("download kind", "xml"),
                    Catch::Contains("'xml'") && Catch::Contains("download kind") && Catch::Contains("csv, json"));
  CHECK(kBenchFormats.names() == std::vector<std::string>{"text", "json"});
  CHECK(std::string(kBenchFormats.name_of(BenchFormat::Json)) == "json");
}

// `bench --format json` as it was written by hand before json_text: the same bytes.
TEST_CASE("bench's JSON: names escaped, numbers in the lab's spelling, keys in order", "[cli]") {
  const std::vector<BenchResult> results = {{"toy n=1000", "trials/s", 9872.638032435148, 0.25, 200},
                                            {"a \"quoted\" name", "steps/s", 3.0, 1e-09, 0}};
  CHECK(bench_json(results) ==
        "[{\"name\":\"toy n=1000\",\"unit\":\"trials/s\",\"rate\":9872.638032435148,\"seconds\":0.25,\"units\":200},"
        "{\"name\":\"a \\\"quoted\\\" name\",\"unit\":\"steps/s\",\"rate\":3,\"seconds\":1e-09,\"units\":0}]");
  CHECK(bench_json({}) == "[]");
}

// `attnlab stories`: every step's prediction, its question and each choice, and nothing of the
// answer (the choices' ranges, the measured label, the answer's sentences).
TEST_CASE("stories lists each step's prediction without its answer", "[cli]") {
  for (const Story& s : stories()) {
    const std::string text = story_text(s, false);
    INFO(s.id);
    std::size_t predictions = 0;
    for (const StoryStep& step : s.steps) {
      CHECK(text.find("#story=" + s.id + "&step=") != std::string::npos);
      if (!step.prediction) continue;
      ++predictions;
      CHECK(text.find("Predict first: " + step.prediction->question + "\n") != std::string::npos);
      for (const PredictionChoice& c : step.prediction->choices) CHECK(text.find(") " + c.label + "\n") != std::string::npos);
      CHECK(text.find(step.prediction->measured_label) == std::string::npos);
      for (const std::string& phrase : step.expect) CHECK(text.find(phrase) == std::string::npos);
    }
    CHECK(predictions == s.steps.size());
    CHECK(story_text(s, true).find("Question: " + s.steps[0].question) != std::string::npos);
  }
}
