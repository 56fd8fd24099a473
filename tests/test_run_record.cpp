#include <catch2/catch.hpp>
#include <sstream>

#include "experiments/registry.hpp"
#include "lab/run_record.hpp"
#include "lab/runner.hpp"
#include "lab/version.hpp"

using namespace attnlab;

namespace {
RunRecord small_run() {
  auto e = make_experiment("separation.toy");
  const Params p = e->make_params("", {{"n", "200"}, {"sweep", "m=1:3:1"}, {"trials", "50"}});
  e->reset(p, 7);
  run_to_completion(*e);
  return make_record(*e, p, "", 7);
}

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}
}  // namespace

TEST_CASE("CSV carries version, seed, every parameter and one row per sweep point", "[lab][writers]") {
  const RunRecord r = small_run();
  const auto lines = lines_of(to_csv(r));
  CHECK(lines[0] == std::string("# attnlab_version=") + kVersion);
  CHECK(lines[1] == "# experiment=separation.toy");
  CHECK(lines[3] == "# seed=7");
  std::size_t k = 4;
  for (const auto& [key, value] : r.params) CHECK(lines[k++] == "# " + key + "=" + value);
  CHECK(lines[k] ==
        "n,m,tau,theory,trials,successes,success_rate,ci_low,ci_high,exp_d1,exp_d1_low,exp_d1_high,lin_d1,"
        "lin_d1_low,lin_d1_high,exp_d0,exp_d0_low,exp_d0_high,lin_d0,lin_d0_low,lin_d0_high,near_ties");
  REQUIRE(lines.size() == k + 1 + 3);
  CHECK(lines[k + 1].rfind("200,1,0.25,0.5,50,", 0) == 0);
  CHECK(lines[k + 3].rfind("200,3,0.25,0.875,50,", 0) == 0);
}

TEST_CASE("JSON carries the same content", "[lab][writers]") {
  const RunRecord r = small_run();
  const std::string json = to_json(r);
  CHECK(json.rfind(std::string("{\"attnlab_version\":\"") + kVersion + "\"", 0) == 0);
  CHECK(json.find("\"experiment\":\"separation.toy\"") != std::string::npos);
  CHECK(json.find("\"seed\":7") != std::string::npos);
  CHECK(json.find("\"sweep\":\"m=1:3:1\"") != std::string::npos);
  CHECK(json.find("\"complete\":true") != std::string::npos);
  CHECK(json.find("\"rows\":[[200,1,0.25,0.5,50,") != std::string::npos);
  CHECK(json.back() == '}');
}

TEST_CASE("JSON escapes strings and writes NaN as null", "[lab][writers]") {
  CHECK(json_escape("a\"b\\c\nd") == "\"a\\\"b\\\\c\\nd\"");
  RunRecord r;
  r.experiment = "x";
  r.results.table.columns = {"v"};
  r.results.table.rows = {{std::nan("")}};
  CHECK(to_json(r).find("\"rows\":[[null]]") != std::string::npos);
  CHECK(to_csv(r).find("\nv\n\n") != std::string::npos);
}
