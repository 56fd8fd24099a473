// The `regression` experiment: presets, problem files, validation messages, work units.
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>

#include "experiments/registry.hpp"
#include "experiments/regression/generator.hpp"
#include "experiments/regression/loss.hpp"
#include "experiments/regression/problem_file.hpp"
#include "experiments/regression/regression_inputs.hpp"
#include "experiments/regression/regression_schema.hpp"
#include "experiments/regression/solvers.hpp"
#include "lab/plot_map_frame.hpp"
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

TEST_CASE("W^2 alone stalls with w = 1 and converges with w = 12", "[regression][claim]") {
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

namespace {
// One preset's run and the measured numbers its text quotes, from the table's columns.
struct PresetRun {
  Results results;
  std::vector<double> column(const std::string& name) const {
    std::vector<double> v;
    const auto k = static_cast<std::size_t>(results.table.column(name));
    for (const auto& row : results.table.rows)
      if (std::isfinite(row[k])) v.push_back(row[k]);
    return v;
  }
  static double median(std::vector<double> v) {
    std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
    return v[v.size() / 2];
  }
  double median_eps0(const std::string& solver) const { return median(column(solver + "_eps0")); }
  // As the notes' "median contraction": ratios from t = 2 on, while above the 1e-12 floor.
  double median_contraction(const std::string& solver) const {
    const std::vector<double> d = column(solver + "_distance");
    std::vector<double> r;
    for (std::size_t i = 2; i < d.size(); ++i)
      if (d[i] > 1e-12) r.push_back(d[i] / d[i - 1]);
    return median(r);
  }
  bool note_has(const std::string& text) const {
    for (const auto& n : results.notes)
      if (n.find(text) != std::string::npos) return true;
    return false;
  }
};
PresetRun run_preset(const char* preset) {
  auto e = make_experiment("regression");
  e->reset(e->make_params(preset, {}), 1);
  run_to_completion(*e);
  return {e->results()};
}
}  // namespace

// Every number a regression preset's text states is measured here.
TEST_CASE("regression preset texts state what their runs measure", "[regression][presets]") {
  SECTION("reference: eps0 about 0.04 and a contraction of about eps0, below eps0 / (1 - eps0)") {
    const PresetRun run = run_preset("reference");
    const double eps0 = run.median_eps0("approx_diag"), rate = run.median_contraction("approx_diag");
    CHECK(eps0 == Approx(0.04).margin(0.01));
    CHECK(rate == Approx(eps0).epsilon(0.25));
    CHECK(rate <= eps0 / (1.0 - eps0));
    for (const char* sampled : {"sampled", "sampled_rank2"}) {
      INFO(sampled);
      CHECK(run.median_eps0(sampled) == Approx(0.5).margin(0.1));
    }
    CHECK(run.note_has("gradient descent (Armijo): iteration limit after 3000 iterations"));
    // A sufficient condition that is not met is no failure: every solver here converges, and the
    // notes say the lemma does not apply, never "FAILS" (which the page draws in red).
    CHECK(run.note_has("Not met: the condition of Lemma C.4(1)"));
    CHECK(run.note_has("the lemma does not apply here (its condition is sufficient, not necessary)"));
    CHECK_FALSE(run.note_has("FAILS"));
  }
  SECTION("w2_stall: eps0 0.51 to 0.52, lambda_min(H^-1 H~) = 0.498 at x*, overflow at 77") {
    const PresetRun run = run_preset("w2_stall");
    const double eps0 = run.median_eps0("approx_w2");
    CHECK(eps0 == Approx(0.52).margin(0.005));
    const std::vector<double> steps = run.column("approx_w2_eps0");
    for (std::size_t t = 0; t < 10; ++t) CHECK((steps[t] >= 0.505 && steps[t] <= 0.525));
    CHECK(steps.back() > 0.9);
    CHECK(steps.back() < 1.0);
    CHECK(run.note_has("beta^ = max ||B|| = 1.33 measured"));
    CHECK(run.note_has("Not met: the condition of Lemma C.4(2)"));
    CHECK(run.note_has("diverged at iteration 77"));
    // "a few percent a step at first (about 2 after 10 steps), then faster".
    const std::vector<double> d = run.column("approx_w2_distance");
    REQUIRE(d.size() == 77);
    CHECK(d[10] / d[0] == Approx(2.0).margin(0.15));
    CHECK(d[76] / d[40] > d[40] / d[0]);
    // The direction H~ underestimates: the generalised eigenvalues of (A^T W^2 A, H) at x*.
    auto e = make_experiment("regression");
    const Problem p = generate(generator_settings(e->make_params("w2_stall", {})), 1);
    const Reference ref = find_minimiser(p, p.x_true);
    REQUIRE(ref.found);
    Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> ges(weighted_gram(p.A, p.w.cwiseAbs2()),
                                                                  hessian(p, evaluate(p, ref.x)),
                                                                  Eigen::EigenvaluesOnly);
    CHECK(ges.eigenvalues().minCoeff() == Approx(0.498).margin(0.0005));
    CHECK(1.0 / ges.eigenvalues().minCoeff() - 1.0 == Approx(1.01).margin(0.005));
    CHECK(ges.eigenvalues().maxCoeff() < 1.0 + eps0);
  }
  SECTION("w2_converge: eps0 below 0.01 and Lemma C.4(2)'s condition met, just (144 > 100 beta^ = 141)") {
    const PresetRun run = run_preset("w2_converge");
    CHECK(run.median_eps0("approx_w2") < 0.01);
    CHECK(run.note_has("OK: Lemma C.4(2)"));
    CHECK(run.note_has("(min w^2 = 144, 100 beta^ = 141)"));
    CHECK(run.note_has("approx. Newton, A^T W^2 A: converged"));
  }
  SECTION("far_start: the first full Newton step moves away from x*") {
    const PresetRun run = run_preset("far_start");
    const std::vector<double> d = run.column("newton_distance");
    REQUIRE(d.size() >= 2);
    CHECK(d[1] > d[0]);
  }
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

TEST_CASE("Corollary F.2: the residual identity holds and the shift is linear", "[regression][icl][claim][claim:reg-11]") {
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

// ---- work units (docs/design.md "The run: prepare, units, merge, results") ------------------------------------------------

namespace {

// A run of `id` over its smoke settings (plus `extra`), prepared and not started.
std::unique_ptr<Experiment> prepared(const char* id, std::uint64_t seed, const KeyValues& extra = {}) {
  auto e = make_experiment(id);
  KeyValues settings = e->smoke_settings();
  settings.insert(settings.end(), extra.begin(), extra.end());
  e->reset(e->make_params("", settings), seed);
  return e;
}

}  // namespace

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

TEST_CASE("regression's picture before a run starts where the run starts", "[regression][inputs]") {
  auto e = make_experiment("regression");
  const Params params = e->make_params("", {});
  const Results r = e->inputs(params, 3);
  REQUIRE(r.plots.size() == 2);
  const Series& u = r.plots[0].series[0];
  CHECK(u.name == "exp (this problem's u)");
  const std::vector<double>& loss = r.plots[1].series[0].y;
  REQUIRE(loss.size() == 101);
  const Start start = prepare_start(params, 3, nullptr);  // what prepare() builds
  CHECK(loss.front() == evaluate(start.problem, start.problem.x0).loss);
  CHECK(loss.back() == evaluate(start.problem, start.reference.x).loss);
  CHECK(loss.back() <= *std::min_element(loss.begin(), loss.end()));  // x* is the minimiser
  // The loss's two parts, the data term and the regulariser, add up to it at every point.
  REQUIRE(r.plots[1].series.size() == 3);
  for (std::size_t k = 0; k < loss.size(); ++k)
    CHECK(r.plots[1].series[1].y[k] + r.plots[1].series[2].y[k] == Approx(loss[k]).epsilon(1e-12));

  // Too large to build on the page's main thread: the function over a stated range, and a note.
  const Results large = e->inputs(e->make_params("large_sparse", {}), 3);
  CHECK(large.plots.size() == 1);
  CHECK(large.notes.size() == 1);

  // A loaded problem: the same picture when small, the first rows of A when large.
  CHECK_THROWS_AS(e->inputs(e->make_params("", {{"source", "data"}}), 3), ParamError);
  GeneratorSettings s;
  s.n = 50;
  s.d = 3;
  Problem p = generate(s, 2);
  p.x0 = p.x_true * 0.5;
  e->set_data(write_problem_file(p));
  const Results loaded = e->inputs(e->make_params("", {{"source", "data"}}), 3);
  REQUIRE(loaded.plots.size() == 2);
  CHECK(loaded.plots[1].series[0].y.front() == evaluate(p, p.x0).loss);
  s.n = 3000;
  s.d = 10;
  p = generate(s, 2);
  p.x0 = p.x_true * 0.5;
  e->set_data(write_problem_file(p));
  const Results big = e->inputs(e->make_params("", {{"source", "data"}}), 3);
  CHECK(big.plots.size() == 1);
  REQUIRE(big.heatmaps.size() == 1);
  CHECK(big.heatmaps[0].rows * big.heatmaps[0].cols <= 20000);
}

TEST_CASE("regression.icl's picture shows the step's point and the move sizes", "[regression][icl][inputs]") {
  auto e = make_experiment("regression.icl");
  for (const char* preset : {"move_x", "move_A", "sinh_alpha_zero"}) {
    INFO(preset);
    const Params params = e->make_params(preset, {});
    const Results r = e->inputs(params, 3);
    REQUIRE(r.plots.size() == 2);
    e->reset(params, 3);
    CHECK(static_cast<std::int64_t>(r.plots[1].series[0].y.size()) == e->unit_count());  // one unit per move size
  }
}

// The map's read-out names a cell by x_1 and x_2 (lab/plot_map_frame.hpp cell_place): at the marks
// of x* and x0 it reads their coordinates, as prepare() computes them, to within a cell.
TEST_CASE("the cosh map's read-out gives x* and x0 by their coordinates", "[regression][inputs]") {
  auto e = make_experiment("regression");
  const Params params = e->make_params("cosh_two_minima", {});
  e->reset(params, 1);
  run_to_completion(*e);
  const Results r = e->results();
  REQUIRE(r.heatmaps.size() == 1);
  const Heatmap& map = r.heatmaps[0];
  REQUIRE((map.x_values && map.y_values));
  const double cell_x = std::fabs(map.x_values->last - map.x_values->first) / (map.cols - 1);
  const double cell_y = std::fabs(map.y_values->last - map.y_values->first) / (map.rows - 1);
  const Start start = prepare_start(params, 1, nullptr);
  for (const Heatmap::Mark& m : map.marks) {
    if (m.label != "x*" && m.label != "x0") continue;
    const Eigen::VectorXd& x = m.label == "x*" ? start.reference.x : start.problem.x0;
    const std::string place = cell_place(map, m.row, m.col);
    INFO(m.label << ": " << place);
    double x1 = NAN, x2 = NAN;
    REQUIRE(std::sscanf(place.c_str(), "x_1 = %lf, x_2 = %lf", &x1, &x2) == 2);
    CHECK(std::fabs(x1 - x[0]) <= cell_x);
    CHECK(std::fabs(x2 - x[1]) <= cell_y);
    // Its exact place (the text view's, walk 11): the point itself, to the 4 digits printed.
    REQUIRE((std::isfinite(m.at_row) && std::isfinite(m.at_col)));
    REQUIRE(std::sscanf(point_place(map, m.at_row, m.at_col).c_str(), "x_1 = %lf, x_2 = %lf", &x1, &x2) == 2);
    CHECK(x1 == Approx(x[0]).epsilon(1e-3));
    CHECK(x2 == Approx(x[1]).epsilon(1e-3));
  }
}
