// The multi-head layer, phase I and the Adam baseline (spec/multihead.md).
#include <catch2/catch.hpp>
#include <cmath>

#include "experiments/multihead/instance.hpp"
#include "experiments/multihead/learners.hpp"
#include "experiments/registry.hpp"
#include "lab/runner.hpp"

using namespace attnlab;
using namespace attnlab::multihead;

TEST_CASE("F(X) equals the per-row definition", "[multihead]") {
  InstanceSettings s;
  const Layer layer = random_instance(s, 3);
  Rng rng(1);
  const Eigen::MatrixXd X = random_input(s.k, s.d, rng);
  const Eigen::MatrixXd F = apply(layer, X);
  for (int r = 0; r < s.k; ++r) {
    Eigen::RowVectorXd row = Eigen::RowVectorXd::Zero(s.d);
    for (int i = 0; i < s.m; ++i) {
      std::vector<double> w(static_cast<std::size_t>(s.k));
      double sum = 0.0;
      for (int c = 0; c < s.k; ++c) sum += w[static_cast<std::size_t>(c)] = std::exp(X.row(r).dot(layer.Theta[i] * X.row(c).transpose()));
      for (int c = 0; c < s.k; ++c) row += (w[static_cast<std::size_t>(c)] / sum) * X.row(c) * layer.W[i];
    }
    CHECK((row - F.row(r)).norm() <= 1e-12 * row.norm());
  }
}

TEST_CASE("the instance generator meets the recipe", "[multihead]") {
  InstanceSettings s;
  s.m = 3;
  const Layer layer = random_instance(s, 5);
  const AssumptionMeter a = measure_assumptions(layer);
  CHECK(a.max_cosine < 1e-12);       // Frobenius-orthogonal heads
  CHECK(a.max_trace_ratio < 1e-12);  // traceless
  CHECK(layer.Theta[0].norm() == Approx(s.norm));
  CHECK(layer.W[2].norm() == Approx(1.0));
}

TEST_CASE("phase I is unbiased when attention does not depend on X", "[multihead]") {
  InstanceSettings s;
  s.d = 6;
  Layer layer = random_instance(s, 2);
  for (auto& T : layer.Theta) T.setZero();  // uniform attention: F(X) = (1/k) J X W_sum
  CrudeEstimate crude(s.d);
  Rng rng(9);
  for (int n = 0; n < 200000; ++n) {
    const Eigen::MatrixXd X = random_input(s.k, s.d, rng);
    crude.add(X, apply(layer, X));
  }
  const Eigen::MatrixXd W_sum = layer.W[0] + layer.W[1];
  CHECK((crude.estimate() - W_sum).norm() / W_sum.norm() < 0.02);  // sampling noise only
}

TEST_CASE("the layer's gradient agrees with finite differences", "[multihead]") {
  InstanceSettings s;
  s.d = 4;
  const Layer truth = random_instance(s, 4);
  Layer layer = random_instance(s, 8);
  Rng rng(2);
  const Eigen::MatrixXd X = random_input(s.k, s.d, rng), Y = apply(truth, X);
  Layer grad = layer;
  for (int i = 0; i < s.m; ++i) grad.Theta[i].setZero(), grad.W[i].setZero();
  accumulate_gradient(layer, X, Y, grad);
  const double h = 1e-6;
  auto loss = [&](const Layer& l) { return 0.5 * (apply(l, X) - Y).squaredNorm(); };
  for (int i = 0; i < s.m; ++i)
    for (int e = 0; e < 16; e += 3) {
      Layer up = layer, down = layer;
      up.Theta[i].data()[e] += h;
      down.Theta[i].data()[e] -= h;
      CHECK(grad.Theta[i].data()[e] == Approx((loss(up) - loss(down)) / (2 * h)).margin(1e-6));
      up = layer, down = layer;
      up.W[i].data()[e] += h;
      down.W[i].data()[e] -= h;
      CHECK(grad.W[i].data()[e] == Approx((loss(up) - loss(down)) / (2 * h)).margin(1e-6));
    }
}

TEST_CASE("Adam recovers a one-head instance", "[multihead]") {
  auto e = make_experiment("multihead");
  e->reset(e->make_params("one_head", {{"crude_samples", "1000"}, {"adam_steps", "1500"}}), 1);
  run_to_completion(*e);
  const Table t = e->results().table;
  const auto& last = t.rows.back();
  CHECK(last[static_cast<std::size_t>(t.column("test_mse"))] < 1e-6);
  CHECK(last[static_cast<std::size_t>(t.column("theta_error"))] < 0.01);
}
