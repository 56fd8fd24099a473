// The interior-point solver for programmes over two-sided row bounds (src/core/box_qp.hpp),
// against closed forms: projections onto a slab and a box, linear programmes over a box, and
// what it reports for an empty set and an unbounded objective.
#include <catch2/catch.hpp>
#include <cmath>

#include "core/box_qp.hpp"
#include "core/rng.hpp"

using namespace attnlab;

TEST_CASE("box QP: the min-norm point of one slab is its nearest face's foot", "[core][box_qp][claim:mh-17]") {
  // { x : 2 <= <a, x> <= 3 } with ||a|| = 5: the min-norm point is 2 a / ||a||^2.
  Eigen::MatrixXd A(1, 2);
  A << 3.0, 4.0;
  BoxQp qp(A, Eigen::VectorXd::Constant(1, 2.0), Eigen::VectorXd::Constant(1, 3.0), Eigen::VectorXd::Zero(2), 1.0);
  qp.solve();
  REQUIRE(qp.status() == BoxQp::Status::Solved);
  CHECK(qp.x()[0] == Approx(6.0 / 25.0).margin(1e-8));
  CHECK(qp.x()[1] == Approx(8.0 / 25.0).margin(1e-8));
  CHECK(qp.violation() <= 1e-9);
}

TEST_CASE("box QP: the min-norm point of a box clamps 0 into it, the LP picks its corner", "[core][box_qp][claim:mh-17]") {
  Rng rng(4);
  const int n = 12;
  Eigen::VectorXd lower(n), upper(n), c(n);
  for (int i = 0; i < n; ++i) {
    lower[i] = rng.uniform(-2.0, 1.0);
    upper[i] = lower[i] + rng.uniform(0.1, 2.0);
    c[i] = rng.normal();
  }
  // A rotated box: rows Q, so that x in the box means Q x in [lower, upper]; min-norm point
  // Q^T clamp(0), LP max c^T x = max (Q c)^T y over the box of y = Q x.
  Eigen::MatrixXd G(n, n);
  for (Eigen::Index k = 0; k < G.size(); ++k) G.data()[k] = rng.normal();
  const Eigen::MatrixXd Q = Eigen::HouseholderQR<Eigen::MatrixXd>(G).householderQ();
  BoxQp min_norm(Q, lower, upper, Eigen::VectorXd::Zero(n), 1.0);
  min_norm.solve();
  REQUIRE(min_norm.status() == BoxQp::Status::Solved);
  const Eigen::VectorXd expected = Q.transpose() * Eigen::VectorXd::Zero(n).cwiseMax(lower).cwiseMin(upper);
  CHECK((min_norm.x() - expected).cwiseAbs().maxCoeff() <= 1e-7);
  BoxQp lp(Q, lower, upper, -c, 0.0);
  lp.solve();
  REQUIRE(lp.status() == BoxQp::Status::Solved);
  const Eigen::VectorXd Qc = Q * c;
  double best = 0.0;
  for (int i = 0; i < n; ++i) best += Qc[i] > 0.0 ? Qc[i] * upper[i] : Qc[i] * lower[i];
  CHECK(c.dot(lp.x()) == Approx(best).epsilon(1e-8));
  CHECK(lp.violation() <= 1e-8);
}

TEST_CASE("box QP: an empty set and an unbounded objective are reported, not returned", "[core][box_qp][claim:mh-17]") {
  // x_1 in [1, 2] and x_1 in [3, 4] (and x_2 in [0, 1]): no common point.
  Eigen::MatrixXd B(3, 2);
  B << 1.0, 0.0, 1.0, 0.0, 0.0, 1.0;
  BoxQp empty(B, Eigen::Vector3d(1.0, 3.0, 0.0), Eigen::Vector3d(2.0, 4.0, 1.0), Eigen::VectorXd::Zero(2), 1.0);
  empty.solve();
  CHECK(empty.status() == BoxQp::Status::Failed);
  CHECK_THAT(empty.message(), Catch::Contains("no common point"));
  // max x_2 with only x_1 bounded: unbounded, and A^T D A is singular.
  Eigen::MatrixXd C(1, 2);
  C << 1.0, 0.0;
  BoxQp unbounded(C, Eigen::VectorXd::Constant(1, 0.0), Eigen::VectorXd::Constant(1, 1.0), Eigen::Vector2d(0.0, -1.0), 0.0);
  unbounded.solve();
  CHECK(unbounded.status() == BoxQp::Status::Failed);
}
