#include "experiments/multihead/enclosure.hpp"

#include <utility>

namespace attnlab::multihead {

namespace {

struct Slabs {
  Eigen::MatrixXd A;
  Eigen::VectorXd lower, upper;
};

Slabs slabs(const std::vector<Constraint>& constraints, double half_width) {
  Slabs s;
  const Eigen::Index rows = static_cast<Eigen::Index>(constraints.size());
  const Eigen::Index n = rows ? constraints.front().a.size() : 0;
  s.A.resize(rows, n);
  s.lower.resize(rows);
  s.upper.resize(rows);
  for (Eigen::Index j = 0; j < rows; ++j) {
    const Constraint& c = constraints[static_cast<std::size_t>(j)];
    s.A.row(j) = c.a.transpose();
    s.lower[j] = c.rhs - half_width;
    s.upper[j] = c.rhs + half_width;
  }
  return s;
}

}  // namespace

BoxQp min_norm_programme(const std::vector<Constraint>& constraints, double half_width) {
  Slabs s = slabs(constraints, half_width);
  const Eigen::Index n = s.A.cols();
  return BoxQp(std::move(s.A), std::move(s.lower), std::move(s.upper), Eigen::VectorXd::Zero(n), 1.0);
}

BoxQp width_programme(const std::vector<Constraint>& constraints, double half_width, const Eigen::VectorXd& U,
                      bool maximise) {
  Slabs s = slabs(constraints, half_width);
  return BoxQp(std::move(s.A), std::move(s.lower), std::move(s.upper), maximise ? Eigen::VectorXd(-U) : U, 0.0);
}

Eigen::VectorXd affine_hull_min_norm(const std::vector<Eigen::MatrixXd>& Theta) {
  const Eigen::Map<const Eigen::VectorXd> first(Theta.front().data(), Theta.front().size());
  const Eigen::Index m = static_cast<Eigen::Index>(Theta.size());
  if (m == 1) return first;
  Eigen::MatrixXd D(first.size(), m - 1);
  for (Eigen::Index i = 1; i < m; ++i)
    D.col(i - 1) = Eigen::Map<const Eigen::VectorXd>(Theta[static_cast<std::size_t>(i)].data(), first.size()) - first;
  // theta_1 + D c closest to 0: c = -(D^T D)^-1 D^T theta_1.
  const Eigen::VectorXd c = (D.transpose() * D).ldlt().solve(-D.transpose() * first);
  return first + D * c;
}

}  // namespace attnlab::multihead
