// l_p-AttGD and l_p-AttSVM (docs/mirror.md s.5).
#include <catch2/catch.hpp>
#include <cmath>

#include "core/rng.hpp"
#include "experiments/mirror/att_svm.hpp"
#include "experiments/mirror/dataset.hpp"
#include "experiments/mirror/mirror_map.hpp"
#include "experiments/mirror/mirror_run.hpp"
#include "experiments/mirror/model.hpp"
#include "experiments/mirror/trainer.hpp"
#include "core/statistics.hpp"
#include "experiments/registry.hpp"
#include "lab/runner.hpp"
#include "lab/work_unit.hpp"
#include "unit_schedules.hpp"

using namespace attnlab;
using namespace attnlab::mirror;

namespace {
Eigen::MatrixXd random_matrix(int d, Rng& rng, bool with_zeros) {
  Eigen::MatrixXd W(d, d);
  for (Eigen::Index k = 0; k < W.size(); ++k) W.data()[k] = with_zeros && k % 5 == 0 ? 0.0 : rng.normal();
  return W;
}
}  // namespace

TEST_CASE("the mirror map round-trips, with negative and zero entries", "[mirror][map]") {
  Rng rng(1);
  for (double p : {1.1, 1.75, 2.0, 3.0}) {
    const Eigen::MatrixXd W = random_matrix(6, rng, true);
    const Eigen::MatrixXd back = grad_psi_inverse(grad_psi(W, p), p);
    CHECK((back - W).cwiseAbs().maxCoeff() <= 1e-12 * W.cwiseAbs().maxCoeff());
    CHECK(back(0, 0) == 0.0);
  }
}

TEST_CASE("Bregman divergence: nonnegative, zero on the diagonal, 1/2 ||.||^2 at p = 2", "[mirror][map]") {
  Rng rng(2);
  for (double p : {1.25, 1.75, 2.0, 3.0}) {
    const Eigen::MatrixXd W = random_matrix(5, rng, true), V = random_matrix(5, rng, false);
    CHECK(bregman(W, V, p) >= 0.0);
    CHECK(bregman(W, W, p) == Approx(0.0).margin(1e-14));
  }
  const Eigen::MatrixXd W = random_matrix(4, rng, false), V = random_matrix(4, rng, false);
  CHECK(bregman(W, V, 2.0) == Approx(0.5 * (W - V).squaredNorm()).epsilon(1e-12));
}

TEST_CASE("p = 2 is gradient descent, bit for bit", "[mirror][md]") {
  const Dataset data = synthetic_dataset(6, 8, 10, 4);
  Rng rng(5);
  const Eigen::MatrixXd W0 = random_matrix(10, rng, false);
  TrainerSettings s;
  s.p = 2.0;
  s.normalised = false;
  s.eta = 0.3;
  MirrorDescent md(data, W0, data.v, s);
  Eigen::MatrixXd W = W0;
  for (int k = 0; k < 20; ++k) {
    md.step();
    const Forward fw = forward(data, W, data.v, Loss::Logistic);
    W = W - s.eta * gradient_W(data, W, data.v, Loss::Logistic, fw).value();
    REQUIRE(md.W() == W);
  }
}

TEST_CASE("the gradient agrees with central finite differences", "[mirror][gradient]") {
  const Dataset data = synthetic_dataset(4, 5, 3, 9);
  Rng rng(3);
  for (Loss loss : {Loss::Logistic, Loss::Exponential, Loss::Correlation}) {
    const Eigen::MatrixXd W = 0.5 * random_matrix(3, rng, false);
    const Eigen::MatrixXd g = gradient_W(data, W, data.v, loss, forward(data, W, data.v, loss)).value();
    Eigen::MatrixXd fd(3, 3);
    const double h = 1e-6;
    for (int k = 0; k < 9; ++k) {
      Eigen::MatrixXd up = W, down = W;
      up.data()[k] += h;
      down.data()[k] -= h;
      fd.data()[k] = (forward(data, up, data.v, loss).loss - forward(data, down, data.v, loss).loss) / (2 * h);
    }
    CHECK((g - fd).norm() <= 1e-6 * std::max(1e-3, g.norm()));
    const Eigen::VectorXd gv = gradient_v(data, data.v, loss, forward(data, W, data.v, loss));
    Eigen::VectorXd fdv(3);
    for (int k = 0; k < 3; ++k) {
      Eigen::VectorXd up = data.v, down = data.v;
      up[k] += h;
      down[k] -= h;
      fdv[k] = (forward(data, W, up, loss).loss - forward(data, W, down, loss).loss) / (2 * h);
    }
    CHECK((gv - fdv).norm() <= 1e-6 * std::max(1e-3, gv.norm()));
  }
}

