// The `regression` experiment: presets, problem files, validation messages, work units.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <regex>
#include <thread>

#include "experiments/registry.hpp"
#include "experiments/regression/generator.hpp"
#include "experiments/regression/problem_file.hpp"
#include "lab/runner.hpp"

using namespace attnlab;
using namespace attnlab::regression;

TEST_CASE("a problem file round-trips", "[regression][data]") {
  GeneratorSettings s;
  s.n = 30;
  s.d = 4;
  for (double density : {1.0, 0.2}) {
    s.density = density;
    Problem p = generate(s, 5);
    p.x0 = Eigen::VectorXd::Constant(4, 0.1);
    const ProblemFile back = read_problem_file(write_problem_file(p));
    CHECK(Eigen::MatrixXd(back.problem.A) == Eigen::MatrixXd(p.A));
    CHECK(back.problem.b == p.b);
    CHECK(back.problem.w == p.w);
    CHECK(back.problem.x0 == p.x0);
    CHECK(back.has_function);
  }
}

TEST_CASE("malformed problem files get clear errors", "[regression][data]") {
  const std::string A = R"("A": [[1, 0], [0, 1], [1, 1]])";
  CHECK_THROWS_WITH(read_problem_file("{"), Catch::StartsWith("problem file: not valid JSON"));
  CHECK_THROWS_WITH(read_problem_file("{" + A + R"(, "b": [0.1, 0.2], "w": 1})"),
                    "problem file: b has 2 entries; it needs 3");
  CHECK_THROWS_WITH(read_problem_file(R"({"A": [[1, 2, 3]], "b": [0.1], "w": 1})"),
                    "problem file: A is 1 x 3; the problem needs n >= d");
  CHECK_THROWS_WITH(read_problem_file(R"({"A": [[1, 2], [2, 4], [3, 6]], "b": [0, 0, 0], "w": 1})"),
                    Catch::StartsWith("problem file: A is rank-deficient"));
  CHECK_THROWS_WITH(read_problem_file("{" + A + R"(, "b": [0.1, 0.2, "x"], "w": 1})"),
                    "problem file: b[2] is not a number");
  CHECK_THROWS_WITH(read_problem_file("{" + A + R"(, "b": [0.1, 0.2, NaN], "w": 1})"),
                    Catch::StartsWith("problem file: not valid JSON"));
  CHECK_THROWS_WITH(read_problem_file("{" + A + R"(, "b": [1, 1, 1], "w": 1})"),
                    Catch::StartsWith("problem file: ||b|| = 1.73"));
  CHECK_THROWS_WITH(read_problem_file("{" + A + R"(, "b": [0.1, 0.2, 0.3], "w": 1, "function": "tanh"})"),
                    R"(problem file: function must be "exp", "cosh" or "sinh")");
}

// Found by tests/fuzz/fuzz_problem_file: a number beyond a double escaped the parser as
// nlohmann's out_of_range, and a sparse size beyond int's range was converted to int (undefined)
// before its range check.
TEST_CASE("problem files with numbers beyond range are refused with a message", "[regression][data]") {
  CHECK_THROWS_WITH(read_problem_file(R"({"A": [[1e400, 0], [0, 1]], "b": [0.1, 0.2], "w": 1})"),
                    Catch::StartsWith("problem file: not valid JSON") && Catch::Contains("1e400"));
  for (const char* rows : {"1e300", "-1e300", "2.5", "0", "10000001"})
    CHECK_THROWS_WITH(read_problem_file(std::string(R"({"A": {"rows": )") + rows +
                                        R"(, "cols": 1, "entries": [[0, 0, 1]]}, "b": [0.1], "w": 1})"),
                      "problem file: A.rows must be an integer in [1, 1e7] and A.cols one in [1, 1000]");
  CHECK_THROWS_WITH(read_problem_file(R"({"A": {"rows": 2, "cols": 1e19, "entries": []}, "b": [0, 0], "w": 1})"),
                    "problem file: A.rows must be an integer in [1, 1e7] and A.cols one in [1, 1000]");
}

TEST_CASE("every regression preset runs and its solvers end in a state", "[regression][presets]") {
  for (const char* preset : {"reference", "far_start", "w2_stall", "w2_converge", "cosh_two_minima"}) {
    INFO(preset);
    auto e = make_experiment("regression");
    e->reset(e->make_params(preset, {{"max_iterations", "200"}}), 1);
    run_to_completion(*e);
    const Results r = e->results();
    CHECK(r.plots.size() >= 6);
    CHECK(r.table.rows.size() >= 2);
    CHECK(r.notes.size() >= 8);
    if (std::string(preset) == "cosh_two_minima") CHECK(r.heatmaps.size() == 1);
  }
}

