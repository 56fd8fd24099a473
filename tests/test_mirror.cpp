// l_p-AttGD and l_p-AttSVM (docs/mirror.md s.5).
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>

#include "core/rng.hpp"
#include "experiments/mirror/att_svm.hpp"
#include "experiments/mirror/dataset.hpp"
#include "experiments/mirror/mirror_map.hpp"
#include "experiments/mirror/mirror_run.hpp"
#include "experiments/mirror/mirror_schema.hpp"
#include "experiments/mirror/model.hpp"
#include "experiments/mirror/trainer.hpp"
#include "core/statistics.hpp"
#include "experiments/registry.hpp"
#include "lab/plot_looks.hpp"
#include "lab/runner.hpp"
#include "lab/text.hpp"
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

// Oracles written here from the definitions with std::pow, sharing no code with the lab's mirror map
// (mirror_map.cpp): psi(W) = (1/p) sum |W_jk|^p, ||W||_p, and Definition 1's Bregman divergence
// D_psi(W, V) = psi(W) - psi(V) - <grad psi(V), W - V> with grad psi(V) = sign(V) |V|^(p-1).
double oracle_psi(const Eigen::MatrixXd& W, double p) {
  double sum = 0.0;
  for (Eigen::Index k = 0; k < W.size(); ++k) sum += std::pow(std::fabs(W.data()[k]), p);
  return sum / p;
}
double oracle_norm(const Eigen::MatrixXd& W, double p) { return std::pow(p * oracle_psi(W, p), 1.0 / p); }
double oracle_bregman(const Eigen::MatrixXd& W, const Eigen::MatrixXd& V, double p) {
  double inner = 0.0;
  for (Eigen::Index k = 0; k < W.size(); ++k) {
    const double v = V.data()[k];
    const double g = v == 0.0 ? 0.0 : (v < 0.0 ? -1.0 : 1.0) * std::pow(std::fabs(v), p - 1.0);
    inner += g * (W.data()[k] - v);
  }
  return oracle_psi(W, p) - oracle_psi(V, p) - inner;
}
// The directional divergence D_k = D_psi(W_mm / ||W_mm||_p, W / ||W||_p), the SVM's direction first.
double oracle_directional(const Eigen::MatrixXd& svm, const Eigen::MatrixXd& W, double p) {
  return oracle_bregman(svm / oracle_norm(svm, p), W / oracle_norm(W, p), p);
}
// The share of entries of W below 1% of its largest in absolute value.
double small_share(const Eigen::MatrixXd& W) {
  const double top = W.cwiseAbs().maxCoeff();
  return double((W.cwiseAbs().array() < 0.01 * top).count()) / double(W.size());
}
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

TEST_CASE("the mirror map round-trips, with negative and zero entries", "[mirror][map]") {
  Rng rng(1);
  for (double p : {1.1, 1.75, 2.0, 3.0}) {
    const Eigen::MatrixXd W = random_matrix(6, rng, true);
    const Eigen::MatrixXd back = grad_psi_inverse(grad_psi(W, p), p);
    CHECK((back - W).cwiseAbs().maxCoeff() <= 1e-12 * W.cwiseAbs().maxCoeff());
    CHECK(back(0, 0) == 0.0);
  }
}

