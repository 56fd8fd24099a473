#include "experiments/mirror/trainer.hpp"

#include "experiments/mirror/mirror_map.hpp"

namespace attnlab::mirror {

MirrorDescent::MirrorDescent(const Dataset& data, Eigen::MatrixXd W0, Eigen::VectorXd v0, const TrainerSettings& s)
    : data_(data), W_(std::move(W0)), v_(std::move(v0)), s_(s) {
  theta_ = grad_psi(W_, s_.p);
  theta_v_ = grad_psi(v_, s_.p);
  fw_ = forward(data_, W_, v_, s_.loss);
}

void MirrorDescent::step() {
  const double q = dual_exponent(s_.p);
  gradient_W(data_, s_.loss, fw_, g_);
  Eigen::MatrixXd& G = G_;
  if (s_.normalised && s_.log_domain) {
    const double norm = entrywise_norm(g_.direction, q);  // scale-free: the exact direction
    if (norm > 0.0) G = g_.direction / norm;
    else G.setZero(W_.rows(), W_.cols());
  } else {
    G = g_.value();
    if (s_.normalised) G /= entrywise_norm(G, q) + s_.eps;
  }
  saturated_ = !s_.normalised && G.isZero(0.0) && !g_.direction.isZero(0.0);
  Eigen::VectorXd gv;
  if (s_.joint) gv = gradient_v(data_, v_, s_.loss, fw_);
  // W+ = grad psi^-1(grad psi(W) - eta G), keeping grad psi(W) as the state (one power per entry).
  theta_ -= s_.eta * G;
  grad_psi_inverse(theta_, s_.p, W_);
  if (s_.joint) {
    if (s_.normalised) gv /= entrywise_norm(gv, q) + (s_.log_domain ? 0.0 : s_.eps);
    if (!gv.allFinite()) gv.setZero();
    theta_v_ -= s_.eta * gv;
    v_ = grad_psi_inverse(theta_v_, s_.p);
  }
  ++k_;
  forward(data_, W_, v_, s_.loss, fw_);
}

}  // namespace attnlab::mirror