TEST_CASE("best_scoring_tokens: each sequence's token of highest Y_i v^T x_it, the first on a tie", "[mirror][svm]") {
  // By hand: v = e_1, so the score of token t is Y_i times its first coordinate.
  Dataset toy;
  toy.X = {(Eigen::MatrixXd(3, 2) << 0.1, 5.0, 0.7, 0.0, -0.2, 1.0).finished(),
           (Eigen::MatrixXd(3, 2) << 0.3, 0.0, 0.9, 0.0, -0.4, 0.0).finished(),
           (Eigen::MatrixXd(3, 2) << 0.5, 0.0, 0.5, 1.0, 0.1, 0.0).finished()};
  toy.Y = Eigen::Vector3d(1.0, -1.0, 1.0);
  toy.v = Eigen::Vector2d(1.0, 0.0);
  CHECK(best_scoring_tokens(toy) == std::vector<int>{1, 2, 0});
  // On random data, against the scores computed token by token.
  const Dataset data = synthetic_dataset(7, 9, 5, 11);
  const std::vector<int> alpha = best_scoring_tokens(data);
  REQUIRE(alpha.size() == 7);
  for (int i = 0; i < data.n(); ++i) {
    const auto& X = data.X[static_cast<std::size_t>(i)];
    const int a = alpha[static_cast<std::size_t>(i)];
    REQUIRE((a >= 0 && a < data.T()));
    for (int t = 0; t < data.T(); ++t) CHECK(data.Y[i] * X.row(a).dot(data.v) >= data.Y[i] * X.row(t).dot(data.v));
  }
}

TEST_CASE("the SVM solver reaches violation and duality gap below 1e-9", "[mirror][svm]") {
  for (std::uint64_t seed : {1, 2, 3}) {
    const Dataset data = synthetic_dataset(6, 8, 10, seed);
    const std::vector<int> alpha = best_scoring_tokens(data);
    for (double p : {1.25, 1.75, 2.0, 3.0}) {
      INFO("seed " << seed << " p " << p);
      const SvmSolution s = solve_att_svm(data, alpha, data.v, p);
      REQUIRE(s.feasible);
      CHECK(s.converged);
      CHECK(s.max_violation <= 1e-9);
      CHECK(s.duality_gap <= 1e-9);
      CHECK(!s.support.empty());
    }
  }
}

TEST_CASE("p = 2 SVM agrees with an independent QP solution", "[mirror][svm]") {
  const Dataset data = synthetic_dataset(5, 6, 4, 7);
  const std::vector<int> alpha = best_scoring_tokens(data);
  const SvmSolution s = solve_att_svm(data, alpha, data.v, 2.0);
  // Independent: projected gradient ascent on the dual QP max sum(l) - 1/2 ||sum l_j A_j||^2, l >= 0.
  std::vector<Eigen::VectorXd> A;
  for (int i = 0; i < data.n(); ++i)
    for (int t = 0; t < data.T(); ++t)
      if (t != alpha[static_cast<std::size_t>(i)]) {
        Eigen::MatrixXd Aj = (data.X[static_cast<std::size_t>(i)].row(alpha[static_cast<std::size_t>(i)]) -
                              data.X[static_cast<std::size_t>(i)].row(t)).transpose() *
                             data.z[static_cast<std::size_t>(i)].transpose();
        A.emplace_back(Eigen::Map<Eigen::VectorXd>(Aj.data(), Aj.size()));
      }
  Eigen::MatrixXd G(A.size(), A.size());
  for (std::size_t j = 0; j < A.size(); ++j)
    for (std::size_t k = 0; k < A.size(); ++k) G(j, k) = A[j].dot(A[k]);
  const double step = 1.0 / G.eigenvalues().real().maxCoeff();
  Eigen::VectorXd lambda = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(A.size()));
  for (int it = 0; it < 200000; ++it)
    lambda = (lambda + step * (Eigen::VectorXd::Ones(lambda.size()) - G * lambda)).cwiseMax(0.0);
  Eigen::VectorXd W = Eigen::VectorXd::Zero(A[0].size());
  for (std::size_t j = 0; j < A.size(); ++j) W += lambda[static_cast<Eigen::Index>(j)] * A[j];
  CHECK((Eigen::Map<const Eigen::VectorXd>(s.W.data(), s.W.size()) - W).norm() <= 1e-6 * W.norm());
}

