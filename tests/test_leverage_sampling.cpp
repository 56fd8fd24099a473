// Leverage-score sampling (docs/regression.md s.3, SubSample) against the paper's claims: the
// sample count of Lemma 6.4 (our reading; at most C d log(d/delta) / eps1^2 rows in expectation)
// and its spectral guarantee ((1 - eps1) A^T D A <= A^T D~ A <= (1 + eps1) A^T D A with
// probability >= 1 - delta), with bands from the binomial and the central limit theorem.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "core/rng.hpp"
#include "core/statistics.hpp"
#include "experiments/registry.hpp"
#include "experiments/regression/generator.hpp"
#include "experiments/regression/leverage_sampling.hpp"
#include "experiments/regression/loss.hpp"
#include "lab/runner.hpp"

using namespace attnlab;
using namespace attnlab::regression;

namespace {

constexpr double kZ999 = 3.2905267314919255;  // two-sided 99.9% normal quantile

// A planted exp problem and its middle matrix D = B_diag + W^2 at x_true (where c = 0, so
// D = u o u + w o w > 0): the D that Algorithm 1 samples near x*.
struct SamplingCase {
  Problem problem;
  Eigen::VectorXd D;
};
SamplingCase sampling_case(int n, int d, std::uint64_t seed) {
  GeneratorSettings g;
  g.n = n;
  g.d = d;
  SamplingCase c{generate(g, seed), {}};
  const Point at = evaluate(c.problem, c.problem.x_true);
  c.D = b_diagonal(at) + c.problem.w.cwiseAbs2();
  return c;
}

SamplingSettings paper_rule(double C, double delta, double eps1, LeverageScores scores) {
  SamplingSettings s;
  s.rule = SamplingRule::Paper;
  s.scores = scores;
  s.C = C, s.delta = delta, s.eps1 = eps1;
  return s;
}

// Of `draws` independent calls of SubSample, how many gave A^T D~ A within (1 +- eps1) of A^T D A.
struct SpectralCount {
  std::int64_t within = 0, draws = 0;
  double worst = 0.0;
  Interval band() const { return wilson_interval(within, draws, kZ999); }
};
SpectralCount count_within(const SamplingCase& c, const SamplingSettings& s, int draws, std::uint64_t seed) {
  const Eigen::MatrixXd exact = weighted_gram(c.problem.A, c.D);
  // Exact scores do not depend on the draw: computed once (a sketch is drawn anew each call).
  Rng unused(0);
  const Eigen::VectorXd tau =
      s.scores == LeverageScores::Exact ? leverage_scores(c.problem.A, c.D, s, unused) : Eigen::VectorXd();
  SpectralCount count;
  for (int k = 0; k < draws; ++k) {
    Rng rng = Rng::for_stream(seed, static_cast<std::uint64_t>(k));
    const SampledDiagonal sample = s.scores == LeverageScores::Exact ? sample_rows(c.D, tau, s, c.problem.d(), rng)
                                                                     : leverage_sample(c.problem.A, c.D, s, rng);
    const double eps = spectral_error(weighted_gram(c.problem.A, sample.D), exact);
    count.within += eps <= s.eps1;
    count.worst = std::max(count.worst, std::isnan(eps) ? INFINITY : eps);
    ++count.draws;
  }
  return count;
}

}  // namespace

