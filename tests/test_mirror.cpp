// l_p-AttGD and l_p-AttSVM (spec/mirror_descent.md s.5).
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <thread>

#include "core/rng.hpp"
#include "experiments/mirror/att_svm.hpp"
#include "experiments/mirror/mirror_map.hpp"
#include "experiments/mirror/trainer.hpp"
#include "experiments/registry.hpp"
#include "lab/runner.hpp"
#include "lab/work_unit.hpp"

using namespace attnlab;
using namespace attnlab::mirror;

namespace {
Eigen::MatrixXd random_matrix(int d, Rng& rng, bool with_zeros) {
  Eigen::MatrixXd W(d, d);
  for (Eigen::Index k = 0; k < W.size(); ++k) W.data()[k] = with_zeros && k % 5 == 0 ? 0.0 : rng.normal();
  return W;
}
std::vector<int> best_tokens(const Dataset& data) {
  std::vector<int> alpha;
  for (int i = 0; i < data.n(); ++i) {
    Eigen::Index b = 0;
    (data.Y[i] * (data.X[static_cast<std::size_t>(i)] * data.v)).maxCoeff(&b);
    alpha.push_back(static_cast<int>(b));
  }
  return alpha;
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

TEST_CASE("the SVM solver reaches violation and duality gap below 1e-9", "[mirror][svm]") {
  for (std::uint64_t seed : {1, 2, 3}) {
    const Dataset data = synthetic_dataset(6, 8, 10, seed);
    const std::vector<int> alpha = best_tokens(data);
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
  const std::vector<int> alpha = best_tokens(data);
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

TEST_CASE("the paper's synthetic setting: each run ends closest to its own p's SVM", "[mirror][paper]") {
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

TEST_CASE("the joint toy selects the spec's tokens", "[mirror][paper]") {
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
  const std::vector<int> alpha = best_tokens(data);
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

// ---- work units (DESIGN.md "Parallel work units") ------------------------------------------------

namespace {

// Everything a run shows, each double as its bits, so "equal" means byte-identical.
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
    for (const auto& s : p.series) out += s.name + "\n", bits(s.x), bits(s.y), bits(s.y_low), bits(s.y_high);
  }
  for (const auto& h : r.heatmaps) {
    out += h.title + " " + h.note + "\n";
    bits(h.values);
    for (const auto& m : h.marks) out += std::to_string(m.row) + ":" + std::to_string(m.col) + ",";
  }
  for (const auto& n : r.notes) out += n + "\n";
  return out;
}

// A mirror run over the smoke settings (plus `extra`), prepared and not started.
std::unique_ptr<Experiment> prepared_mirror(std::uint64_t seed, const KeyValues& extra) {
  auto e = make_experiment("mirror");
  KeyValues settings = e->smoke_settings();
  settings.insert(settings.end(), extra.begin(), extra.end());
  e->reset(e->make_params("", settings), seed);
  return e;
}

}  // namespace

TEST_CASE("mirror units: any slicing, order or split gives the same bytes", "[mirror][units]") {
  // The smoke run; then a cone start (an SVM before training), joint training (the v-SVM) and a p
  // outside the figure's three (a fourth SVM per run).
  for (const KeyValues& extra : {KeyValues{}, KeyValues{{"init", "cone"}, {"train", "joint"}, {"sweep", "p=1.5,3"}}}) {
    INFO(extra.size());
    auto whole = prepared_mirror(4, extra);
    REQUIRE(whole->unit_count() == 3);
    run_to_completion(*whole);
    const std::string expected = fingerprint(whole->results());
    CHECK(whole->results().heatmaps.size() == 8);

    auto sliced = prepared_mirror(4, extra);  // one piece per slice, previews merged in between
    Budget one;
    one.max_units = 1;
    while (!sliced->progress().finished()) sliced->step(one);
    CHECK(fingerprint(sliced->results()) == expected);

    // Units in reverse order, each computed by another experiment object (a shard) and absorbed.
    auto merged = prepared_mirror(4, extra), shard = prepared_mirror(4, extra);
    for (std::int64_t u = merged->unit_count() - 1; u >= 0; --u) {
      auto task = shard->start_unit(u);
      merged->absorb(u, run_task_to_end(*task));
    }
    CHECK(merged->progress().finished());
    CHECK(fingerprint(merged->results()) == expected);

#ifndef __EMSCRIPTEN__
    // All units of one experiment object at once on threads, absorbed out of order.
    auto threaded = prepared_mirror(4, extra);
    std::vector<Partial> partials(static_cast<std::size_t>(threaded->unit_count()));
    std::vector<std::thread> threads;
    for (std::int64_t u = 0; u < threaded->unit_count(); ++u)
      threads.emplace_back([&, u] { partials[static_cast<std::size_t>(u)] = run_task_to_end(*threaded->start_unit(u)); });
    for (auto& t : threads) t.join();
    for (std::int64_t u : {2, 0, 1}) threaded->absorb(u, partials[static_cast<std::size_t>(u)]);
    CHECK(fingerprint(threaded->results()) == expected);
#endif

    auto other_seed = prepared_mirror(5, extra);
    run_to_completion(*other_seed);
    CHECK(fingerprint(other_seed->results()) != expected);
  }
}

TEST_CASE("mirror partials are compact: matrices only for the seed the heatmaps show", "[mirror][units]") {
  auto e = prepared_mirror(1, {});
  const Partial shown = run_task_to_end(*e->start_unit(0));
  const Partial other = run_task_to_end(*e->start_unit(1));
  for (const char* run : {"r0.", "r1."}) {
    CHECK(shown.has(std::string(run) + "final_W"));
    CHECK_FALSE(other.has(std::string(run) + "final_W"));
    CHECK_FALSE(other.has(std::string(run) + "path_w01"));
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
