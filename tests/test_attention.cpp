#include <catch2/catch.hpp>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "core/attention.hpp"
#include "core/det_math.hpp"
#include "core/rng.hpp"

using namespace attnlab;

TEST_CASE("softmax is stable at logits 4 log n for n up to 10^6", "[core][softmax]") {
  for (int n : {2, 10, 1000, 100000, 1000000}) {
    const double ln = std::log(static_cast<double>(n));
    std::vector<double> v(n, ln), f(n);
    v[n / 2] = 4.0 * ln;
    softmax(v.data(), n, f.data());
    double sum = 0.0;
    for (double x : f) {
      REQUIRE(std::isfinite(x));
      sum += x;
    }
    // Rounding in a sum of n terms is at most n machine epsilons.
    const double nd = n, tol = 4.0 * nd * 2.2e-16;
    CHECK(std::fabs(sum - 1.0) <= tol);
    // Closed form: the planted entry is n^4 / (n^4 + (n - 1) n) = 1 / (1 + (n - 1) / n^3).
    CHECK(std::fabs(f[n / 2] - 1.0 / (1.0 + (nd - 1.0) / (nd * nd * nd))) <= tol);
    CHECK(f[0] == Approx(f[n / 2] / (nd * nd * nd)).epsilon(1e-10));
  }
}

TEST_CASE("softmax handles logits that overflow exp", "[core][softmax]") {
  std::vector<double> v{1000.0, 999.0, -1000.0}, f(3);
  softmax(v.data(), 3, f.data());
  CHECK(f[0] == Approx(1.0 / (1.0 + std::exp(-1.0))));
  CHECK(f[1] == Approx(std::exp(-1.0) / (1.0 + std::exp(-1.0))));
  CHECK(f[2] >= 0.0);
}

TEST_CASE("softmax rejects a non-finite logit", "[core][softmax]") {
  std::vector<double> v{1.0, INFINITY}, f(2);
  CHECK_THROWS_AS(softmax(v.data(), 2, f.data()), std::domain_error);
}

TEST_CASE("softmax's shift is the largest logit wherever it sits, as a plain loop finds it", "[core][softmax]") {
  // softmax_shift runs four maxima side by side (core/attention.cpp); this is the loop it replaces.
  const auto plain_max = [](const std::vector<double>& v) {
    double m = v[0];
    for (double x : v) m = x > m ? x : m;
    return m;
  };
  Rng rng(2);
  for (std::size_t n = 1; n <= 40; ++n) {
    for (std::size_t at = 0; at < n; ++at) {
      std::vector<double> v(n);
      for (auto& x : v) x = rng.uniform(-5.0, 5.0);
      v[at] = 7.0;
      REQUIRE(softmax_shift(v.data(), n) == 7.0);
      if (n > 1 && at > 0) {  // a NaN after the first logit is passed over by the plain loop, too
        v[at - 1] = NAN;
        if (at - 1 > 0) REQUIRE(softmax_shift(v.data(), n) == plain_max(v));
      }
    }
    std::vector<double> v(n, 1.0);
    v[0] = NAN;
    CHECK_THROWS_AS(softmax_shift(v.data(), n), std::domain_error);
    v[0] = 1.0;
    v[n - 1] = INFINITY;
    CHECK_THROWS_AS(softmax_shift(v.data(), n), std::domain_error);
  }
}

TEST_CASE("linear attention divides by the row sum", "[core][linear]") {
  std::vector<double> v{1.0, 2.0, 5.0}, f(3);
  linear_normalise(v.data(), 3, f.data());
  CHECK(f[0] == Approx(0.125));
  CHECK(f[2] == Approx(0.625));
}

TEST_CASE("linear attention with a non-positive row sum gives a clear error", "[core][linear]") {
  std::vector<double> v{1.0, -3.0}, f(2);
  CHECK_THROWS_WITH(linear_normalise(v.data(), 2, f.data()),
                    Catch::Contains("linear attention needs a positive, finite row sum"));
  std::vector<double> zero{0.0, 0.0};
  CHECK_THROWS_AS(linear_normalise(zero.data(), 2, f.data()), std::domain_error);
}

TEST_CASE("the project's exp, log, pow, cosh, sinh agree with the C library within a few ulps", "[core][dmath]") {
  attnlab::Rng rng(31);
  double worst[5] = {0, 0, 0, 0, 0};
  auto rel = [](double a, double b) { return b == 0.0 ? std::fabs(a) : std::fabs(a - b) / std::fabs(b); };
  for (int k = 0; k < 200000; ++k) {
    const double z = (k % 2 ? 1.0 : 0.01) * rng.uniform(-30.0, 30.0);
    const double wide = rng.uniform(-708.0, 709.0), positive = std::exp(rng.uniform(-700.0, 700.0));
    worst[0] = std::max(worst[0], rel(dmath::exp(wide), std::exp(wide)));
    worst[1] = std::max(worst[1], rel(dmath::log(positive), std::log(positive)));
    worst[2] = std::max(worst[2], rel(dmath::pow(positive, z / 30.0), std::pow(positive, z / 30.0)) / (1.0 + std::fabs(z / 30.0 * std::log(positive))));
    worst[3] = std::max(worst[3], rel(dmath::cosh(z), std::cosh(z)));
    worst[4] = std::max(worst[4], rel(dmath::sinh(z), std::sinh(z)));
  }
  INFO(worst[0] << " " << worst[1] << " " << worst[2] << " " << worst[3] << " " << worst[4]);
  for (int k = 0; k < 4; ++k) CHECK(worst[k] <= 5e-16);
  CHECK(worst[4] <= 8e-16);  // sinh: e - 1/e loses a little above the series' range
  CHECK(dmath::exp(0.0) == 1.0);
  CHECK(dmath::log(1.0) == 0.0);
  CHECK(dmath::pow(0.75, 3) == 0.421875);  // integer exponents: exact products
  CHECK(dmath::exp(-746.0) == 0.0);
  CHECK(dmath::exp(710.0) == HUGE_VAL);
  CHECK(dmath::exp(-740.0) == Approx(std::exp(-740.0)).epsilon(1e-3));  // subnormal
  CHECK(dmath::sinh(0.0) == 0.0);
  CHECK(std::isnan(dmath::log(-1.0)));
}