TEST_CASE("Lemma 6.4's sample count: at most C d log(d/delta) / eps1^2 rows in expectation",
          "[regression][sampling][claim][claim:reg-07][claim:reg-08]") {
  const SamplingCase c = sampling_case(4000, 8, 3);
  const int d = 8;
  const SamplingSettings s = paper_rule(4.0, 0.1, 0.5, LeverageScores::Exact);
  Rng rng(1);
  const Eigen::VectorXd tau = leverage_scores(c.problem.A, c.D, s, rng);
  // Exact leverage scores lie in [0, 1] and sum to the rank of D^{1/2} A, here d.
  CHECK(tau.minCoeff() >= 0.0);
  CHECK(tau.maxCoeff() <= 1.0 + 1e-12);
  CHECK(tau.sum() == Approx(double(d)).epsilon(1e-9));
  // The law: sum_i p_i <= (C log(d/delta) / eps1^2) sum_i tau_i = C d log(d/delta) / eps1^2, with
  // equality when no p_i is capped at 1.
  const double bound = s.expected_rows_bound(d);
  CHECK(bound == Approx(4.0 * 8.0 * std::log(80.0) / 0.25).epsilon(1e-14));
  double expected = 0.0, variance = 0.0, capped = 0.0;
  for (Eigen::Index i = 0; i < tau.size(); ++i) {
    const double p = std::min(1.0, s.uncapped_probability(tau[i], d));
    expected += p, variance += p * (1.0 - p), capped += p == 1.0;
  }
  INFO("expected rows " << expected << ", bound " << bound << ", rows capped at p = 1: " << capped);
  CHECK(expected <= bound * (1.0 + 1e-12));
  if (capped == 0.0) CHECK(expected == Approx(bound).epsilon(1e-9));
  // The rows kept: a sum of independent Bernoulli(p_i), so over `draws` calls the mean count lies
  // within 3.29 standard errors sqrt(sum p_i (1 - p_i) / draws) of sum p_i (99.9%).
  constexpr int kDraws = 1000;
  double total = 0.0;
  for (int k = 0; k < kDraws; ++k) {
    const SampledDiagonal sample = sample_rows(c.D, tau, s, d, rng);
    CHECK(sample.expected_rows == Approx(expected).epsilon(1e-12));
    total += sample.kept;
  }
  const double mean = total / kDraws, half_width = kZ999 * std::sqrt(variance / kDraws);
  INFO("mean rows kept " << mean << " against " << expected << " +- " << half_width);
  CHECK(std::fabs(mean - expected) <= half_width);
  // p_i as the claims write it, here and not from the sampler: min(1, C tau_i log(d/delta) / eps1^2)
  // with C = 4, the default of the settings and of the parameter; and the budget rule (ours),
  // min(1, samples tau_i / d). A kept row carries D_i / p_i, and the sum of the p_i is the expected count.
  CHECK(SamplingSettings{}.C == 4.0);
  CHECK(make_experiment("regression")->make_params("", {}).real("C") == 4.0);
  SamplingSettings budget;
  budget.scores = LeverageScores::Exact;
  budget.samples = 300.0;
  for (const SamplingSettings& rule : {s, budget}) {
    const bool paper = rule.rule == SamplingRule::Paper;
    INFO((paper ? "paper's rule" : "budget rule"));
    Eigen::VectorXd p(tau.size());
    for (Eigen::Index i = 0; i < tau.size(); ++i)
      p[i] = std::min(1.0, paper ? 4.0 * tau[i] * std::log(8.0 / 0.1) / (0.5 * 0.5) : 300.0 * tau[i] / 8.0);
    const SampledDiagonal one = sample_rows(c.D, tau, rule, d, rng);
    CHECK(one.expected_rows == Approx(p.sum()).epsilon(1e-12));
    if (!paper && p.maxCoeff() < 1.0) CHECK(p.sum() == Approx(300.0).epsilon(1e-9));
    int kept = 0;
    for (Eigen::Index i = 0; i < tau.size(); ++i)
      if (one.D[i] != 0.0) {
        CHECK(one.D[i] == Approx(c.D[i] / p[i]).epsilon(1e-12));
        ++kept;
      }
    CHECK(kept == one.kept);
  }
}

namespace {

// The lemma at one setting: the rate at which A^T D~ A is within (1 +- eps1) of A^T D A is at least
// 1 - delta with 99.9% confidence (the Wilson band's lower end), for exact and sketched scores.
void check_lemma(const SamplingCase& c, double eps1, double delta, int draws, std::uint64_t seed) {
  for (LeverageScores scores : {LeverageScores::Exact, LeverageScores::Sketch}) {
    const SpectralCount count = count_within(c, paper_rule(4.0, delta, eps1, scores), draws, seed);
    const Interval band = count.band();
    INFO("eps1 " << eps1 << ", delta " << delta << (scores == LeverageScores::Exact ? ", exact" : ", sketched")
                 << " scores: within at " << count.within << " of " << count.draws << ", 99.9% band [" << band.low
                 << ", " << band.high << "], largest eps " << count.worst);
    CHECK(band.low >= 1.0 - delta);
  }
}

}  // namespace

