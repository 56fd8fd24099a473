#include <catch2/catch.hpp>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "core/attention.hpp"

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
