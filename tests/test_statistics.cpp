#include <catch2/catch.hpp>

#include "core/statistics.hpp"

using namespace attnlab;

TEST_CASE("Wilson interval matches known values", "[core][statistics]") {
  // 0 of 10: [0, z^2 / (n + z^2)] = [0, 0.27753].
  Interval a = wilson_interval(0, 10);
  CHECK(a.low == 0.0);
  CHECK(a.high == Approx(0.2775327).epsilon(1e-6));
  // 50 of 100: centred at 0.5, half-width 0.0963 (standard tables: 0.4038 .. 0.5962).
  Interval b = wilson_interval(50, 100);
  CHECK(b.low == Approx(0.4038315).epsilon(1e-6));
  CHECK(b.high == Approx(0.5961685).epsilon(1e-6));
  // 10 of 10 mirrors 0 of 10.
  Interval c = wilson_interval(10, 10);
  CHECK(c.high == 1.0);
  CHECK(c.low == Approx(1.0 - 0.2775327).epsilon(1e-6));
}

TEST_CASE("binomial standard error", "[core][statistics]") {
  CHECK(binomial_standard_error(0.5, 100) == Approx(0.05));
  CHECK(binomial_standard_error(0.0, 100) == 0.0);
}
