#include "experiments/multihead/lower_bound.hpp"

#include <Eigen/SVD>
#include <cmath>

#include "core/det_math.hpp"

namespace attnlab::multihead {

double phi(double z) {
  // tanh(z / 2) = (1 - e^-|z|) / (1 + e^-|z|) with the sign of z, from the deterministic exp.
  const double e = dmath::exp(-std::fabs(z));
  const double t = (1.0 - e) / (1.0 + e);
  return std::fabs(z) * t;  // z tanh(z / 2) is even and >= 0
}

Gadget build_gadget(int d, int s, double rho) {
  Gadget g;
  // Knots c = -s .. s + 1 (2s + 2 of them); weights solve, for m = 0..s,
  // sum_j lambda_j [phi(rho (c_j + m)) + phi(rho (m - c_j))] = (-1)^m, and sum_j lambda_j = 0
  // (so that a_1 = a_2 gives exactly 0). Minimum-norm solution.
  for (int c = -s; c <= s + 1; ++c) g.knots.push_back(c);
  const int K = static_cast<int>(g.knots.size());
  Eigen::MatrixXd M(s + 2, K);
  Eigen::VectorXd rhs(s + 2);
  for (int m = 0; m <= s; ++m) {
    for (int j = 0; j < K; ++j) M(m, j) = phi(rho * (g.knots[j] + m)) + phi(rho * (m - g.knots[j]));
    rhs[m] = (m % 2 == 0) ? 1.0 : -1.0;
  }
  M.row(s + 1).setOnes();
  rhs[s + 1] = 0.0;
  const Eigen::VectorXd lambda = M.jacobiSvd(Eigen::ComputeThinU | Eigen::ComputeThinV).solve(rhs);
  g.weights.assign(lambda.data(), lambda.data() + K);
  // Heads: w = (tau, v), w' = (-tau, v), v = rho 1_S / 2, tau = rho c / 2. With Theta = e_1 w^T the
  // pair (Theta, lambda w e_1^T), (-Theta, -lambda w e_1^T) adds a_r lambda phi(<w, x_1 - x_2>)
  // to column 0 of row r; the primed pair adds a_r lambda phi(<w', x_1 - x_2>).
  Eigen::VectorXd v = Eigen::VectorXd::Zero(d);
  for (int j = 1; j <= s; ++j) v[j] = rho / 2.0;
  for (int j = 0; j < K; ++j)
    for (double sign_tau : {1.0, -1.0}) {
      Eigen::VectorXd w = v;
      w[0] = sign_tau * rho * g.knots[j] / 2.0;
      const Eigen::MatrixXd Theta = Eigen::VectorXd::Unit(d, 0) * w.transpose();
      const Eigen::MatrixXd W = g.weights[j] * w * Eigen::RowVectorXd::Unit(d, 0);
      g.layer.Theta.push_back(Theta);
      g.layer.W.push_back(W);
      g.layer.Theta.push_back(-Theta);
      g.layer.W.push_back(-W);
    }
  return g;
}

Eigen::MatrixXd gadget_target(const Eigen::MatrixXd& X, int s) {
  Eigen::MatrixXd T = Eigen::MatrixXd::Zero(2, X.cols());
  if (X(0, 0) == X(1, 0)) return T;
  double parity = 1.0;
  for (int j = 1; j <= s; ++j) parity *= X(0, j) * X(1, j);
  T(0, 0) = X(0, 0) * parity;
  T(1, 0) = X(1, 0) * parity;
  return T;
}

double verify_gadget(const Gadget& g, int s) {
  const int d = g.layer.d();
  double worst = 0.0;
  Eigen::MatrixXd X(2, d);
  for (std::uint64_t code = 0; code < (1ULL << (2 * d)); ++code) {
    for (int e = 0; e < 2 * d; ++e) X(e / d, e % d) = ((code >> e) & 1U) ? 1.0 : -1.0;
    worst = std::max(worst, (apply(g.layer, X) - gadget_target(X, s)).cwiseAbs().maxCoeff());
  }
  return worst;
}

int recover_parity_gf2(int d, int s, std::uint64_t seed, int max_examples, std::vector<int>& found) {
  // Each example with a_1 != a_2 gives one equation over GF(2): the label bit equals
  // sum_{j in S} (b_1j xor b_2j), with b = (1 - z) / 2. Unknown: the indicator of S on z's d - 1 coordinates.
  Rng rng = Rng::for_stream(seed, 21);
  const int n = d - 1;
  std::vector<std::vector<int>> rows;  // reduced rows: n coefficients + rhs
  std::vector<int> pivot_of_column(static_cast<std::size_t>(n), -1);
  int rank = 0;
  for (int used = 1; used <= max_examples; ++used) {
    Eigen::MatrixXd X = random_input(2, d, rng);
    if (X(0, 0) == X(1, 0)) X(1, 0) = -X(0, 0);  // only a_1 != a_2 carries the parity
    const double label = gadget_target(X, s)(0, 0) * X(0, 0);  // the parity itself
    std::vector<int> row(static_cast<std::size_t>(n + 1));
    for (int j = 0; j < n; ++j) row[static_cast<std::size_t>(j)] = X(0, j + 1) != X(1, j + 1);
    row[static_cast<std::size_t>(n)] = label < 0.0;
    // Reduce against the pivots found so far.
    for (int c = 0; c < n; ++c)
      if (row[static_cast<std::size_t>(c)] && pivot_of_column[static_cast<std::size_t>(c)] >= 0) {
        const auto& p = rows[static_cast<std::size_t>(pivot_of_column[static_cast<std::size_t>(c)])];
        for (int e = 0; e <= n; ++e) row[static_cast<std::size_t>(e)] ^= p[static_cast<std::size_t>(e)];
      }
    int lead = -1;
    for (int c = 0; c < n && lead < 0; ++c)
      if (row[static_cast<std::size_t>(c)]) lead = c;
    if (lead < 0) continue;
    // Keep the basis fully reduced: eliminate the new pivot column from the earlier rows.
    for (auto& p : rows)
      if (p[static_cast<std::size_t>(lead)])
        for (int e = 0; e <= n; ++e) p[static_cast<std::size_t>(e)] ^= row[static_cast<std::size_t>(e)];
    pivot_of_column[static_cast<std::size_t>(lead)] = static_cast<int>(rows.size());
    rows.push_back(row);
    if (++rank == n) {
      found.assign(static_cast<std::size_t>(n), 0);
      for (int c = 0; c < n; ++c)
        found[static_cast<std::size_t>(c)] = rows[static_cast<std::size_t>(pivot_of_column[static_cast<std::size_t>(c)])][static_cast<std::size_t>(n)];
      return used;
    }
  }
  return -1;
}

}  // namespace attnlab::multihead