TEST_CASE("normalised norm growth follows (eta k)^(1/(p-1))", "[mirror][md]") {
  const Dataset data = synthetic_dataset(6, 8, 10, 2);
  for (double p : {2.0, 3.0}) {
    TrainerSettings s;
    s.p = p;
    MirrorDescent md(data, Eigen::MatrixXd::Zero(10, 10), data.v, s);
    for (int k = 0; k < 4000; ++k) md.step();
    const double ratio = entrywise_norm(md.W(), p) / std::pow(s.eta * 4000, 1.0 / (p - 1.0));
    INFO("p " << p << " ratio " << ratio);
    CHECK(ratio > 0.9);
    CHECK(ratio < 1.1);
  }
}

TEST_CASE("the paper's synthetic setting: each run ends closest to its own p's SVM", "[mirror][claim]") {
  auto e = make_experiment("mirror");
  e->reset(e->make_params("synthetic_figure", {{"seeds", "3"}}), 1);
  run_to_completion(*e);
  const Results r = e->results();
  int checked = 0;
  for (const auto& note : r.notes)
    if (note.find("runs done") != std::string::npos) {
      CHECK(note.find("own-p SVM the closest of p' = 1.75, 2, 3 in 3 of 3 runs") != std::string::npos);
      ++checked;
    }
  CHECK(checked == 3);
}

TEST_CASE("the joint toy selects the spec's tokens", "[mirror][claim]") {
  auto e = make_experiment("mirror");
  e->reset(e->make_params("joint_toy", {}), 1);
  run_to_completion(*e);
  std::string notes;
  for (const auto& note : e->results().notes) notes += note + "\n";
  CHECK(notes.find("p=1.75: selected tokens [1, 0]") != std::string::npos);
  CHECK(notes.find("p=2: selected tokens [1, 0]") != std::string::npos);
  CHECK(notes.find("p=3: selected tokens [0, 0]") != std::string::npos);
}

TEST_CASE("malformed data files get clear errors", "[mirror][data]") {
  CHECK_THROWS_WITH(read_dataset_file(R"({"X": [[[1, 2], [3, 4]], [[1, 2]]], "Y": [1, -1]})", 1),
                    "data file: X[1] has 1 tokens; X[0] has 2");
  CHECK_THROWS_WITH(read_dataset_file(R"({"X": [[[1, 2], [3, 4]]], "Y": [2]})", 1),
                    "data file: Y[0] must be +1 or -1");
  CHECK_THROWS_WITH(read_dataset_file(R"({"X": [[[1, NaN], [3, 4]]], "Y": [1]})", 1),
                    Catch::StartsWith("data file: not valid JSON"));
  CHECK_THROWS_WITH(read_dataset_file(R"({"X": [[[1, 2]]], "Y": [1]})", 1),
                    "data file: sequences need T >= 2 tokens (attention selects among them); X[0] has 1");
  CHECK_THROWS_WITH(read_dataset_file(R"({"X": [[[1, 2], [3]]], "Y": [1]})", 1),
                    "data file: X[0][1] must be an array of 2 numbers");
  const Dataset ok = read_dataset_file(R"({"X": [[[1, 2], [3, 4]], [[0, 1], [1, 0]]], "Y": [1, -1]})", 1);
  CHECK(ok.n() == 2);
  CHECK(ok.z[1] == Eigen::Vector2d(0, 1));  // z defaults to the first token
}

// Found by tests/fuzz/fuzz_dataset: a number beyond a double escaped the parser as nlohmann's
// out_of_range instead of the data file's message.
TEST_CASE("data files with numbers beyond range are refused with a message", "[mirror][data]") {
  CHECK_THROWS_WITH(read_dataset_file(R"({"X": [[[1, 1e400], [3, 4]]], "Y": [1]})", 1),
                    Catch::StartsWith("data file: not valid JSON") && Catch::Contains("1e400"));
  CHECK_THROWS_AS(read_dataset_file(R"({"X": [[[1, 2], [3, 4]]], "Y": [-1e400]})", 1), ParamError);
}

