#include <catch2/catch.hpp>
#include <cmath>

#include "core/statistics.hpp"
#include "experiments/registry.hpp"
#include "lab/run_record.hpp"
#include "lab/runner.hpp"

using namespace attnlab;

namespace {
Results run(const KeyValues& values, std::uint64_t seed, const std::string& preset = "") {
  auto e = make_experiment("separation.toy");
  e->reset(e->make_params(preset, values), seed);
  run_to_completion(*e);
  return e->results();
}
double cell(const Table& t, std::size_t row, const std::string& column) { return t.rows[row][t.column(column)]; }
}  // namespace

TEST_CASE("paper claim: toy success follows 1 - 2^-m at n = 1000, tau = 0.25", "[separation][toy][claim]") {
  // spec/separation.md s.5: within 3 binomial standard errors at each m in 1..10, 2000 trials.
  const Results r = run({{"n", "1000"}, {"tau", "0.25"}, {"sweep", "m=1:10:1"}, {"trials", "2000"}}, 2024);
  REQUIRE(r.table.rows.size() == 10);
  for (std::size_t i = 0; i < 10; ++i) {
    const double m = cell(r.table, i, "m");
    const double theory = 1.0 - std::pow(2.0, -m);
    CHECK(cell(r.table, i, "theory") == theory);
    INFO("m = " << m << ", success " << cell(r.table, i, "success_rate"));
    CHECK(std::fabs(cell(r.table, i, "success_rate") - theory) <= 3.0 * binomial_standard_error(theory, 2000) + 1e-12);
    // Failures come only from softmax not firing on D1.
    CHECK(cell(r.table, i, "lin_d1") == 0.0);
    CHECK(cell(r.table, i, "lin_d0") == 0.0);
    CHECK(cell(r.table, i, "exp_d0") == 0.0);
  }
}

TEST_CASE("smaller tau lets softmax fire on D0 (spec s.5)", "[separation][toy]") {
  const Results r = run({{"n", "1000"}, {"m_rule", "log_n"}, {"sweep", "tau=0.01,0.25"}, {"trials", "300"}}, 3);
  CHECK(cell(r.table, 0, "exp_d0") > 0.5);
  CHECK(cell(r.table, 0, "success_rate") < 0.5);
  CHECK(cell(r.table, 1, "exp_d0") == 0.0);
}

TEST_CASE("results do not depend on how the run is sliced", "[separation][toy][lab]") {
  auto a = make_experiment("separation.toy");
  auto b = make_experiment("separation.toy");
  const Params p = a->make_params("", {{"n", "300"}, {"sweep", "m=1:4:1"}, {"trials", "37"}});
  a->reset(p, 99);
  b->reset(p, 99);
  run_to_completion(*a);
  Budget tiny;
  tiny.max_units = 5;
  int steps = 0;
  while (!b->progress().finished()) {
    b->step(tiny);
    ++steps;
  }
  CHECK(steps == 30);  // ceil(148 / 5)
  CHECK(to_csv(make_record(*a, p, "", 99)) == to_csv(make_record(*b, p, "", 99)));
  // A different seed gives different numbers.
  auto c = make_experiment("separation.toy");
  c->reset(p, 100);
  run_to_completion(*c);
  CHECK(to_csv(make_record(*a, p, "", 99)) != to_csv(make_record(*c, p, "", 100)));
}

TEST_CASE("partial results show the whole curve early, trial-major", "[separation][toy][lab]") {
  auto e = make_experiment("separation.toy");
  e->reset(e->make_params("", {{"n", "100"}, {"sweep", "m=1:3:1"}, {"trials", "10"}}), 1);
  Budget b;
  b.max_units = 14;
  e->step(b);
  CHECK(e->progress().done == 14);
  CHECK(e->progress().total == 30);
  const Results r = e->results();
  REQUIRE(r.table.rows.size() == 3);
  CHECK(cell(r.table, 0, "trials") == 5);
  CHECK(cell(r.table, 2, "trials") == 4);
}

TEST_CASE("an m-sweep reusing one widest draw equals running each m on its own", "[separation][toy]") {
  // ToyTrial::run_widest: a narrower readout draws a prefix of the same random words.
  const Results sweep = run({{"n", "300"}, {"tau", "0.05"}, {"sweep", "m=1:12:1"}, {"trials", "300"}}, 8);
  for (int m = 1; m <= 12; ++m) {
    const Results one = run({{"n", "300"}, {"tau", "0.05"}, {"m_rule", "fixed"}, {"m", std::to_string(m)},
                             {"sweep", "none"}, {"trials", "300"}}, 8);
    for (const char* c : {"successes", "exp_d1", "lin_d1", "exp_d0", "lin_d0", "near_ties"})
      CHECK(cell(sweep.table, std::size_t(m - 1), c) == cell(one.table, 0, c));
  }
}

TEST_CASE("runs too long to finish are refused with a message naming trials", "[separation][toy][lab]") {
  auto e = make_experiment("separation.toy");
  const Params p = e->make_params("", {{"n", "100000"}, {"m_rule", "fixed"}, {"m", "200"}, {"trials", "1000000"}});
  CHECK_THROWS_WITH(e->reset(p, 1), Catch::StartsWith("parameter 'trials': 1000000 trials over this sweep would take hours"));
  CHECK_NOTHROW(e->reset(e->make_params("fig3a", {}), 1));
}

TEST_CASE("component rates carry Wilson intervals", "[separation][toy]") {
  const Results r = run({{"n", "100"}, {"sweep", "tau=0.01,0.25"}, {"trials", "200"}}, 4);
  for (std::size_t i = 0; i < r.table.rows.size(); ++i)
    for (const char* rate : {"exp_d1", "lin_d1", "exp_d0", "lin_d0"}) {
      const std::string k = rate;
      CHECK(cell(r.table, i, k + "_low") <= cell(r.table, i, k));
      CHECK(cell(r.table, i, k) <= cell(r.table, i, k + "_high"));
      CHECK(cell(r.table, i, k + "_high") - cell(r.table, i, k + "_low") > 0.0);
    }
  REQUIRE(r.plots.size() == 2);
  for (const auto& s : r.plots[1].series) CHECK(s.y_low.size() == s.y.size());
}

TEST_CASE("fig3a and fig3b presets carry the paper's settings", "[separation][toy][presets]") {
  auto e = make_experiment("separation.toy");
  const Params a = e->make_params("fig3a", {});
  CHECK(a.text("sweep") == "n=100:2000:10");
  CHECK(a.text("m_rule") == "log_n");
  CHECK(a.integer("trials") == 1000);
  const Params b = e->make_params("fig3b", {{"trials", "100"}});
  CHECK(b.text("sweep") == "m=1:100:1");
  CHECK(b.integer("n") == 1000);
  CHECK(b.integer("trials") == 100);  // the trial count stays editable
}

TEST_CASE("an m-sweep uses m even when m_rule is log_n, an n-sweep uses log n", "[separation][toy]") {
  const Results r = run({{"sweep", "m=3,5"}, {"m_rule", "log_n"}, {"trials", "5"}}, 1);
  CHECK(cell(r.table, 0, "m") == 3);
  CHECK(cell(r.table, 1, "m") == 5);
  const Results s = run({{"sweep", "n=100,1000"}, {"trials", "5"}}, 1);
  CHECK(cell(s.table, 0, "m") == 5);  // round(4.6)
  CHECK(cell(s.table, 1, "m") == 7);  // round(6.9)
}
