#include <catch2/catch.hpp>
#include <cmath>

#include "core/statistics.hpp"
#include "experiments/registry.hpp"
#include "experiments/separation/toy_inspector.hpp"
#include "lab/run_record.hpp"
#include "lab/runner.hpp"

using namespace attnlab;
using namespace attnlab::separation;

namespace {
Results run(const KeyValues& values, std::uint64_t seed, const std::string& preset = "") {
  auto e = make_experiment("separation.toy");
  e->reset(e->make_params(preset, values), seed);
  run_to_completion(*e);
  return e->results();
}
double cell(const Table& t, std::size_t row, const std::string& column) { return t.rows[row][t.column(column)]; }
}  // namespace

TEST_CASE("paper claim: toy success follows 1 - 2^-m at n = 1000, tau = 0.25", "[separation][toy][claim][claim:sep-04]") {
  // docs/separation.md s.5: within 3 binomial standard errors at each m in 1..10, 2000 trials.
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

TEST_CASE("smaller tau lets softmax fire on D0 (docs/separation.md s.1)", "[separation][toy][claim:sep-08]") {
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

TEST_CASE("fig3a and fig3b presets carry the paper's settings", "[separation][toy][presets][claim:sep-03]") {
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

// The inspector's Lemma 4.1 / 4.2 bounds against one trial's measured values (toy_inspector.hpp),
// over trials, points and samplers: the entrywise bounds always hold; |<f, y_l>| is inside the
// upper bounds at the lemmas' rate (>= 1 - delta / n: the 99.9% Wilson band of the share inside
// reaches it), both over the readout's columns and over fresh sign vectors; softmax on D1 is
// >= 1/4 always, and positive for half of the sign vectors (part 3).
TEST_CASE("toy inspector: Lemmas 4.1 and 4.2 hold for the inspected trials", "[separation][toy][claim][claim:sep-06]") {
  constexpr double kZ = 3.2905267314919255;
  for (const char* sampler : {"uniform", "two_point", "adversarial"}) {
    auto e = make_experiment("separation.toy");
    e->reset(e->make_params("fig3b", {{"sampler", sampler}, {"sweep", "m=5,40"}, {"trials", "12"}}), 3);
    REQUIRE(e->inspector_points() == std::vector<std::string>{"m = 5", "m = 40"});
    std::int64_t inside[4] = {}, columns[4] = {}, sigma_inside[4] = {}, sigma_draws[4] = {}, positive = 0;
    for (std::size_t point = 0; point < 2; ++point)
      for (std::int64_t trial = 0; trial < 12; ++trial) {
        const Results r = e->inspect(point, trial);
        const Table& t = r.table;
        REQUIRE(t.rows.size() == 4);
        auto at = [&](std::size_t k, const char* c) { return t.rows[k][static_cast<std::size_t>(t.column(c))]; };
        for (std::size_t k = 0; k < 4; ++k) {
          INFO(sampler << ", point " << point << ", trial " << trial << ", evaluation " << k);
          CHECK(at(k, "max_f") <= at(k, "entry_bound"));  // the proofs' entrywise bounds: always
          inside[k] += static_cast<std::int64_t>(at(k, "readout_inside"));
          columns[k] += static_cast<std::int64_t>(at(k, "readout_columns"));
          const double draws = at(k, "sigma_draws");
          sigma_inside[k] += static_cast<std::int64_t>(std::llround(at(k, "sigma_inside") * draws));
          sigma_draws[k] += static_cast<std::int64_t>(draws);
          if (k == 0) positive += static_cast<std::int64_t>(std::llround(at(k, "sigma_positive") * draws));
        }
      }
    INFO(sampler);
    // Lemma 4.2 part 2 holds with probability 1: every column and every sign vector.
    CHECK(inside[0] == columns[0]);
    CHECK(sigma_inside[0] == sigma_draws[0]);
    // Part 3: the sign is sigma_j's, positive with probability exactly 1/2.
    const Interval half = wilson_interval(positive, sigma_draws[0], kZ);
    CHECK(half.low <= 0.5);
    CHECK(half.high >= 0.5);
    // The upper bounds (linear on D1, softmax and linear on D0), at 1 - delta / n with n = 1000.
    for (int k = 1; k < 4; ++k) {
      INFO("evaluation " << k << ": inside in " << inside[k] << " of " << columns[k] << " columns, "
                         << sigma_inside[k] << " of " << sigma_draws[k] << " sign vectors");
      CHECK(wilson_interval(inside[k], columns[k], kZ).high >= 1.0 - 0.01 / 1000);
      CHECK(wilson_interval(sigma_inside[k], sigma_draws[k], kZ).high >= 1.0 - 0.01 / 1000);
    }
  }
}

TEST_CASE("toy inspector: the bounds' explicit numbers", "[separation][toy][claim:sep-13]") {
  // Hoeffding's t = M sqrt(2 n log(2n / delta)) with the lemmas' M; softmax on D1: 1/4.
  const double n = 1000, h = std::sqrt(2.0 * n * std::log(2.0 * n / 0.01));
  CHECK(lemma_bound(3, 1000).radius == Approx(1.4 / n * h).epsilon(1e-12));
  CHECK(lemma_bound(2, 1000).radius == Approx(std::pow(n, -0.6) * h).epsilon(1e-12));
  CHECK(lemma_bound(1, 1000).radius == Approx(4.0 / (n + 3.0) * h).epsilon(1e-12));
  CHECK(lemma_bound(0, 1000).radius == 0.25);
  CHECK(lemma_bound(0, 1000).lower);
  CHECK(lemma_bound(2, 1000).radius > 1.0);  // Lemma 4.1 part 2 is vacuous at n = 1000 (docs/separation.md s.1)
  // The inspected trial is the sweep's: its F on D1 agrees with a rerun of that trial alone.
  auto e = make_experiment("separation.toy");
  e->reset(e->make_params("", {{"n", "300"}, {"sweep", "m=3"}, {"trials", "50"}, {"shared_readout", "false"}}), 9);
  for (std::int64_t trial = 0; trial < 50; ++trial) {
    const Results r = e->inspect(0, trial);
    ToySettings s;
    s.n = 300, s.m = 3, s.shared_readout = false;
    Rng rng = Rng::for_stream(9, static_cast<std::uint64_t>(trial));
    ToyTrial once;
    const TrialOutcome out = once.run(s, rng);
    const auto F = static_cast<std::size_t>(r.table.column("F"));
    CHECK((r.table.rows[0][F] > 0.0) == out.exp_d1);
    CHECK((r.table.rows[1][F] > 0.0) == out.lin_d1);
    CHECK((r.table.rows[2][F] > 0.0) == out.exp_d0);
    CHECK((r.table.rows[3][F] > 0.0) == out.lin_d0);
  }
}

// 1 - 2^-m is drawn against m, and against n when m = log n follows n; never against tau, nor
// against n at a fixed m.
TEST_CASE("the toy's theory curve is drawn only against m, or n when m follows n", "[separation][toy][plots]") {
  auto theory_drawn = [](const KeyValues& values) {
    const Results r = run(values, 1);
    bool drawn = false;
    for (const Plot& p : r.plots)
      for (const Series& s : p.series) drawn = drawn || s.style == SeriesStyle::Reference;
    return drawn;
  };
  CHECK(theory_drawn({{"n", "100"}, {"sweep", "m=1:3:1"}, {"trials", "20"}}));
  CHECK(theory_drawn({{"sweep", "n=100,200"}, {"m_rule", "log_n"}, {"trials", "20"}}));
  CHECK_FALSE(theory_drawn({{"sweep", "n=100,200"}, {"m_rule", "fixed"}, {"trials", "20"}}));
  CHECK_FALSE(theory_drawn({{"n", "100"}, {"sweep", "tau=0.1,0.25"}, {"trials", "20"}}));
  const Results r = run({{"n", "100"}, {"sweep", "tau=0.1,0.25"}, {"trials", "20"}}, 1);
  CHECK(r.table.column("theory") >= 0);
  CHECK(r.plots[1].series[0].name == "softmax on D1 (success needs it to fire)");
}
