#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "core/rng.hpp"

using namespace attnlab;

// Pinned values: the same seed gives the same numbers natively and in wasm (this file runs in both).
TEST_CASE("rng values are pinned", "[core][rng]") {
  Rng rng(42);
  CHECK(rng.next_u64() == 13696896915399030466ULL);
  CHECK(rng.next_u64() == 12641092763546669283ULL);
  CHECK(rng.uniform() == 0x1.94addba067146p-1);
  CHECK(rng.normal() == -0x1.75c17b6a8b736p-4);  // log from core/det_math
  CHECK(rng.below(1000) == 188U);
  Rng stream = Rng::for_stream(1, 7);
  CHECK(stream.next_u64() == 13189850893869485305ULL);
}

TEST_CASE("uniform draws lie in the unit interval with the right mean", "[core][rng]") {
  Rng rng(1);
  double sum = 0.0;
  const int n = 200000;
  for (int i = 0; i < n; ++i) {
    const double u = rng.uniform();
    REQUIRE(u >= 0.0);
    REQUIRE(u < 1.0);
    sum += u;
  }
  // Mean 1/2, standard error sqrt(1/12 / n) = 6.5e-4: 5 standard errors.
  CHECK(std::fabs(sum / n - 0.5) < 5 * std::sqrt(1.0 / 12.0 / n));
}

TEST_CASE("below is unbiased over a non-power-of-two range", "[core][rng]") {
  Rng rng(3);
  std::vector<int> count(6, 0);
  const int n = 60000;
  for (int i = 0; i < n; ++i) {
    const auto k = static_cast<std::size_t>(rng.below(6));
    REQUIRE(k < 6);
    ++count[k];
  }
  // Chi-square with 5 degrees of freedom: 20.5 is its 0.999 quantile.
  double chi2 = 0.0;
  for (int c : count) chi2 += (c - n / 6.0) * (c - n / 6.0) / (n / 6.0);
  CHECK(chi2 < 20.5);
}

TEST_CASE("normal draws have mean 0 and variance 1", "[core][rng]") {
  Rng rng(5);
  const int n = 200000;
  double s = 0.0, s2 = 0.0;
  for (int i = 0; i < n; ++i) {
    const double z = rng.normal();
    s += z;
    s2 += z * z;
  }
  CHECK(std::fabs(s / n) < 5.0 / std::sqrt(n));
  CHECK(std::fabs(s2 / n - 1.0) < 5.0 * std::sqrt(2.0 / n));
}

TEST_CASE("rademacher signs are balanced and streams differ", "[core][rng]") {
  Rng rng(9);
  int plus = 0;
  const int n = 100000;
  for (int i = 0; i < n; ++i) plus += rng.rademacher() > 0;
  CHECK(std::fabs(plus - n / 2.0) < 5.0 * std::sqrt(n / 4.0));
  CHECK(Rng::for_stream(1, 0).next_u64() != Rng::for_stream(1, 1).next_u64());
  CHECK(Rng::for_stream(1, 0).next_u64() != Rng::for_stream(2, 0).next_u64());
  CHECK(Rng::for_stream(1, 5).next_u64() == Rng::for_stream(1, 5).next_u64());
}