TEST_CASE("Bregman divergence: Definition 1 by finite differences, nonnegative, zero on the diagonal, half the squared "
          "distance at p = 2; D_k with the SVM first",
          "[mirror][map][claim:mir-02]") {
  Rng rng(2);
  for (double p : {1.25, 1.75, 2.0, 3.0}) {
    const Eigen::MatrixXd W = random_matrix(5, rng, true), V = random_matrix(5, rng, false);
    CHECK(bregman(W, V, p) >= 0.0);
    CHECK(bregman(W, W, p) == Approx(0.0).margin(1e-14));
    // Definition 1 with the inner product <grad psi(V), W - V> taken as the derivative of psi along
    // W - V by central differences: no gradient formula shared with the code.
    const double h = 1e-5;
    const double along = (oracle_psi(V + h * (W - V), p) - oracle_psi(V - h * (W - V), p)) / (2 * h);
    INFO("p " << p);
    CHECK(bregman(W, V, p) == Approx(oracle_psi(W, p) - oracle_psi(V, p) - along).epsilon(1e-7).margin(1e-9));
    CHECK(psi(W, p) == Approx(oracle_psi(W, p)).epsilon(1e-13));
    CHECK(entrywise_norm(W, p) == Approx(oracle_norm(W, p)).epsilon(1e-13));
  }
  const Eigen::MatrixXd W = random_matrix(4, rng, false), V = random_matrix(4, rng, false);
  CHECK(bregman(W, V, 2.0) == Approx(0.5 * (W - V).squaredNorm()).epsilon(1e-12));
  // D_k in the experiment's table: the SVM's direction first, W_k / ||W_k||_p second, psi of the
  // run's p; recomputed from a plain run of seed 1 and the oracle above.
  auto e = make_experiment("mirror");
  e->reset(e->make_params("", {{"seeds", "1"}, {"sweep", "p=1.75"}, {"iterations_rule", "fixed"}, {"iterations", "200"}}), 1);
  run_to_completion(*e);
  const Table& t = e->results().table;
  const Dataset data = synthetic_dataset(6, 8, 10, 1);
  const PlainRun run = plain_run(data, 1, 1.75, 200);
  const Eigen::MatrixXd svm = solve_att_svm(data, run.alpha, data.v, 1.75, 3000, 1e-9).W;
  const double D = t.rows.back()[static_cast<std::size_t>(t.column("D_p=1.75_svm_p=1.75"))];
  CHECK(D == Approx(oracle_directional(svm, run.W, 1.75)).epsilon(1e-9));
  CHECK(D != Approx(oracle_bregman(run.W / oracle_norm(run.W, 1.75), svm / oracle_norm(svm, 1.75), 1.75)).epsilon(1e-3));
}

