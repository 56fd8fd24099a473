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

void row_softmax_in_place(Eigen::MatrixXd& S) {
  for (Eigen::Index r = 0; r < S.rows(); ++r) {
    const double top = S.row(r).maxCoeff();
    double sum = 0.0;
    for (Eigen::Index c = 0; c < S.cols(); ++c) sum += (S(r, c) = dmath::exp(S(r, c) - top));
    S.row(r) /= sum;
  }
}

Eigen::MatrixXd row_softmax(const Eigen::MatrixXd& logits) {
  Eigen::MatrixXd S = logits;
  row_softmax_in_place(S);
  return S;
}

Eigen::MatrixXd apply(const Layer& layer, const Eigen::MatrixXd& X) {
  Eigen::MatrixXd F = Eigen::MatrixXd::Zero(X.rows(), X.cols());
  for (int i = 0; i < layer.heads(); ++i) F.noalias() += row_softmax(X * layer.Theta[i] * X.transpose()) * (X * layer.W[i]);
  return F;
}

double accumulate_gradient(const Layer& layer, const Eigen::MatrixXd& X, const Eigen::MatrixXd& Y, Layer& grad,
                           GradientWorkspace& w) {
  // The products are evaluated as Eigen evaluates X * Theta * X^T (left to right, into
  // temporaries), so the numbers are those of the plain expressions, without their allocations.
  const auto m = static_cast<std::size_t>(layer.heads());
  w.S.resize(m);
  w.XW.resize(m);
  w.F.setZero(X.rows(), X.cols());
  for (std::size_t i = 0; i < m; ++i) {
    w.X_Theta.noalias() = X * layer.Theta[i];
    w.S[i].noalias() = w.X_Theta * X.transpose();
    row_softmax_in_place(w.S[i]);
    w.XW[i].noalias() = X * layer.W[i];
    w.F.noalias() += w.S[i] * w.XW[i];
  }
  w.dF = w.F - Y;  // d(1/2 ||F - Y||^2) / dF
  for (std::size_t i = 0; i < m; ++i) {
    // F_i = S_i X W_i: dW_i = (S_i X)^T dF; dS_i = dF (X W_i)^T; through the row softmax
    // dLogits = S o (dS - rowsum(dS o S)); Logits = X Theta_i X^T: dTheta_i = X^T dLogits X.
    w.S_X.noalias() = w.S[i] * X;
    grad.W[i].noalias() += w.S_X.transpose() * w.dF;
    w.dS.noalias() = w.dF * w.XW[i].transpose();
    w.inner = (w.dS.array() * w.S[i].array()).rowwise().sum();
    w.dLogits = w.S[i].array() * (w.dS.colwise() - w.inner).array();
    w.Xt_dLogits.noalias() = X.transpose() * w.dLogits;
    grad.Theta[i].noalias() += w.Xt_dLogits * X;
  }
  return w.dF.squaredNorm();
}

}  // namespace attnlab::multihead
