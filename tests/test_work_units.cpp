// The work-unit contract for every registered experiment (unit_schedules.hpp), the exact JSON of
// partial results, and shard files with their refusals.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "experiments/registry.hpp"
#include "lab/partial_codec.hpp"
#include "lab/run_record.hpp"
#include "lab/shard.hpp"
#include "lab/version.hpp"
#include "unit_schedules.hpp"

using namespace attnlab;

TEST_CASE("every experiment: one go = one-piece slices = k shards merged = threads; another seed differs",
          "[lab][units]") {
  for (const std::string& id : experiment_ids()) {
    DYNAMIC_SECTION(id) { testing::check_unit_schedules_agree(id, make_experiment(id)->smoke_settings(), 11); }
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

TEST_CASE("shards: the I/K argument, the round-robin split and the refusals name what is wrong", "[lab][units]") {
  CHECK(parse_shard_spec("3/40").index == 3);
  CHECK(parse_shard_spec("3/40").count == 40);
  for (const char* bad : {"0/3", "4/3", "3", "/3", "a/b", "3/-1", "1/99999999", ""})
    CHECK_THROWS_WITH(parse_shard_spec(bad), Catch::Contains("option --shard") && Catch::Contains("I/K"));
  CHECK(shard_units(7, {2, 3}) == std::vector<std::int64_t>{1, 4});
  CHECK(shard_units(2, {3, 3}).empty());

  auto parse = [&](std::uint64_t seed, int i, int k) {
    auto e = make_experiment("separation.toy");
    const Params p = e->make_params("", e->smoke_settings());
    e->reset(p, seed);
    Shard s;
    s.spec = {i, k};
    s.run = {kVersion, "separation.toy", "", seed, e->schema().to_key_values(p), "", e->unit_count()};
    for (std::int64_t u : shard_units(e->unit_count(), s.spec)) s.units.emplace_back(u, run_task_to_end(*e->start_unit(u)));
    return parse_shard_json(to_shard_json(s), "part-" + std::to_string(i) + ".json");
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
  CHECK_THROWS_WITH(parse_shard_json("not json", "y"), Catch::Contains("y: not valid JSON"));
}