TEST_CASE("the SVM solved in pieces is the SVM solved in one go, bit for bit", "[mirror][svm]") {
  const Dataset data = synthetic_dataset(6, 8, 10, 3);
  const std::vector<int> alpha = best_scoring_tokens(data);
  for (double p : {1.75, 2.0}) {
    const SvmSolution whole = solve_att_svm(data, alpha, data.v, p, 3000, 1e-9);
    SvmSolver solver = SvmSolver::attention(data, alpha, data.v, p, 3000, 1e-9);
    int pieces = 1;
    while (!solver.advance(1.0)) ++pieces;  // one coordinate update per piece
    const SvmSolution sliced = solver.solution();
    INFO("p " << p);
    CHECK(pieces > whole.sweeps * 40);
    CHECK(sliced.sweeps == whole.sweeps);
    CHECK(sliced.W == whole.W);
    CHECK(sliced.duality_gap == whole.duality_gap);
    CHECK(sliced.support == whole.support);
  }
}

// ---- work units (docs/design.md "The run: prepare, units, merge, results") ------------------------------------------------

namespace {

// A mirror run over the smoke settings (plus `extra`), prepared and not started.
std::unique_ptr<Experiment> prepared_mirror(std::uint64_t seed, const KeyValues& extra) {
  auto e = make_experiment("mirror");
  KeyValues settings = e->smoke_settings();
  settings.insert(settings.end(), extra.begin(), extra.end());
  e->reset(e->make_params("", settings), seed);
  return e;
}

}  // namespace

TEST_CASE("mirror units: any slicing, order or split gives the same bytes, beyond the smoke run", "[mirror][units]") {
  // A cone start (an SVM before training), joint training (the v-SVM) and a p outside the figure's
  // three (a fourth SVM per run); the smoke run itself is in test_work_units.cpp.
  auto e = make_experiment("mirror");
  KeyValues settings = e->smoke_settings();
  settings.insert(settings.end(), {{"init", "cone"}, {"train", "joint"}, {"sweep", "p=1.5,3"}});
  testing::check_unit_schedules_agree("mirror", settings, 4);
}

TEST_CASE("mirror partials are compact: matrices only for the seed the heatmaps show", "[mirror][units]") {
  auto e = prepared_mirror(1, {});
  const Partial shown = run_task_to_end(*e->start_unit(0));
  const Partial other = run_task_to_end(*e->start_unit(1));
  for (const char* run : {"r0.", "r1."}) {
    CHECK(shown.has(std::string(run) + "final_W"));
    CHECK_FALSE(other.has(std::string(run) + "final_W"));
    CHECK_FALSE(other.has(std::string(run) + "path_wa"));
  }
  std::size_t numbers = 0;
  for (const auto& field : other.all_values()) numbers += field.second.size();
  CHECK(numbers < 400);  // two runs of 28 checkpoints: 6 curves each and a few numbers
}

TEST_CASE("mirror: curves grow while a unit runs, D_k once its run is done", "[mirror][units]") {
  auto e = prepared_mirror(1, {});
  Budget one;
  one.max_units = 1;
  e->step(one);  // the first 64 of 100 steps of seed 1's p = 1.75 run
  const Results early = e->results();
  const Table& t = early.table;
  const auto column = [&](const std::string& name) { return static_cast<std::size_t>(t.column(name)); };
  CHECK(std::isfinite(t.rows[1][column("loss_p=1.75")]));
  CHECK(std::isnan(t.rows[1][column("D_p=1.75_svm_p=1.75")]));
  CHECK(std::isnan(t.rows[1][column("loss_p=2")]));
  CHECK(early.notes.empty());
  CHECK(e->progress().done == 64);
  run_to_completion(*e);
  CHECK(std::isfinite(e->results().table.rows[1][column("D_p=1.75_svm_p=1.75")]));
}

