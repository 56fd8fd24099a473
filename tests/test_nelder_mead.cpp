// The Nelder-Mead minimiser of src/core (used by the multi-head experiment's head search).
#include <catch2/catch.hpp>
#include <cmath>

#include "core/nelder_mead.hpp"

TEST_CASE("Nelder-Mead finds the minimum of the Rosenbrock function", "[core][nelder_mead]") {
  const auto rosenbrock = [](const Eigen::VectorXd& x) {
    return 100.0 * std::pow(x[1] - x[0] * x[0], 2) + std::pow(1.0 - x[0], 2);
  };
  const attnlab::NelderMeadResult r = attnlab::nelder_mead(rosenbrock, Eigen::Vector2d(-1.2, 1.0), 0.5, 5000, 1e-16);
  CHECK(r.x[0] == Approx(1.0).margin(1e-4));
  CHECK(r.x[1] == Approx(1.0).margin(1e-4));
  CHECK(r.value < 1e-8);
}
