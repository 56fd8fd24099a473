#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "experiments/separation/toy_model.hpp"

using namespace attnlab;
using namespace attnlab::separation;

TEST_CASE("D0 and D1 draws lie in the datasets of docs/separation.md s.1", "[separation][toy]") {
  Rng rng(11);
  for (ToySampler sampler : {ToySampler::Uniform, ToySampler::TwoPoint, ToySampler::Adversarial}) {
    std::vector<double> v(500);
    const double ln = std::log(500.0);
    sample_d0(sampler, v, rng);
    for (double x : v) {
      REQUIRE(x >= ln);
      REQUIRE(x <= 1.4 * ln + 1e-12);
    }
    sample_d1(sampler, v, rng);
    int planted = 0;
    for (double x : v) planted += x == 4.0 * ln;
    CHECK(planted == 1);
  }
  std::vector<double> adv(1000);
  sample_d0(ToySampler::Adversarial, adv, rng);
  int high = 0;
  for (double x : adv) high += x > std::log(1000.0) * 1.2;
  CHECK(high == 63);  // round(1000^0.6)
}

TEST_CASE("readout equals the definition F = phi(sum_j phi_tau(<f, y_j>))", "[separation][toy]") {
  Rng rng(5);
  Readout y;
  y.draw(70, 4, rng);  // n not a multiple of 64: the second word is partly used
  std::vector<double> f(70);
  for (auto& x : f) x = rng.uniform();
  for (double tau : {0.01, 1.0, 3.0}) {
    double total = 0.0;
    for (int j = 0; j < 4; ++j) {
      double dot = 0.0;
      for (int i = 0; i < 70; ++i) dot += y.sign(i, j) * f[i];
      total += std::max(dot - tau, 0.0);
    }
    const ReadoutValue r = evaluate_readout(f.data(), y, tau);
    CHECK(r.value == Approx(std::max(total, 0.0)).margin(1e-12));
    CHECK(r.fires() == (total > 0.0));
  }
}

TEST_CASE("readout counts near-ties at the threshold", "[separation][toy]") {
  Rng rng(2);
  Readout y;
  y.draw(4, 1, rng);
  // f concentrated on token 0: <f, y_1> = y_01 * 0.25 exactly, so tau = 0.25 ties or misses.
  std::vector<double> f{0.25, 0.0, 0.0, 0.0};
  const ReadoutValue r = evaluate_readout(f.data(), y, 0.25);
  CHECK(r.value == 0.0);
  CHECK(r.near_ties == (y.sign(0, 0) > 0 ? 1 : 0));
}

TEST_CASE("readout signs are balanced", "[separation][toy]") {
  Rng rng(8);
  Readout y;
  y.draw(1000, 20, rng);
  int plus = 0;
  for (int j = 0; j < 20; ++j)
    for (int i = 0; i < 1000; ++i) plus += y.sign(i, j) > 0;
  CHECK(std::fabs(plus - 10000.0) < 5.0 * std::sqrt(20000 / 4.0));
}

TEST_CASE("m = log n rounding rules", "[separation][toy]") {
  CHECK(readout_width_for(std::log(1000.0), Rounding::Round) == 7);  // 6.91
  CHECK(readout_width_for(std::log(1000.0), Rounding::Floor) == 6);
  CHECK(readout_width_for(std::log(1000.0), Rounding::Ceil) == 7);
  CHECK(readout_width_for(std::log(2.0), Rounding::Floor) == 1);  // never below 1
}