// C = 4 is ours (the paper leaves C open): the matrix Chernoff bound then promises a failure
// probability of at most d (delta/d)^2 + d (delta/d)^(4/3) <= delta. Measured at n = 4000, d = 8:
// 300 of 300 calls within eps1 at both settings, with either kind of score (largest eps 0.37 at
// eps1 = 0.5, 0.19 at eps1 = 0.3); C = 1 gave 262 of 300 and C = 0.5 74 of 300.
TEST_CASE("Lemma 6.4: A^T D~ A is within 1 +- eps1 of A^T D A with probability >= 1 - delta",
          "[regression][sampling][claim][claim:reg-08]") {
  const SamplingCase c = sampling_case(4000, 8, 3);
  check_lemma(c, 0.5, 0.1, 300, 11);
  check_lemma(c, 0.3, 0.2, 300, 11);
  // The check can fail: with C = 0.5, far below what the lemma needs, the rate is far below 0.9.
  const SpectralCount low = count_within(c, paper_rule(0.5, 0.1, 0.5, LeverageScores::Exact), 300, 12);
  INFO("C = 0.5: within at " << low.within << " of " << low.draws);
  CHECK(low.band().high < 0.9);
}

TEST_CASE("Lemma 6.4 at larger n and smaller delta", "[regression][sampling][paper]") {
  const SamplingCase c = sampling_case(20000, 10, 5);
  check_lemma(c, 0.5, 0.1, 2000, 21);
  check_lemma(c, 0.25, 0.05, 2000, 22);
  check_lemma(c, 0.5, 0.01, 2000, 23);
}

TEST_CASE("regression with the paper's sampling rule reports the law and the lemma per step", "[regression][sampling]") {
  auto e = make_experiment("regression");
  e->reset(e->make_params("", {{"n", "3000"},
                               {"d", "6"},
                               {"sampling", "paper"},
                               {"leverage", "exact"},
                               {"eps1", "0.5"},
                               {"delta", "0.1"},
                               {"newton", "false"},
                               {"approx_diag", "false"},
                               {"approx_w2", "false"},
                               {"gd", "false"},
                               {"max_iterations", "30"}}),
           4);
  run_to_completion(*e);
  const Results r = e->results();
  const double bound = 4.0 * 6.0 * std::log(60.0) / 0.25;
  for (const std::string solver : {"sampled", "sampled_rank2"}) {
    INFO(solver);
    const auto kept = static_cast<std::size_t>(r.table.column(solver + "_kept"));
    const auto expected = static_cast<std::size_t>(r.table.column(solver + "_expected_rows"));
    const auto eps = static_cast<std::size_t>(r.table.column(solver + "_sampling_eps"));
    int steps = 0;
    for (std::size_t i = 1; i < r.table.rows.size(); ++i) {
      const std::vector<double>& row = r.table.rows[i];
      if (std::isnan(row[kept])) continue;
      ++steps;
      CHECK(row[expected] <= bound * (1.0 + 1e-12));
      CHECK(row[expected] > 0.5 * bound);  // scores sum to d; few rows reach p = 1 at n = 3000
      CHECK(row[eps] <= 0.5);              // the lemma's event, here at every step
    }
    CHECK(steps >= 3);
  }
  bool law = false, lemma = false, ours_rule = false, ours_scores = false;
  for (const std::string& note : r.notes) {
    law = law || note.find("the law's bound C d log(d/delta) / eps1^2 = " + std::to_string(int(bound))) != std::string::npos;
    lemma = lemma || note.find("within 1 +- eps1 at") != std::string::npos;
    ours_rule = ours_rule || note.find("Ours: leverage-score sampling keeps row i") != std::string::npos;
    ours_scores = ours_scores || note.find("Ours: the leverage scores are sketched") != std::string::npos;
  }
  CHECK(law);
  CHECK(lemma);
  CHECK_FALSE(ours_rule);    // the rule is the paper's here
  CHECK_FALSE(ours_scores);  // and the scores exact
  bool plotted = false;
  for (const Plot& p : r.plots)
    if (p.title == "Leverage sampling: A^T D~ A against A^T D A")
      plotted = p.series.size() == 3 && p.series.back().name == "the paper's eps1";
  CHECK(plotted);
}
