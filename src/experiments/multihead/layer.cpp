#include "experiments/multihead/layer.hpp"

#include "core/det_math.hpp"

namespace attnlab::multihead {

Eigen::MatrixXd Layer::W_sum() const {
  Eigen::MatrixXd sum = Eigen::MatrixXd::Zero(d(), d());
  for (const auto& w : W) sum += w;
  return sum;
}

Eigen::MatrixXd random_input(int k, int d, Rng& rng, bool gaussian) {
  Eigen::MatrixXd X(k, d);
  for (Eigen::Index e = 0; e < X.size(); ++e)
    X.data()[e] = gaussian ? rng.normal() : (rng.next_u64() >> 63) ? 1.0 : -1.0;
  return X;
}

Eigen::MatrixXd row_softmax(const Eigen::MatrixXd& logits) {
  Eigen::MatrixXd S(logits.rows(), logits.cols());
  for (Eigen::Index r = 0; r < logits.rows(); ++r) {
    const double top = logits.row(r).maxCoeff();
    double sum = 0.0;
    for (Eigen::Index c = 0; c < logits.cols(); ++c) sum += (S(r, c) = dmath::exp(logits(r, c) - top));
    S.row(r) /= sum;
  }
  return S;
}

Eigen::MatrixXd apply(const Layer& layer, const Eigen::MatrixXd& X) {
  Eigen::MatrixXd F = Eigen::MatrixXd::Zero(X.rows(), X.cols());
  for (int i = 0; i < layer.heads(); ++i) F.noalias() += row_softmax(X * layer.Theta[i] * X.transpose()) * (X * layer.W[i]);
  return F;
}

double accumulate_gradient(const Layer& layer, const Eigen::MatrixXd& X, const Eigen::MatrixXd& Y, Layer& grad) {
  const int m = layer.heads();
  std::vector<Eigen::MatrixXd> S(static_cast<std::size_t>(m)), XW(static_cast<std::size_t>(m));
  Eigen::MatrixXd F = Eigen::MatrixXd::Zero(X.rows(), X.cols());
  for (int i = 0; i < m; ++i) {
    S[i] = row_softmax(X * layer.Theta[i] * X.transpose());
    XW[i] = X * layer.W[i];
    F.noalias() += S[i] * XW[i];
  }
  const Eigen::MatrixXd dF = F - Y;  // d(1/2 ||F - Y||^2) / dF
  for (int i = 0; i < m; ++i) {
    // F_i = S_i X W_i: dW_i = (S_i X)^T dF; dS_i = dF (X W_i)^T; through the row softmax
    // dLogits = S o (dS - rowsum(dS o S)); Logits = X Theta_i X^T: dTheta_i = X^T dLogits X.
    grad.W[i].noalias() += (S[i] * X).transpose() * dF;
    const Eigen::MatrixXd dS = dF * XW[i].transpose();
    const Eigen::VectorXd inner = (dS.array() * S[i].array()).rowwise().sum();
    const Eigen::MatrixXd dLogits = S[i].array() * (dS.colwise() - inner).array();
    grad.Theta[i].noalias() += X.transpose() * dLogits * X;
  }
  return dF.squaredNorm();
}

}  // namespace attnlab::multihead