TEST_CASE("mirror tables keep the last iterate of every run", "[mirror][claim]") {
  // p = 1.75 ends at k = 1500 and p = 2 at 2000, between the checkpoints of the 20000-step p = 3
  // run: both are rows of their own (issue 13, part 2).
  auto e = make_experiment("mirror");
  e->reset(e->make_params("synthetic_figure", {{"seeds", "1"}}), 1);
  run_to_completion(*e);
  const Results r = e->results();
  const Table& t = r.table;
  auto at = [&](double k, const std::string& column) {
    for (const auto& row : t.rows)
      if (row[0] == k) return row[static_cast<std::size_t>(t.column(column))];
    return double(INFINITY);  // no such row
  };
  CHECK(std::isfinite(at(1500, "D_p=1.75_svm_p=1.75")));
  CHECK(std::isfinite(at(2000, "D_p=2_svm_p=2")));
  CHECK(std::isfinite(at(20000, "D_p=3_svm_p=3")));
  CHECK(std::isnan(at(1500, "D_p=3_svm_p=3")));  // p = 3 has no checkpoint there: blank
  // The plotted curves end at each run's own last iteration and skip the others' rows.
  for (const Series& s : r.plots[0].series) {
    INFO(s.name);
    for (double y : s.y) CHECK(!std::isnan(y));
    CHECK(s.x.back() == (s.name == "MD p=1.75" ? 1500 : s.name == "MD p=2" ? 2000 : 20000));
  }
}

TEST_CASE("the joint toy's figure: logistic probability, (W00, W01) path, alpha changes", "[mirror][claim]") {
  auto e = make_experiment("mirror");
  e->reset(e->make_params("joint_toy", {}), 1);
  run_to_completion(*e);
  const Results r = e->results();
  auto plot = [&](const std::string& start) -> const Plot* {
    for (const Plot& p : r.plots)
      if (p.title.rfind(start, 0) == 0) return &p;
    return nullptr;
  };
  const Plot* logit = plot("Logistic probability");
  REQUIRE(logit);
  REQUIRE(logit->series.size() == 3);
  for (const Series& s : logit->series) {
    CHECK(s.y.front() == 0.5);  // v0 = 0
    CHECK(s.y.back() > 0.999);
  }
  CHECK(plot("Path of (W[0,0], W[0,1]) / ||W_k||_p, p=1.75"));
  CHECK(plot("Path of (v0, v1) / ||v||_p, p=1.75"));
  const Plot* current = plot("Seed 1, p=1.75: D_k against the SVM of the current and of the final alpha");
  REQUIRE(current);
  REQUIRE(current->series.size() == 3);  // final alpha, current alpha, the change marks
  // Once alpha has settled, the two SVMs are the same: the curves meet.
  CHECK(current->series[0].y.back() == current->series[1].y.back());
  std::string notes;
  for (const auto& note : r.notes) notes += note + "\n";
  CHECK(notes.find("p=1.75: selected tokens [1, 0] (0-indexed); alpha changed 1 times, at k = 2;") != std::string::npos);
  CHECK(notes.find("p=3: selected tokens [0, 0] (0-indexed); alpha never changed during training") != std::string::npos);
}

namespace {
// The final mean D_k of run p against SVM p', from the table's last row where it has a value.
double final_D(const Table& t, const std::string& p, const std::string& q) {
  const auto c = static_cast<std::size_t>(t.column("D_p=" + p + "_svm_p=" + q));
  double last = NAN;
  for (const auto& row : t.rows)
    if (!std::isnan(row[c])) last = row[c];
  return last;
}
int count_in_note(const std::string& note, const std::string& before) {
  const std::size_t at = note.find(before);
  return at == std::string::npos ? -1 : std::stoi(note.substr(at + before.size()));
}
}  // namespace

