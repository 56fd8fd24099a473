// The work-unit contract, for every registered experiment (DESIGN.md "Parallel work units"): its
// smoke run gives the same bytes in one go, in one-piece slices, split into k shards and merged
// (through the shard file's text), and on threads; another seed gives another table.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "experiments/registry.hpp"
#include "lab/partial_codec.hpp"
#include "lab/run_record.hpp"
#include "lab/shard.hpp"
#include "lab/version.hpp"
#ifndef __EMSCRIPTEN__
#include "lab/thread_pool_runner.hpp"
#endif

using namespace attnlab;

namespace {

struct SmokeRun {
  std::unique_ptr<Experiment> experiment;
  Params params;
};

SmokeRun smoke(const std::string& id, std::uint64_t seed) {
  SmokeRun r{make_experiment(id), {}};
  r.params = r.experiment->make_params("", r.experiment->smoke_settings());
  r.experiment->reset(r.params, seed);
  return r;
}

std::string csv(const SmokeRun& r, std::uint64_t seed) { return to_csv(make_record(*r.experiment, r.params, "", seed)); }

// Shard `spec` of the run, written as a shard file's text.
std::string shard_text(const std::string& id, std::uint64_t seed, const ShardSpec& spec) {
  SmokeRun r = smoke(id, seed);
  Shard s;
  s.spec = spec;
  s.run = {kVersion, id, "", seed, r.experiment->schema().to_key_values(r.params), "", r.experiment->unit_count()};
  for (std::int64_t u : shard_units(r.experiment->unit_count(), spec))
    s.units.emplace_back(u, run_task_to_end(*r.experiment->start_unit(u)));
  return to_shard_json(s);
}

}  // namespace

TEST_CASE("every experiment: one go = one-piece slices = k shards merged = threads; another seed differs",
          "[lab][units]") {
  const std::uint64_t seed = 11;
  for (const std::string& id : experiment_ids()) {
    DYNAMIC_SECTION(id) {
      SmokeRun whole = smoke(id, seed);
      REQUIRE(whole.experiment->unit_count() >= 2);  // the smoke run has several units to split
      whole.experiment->step(Budget{});                // (a) in one go
      REQUIRE(whole.experiment->progress().finished());
      const std::string expected = csv(whole, seed);
      CHECK(expected.find("# partial=") == std::string::npos);

      SmokeRun sliced = smoke(id, seed);  // (b) one piece per step
      Budget one;
      one.max_units = 1;
      std::int64_t steps = 0;
      while (!sliced.experiment->progress().finished() && steps < 10000000) sliced.experiment->step(one), ++steps;
      CHECK(steps >= whole.experiment->unit_count());
      CHECK(csv(sliced, seed) == expected);

      for (int k : {2, 3, 5}) {  // (c) k shards, merged in reverse order through their file text
        INFO(k << " shards");
        std::vector<Shard> shards;
        std::vector<std::string> names;
        for (int i = k; i >= 1; --i) {
          shards.push_back(parse_shard_json(shard_text(id, seed, {i, k}), "part-" + std::to_string(i)));
          names.push_back("part-" + std::to_string(i));
        }
        check_shards(shards, names);
        SmokeRun merged = smoke(id, seed);
        for (const Shard& s : shards)
          for (auto it = s.units.rbegin(); it != s.units.rend(); ++it) merged.experiment->absorb(it->first, it->second);
        REQUIRE(merged.experiment->progress().finished());
        CHECK(csv(merged, seed) == expected);
      }

#ifndef __EMSCRIPTEN__
      SmokeRun threaded = smoke(id, seed);  // two threads, units finishing in any order
      const auto report =
          run_units_on_threads({threaded.experiment.get()}, all_units({threaded.experiment.get()}), 2);
      CHECK(report.errors[0].empty());
      CHECK(csv(threaded, seed) == expected);
#endif

      SmokeRun other = smoke(id, seed + 1);  // (d) another seed: another table
      other.experiment->step(Budget{});
      CHECK(make_record(*other.experiment, other.params, "", seed + 1).results.table.rows !=
            make_record(*whole.experiment, whole.params, "", seed).results.table.rows);
    }
  }
}

TEST_CASE("a partial survives its JSON text bit for bit", "[lab][units]") {
  Partial p;
  const double inf = std::numeric_limits<double>::infinity();
  p.put("numbers", {0.1, -0.0, 1e-310, 1.7976931348623157e308, -inf, inf, 9007199254740992.0, 1.0 / 3.0});
  p.put("nan", std::numeric_limits<double>::quiet_NaN());
  p.put("empty", std::vector<double>{});
  p.put_text("state", "converged \"at\" 1e-10\n\xc3\xa9");
  const Partial q = decode_partial(encode_partial(p));
  CHECK(q == p);
  CHECK(std::signbit(q.values("numbers")[1]));
  CHECK(std::isnan(q.value("nan")));
  CHECK(q.all_values()[0].first == "numbers");  // the written order is kept
  CHECK_THROWS_WITH(decode_partial("{\"values\":{\"x\":[true]},\"texts\":{}}"), Catch::Contains("'x'"));
  CHECK_THROWS(decode_partial("[1,2]"));
  CHECK_THROWS_WITH(p.values("missing"), Catch::Contains("'missing'"));
}

TEST_CASE("shards: the spec, the round-robin split and the refusals name what is wrong", "[lab][units]") {
  CHECK(parse_shard_spec("3/40").index == 3);
  CHECK(parse_shard_spec("3/40").count == 40);
  for (const char* bad : {"0/3", "4/3", "3", "/3", "a/b", "3/-1", "1/99999999", ""})
    CHECK_THROWS_WITH(parse_shard_spec(bad), Catch::Contains("option --shard") && Catch::Contains("I/K"));
  CHECK(shard_units(7, {2, 3}) == std::vector<std::int64_t>{1, 4});
  CHECK(shard_units(2, {3, 3}).empty());

  const std::string id = "separation.toy";
  auto parse = [&](std::uint64_t seed, int i, int k) {
    return parse_shard_json(shard_text(id, seed, {i, k}), "part-" + std::to_string(i) + ".json");
  };
  const std::vector<std::string> names{"a.json", "b.json", "c.json"};
  CHECK_THROWS_WITH(check_shards({parse(1, 1, 3), parse(1, 3, 3)}, names),
                    Catch::Contains("shard 2/3 is missing"));
  CHECK_THROWS_WITH(check_shards({parse(1, 1, 2), parse(1, 1, 2)}, names),
                    Catch::Contains("shard 1/2 is given twice: a.json and b.json"));
  CHECK_THROWS_WITH(check_shards({parse(1, 1, 2), parse(2, 2, 2)}, names),
                    Catch::Contains("different runs: the seed is '1' in one and '2'"));
  Shard changed = parse(1, 2, 2);
  changed.run.params[0].second = "301";
  CHECK_THROWS_WITH(check_shards({parse(1, 1, 2), changed}, names), Catch::Contains("parameter 'n'"));
  Shard cut = parse(1, 2, 2);
  cut.units.pop_back();
  CHECK_THROWS_WITH(check_shards({parse(1, 1, 2), cut}, names), Catch::Contains("was it cut short"));
  CHECK_THROWS_WITH(parse_shard_json("{\"rows\": []}", "x.csv"), Catch::Contains("x.csv: not a shard file"));
  CHECK_THROWS_WITH(parse_shard_json("not json", "y"), Catch::Contains("y: not a shard file"));
}