TEST_CASE("p = 2 is gradient descent, bit for bit", "[mirror][md][claim:mir-08]") {
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

// Story step 1: once the gradient's q-norm falls below eps, the authors' update G = grad / (||grad||_q
// + eps) slows down (a step then moves grad psi(W) by eta ||grad||_q / (||grad||_q + eps), shrinking with
// the gradient), while the log-domain direction keeps q-norm 1, so W keeps turning. Seed 1, W0 = 0,
// p = 1.75, as the story's run; measured from W_k (grad psi recomputed here) and the gradient.
TEST_CASE("the authors' update slows down once the gradient's q-norm is below eps; the log-domain update keeps its steps",
          "[mirror][md][claim:mir-04]") {
  const Dataset data = synthetic_dataset(6, 8, 10, 1);
  const double p = 1.75, q = p / (p - 1.0);
  auto mirror = [&](const Eigen::MatrixXd& W) {  // sign(W) |W|^(p-1)
    Eigen::MatrixXd T = W;
    for (Eigen::Index k = 0; k < W.size(); ++k)
      T.data()[k] = (W.data()[k] < 0.0 ? -1.0 : 1.0) * std::pow(std::fabs(W.data()[k]), p - 1.0);
    return T;
  };
  double turned[2] = {0.0, 0.0}, last_step[2] = {0.0, 0.0};
  for (bool log_domain : {false, true}) {
    TrainerSettings s;
    s.p = p;
    s.log_domain = log_domain;
    MirrorDescent md(data, Eigen::MatrixXd::Zero(10, 10), data.v, s);
    Eigen::MatrixXd at1000, before;
    for (int k = 1; k <= 1500; ++k) {
      if (k == 1500) before = md.W();
      md.step();
      if (k == 1000) at1000 = md.W();
    }
    const Eigen::MatrixXd g =
        gradient_W(data, md.W(), data.v, Loss::Logistic, forward(data, md.W(), data.v, Loss::Logistic)).value();
    // How far the direction W / ||W||_p turned over the last 500 steps, and the last step's size in
    // the mirror variable, in units of eta.
    turned[log_domain] = oracle_norm(md.W() / oracle_norm(md.W(), p) - at1000 / oracle_norm(at1000, p), p);
    last_step[log_domain] = oracle_norm(mirror(md.W()) - mirror(before), q) / s.eta;
    INFO("log_domain " << log_domain << ": ||grad||_q " << oracle_norm(g, q) << ", direction turned "
                       << turned[log_domain] << ", last step " << last_step[log_domain] << " eta");
    if (!log_domain) CHECK(oracle_norm(g, q) < s.eps);
  }
  CHECK(last_step[1] == Approx(1.0).epsilon(1e-6));
  CHECK(last_step[0] < 0.1);
  CHECK(turned[0] < 0.2 * turned[1]);
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

// Definition 3 (cited by Lemmas 19-21): the support tokens are the constraints tight at W_mm, and
// alpha is locally optimal when every support token scores below the selected one. Everything is
// recomputed here from the data: the margins, the tight set, the optimality of W_mm (the KKT
// conditions of min (1/p) ||W||_p^p s.t. margins >= 1, a convex problem, so they prove it the minimum;
// and no perturbed W, rescaled to margin 1, has a smaller l_p norm), and the scores.
TEST_CASE("l_p-AttSVM: W_mm is the least l_p norm with margin 1, its support tokens the tight constraints, "
          "local optimality Definition 3's scores",
          "[mirror][svm][claim:mir-03]") {
  Rng pick(17);
  int locally_optimal_seen = 0, not_locally_optimal_seen = 0, unsolved = 0, support_only_matters = 0;
  for (std::uint64_t seed : {1, 2, 3}) {
    const Dataset data = synthetic_dataset(6, 8, 10, seed);
    const int n = data.n(), T = data.T(), d = data.d();
    // The best-scoring tokens, then in one sequence at a time the token ranked second or third by
    // score (locally optimal or not, depending on whether a better token is a support token), then
    // random tokens.
    const std::vector<int> best = best_scoring_tokens(data);
    std::vector<std::vector<int>> alphas{best};
    auto score = [&](int i, int t) { return data.Y[i] * data.X[static_cast<std::size_t>(i)].row(t).dot(data.v); };
    for (int i = 0; i < n; ++i)
      for (int rank : {2, 3}) {
        std::vector<int> order(static_cast<std::size_t>(T));
        for (int t = 0; t < T; ++t) order[static_cast<std::size_t>(t)] = t;
        std::sort(order.begin(), order.end(), [&](int a, int b) { return score(i, a) > score(i, b); });
        std::vector<int> a = best;
        a[static_cast<std::size_t>(i)] = order[static_cast<std::size_t>(rank - 1)];
        alphas.push_back(a);
      }
    for (int r = 0; r < 4; ++r) {
      std::vector<int> a(static_cast<std::size_t>(n));
      for (int& t : a) t = static_cast<int>(pick.uniform() * T) % T;
      alphas.push_back(a);
    }
    for (std::size_t which = 0; which < alphas.size(); ++which) {
      const std::vector<int>& alpha = alphas[which];
      for (double p : {1.25, 1.75, 2.0, 3.0}) {
        if (which > 0 && which <= std::size_t(2 * n) && p != 1.75) continue;  // the ranked alphas at one p
        INFO("seed " << seed << ", alpha " << which << ", p " << p);
        const SvmSolution s = solve_att_svm(data, alpha, data.v, p, 3000, 1e-9);
        REQUIRE(s.feasible);
        if (which > 0 && !s.converged) {  // a random alpha the dual has not solved in 3000 sweeps
          ++unsolved;
          continue;
        }
        REQUIRE(s.converged);
        // The margins (x_{i alpha_i} - x_it)^T W z_i of any W, and the smallest.
        auto margins = [&](const Eigen::MatrixXd& W) {
          std::vector<std::pair<std::pair<int, int>, double>> m;
          for (int i = 0; i < n; ++i) {
            const Eigen::MatrixXd& X = data.X[static_cast<std::size_t>(i)];
            const int a = alpha[static_cast<std::size_t>(i)];
            for (int t = 0; t < T; ++t)
              if (t != a) m.push_back({{i, t}, (X.row(a) - X.row(t)).dot(W * data.z[static_cast<std::size_t>(i)])});
          }
          return m;
        };
        auto least_margin = [&](const Eigen::MatrixXd& W) {
          double least = INFINITY;
          for (const auto& [it, m] : margins(W)) least = std::min(least, m);
          return least;
        };
        // Feasible, and the tight constraints are the support tokens the solver reports.
        std::vector<std::pair<int, int>> tight;
        Eigen::MatrixXd A(d * d, 0);
        for (const auto& [it, m] : margins(s.W)) {
          CHECK(m >= 1.0 - 1e-9);
          if (m > 1.0 + 1e-6) continue;
          tight.push_back(it);
          const auto [i, t] = it;
          const Eigen::MatrixXd& X = data.X[static_cast<std::size_t>(i)];
          const Eigen::MatrixXd Aj =
              (X.row(alpha[static_cast<std::size_t>(i)]) - X.row(t)).transpose() * data.z[static_cast<std::size_t>(i)].transpose();
          A.conservativeResize(Eigen::NoChange, A.cols() + 1);
          A.col(A.cols() - 1) = Eigen::Map<const Eigen::VectorXd>(Aj.data(), d * d);
        }
        std::vector<std::pair<int, int>> support = s.support;
        std::sort(support.begin(), support.end());
        std::sort(tight.begin(), tight.end());
        CHECK(support == tight);
        // KKT: grad psi(W_mm) = sign(W) |W|^(p-1) is a combination of the tight A_j with weights >= 0.
        Eigen::VectorXd g(d * d);
        for (Eigen::Index k = 0; k < g.size(); ++k) {
          const double w = s.W.data()[k];
          g[k] = w == 0.0 ? 0.0 : (w < 0.0 ? -1.0 : 1.0) * std::pow(std::fabs(w), p - 1.0);
        }
        REQUIRE(A.cols() > 0);
        const Eigen::VectorXd lambda = A.colPivHouseholderQr().solve(g);
        CHECK((A * lambda - g).norm() <= 1e-6 * g.norm());
        CHECK(lambda.minCoeff() >= -1e-6 * lambda.cwiseAbs().maxCoeff());
        // No perturbation of W_mm, rescaled to least margin 1, has a smaller l_p norm.
        const double least_norm = oracle_norm(s.W, p) / least_margin(s.W);
        for (double size : {0.3, 1e-2, 1e-4})
          for (int r = 0; r < 30; ++r) {
            const Eigen::MatrixXd D = random_matrix(d, pick, false);
            const Eigen::MatrixXd W = s.W + size * oracle_norm(s.W, 2.0) / D.norm() * D;
            const double least = least_margin(W);
            if (least > 0.0) CHECK(oracle_norm(W, p) / least >= least_norm * (1.0 - 1e-9));
          }
        // Local optimality: every support token scores below the selected one, gamma_it = Y_i v^T x_it.
        bool scores_below = true;
        for (const auto& [i, t] : tight) {
          const Eigen::MatrixXd& X = data.X[static_cast<std::size_t>(i)];
          if (!(data.Y[i] * X.row(alpha[static_cast<std::size_t>(i)]).dot(data.v) > data.Y[i] * X.row(t).dot(data.v)))
            scores_below = false;
        }
        CHECK(s.locally_optimal == scores_below);
        // Cases where a token outside the support scores above the selected one tell Definition 3's
        // test (support tokens only) from a test over every token.
        bool all_below = true;
        for (int i = 0; i < n; ++i)
          for (int t = 0; t < T; ++t)
            if (t != alpha[static_cast<std::size_t>(i)] && !(score(i, alpha[static_cast<std::size_t>(i)]) > score(i, t)))
              all_below = false;
        support_only_matters += scores_below && !all_below;
        if (which == 0) CHECK(s.locally_optimal);  // the best-scoring tokens are locally optimal
        ++(scores_below ? locally_optimal_seen : not_locally_optimal_seen);
      }
    }
  }
  // Both answers occurred, so the comparison above could fail either way.
  CHECK(locally_optimal_seen >= 12);
  CHECK(support_only_matters > 0);
  CHECK(unsolved <= 10);
  CHECK(not_locally_optimal_seen > 0);
}

// Ours: with ||G||_q = 1, theta_k = grad psi(W_k) moves by at most eta per step in the q-norm, and
// ||theta||_q = ||W||_p^(p-1) (since (p - 1) q = p). So from W0 = 0, ||W_k||_p <= (eta k)^(1/(p-1)) at
// every k, for every p; ||W_k||_p^(p-1) grows by eta per step once the steps line up, which they do
// for the paper's p = 1.75, 2, 3 on this data, and do not for p = 1.1 (the growth about 0.16 eta).
TEST_CASE("normalised norm growth follows (eta k)^(1/(p-1))", "[mirror][md][claim:mir-07]") {
  const Dataset data = synthetic_dataset(6, 8, 10, 2);
  for (double p : {1.1, 1.75, 2.0, 3.0}) {
    TrainerSettings s;
    s.p = p;
    MirrorDescent md(data, Eigen::MatrixXd::Zero(10, 10), data.v, s);
    int above = 0;
    double at3000 = 0.0;
    for (int k = 1; k <= 4000; ++k) {
      md.step();
      above += oracle_norm(md.W(), p) > std::pow(s.eta * k, 1.0 / (p - 1.0)) * (1.0 + 1e-9);
      if (k == 3000) at3000 = std::pow(oracle_norm(md.W(), p), p - 1.0);
    }
    // The slope of ||W_k||_p^(p-1) over the last 1000 steps, in units of eta.
    const double slope = (std::pow(oracle_norm(md.W(), p), p - 1.0) - at3000) / (s.eta * 1000);
    const double ratio = oracle_norm(md.W(), p) / std::pow(s.eta * 4000, 1.0 / (p - 1.0));
    INFO("p " << p << ": ||W_k||_p / (eta k)^(1/(p-1)) = " << ratio << " at k = 4000; slope " << slope);
    CHECK(above == 0);
    if (p == 1.1) {
      CHECK(slope < 0.5);
    } else {
      CHECK(slope > 0.99);
      CHECK(ratio > 0.9);
    }
  }
  // The dashed reference of the plot "Norm growth ||W_k||_p" is that closed form.
  auto e = make_experiment("mirror");
  e->reset(e->make_params("single_run_zero", {{"iterations_rule", "fixed"}, {"iterations", "100"}}), 1);
  run_to_completion(*e);
  int references = 0;
  for (const Plot& plot : e->results().plots)
    if (plot.title == "Norm growth ||W_k||_p")
      for (const Series& series : plot.series) {
        if (series.style != SeriesStyle::Reference) continue;
        const double p = std::stod(series.name.substr(series.name.find("p=") + 2));
        for (std::size_t c = 0; c < series.x.size(); ++c)
          if (series.x[c] > 0.0) CHECK(series.y[c] == Approx(std::pow(0.1 * series.x[c], 1.0 / (p - 1.0))).epsilon(1e-12));
        ++references;
      }
  CHECK(references == 3);
}

// The paper's convergence result (main text; appendix Lemmas 28 and 29): l_p-AttGD turns W, in
// direction, towards the l_p-AttSVM of its own p. Recomputed here with the trainer alone and the
// oracle divergence: on each seed, D_k against the own-p SVM falls (by 10x from k = 10 to the end)
// and ends below the D_k against the SVMs of the other p' (each on its p' run's tokens, as the
// authors' code pairs them); the notes report the same count.
TEST_CASE("the paper's synthetic setting: each run ends closest to its own p's SVM", "[mirror][claim][claim:mir-01]") {
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
  const std::vector<std::pair<double, int>> runs{{1.75, 1500}, {2.0, 2000}, {3.0, 20000}};
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const Dataset data = synthetic_dataset(6, 8, 10, seed);
    std::vector<PlainRun> early, last;
    for (const auto& [p, iterations] : runs) {
      early.push_back(plain_run(data, seed, p, 10));
      last.push_back(plain_run(data, seed, p, iterations));
    }
    for (std::size_t a = 0; a < runs.size(); ++a) {
      const double p = runs[a].first;
      const Eigen::MatrixXd own = solve_att_svm(data, last[a].alpha, data.v, p, 3000, 1e-9).W;
      const double D_end = oracle_directional(own, last[a].W, p);
      INFO("seed " << seed << ", p " << p << ": D_k at k = 10 " << oracle_directional(own, early[a].W, p)
                   << ", at the end " << D_end);
      CHECK(D_end < 0.1 * oracle_directional(own, early[a].W, p));
      for (std::size_t b = 0; b < runs.size(); ++b) {
        if (b == a) continue;
        const Eigen::MatrixXd other = solve_att_svm(data, last[b].alpha, data.v, runs[b].first, 3000, 1e-9).W;
        CHECK(D_end < oracle_directional(other, last[a].W, p));
      }
    }
  }
}

// The toy of the authors' code (synthetic-data/joint_training.py: n = 2, T = 3, d = 2, W and v
// from 0, normalised steps, eta 0.1), whose selected tokens their code reports as [1, 0], [1, 0] and
// [0, 0] for p = 1.75, 2 and 3 (0-indexed). Recomputed with the trainer alone (the argmax of each
// sequence's softmax at the end), and the notes' tokens and v compared with it.
// The l_p-AttGD step against an implementation that shares no code with the lab's: the NumPy loop of
// bench/mirror_numpy.py (the authors' update in their form: the direct gradient X^T (diag(s) - s s^T)
// X v z^T, grad / (||grad||_q + eps), numpy powers), run on the same data and W0 (its port of the
// project's generator): `python3 bench/mirror_numpy.py --trace 300` printed these sums of W and
// smallest largest-softmax weights after 300 steps.
TEST_CASE("l_p-AttGD agrees with the NumPy reference of the authors' update after 300 steps",
          "[mirror][md][claim:mir-01]") {
  const Dataset data = synthetic_dataset(6, 8, 10, 1);
  const struct {
    double p, sum_W, min_max_softmax;
  } reference[] = {{1.75, 0.9442715513017961, 0.9999918802678343},
                   {2.0, 0.6566895321018987, 0.7167175079145789},
                   {3.0, 3.96403402621822, 0.4680760390357268}};
  for (const auto& r : reference) {
    TrainerSettings s;
    s.p = r.p;
    s.log_domain = false;
    const PlainRun start = plain_run(data, 1, r.p, 0);  // W0 from stream 99, as the benchmark draws it
    MirrorDescent md(data, start.W, data.v, s);
    for (int k = 0; k < 300; ++k) md.step();
    double least = 1.0;
    for (const Eigen::VectorXd& weights : md.last_forward().s) least = std::min(least, weights.maxCoeff());
    INFO("p " << r.p);
    CHECK(md.W().sum() == Approx(r.sum_W).epsilon(1e-9));
    CHECK(least == Approx(r.min_max_softmax).epsilon(1e-9));
  }
}

TEST_CASE("the joint toy selects the tokens of the authors' code", "[mirror][claim][claim:mir-10]") {
  auto e = make_experiment("mirror");
  e->reset(e->make_params("joint_toy", {}), 1);
  run_to_completion(*e);
  std::string notes;
  for (const auto& note : e->results().notes) notes += note + "\n";
  CHECK(notes.find("p=1.75: selected tokens [1, 0]") != std::string::npos);
  CHECK(notes.find("p=2: selected tokens [1, 0]") != std::string::npos);
  CHECK(notes.find("p=3: selected tokens [0, 0]") != std::string::npos);
  const Dataset toy = joint_toy_dataset();
  const std::vector<std::pair<double, int>> runs{{1.75, 1500}, {2.0, 2000}, {3.0, 20000}};
  const std::vector<std::vector<int>> reported{{1, 0}, {1, 0}, {0, 0}};
  for (std::size_t r = 0; r < runs.size(); ++r) {
    TrainerSettings s;
    s.p = runs[r].first;
    s.joint = true;
    MirrorDescent md(toy, Eigen::MatrixXd::Zero(2, 2), Eigen::VectorXd::Zero(2), s);
    for (int k = 0; k < runs[r].second; ++k) md.step();
    INFO("p " << s.p);
    CHECK(selected_tokens(md.last_forward()) == reported[r]);
    if (r == 0)
      CHECK_THAT(notes, Catch::Contains(printf_text("v = (%.3g, %.3g)", md.v()[0], md.v()[1])));
  }
}

// Story step 3 and the preset: the settings of the authors' code (synthetic-data/bash_scripts/
// run-local-*.sh: -n 6 -T 8 -d 10 --lr 0.1 --normalized --std 1, seeds 1..100, epochs 1_500 /
// 2_000 / 20_000 for p = 1.75 / 2 / 3; tools: tokens and queries of unit length), read from the
// prepared run rather than from the preset's text.
TEST_CASE("synthetic_figure runs the authors' settings: n = 6, T = 8, d = 10, eta = 0.1, W0 ~ N(0, 1), 100 seeds, "
          "1500 / 2000 / 20000 steps",
          "[mirror][claim:mir-05]") {
  auto e = make_experiment("mirror");
  const PreparedRun run = prepare_run(mirror_schema(), e->make_params("synthetic_figure", {}), 1, nullptr);
  CHECK(run.setup.data_kind == DataKind::Synthetic);
  CHECK((run.setup.n == 6 && run.setup.T == 8 && run.setup.d == 10));
  CHECK(run.setup.settings.eta == 0.1);
  CHECK(run.setup.settings.normalised);
  CHECK(run.setup.settings.loss == Loss::Logistic);
  CHECK_FALSE(run.setup.settings.joint);
  CHECK_FALSE(run.setup.init_zero);
  CHECK_FALSE(run.setup.init_cone);
  CHECK(run.setup.init_std == 1.0);
  CHECK(run.ps == std::vector<double>{1.75, 2.0, 3.0});
  REQUIRE(run.runs.size() == 300);
  for (const RunPlan& plan : run.runs) {
    CHECK(plan.iterations == (plan.p == 1.75 ? 1500 : plan.p == 2.0 ? 2000 : 20000));
    CHECK(plan.seed_index < 100);
  }
  // Tokens, queries and v of unit length; W0's entries of standard deviation about 1.
  const Dataset data = dataset_for(run.setup, 0);
  for (int i = 0; i < data.n(); ++i) {
    CHECK(data.z[static_cast<std::size_t>(i)].norm() == Approx(1.0).epsilon(1e-12));
    for (int t = 0; t < data.T(); ++t) CHECK(data.X[static_cast<std::size_t>(i)].row(t).norm() == Approx(1.0).epsilon(1e-12));
  }
  CHECK(data.v.norm() == Approx(1.0).epsilon(1e-12));
  double squares = 0.0;
  int entries = 0;
  for (int s = 0; s < 100; ++s) {
    const Eigen::MatrixXd W0 = random_start(run.setup, s, 10);
    squares += W0.squaredNorm();
    entries += static_cast<int>(W0.size());
  }
  CHECK(std::sqrt(squares / entries) == Approx(1.0).epsilon(0.02));  // 10^4 draws: about 0.7% off at most
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
  // run: both are rows of their own.
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
  CHECK(notes.find("p=1.75: selected tokens [1, 0] (0-indexed); the selection changed 1 time, at k = 2;") != std::string::npos);
  CHECK(notes.find("p=3: selected tokens [0, 0] (0-indexed); the selection never changed during training") != std::string::npos);
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

TEST_CASE("the paper's synthetic figure on its 100 seeds: own-p SVM closest, D_k of order 1e-3", "[mirror][paper][claim:mir-05]") {
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
// The sparsity preset (d = 16, p = 1.1 / 2 / 3, 3000 steps) over `seeds` seeds. Every run is
// recomputed here with the trainer alone and its share of entries below 1% of the largest counted
// (small_share); the notes must report those shares (mean, fewest, most), and the claim is checked
// on the recomputed runs: p = 1.1 sparse in every run, p = 2 and 3 in none. The max-margin W of
// each p on the first run's tokens is checked the same way (the story's "the max-margin W is sparse").
void check_sparsity(int seeds) {
  auto e = make_experiment("mirror");
  e->reset(e->make_params("sparsity", {{"seeds", std::to_string(seeds)}}), 1);
  run_to_completion(*e);
  int matched = 0;
  for (double p : {1.1, 2.0, 3.0}) {
    std::vector<double> shares;
    for (int s = 0; s < seeds; ++s) {
      const Dataset data = synthetic_dataset(6, 8, 16, 1 + s);
      const PlainRun run = plain_run(data, 1 + s, p, 3000);
      shares.push_back(small_share(run.W));
      if (s == 0) {
        const SvmSolution svm = solve_att_svm(data, run.alpha, data.v, p, 3000, 1e-9);
        INFO("p " << p << ": the max-margin W's share of small entries " << small_share(svm.W));
        if (p == 1.1) CHECK(small_share(svm.W) > 0.5);
        else CHECK(small_share(svm.W) < 0.5);
      }
    }
    const double fewest = *std::min_element(shares.begin(), shares.end());
    const double most = *std::max_element(shares.begin(), shares.end());
    double mean = 0.0;
    for (double x : shares) mean += x / seeds;
    const std::string label = "p=" + format_number(p) + ":";
    for (const auto& note : e->results().notes) {
      if (note.rfind(label, 0) != 0 || note.find("runs done") == std::string::npos) continue;
      ++matched;
      WARN(label << " " << seeds << " seeds: " << 100 * mean << "% of entries below 1% of the largest, per run "
                 << 100 * fewest << "% to " << 100 * most << "%");
      CHECK_THAT(note, Catch::Contains(printf_text("; %.0f%% of entries of W_k below 1%% of the largest", 100 * mean)));
      if (seeds > 1) CHECK_THAT(note, Catch::Contains(printf_text("(per run %.0f%% to %.0f%%)", 100 * fewest, 100 * most)));
    }
    if (p == 1.1) CHECK(fewest > 0.5);  // most entries, in every run
    else CHECK(most < 0.5);             // p = 2, 3: not sparse in any run
  }
  REQUIRE(matched == 3);  // one note per p, each checked above
}
}  // namespace

TEST_CASE("p near 1 gives a sparse W, p = 2 and 3 do not (3 seeds)", "[mirror][claim][claim:mir-09]") { check_sparsity(3); }

TEST_CASE("p near 1 gives a sparse W, p = 2 and 3 do not (the preset's 10 seeds)", "[mirror][paper][claim:mir-09]") {
  check_sparsity(10);
}


// The authors' code pairs the iterates of run p with the SVM that run p' saved (its own
// tokens, run-correlations-W.sh); ours solves every SVM on run p's tokens. Both, against a plain
// recomputation, on a seed whose p = 1.75 and p = 3 runs select different tokens.
TEST_CASE("mirror 3 x 3: the authors' tokens are the p' run's, ours this run's", "[mirror][claim][claim:mir-06]") {
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
TEST_CASE("mirror path plots follow the authors' entries of W", "[mirror][claim][claim:mir-11]") {
  auto plots = [](const KeyValues& settings) {
    auto e = make_experiment("mirror");
    e->reset(e->make_params("single_run_zero", settings), 1);
    run_to_completion(*e);
    return e->results().plots;
  };
  auto titled = [](const std::vector<Plot>& all, const std::string& start) -> const Plot* {
    for (const Plot& p : all)
      if (p.title.rfind(start, 0) == 0) return &p;
    return nullptr;
  };
  const KeyValues short_run{{"iterations_rule", "fixed"}, {"iterations", "50"}, {"sweep", "p=2"}};
  // The drawn points are W_k[1,2] and W_k[3,4] over ||W_k||_p of seed 1's run (W0 = 0), recomputed
  // here; the ray ends at the same entries of the SVM's direction.
  const std::vector<Plot> big = plots(short_run);
  const Plot* path = titled(big, "Path of (W[1,2], W[3,4]) / ||W_k||_p, p=2 (seed 1, 0-indexed)");
  REQUIRE(path);
  const Dataset data = synthetic_dataset(6, 8, 10, 1);
  TrainerSettings s;
  MirrorDescent md(data, Eigen::MatrixXd::Zero(10, 10), data.v, s);
  for (int k = 0; k < 50; ++k) md.step();
  const double nrm = oracle_norm(md.W(), 2.0);
  CHECK(path->series[0].x.back() == Approx(md.W()(1, 2) / nrm).epsilon(1e-12));
  CHECK(path->series[0].y.back() == Approx(md.W()(3, 4) / nrm).epsilon(1e-12));
  const Eigen::MatrixXd svm = solve_att_svm(data, selected_tokens(md.last_forward()), data.v, 2.0, 3000, 1e-9).W;
  CHECK(path->series[1].x.back() == Approx(svm(1, 2) / oracle_norm(svm, 2.0)).epsilon(1e-6));
  CHECK(path->series[1].y.back() == Approx(svm(3, 4) / oracle_norm(svm, 2.0)).epsilon(1e-6));
  // d < 5: (W[0,0], W[0,1]).
  KeyValues small = short_run;
  small.push_back({"d", "4"});
  const std::vector<Plot> little = plots(small);
  const Plot* path4 = titled(little, "Path of (W[0,0], W[0,1]) / ||W_k||_p, p=2");
  REQUIRE(path4);
  const Dataset data4 = synthetic_dataset(6, 8, 4, 1);
  MirrorDescent md4(data4, Eigen::MatrixXd::Zero(4, 4), data4.v, s);
  for (int k = 0; k < 50; ++k) md4.step();
  CHECK(path4->series[0].x.back() == Approx(md4.W()(0, 0) / oracle_norm(md4.W(), 2.0)).epsilon(1e-12));
  CHECK(path4->series[0].y.back() == Approx(md4.W()(0, 1) / oracle_norm(md4.W(), 2.0)).epsilon(1e-12));
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
  // Three tokens, each a point (marks, no line) of its own series, so the legend names each.
  REQUIRE(toy.plots[0].series.size() == 4);
  for (int t = 0; t < 3; ++t) {
    const Series& point = toy.plots[0].series[static_cast<std::size_t>(t)];
    CHECK(point.name == "token " + std::to_string(t));
    CHECK(point.x.size() == 1);
    CHECK((point.flags & SeriesFlags_Marks) != 0);
  }
  // Its query is token 0 itself: the legend says so (the query's mark covers that token's).
  CHECK(toy.plots[0].series[3].name == "query z (same as token 0)");
  CHECK(toy.plots[0].series[3].x == toy.plots[0].series[0].x);
  CHECK(r.plots[0].title.find("sequence 0") != std::string::npos);  // counted from 0, as the notes do
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
  // The data keep p itself (the read-out and the table show it); each sequence's marks are drawn a few
  // pixels apart, so that two on the same token both show.
  REQUIRE(tokens->series[0].x.size() == 3);
  CHECK(tokens->series[0].x == std::vector<double>{1.75, 2.0, 3.0});
  CHECK(tokens->series[1].x == tokens->series[0].x);
  const std::vector<SeriesDrawing> drawn = series_drawings(*tokens);
  CHECK(drawn[1].dodge - drawn[0].dodge == Approx(kDodgePixels));
  CHECK(drawn[0].dodge + drawn[1].dodge == Approx(0.0));
  CHECK(drawn[0].mark_scale.empty());  // apart on screen: no ring around the other's mark
  CHECK(tokens->series[0].y == std::vector<double>{1.0, 1.0, 0.0});
  CHECK(tokens->series[1].y == std::vector<double>{0.0, 0.0, 0.0});
}