TEST_CASE("the paper's synthetic figure on its 100 seeds: own-p SVM closest, D_k of order 1e-3", "[mirror][paper]") {
  auto e = make_experiment("mirror");
  e->reset(e->make_params("synthetic_figure", {}), 1);
  run_to_completion(*e);
  const Results r = e->results();
  for (const std::string p : {"1.75", "2", "3"}) {
    int closest = -1;
    for (const auto& note : r.notes)
      if (note.rfind("p=" + p + ":", 0) == 0) closest = count_in_note(note, "own-p SVM the closest of p' = 1.75, 2, 3 in ");
    const Interval band = wilson_interval(closest, 100);
    const double own = final_D(r.table, p, p);
    WARN("p = " << p << ": own-p SVM closest in " << closest << " of 100 runs (95% Wilson [" << band.low << ", "
                << band.high << "]); final mean D_k against SVM p' = 1.75, 2, 3: " << final_D(r.table, p, "1.75") << ", "
                << final_D(r.table, p, "2") << ", " << final_D(r.table, p, "3"));
    // Per run, with the authors' tokens (svm_tokens = authors, each SVM of p' on the seed's p' run's
    // tokens): 100, 99, 100 of 100. The exception is seed 24's p = 2 run, which has not settled
    // (its tokens changed 6 times, D_k against its own SVM still 0.16) and ends nearer the p = 3
    // run's SVM (0.070). On this run's tokens (ours) it was 100 of 100 for every p.
    CHECK(closest == (p == "2" ? 99 : 100));
    // "About 1e-3" read as the order of magnitude: every own-p mean in [1e-3, 1e-2) (measured 1.79e-3,
    // 5.53e-3, 5.08e-3 for p = 1.75, 2, 3), and below every other p' curve.
    CHECK(own >= 1e-3);
    CHECK(own < 1e-2);
    for (const std::string q : {"1.75", "2", "3"})
      if (q != p) CHECK(own < final_D(r.table, p, q));
  }
}

namespace {
// The sparsity preset (d = 16, p = 1.1 / 2 / 3, 3000 steps) over `seeds` seeds: the share of
// entries of W_k below 1% of the largest, the fewest in one run and the most in one run.
void check_sparsity(int seeds) {
  auto e = make_experiment("mirror");
  e->reset(e->make_params("sparsity", {{"seeds", std::to_string(seeds)}}), 1);
  run_to_completion(*e);
  for (const auto& note : e->results().notes) {
    if (note.find("runs done") == std::string::npos) continue;
    const std::size_t at = note.find("% of entries of W_k below");
    const std::size_t start = note.rfind("; ", at) + 2;
    const int share = std::stoi(note.substr(start));
    const int fewest = count_in_note(note, "(per run "), most = count_in_note(note, "% to ");
    WARN(note.substr(0, note.find(':')) << ", " << seeds << " seeds: " << share << "% of entries below 1% of the largest, per run "
                                        << fewest << "% to " << most << "%");
    if (note.rfind("p=1.1:", 0) == 0) CHECK(fewest > 50);  // most entries, in every run
    else CHECK(most < 50);                                 // p = 2, 3: not sparse in any run
  }
}
}  // namespace

TEST_CASE("p near 1 gives a sparse W, p = 2 and 3 do not (3 seeds)", "[mirror][claim]") { check_sparsity(3); }

TEST_CASE("p near 1 gives a sparse W, p = 2 and 3 do not (the preset's 10 seeds)", "[mirror][paper]") { check_sparsity(10); }

namespace {
// One seed's run of p from the experiment's start (synthetic data of seed s, W0 from stream 99),
// recomputed here with the trainer alone: its final W and its selected tokens.
struct PlainRun {
  Eigen::MatrixXd W;
  std::vector<int> alpha;
};
PlainRun plain_run(const Dataset& data, std::uint64_t seed, double p, int iterations) {
  Rng rng = Rng::for_stream(seed, 99);
  Eigen::MatrixXd W0(data.d(), data.d());
  for (Eigen::Index k = 0; k < W0.size(); ++k) W0.data()[k] = rng.normal();
  TrainerSettings s;
  s.p = p;
  MirrorDescent md(data, W0, data.v, s);
  for (int k = 0; k < iterations; ++k) md.step();
  return {md.W(), selected_tokens(md.last_forward())};
}
double direction_divergence(const Eigen::MatrixXd& svm, const Eigen::MatrixXd& W, double p) {
  return bregman(svm / entrywise_norm(svm, p), W / entrywise_norm(W, p), p);
}
}  // namespace

