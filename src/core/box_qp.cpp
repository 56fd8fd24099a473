#include "core/box_qp.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace attnlab {

// The inequality form G x + s = h, s >= 0 with G = [A; -A], h = [upper; -lower], and duals z >= 0.
// Residuals rx = gamma x + q + G^T z (stationarity) and rz = G x + s - h (primal).
BoxQp::BoxQp(Eigen::MatrixXd A, Eigen::VectorXd lower, Eigen::VectorXd upper, Eigen::VectorXd q, double gamma,
             double tolerance, int max_iterations)
    : A_(std::move(A)), q_(std::move(q)), gamma_(gamma), tolerance_(tolerance), max_iterations_(max_iterations) {
  const Eigen::Index rows = A_.rows();
  h_.resize(2 * rows);
  h_ << upper, -lower;
  x_ = Eigen::VectorXd::Zero(A_.cols());
  // Infeasible start: slacks at least 1 (the primal residual carries the rest), duals 1.
  s_ = (h_ - G(x_)).cwiseMax(1.0);
  z_ = Eigen::VectorXd::Ones(2 * rows);
}

Eigen::VectorXd BoxQp::G(const Eigen::VectorXd& x) const {
  const Eigen::VectorXd Ax = A_ * x;
  Eigen::VectorXd out(2 * Ax.size());
  out << Ax, -Ax;
  return out;
}

Eigen::VectorXd BoxQp::G_transpose(const Eigen::VectorXd& v) const {
  const Eigen::Index rows = A_.rows();
  return A_.transpose() * (v.head(rows) - v.tail(rows));
}

double BoxQp::violation() const {
  const Eigen::VectorXd Ax = A_ * x_;
  const Eigen::Index rows = A_.rows();
  double worst = 0.0;
  for (Eigen::Index j = 0; j < rows; ++j)
    worst = std::max({worst, Ax[j] - h_[j], -h_[rows + j] - Ax[j]});
  return worst;
}

double BoxQp::max_step(const Eigen::VectorXd& v, const Eigen::VectorXd& dv) const {
  double alpha = 1.0 / 0.99;
  for (Eigen::Index i = 0; i < v.size(); ++i)
    if (dv[i] < 0.0) alpha = std::min(alpha, -v[i] / dv[i]);
  return alpha;
}

void BoxQp::newton(const Eigen::VectorXd& rx, const Eigen::VectorXd& rz, const Eigen::VectorXd& rc,
                   Eigen::VectorXd& dx, Eigen::VectorXd& ds, Eigen::VectorXd& dz) const {
  // s o dz + z o ds = -rc, G dx + ds = -rz, gamma dx + G^T dz = -rx: eliminate ds and dz.
  const Eigen::VectorXd w = (z_.cwiseProduct(rz) - rc).cwiseQuotient(s_);
  dx = llt_.solve(-rx - G_transpose(w));
  const Eigen::VectorXd Gdx = G(dx);
  dz = w + z_.cwiseQuotient(s_).cwiseProduct(Gdx);
  ds = -rz - Gdx;
}

bool BoxQp::step() {
  if (status_ != Status::Running) return true;
  const double p = double(s_.size());
  const Eigen::VectorXd rx = gamma_ * x_ + q_ + G_transpose(z_);
  const Eigen::VectorXd rz = G(x_) + s_ - h_;
  const double mu = s_.dot(z_) / p;
  const double scale_x = 1.0 + q_.cwiseAbs().maxCoeff(), scale_z = 1.0 + h_.cwiseAbs().maxCoeff();
  if (rx.cwiseAbs().maxCoeff() <= tolerance_ * scale_x && rz.cwiseAbs().maxCoeff() <= tolerance_ * scale_z &&
      mu <= tolerance_ * std::max(1.0, std::fabs(objective()))) {
    status_ = Status::Solved;
    return true;
  }
  if (iterations_ >= max_iterations_ || !x_.allFinite() || x_.cwiseAbs().maxCoeff() > 1e12) {
    status_ = Status::Failed;
    message_ = gamma_ > 0.0 ? "did not converge: the constraints may have no common point"
                            : "did not converge: the constraints may have no common point, or the objective no bound";
    return true;
  }
  // gamma I + A^T (D_top + D_bottom) A with D = z / s, summed one row at a time in a fixed order.
  const Eigen::Index rows = A_.rows(), n = A_.cols();
  Eigen::MatrixXd normal = Eigen::MatrixXd::Zero(n, n);
  for (Eigen::Index j = 0; j < rows; ++j) {
    const double d = z_[j] / s_[j] + z_[rows + j] / s_[rows + j];
    normal.selfadjointView<Eigen::Lower>().rankUpdate(A_.row(j).transpose(), d);
  }
  normal.diagonal().array() += gamma_;
  normal.triangularView<Eigen::StrictlyUpper>() = normal.transpose();
  llt_.compute(normal);
  if (llt_.info() != Eigen::Success) {
    status_ = Status::Failed;
    message_ = "the normal matrix is singular: the rows of A do not span every direction, so the set is unbounded";
    return true;
  }
  // Mehrotra: the affine direction, the centring it calls for, then the corrected direction.
  Eigen::VectorXd dx, ds, dz;
  newton(rx, rz, s_.cwiseProduct(z_), dx, ds, dz);
  const double alpha_affine = std::min(1.0, std::min(max_step(s_, ds), max_step(z_, dz)));
  const double mu_affine = (s_ + alpha_affine * ds).dot(z_ + alpha_affine * dz) / p;
  const double ratio = mu_affine / mu, sigma = ratio * ratio * ratio;
  const Eigen::VectorXd rc = s_.cwiseProduct(z_) - Eigen::VectorXd::Constant(s_.size(), sigma * mu) +
                             ds.cwiseProduct(dz);
  newton(rx, rz, rc, dx, ds, dz);
  const double alpha = std::min(1.0, 0.99 * std::min(max_step(s_, ds), max_step(z_, dz)));
  x_ += alpha * dx;
  s_ += alpha * ds;
  z_ += alpha * dz;
  ++iterations_;
  return false;
}

}  // namespace attnlab