TEST_CASE("W^2 alone stalls with w = 1 and converges with w = 12", "[regression][paper]") {
  auto final_distance = [](const char* preset) {
    auto e = make_experiment("regression");
    e->reset(e->make_params(preset, {}), 1);
    run_to_completion(*e);
    const Table t = e->results().table;
    const int k = t.column("approx_w2_distance");
    double last = NAN;
    for (const auto& row : t.rows)
      if (std::isfinite(row[static_cast<std::size_t>(k)])) last = row[static_cast<std::size_t>(k)];
    return last;
  };
  CHECK(final_distance("w2_stall") > 0.1);
  CHECK(final_distance("w2_converge") <= 1e-13);
}

TEST_CASE("regression settings are validated with messages naming the parameter", "[regression][states]") {
  auto e = make_experiment("regression");
  CHECK_THROWS_WITH(e->reset(e->make_params("", {{"n", "5"}, {"d", "10"}}), 1),
                    "parameter 'n': 5 is less than d = 10; allowed: n >= d");
  CHECK_THROWS_WITH(e->reset(e->make_params("", {{"source", "data"}}), 1),
                    Catch::StartsWith("parameter 'source': 'data' needs a problem file"));
  CHECK_THROWS_WITH(e->reset(e->make_params("", {{"norm_A", "100"}, {"x_true_norm", "10"}}), 1),
                    Catch::StartsWith("parameter 'x_true_norm': ||A|| ||x_true|| = 1000 would overflow"));
}

TEST_CASE("a loaded problem runs like a generated one", "[regression][data]") {
  GeneratorSettings s;
  s.n = 50;
  s.d = 3;
  Problem p = generate(s, 2);
  p.x0 = p.x_true * 0.5;
  auto e = make_experiment("regression");
  e->set_data(write_problem_file(p));
  e->reset(e->make_params("", {{"source", "data"}, {"max_iterations", "50"}}), 1);
  run_to_completion(*e);
  CHECK(e->results().notes.back().find("Loaded problem") == std::string::npos);  // theory lines come last
  bool loaded = false;
  for (const auto& note : e->results().notes) loaded = loaded || note.rfind("Loaded problem: exp, n = 50, d = 3", 0) == 0;
  CHECK(loaded);
}

TEST_CASE("Corollary F.2: the residual identity holds and the shift is linear", "[regression][icl][paper]") {
  for (const char* preset : {"move_x", "move_A"}) {
    INFO(preset);
    auto e = make_experiment("regression.icl");
    e->reset(e->make_params(preset, {{"n", "80"}, {"d", "5"}}), 3);
    run_to_completion(*e);
    const Results r = e->results();
    REQUIRE(r.table.rows.size() == 28);  // 1e-10 .. 0.1 at 3 points per decade
    double log_first = 0, log_last = 0;
    for (const auto& row : r.table.rows) {
      CHECK(row[4] <= 1e-12);    // u(x') - alpha(x') b~ = c(x), relative error
      CHECK(row[1] <= row[3]);   // below the bound
    }
    log_first = std::log10(r.table.rows.front()[1]);
    log_last = std::log10(r.table.rows.back()[1]);
    CHECK((log_last - log_first) / 9.0 == Approx(1.0).margin(0.02));  // slope 1 over nine decades
  }
}

// ---- work units (DESIGN.md "Parallel work units") ------------------------------------------------

namespace {

// Everything a run shows, each double as its bits, so "equal" means byte-identical; wall-clock
// times (in the solver notes only) are masked.
std::string fingerprint(const Results& r) {
  std::string out;
  auto bits = [&](const std::vector<double>& v) {
    for (double x : v) {
      std::uint64_t u;
      std::memcpy(&u, &x, sizeof u);
      out += std::to_string(u) + ",";
    }
    out += "\n";
  };
  for (const auto& c : r.table.columns) out += c + ",";
  for (const auto& row : r.table.rows) bits(row);
  for (const auto& p : r.plots) {
    out += p.title + "\n";
    for (const auto& s : p.series) out += s.name + "\n", bits(s.x), bits(s.y);
  }
  for (const auto& h : r.heatmaps) {
    bits(h.values);
    for (const auto& path : h.paths) out += path.label + "\n", bits(path.rows), bits(path.cols);
  }
  const std::regex milliseconds("[0-9.e+-]+ ms");
  for (const auto& n : r.notes) out += std::regex_replace(n, milliseconds, "# ms") + "\n";
  return out;
}

// A run of `id` over its smoke settings (plus `extra`), prepared and not started.
std::unique_ptr<Experiment> prepared(const char* id, std::uint64_t seed, const KeyValues& extra = {}) {
  auto e = make_experiment(id);
  KeyValues settings = e->smoke_settings();
  settings.insert(settings.end(), extra.begin(), extra.end());
  e->reset(e->make_params("", settings), seed);
  return e;
}

}  // namespace