// Issue 13: the authors' code pairs the iterates of run p with the SVM that run p' saved (its own
// tokens, run-correlations-W.sh); ours solves every SVM on run p's tokens. Both, against a plain
// recomputation, on a seed whose p = 1.75 and p = 3 runs select different tokens.
TEST_CASE("mirror 3 x 3: the authors' tokens are the p' run's, ours this run's", "[mirror][claim]") {
  constexpr int kIterations = 300;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const Dataset data = synthetic_dataset(6, 8, 10, seed);
    const PlainRun low = plain_run(data, seed, 1.75, kIterations), high = plain_run(data, seed, 3.0, kIterations);
    if (low.alpha == high.alpha) continue;
    INFO("seed " << seed);
    auto final_row = [&](const std::string& tokens) {
      auto e = make_experiment("mirror");
      e->reset(e->make_params("", {{"seeds", "1"}, {"sweep", "p=1.75,3"}, {"iterations_rule", "fixed"},
                                   {"iterations", std::to_string(kIterations)}, {"svm_tokens", tokens}}),
               seed);
      run_to_completion(*e);
      const Results r = e->results();
      return std::make_pair(r.table.rows.back(), r);
    };
    const auto [authors, authors_results] = final_row("authors");
    const auto [ours, ours_results] = final_row("this_run");
    const Table& t = authors_results.table;
    auto at = [&](const std::vector<double>& row, const char* column) {
      return row[static_cast<std::size_t>(t.column(column))];
    };
    const Eigen::MatrixXd svm3_own_high = solve_att_svm(data, high.alpha, data.v, 3.0, 3000, 1e-9).W;
    const Eigen::MatrixXd svm3_on_low = solve_att_svm(data, low.alpha, data.v, 3.0, 3000, 1e-9).W;
    const Eigen::MatrixXd svm175_own_low = solve_att_svm(data, low.alpha, data.v, 1.75, 3000, 1e-9).W;
    // The off-diagonal entry: run 1.75 against the SVM of p' = 3, on run 3's tokens or on its own.
    CHECK(at(authors, "D_p=1.75_svm_p=3") == Approx(direction_divergence(svm3_own_high, low.W, 1.75)).epsilon(1e-9));
    CHECK(at(ours, "D_p=1.75_svm_p=3") == Approx(direction_divergence(svm3_on_low, low.W, 1.75)).epsilon(1e-9));
    CHECK(at(authors, "D_p=1.75_svm_p=3") != at(ours, "D_p=1.75_svm_p=3"));
    // The diagonal is each run against its own SVM in both: the same numbers.
    CHECK(at(authors, "D_p=1.75_svm_p=1.75") == Approx(direction_divergence(svm175_own_low, low.W, 1.75)).epsilon(1e-9));
    CHECK(at(authors, "D_p=1.75_svm_p=1.75") == at(ours, "D_p=1.75_svm_p=1.75"));
    CHECK(at(authors, "D_p=3_svm_p=3") == at(ours, "D_p=3_svm_p=3"));
    // The notes say which; p' = 2 has no run in this sweep, so its SVM takes each run's tokens (ours).
    auto has = [](const Results& r, const std::string& start) {
      for (const auto& note : r.notes)
        if (note.rfind(start, 0) == 0) return true;
      return false;
    };
    CHECK(has(authors_results, "The 3 x 3 comparison solves each p' SVM on the tokens the same seed's p' run selected"));
    CHECK(has(authors_results, "Ours: the sweep has no run of p' = 2,"));
    CHECK(has(ours_results, "Ours: the 3 x 3 comparison solves each p' SVM on this run's selected tokens"));
    return;
  }
  FAIL("no seed in 1..40 whose p = 1.75 and p = 3 runs select different tokens after 300 steps");
}

// The authors' plotter.ipynb follows entries (1, 2) and (3, 4) of W (numpy, 0-indexed) in its
// single-run figure, and (0, 0), (0, 1) on the d = 2 joint toy.
TEST_CASE("mirror path plots follow the authors' entries of W", "[mirror][claim]") {
  auto titles = [](const KeyValues& settings) {
    auto e = make_experiment("mirror");
    e->reset(e->make_params("single_run_zero", settings), 1);
    run_to_completion(*e);
    std::string all;
    for (const Plot& p : e->results().plots) all += p.title + "\n";
    return all;
  };
  const KeyValues short_run{{"iterations_rule", "fixed"}, {"iterations", "50"}, {"sweep", "p=2"}};
  CHECK_THAT(titles(short_run), Catch::Contains("Path of (W[1,2], W[3,4]) / ||W_k||_p, p=2 (seed 1, 0-indexed)"));
  KeyValues small = short_run;
  small.push_back({"d", "4"});
  CHECK_THAT(titles(small), Catch::Contains("Path of (W[0,0], W[0,1]) / ||W_k||_p, p=2"));
}

