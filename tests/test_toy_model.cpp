#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "experiments/separation/toy_model.hpp"

using namespace attnlab;
using namespace attnlab::separation;

TEST_CASE("D0 and D1 draws lie in the datasets of docs/separation.md s.1", "[separation][toy][claim:sep-01][claim:sep-09]") {
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

TEST_CASE("readout equals the definition F = phi(sum_j phi_tau(<f, y_j>))", "[separation][toy][claim:sep-02]") {
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

TEST_CASE("m = log n rounding rules", "[separation][toy][claim:sep-10]") {
  CHECK(readout_width_for(std::log(1000.0), Rounding::Round) == 7);  // 6.91
  CHECK(readout_width_for(std::log(1000.0), Rounding::Floor) == 6);
  CHECK(readout_width_for(std::log(1000.0), Rounding::Ceil) == 7);
  CHECK(readout_width_for(std::log(2.0), Rounding::Floor) == 1);  // never below 1
}

TEST_CASE("the four evaluations in one pass give the bits of one evaluation at a time", "[separation][toy]") {
  // FourMargins (toy_four_margins.hpp) against attention_vector + readout_margins, every margin
  // compared bit for bit: n around multiples of 4 and of 64 (partial groups and words), every
  // column-block width, every sampler, and inputs scaled so the row sums are far from 1.
  FourMargins four;
  std::vector<double> fused[4], f, single;
  int compared = 0;
  double largest_drawn = 0.0, largest_run = 0.0;  // the largest |v1| drawn and run: 37.5 was run
  for (int n : {2, 3, 4, 5, 6, 7, 63, 64, 65, 130, 1000, 2003}) {
    for (int m : {1, 2, 3, 5, 7, 8, 11}) {
      for (ToySampler sampler : {ToySampler::Uniform, ToySampler::TwoPoint, ToySampler::Adversarial}) {
        Rng rng = Rng::for_stream(3, static_cast<std::uint64_t>(n * 100 + m));
        ToySettings s;
        s.n = n;
        s.m = m;
        s.sampler = sampler;
        ToyTrialInputs drawn;
        draw_trial_inputs(s, rng, drawn);
        for (double scale : {1.0, 1e-3, 37.5}) {
          // Each scale from the drawn inputs (scaling in place would run 1, 1e-3 and 0.0375).
          ToyTrialInputs in = drawn;
          for (auto& x : in.v1) x *= scale;
          for (auto& x : in.v0) x *= scale;
          for (double x : drawn.v1) largest_drawn = std::max(largest_drawn, std::fabs(x));
          for (double x : in.v1) largest_run = std::max(largest_run, std::fabs(x));
          four.compute(in.v1, in.v0, in.y[0], 0.25, fused);
          for (int k = 0; k < 4; ++k) {
            attention_vector(in, k, f);
            single.assign(static_cast<std::size_t>(m), 0.0);
            readout_margins(f.data(), in.y[0], 0.25, single.data());
            REQUIRE(fused[k].size() == single.size());
            for (int j = 0; j < m; ++j) {
              INFO("n " << n << " m " << m << " evaluation " << k << " column " << j);
              REQUIRE(std::memcmp(&fused[k][j], &single[j], sizeof(double)) == 0);
              ++compared;
            }
          }
        }
      }
    }
  }
  CHECK(compared == 12 * 3 * 3 * 4 * (1 + 2 + 3 + 5 + 7 + 8 + 11));
  CHECK(largest_run == largest_drawn * 37.5);
}