TEST_CASE("regression units: any slicing, order or split gives the same bytes", "[regression][units]") {
  for (const char* id : {"regression", "regression.icl"}) {
    INFO(id);
    auto whole = prepared(id, 4);
    REQUIRE(whole->unit_count() >= 5);
    run_to_completion(*whole);
    const std::string expected = fingerprint(whole->results());

    auto sliced = prepared(id, 4);  // one piece per slice, previews merged in between
    Budget one;
    one.max_units = 1;
    while (!sliced->progress().finished()) sliced->step(one);
    CHECK(fingerprint(sliced->results()) == expected);

    // Units in reverse order, each computed by another experiment object (a shard) and absorbed.
    auto merged = prepared(id, 4), shard = prepared(id, 4);
    for (std::int64_t u = merged->unit_count() - 1; u >= 0; --u) {
      auto task = shard->start_unit(u);
      merged->absorb(u, run_task_to_end(*task));
    }
    CHECK(merged->progress().finished());
    CHECK(fingerprint(merged->results()) == expected);

#ifndef __EMSCRIPTEN__
    // All units of one experiment object at once on threads (start_unit is const and shares
    // nothing mutable), then absorbed out of order: even units first.
    auto threaded = prepared(id, 4);
    const std::int64_t units = threaded->unit_count();
    std::vector<Partial> partials(static_cast<std::size_t>(units));
    std::vector<std::thread> threads;
    for (std::int64_t u = 0; u < units; ++u)
      threads.emplace_back([&, u] {
        auto task = threaded->start_unit(u);
        partials[static_cast<std::size_t>(u)] = run_task_to_end(*task);
      });
    for (auto& t : threads) t.join();
    for (std::int64_t u = 0; u < units; u += 2) threaded->absorb(u, partials[static_cast<std::size_t>(u)]);
    for (std::int64_t u = 1; u < units; u += 2) threaded->absorb(u, partials[static_cast<std::size_t>(u)]);
    CHECK(fingerprint(threaded->results()) == expected);
#endif

    auto other_seed = prepared(id, 5);
    run_to_completion(*other_seed);
    CHECK(fingerprint(other_seed->results()) != expected);
  }
}

TEST_CASE("regression: each solver's trace is the same whichever other solvers run", "[regression][units]") {
  // No random stream is shared between solvers (Solver::step draws from (seed, method, t)): the
  // sampled solvers alone give the columns they give beside all the others (compared over their
  // own iterations; the table pads them with blank rows while a slower solver runs on).
  auto sampled_columns = [](const KeyValues& switches) {
    auto u = prepared("regression", 2, switches);
    run_to_completion(*u);
    const Table t = u->results().table;
    std::vector<double> v;
    for (const std::string solver : {"sampled", "sampled_rank2"}) {
      const auto distance = static_cast<std::size_t>(t.column(solver + "_distance"));
      const auto eps0 = static_cast<std::size_t>(t.column(solver + "_eps0"));
      for (const auto& row : t.rows)
        if (std::isfinite(row[distance])) v.push_back(row[distance]), v.push_back(row[eps0]);
    }
    return v;
  };
  const std::vector<double> all = sampled_columns({{"max_iterations", "40"}});
  const std::vector<double> alone = sampled_columns(
      {{"max_iterations", "40"}, {"newton", "false"}, {"approx_diag", "false"}, {"approx_w2", "false"}, {"gd", "false"}});
  REQUIRE(all.size() > 10);
  REQUIRE(all.size() == alone.size());
  CHECK(std::memcmp(all.data(), alone.data(), all.size() * sizeof(double)) == 0);
}

TEST_CASE("regression: a solver's curves grow while its unit runs", "[regression][units]") {
  auto u = prepared("regression", 1);
  Budget one;
  one.max_units = 1;
  for (int k = 0; k < 3; ++k) u->step(one);
  const Results early = u->results();
  REQUIRE(early.table.rows.size() == 4);  // the start and three Newton iterations, previewed
  CHECK(std::isfinite(early.table.rows[3][1]));
  CHECK(early.notes[0].find("exact Newton: ") == 0);
  CHECK(early.notes[1].find(": waiting to start.") != std::string::npos);
  run_to_completion(*u);
  CHECK(u->results().notes[1].find("waiting") == std::string::npos);
}