TEST_CASE("mirror inputs: the first seed's first sequence and the attention its runs start from", "[mirror][inputs]") {
  const Dataset all = synthetic_dataset(6, 8, 10, 5);
  const Dataset first = synthetic_first_sequence(8, 10, 5);
  REQUIRE(first.n() == 1);
  CHECK(first.X[0] == all.X[0]);
  CHECK(first.z[0] == all.z[0]);

  auto e = make_experiment("mirror");
  // Defaults: a T x d heatmap of the tokens and the attention at the unit's own W0.
  const Results r = e->inputs(e->make_params("", {}), 5);
  REQUIRE(r.heatmaps.size() == 1);
  REQUIRE(r.plots.size() == 1);
  CHECK(r.heatmaps[0].rows == 8);
  CHECK(r.heatmaps[0].cols == 10);
  CHECK(r.heatmaps[0].values[3] == all.X[0](0, 3));
  RunSetup setup;
  setup.seed = 5;
  const Forward fw = forward(all, random_start(setup, 0, 10), all.v, Loss::Logistic);
  const Series& bars = r.plots[0].series[0];
  REQUIRE(bars.y.size() == 8);
  for (int t = 0; t < 8; ++t) CHECK(bars.y[static_cast<std::size_t>(t)] == Approx(fw.s[0][t]).epsilon(1e-12));

  // W0 = 0 starts from the even split; the d = 2 toy draws its tokens in the plane.
  const Results toy = e->inputs(e->make_params("joint_toy", {}), 5);
  REQUIRE(toy.heatmaps.empty());
  REQUIRE(toy.plots.size() == 2);
  CHECK(toy.plots[0].series[0].x.size() == 6);  // three arrows from the origin
  for (double w : toy.plots[1].series[0].y) CHECK(w == Approx(1.0 / 3.0));

  // The cone start's W0 holds the SVM: only the tokens, and a note.
  const Results cone = e->inputs(e->make_params("", {{"init", "cone"}}), 5);
  CHECK(cone.plots.empty());
  CHECK(cone.heatmaps.size() == 1);
  CHECK(cone.notes.size() == 1);
}

namespace {
const Plot* plot_titled(const Results& r, const std::string& title) {
  for (const Plot& p : r.plots)
    if (p.title == title) return &p;
  return nullptr;
}
}  // namespace

TEST_CASE("the sparsity plot draws every p, and the own-p plot has a curve for p = 1.1", "[mirror]") {
  auto e = make_experiment("mirror");
  e->reset(e->make_params("sparsity", {{"seeds", "2"}, {"d", "10"}}), 1);
  run_to_completion(*e);
  const Results& r = e->results();
  const Plot* sparsity = plot_titled(r, "Sparsity of W_k at the end, per p");
  REQUIRE(sparsity);
  REQUIRE(sparsity->series.size() == 1);
  CHECK(sparsity->series[0].x == std::vector<double>{1.1, 2.0, 3.0});
  // The mean over the runs, between the sparsest and the least sparse run, as the notes count it.
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(sparsity->series[0].y_low[i] <= sparsity->series[0].y[i]);
    CHECK(sparsity->series[0].y[i] <= sparsity->series[0].y_high[i]);
  }
  CHECK(sparsity->series[0].y[0] > 50.0);
  CHECK(sparsity->series[0].y[1] < 50.0);
  const Plot& own = r.plots.front();
  REQUIRE(own.series.size() == 3);
  CHECK(own.series[0].name == "MD p=1.1 (seed 1)");
  CHECK(own.series[1].name == "MD p=2");
  CHECK(!own.series[0].x.empty());
}

TEST_CASE("joint training draws the token each sequence selects, per p", "[mirror]") {
  auto e = make_experiment("mirror");
  e->reset(e->make_params("joint_toy", {}), 1);
  run_to_completion(*e);
  const Results r = e->results();
  const Plot* tokens = plot_titled(r, "Selected token of each sequence at the end, per p (seed 1)");
  REQUIRE(tokens);
  REQUIRE(tokens->series.size() == 2);  // the toy's two sequences
  // [1, 0] for p = 1.75 and 2, [0, 0] for p = 3 (the story's fifth step).
  CHECK(tokens->series[0].x == std::vector<double>{1.75, 2.0, 3.0});
  CHECK(tokens->series[0].y == std::vector<double>{1.0, 1.0, 0.0});
  CHECK(tokens->series[1].y == std::vector<double>{0.0, 0.0, 0.0});
}
