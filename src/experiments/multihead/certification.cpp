#include "experiments/multihead/certification.hpp"

#include <Eigen/SVD>
#include <algorithm>
#include <cmath>

#include "core/det_math.hpp"

namespace attnlab::multihead {

EdgeFit best_edge(const Eigen::MatrixXd& Z, const Eigen::RowVectorXd& y) {
  EdgeFit best;
  const int k = static_cast<int>(Z.rows());
  for (int a = 0; a < k; ++a)
    for (int b = a + 1; b < k; ++b) {
      const Eigen::RowVectorXd e = Z.row(a) - Z.row(b), r0 = y - Z.row(b);
      const double ee = e.squaredNorm();
      const double t = ee > 0.0 ? std::clamp(r0.dot(e) / ee, 0.0, 1.0) : 0.5;
      const double residual = (r0 - t * e).norm();
      if (residual < best.residual) best = {a, b, t, residual};
    }
  return best;
}

bool has_duplicate_rows(const Eigen::MatrixXd& X) {
  for (Eigen::Index a = 0; a < X.rows(); ++a)
    for (Eigen::Index b = a + 1; b < X.rows(); ++b)
      if (X.row(a) == X.row(b)) return true;
  return false;
}

int certify(const Eigen::MatrixXd& X, const Eigen::MatrixXd& Y, const Eigen::MatrixXd& W_hat, const CertifySettings& s,
            std::vector<Constraint>& out) {
  // Duplicate tokens split attention and put the constraint off by log 2 (docs/multihead.md s.2).
  if (has_duplicate_rows(X)) return 0;
  const Eigen::MatrixXd Z = X * W_hat;
  const int d = static_cast<int>(X.cols());
  int accepted = 0;
  for (Eigen::Index r = 0; r < X.rows(); ++r) {
    const EdgeFit fit = best_edge(Z, Y.row(r));
    if (!(fit.residual < 0.5 * s.eps)) continue;
    if (fit.t < s.min_weight || 1.0 - fit.t < s.min_weight) continue;
    Constraint c;
    const Eigen::MatrixXd A = X.row(r).transpose() * (X.row(fit.a) - X.row(fit.b));
    c.a = Eigen::Map<const Eigen::VectorXd>(A.data(), d * d);
    c.rhs = dmath::log(fit.t / (1.0 - fit.t));
    out.push_back(std::move(c));
    ++accepted;
  }
  return accepted;
}

Eigen::MatrixXd refit_w_sum(const std::vector<Eigen::MatrixXd>& X, const std::vector<Eigen::MatrixXd>& Y,
                            const Eigen::MatrixXd& W_hat, double keep) {
  struct Row {
    double residual;
    std::size_t n;
    int r;
    EdgeFit fit;
  };
  std::vector<Row> rows;
  for (std::size_t n = 0; n < X.size(); ++n) {
    const Eigen::MatrixXd Z = X[n] * W_hat;
    for (int r = 0; r < static_cast<int>(X[n].rows()); ++r) {
      const EdgeFit fit = best_edge(Z, Y[n].row(r));
      rows.push_back({fit.residual, n, r, fit});
    }
  }
  const std::size_t kept = std::max<std::size_t>(static_cast<std::size_t>(keep * static_cast<double>(rows.size())), W_hat.rows() * 4);
  // A total order (ties broken by position) and a sorted prefix: the kept set and the summation order
  // are the same under every standard library (libstdc++ natively, libc++ in wasm).
  const auto before = [](const Row& a, const Row& b) {
    return a.residual != b.residual ? a.residual < b.residual : a.n != b.n ? a.n < b.n : a.r < b.r;
  };
  const auto end = rows.begin() + static_cast<std::ptrdiff_t>(std::min(kept, rows.size()));
  std::nth_element(rows.begin(), end - 1, rows.end(), before);
  std::sort(rows.begin(), end, before);
  const int d = static_cast<int>(W_hat.rows());
  Eigen::MatrixXd UtU = Eigen::MatrixXd::Zero(d, d), UtY = Eigen::MatrixXd::Zero(d, d);
  for (std::size_t i = 0; i < std::min(kept, rows.size()); ++i) {
    const Row& row = rows[i];
    const Eigen::MatrixXd& Xn = X[row.n];
    const Eigen::RowVectorXd u = row.fit.t * Xn.row(row.fit.a) + (1.0 - row.fit.t) * Xn.row(row.fit.b);
    UtU.noalias() += u.transpose() * u;
    UtY.noalias() += u.transpose() * Y[row.n].row(row.r);
  }
  return UtU.ldlt().solve(UtY);
}

Eigen::MatrixXd paper_phase3(const std::vector<Eigen::MatrixXd>& X, const std::vector<Eigen::MatrixXd>& Y,
                             const Eigen::MatrixXd& W_hat, const CertifySettings& s, double margin) {
  const int d = static_cast<int>(W_hat.rows());
  std::vector<Constraint> constraints;
  for (std::size_t n = 0; n < X.size(); ++n) certify(X[n], Y[n], W_hat, s, constraints);
  if (constraints.size() < static_cast<std::size_t>(d)) return W_hat;  // too few to form a proxy
  const Span proxy = extract_span(constraints, d, 1);
  const Eigen::Map<const Eigen::MatrixXd> theta(proxy.theta_p.data(), d, d);
  Eigen::MatrixXd UtU = Eigen::MatrixXd::Zero(d, d), UtY = Eigen::MatrixXd::Zero(d, d);
  int kept = 0;
  for (std::size_t n = 0; n < X.size(); ++n) {
    const Eigen::RowVectorXd logits = X[n].row(0) * theta * X[n].transpose();
    Eigen::Index top = 0;
    const double best = logits.maxCoeff(&top);
    double second = -INFINITY;
    for (Eigen::Index c = 0; c < logits.size(); ++c)
      if (c != top) second = std::max(second, logits[c]);
    if (best - second < margin) continue;
    UtU.noalias() += X[n].row(top).transpose() * X[n].row(top);
    UtY.noalias() += X[n].row(top).transpose() * Y[n].row(0);
    ++kept;
  }
  if (kept < 4 * d) return W_hat;
  return UtU.ldlt().solve(UtY);
}

Span extract_span(const std::vector<Constraint>& constraints, int d, int m) {
  const int D = d * d;
  Eigen::MatrixXd C(static_cast<Eigen::Index>(constraints.size()), D);
  Eigen::VectorXd s(static_cast<Eigen::Index>(constraints.size()));
  for (std::size_t j = 0; j < constraints.size(); ++j) {
    C.row(static_cast<Eigen::Index>(j)) = constraints[j].a.transpose();
    s[static_cast<Eigen::Index>(j)] = constraints[j].rhs;
  }
  Span span;
  span.theta_p = Eigen::VectorXd::Zero(D);
  span.directions = Eigen::MatrixXd::Zero(D, std::max(0, m - 1));
  if (constraints.empty()) return span;
  Eigen::JacobiSVD<Eigen::MatrixXd> svd(C, Eigen::ComputeThinU | Eigen::ComputeFullV);
  span.singular_values = svd.singularValues();
  const int rank = static_cast<int>(span.singular_values.size());
  // The directions the constraints barely see: the m - 1 smallest right singular vectors among the
  // min(#constraints, d^2) that the thin SVD returns. With d^2 or more constraints these span the
  // (near-)null space of the constraints. With fewer, the exact null space has dimension d^2 - #constraints
  // > 0 and every basis of it is equally valid, so it says nothing about the heads: the step then
  // takes the least-seen constrained directions instead (ours; the span is not identified there, and
  // the head search's error shows it).
  const int usable = std::min(rank, D) - (m - 1);
  for (int j = 0; j < m - 1; ++j) span.directions.col(j) = svd.matrixV().col(std::min(rank, D) - 1 - j);
  const Eigen::VectorXd Uts = svd.matrixU().transpose() * s;
  for (int j = 0; j < usable; ++j)
    if (span.singular_values[j] > 1e-10 * span.singular_values[0])
      span.theta_p += (Uts[j] / span.singular_values[j]) * svd.matrixV().col(j);
  return span;
}

double fit_values(const std::vector<Eigen::MatrixXd>& Theta, const std::vector<Eigen::MatrixXd>& X,
                  const std::vector<Eigen::MatrixXd>& Y, std::vector<Eigen::MatrixXd>& W) {
  const int m = static_cast<int>(Theta.size());
  const int d = static_cast<int>(Theta[0].rows());
  const int p = m * d;
  Eigen::MatrixXd GtG = Eigen::MatrixXd::Zero(p, p), GtY = Eigen::MatrixXd::Zero(p, d);
  std::vector<Eigen::MatrixXd> features(X.size());
  for (std::size_t n = 0; n < X.size(); ++n) {
    Eigen::MatrixXd G(X[n].rows(), p);  // row r: [z_{r,1}, ..., z_{r,m}]
    for (int i = 0; i < m; ++i) G.middleCols(i * d, d) = row_softmax(X[n] * Theta[i] * X[n].transpose()) * X[n];
    GtG.noalias() += G.transpose() * G;
    GtY.noalias() += G.transpose() * Y[n];
    features[n] = std::move(G);
  }
  GtG.diagonal().array() += 1e-10 * std::max(1.0, GtG.diagonal().maxCoeff());
  const Eigen::MatrixXd B = GtG.ldlt().solve(GtY);
  W.clear();
  for (int i = 0; i < m; ++i) W.push_back(B.middleRows(i * d, d));
  double loss = 0.0;
  for (std::size_t n = 0; n < X.size(); ++n) loss += (features[n] * B - Y[n]).squaredNorm();
  return loss / double(X.size());
}

}  // namespace attnlab::multihead
