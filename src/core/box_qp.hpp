// Convex programmes over a polyhedron given by two-sided row bounds,
//   minimise 1/2 gamma ||x||^2 + q^T x  subject to  lower <= A x <= upper,
// solved by a primal-dual interior-point method (Mehrotra's predictor-corrector) from an infeasible
// start: gamma = 1, q = 0 is the minimum-norm point of the polyhedron; gamma = 0, q = -c the linear
// programme max c^T x over it. One iteration per step() (a Cholesky of gamma I + A^T D A), so a
// caller can spread a solve over slices of work. The normal matrix is summed row by row in a
// fixed order, the same bits on every target.
#pragma once
#include <Eigen/Dense>
#include <string>

namespace attnlab {

class BoxQp {
 public:
  enum class Status { Running, Solved, Failed };

  BoxQp(Eigen::MatrixXd A, Eigen::VectorXd lower, Eigen::VectorXd upper, Eigen::VectorXd q, double gamma,
        double tolerance = 1e-9, int max_iterations = 150);

  // One iteration; true once the solve has ended (solved, or failed with a message).
  bool step();
  // Runs to the end.
  void solve() {
    while (!step()) {
    }
  }

  Status status() const { return status_; }
  const std::string& message() const { return message_; }  // why it failed
  const Eigen::VectorXd& x() const { return x_; }
  double objective() const { return 0.5 * gamma_ * x_.squaredNorm() + q_.dot(x_); }
  // max over rows of the violation of lower <= A x <= upper (0 inside)
  double violation() const;
  // the complementarity s^T z / rows: the duality gap per constraint, 0 at the optimum
  double gap() const { return s_.dot(z_) / double(s_.size()); }
  int iterations() const { return iterations_; }

 private:
  // Solves the Newton system for the residuals and the complementarity right-hand side rc, with
  // the factor of gamma I + A^T D A already in llt_.
  void newton(const Eigen::VectorXd& rx, const Eigen::VectorXd& rz, const Eigen::VectorXd& rc, Eigen::VectorXd& dx,
              Eigen::VectorXd& ds, Eigen::VectorXd& dz) const;
  double max_step(const Eigen::VectorXd& v, const Eigen::VectorXd& dv) const;
  Eigen::VectorXd G(const Eigen::VectorXd& x) const;         // [A x; -A x]
  Eigen::VectorXd G_transpose(const Eigen::VectorXd& v) const;  // A^T (v_top - v_bottom)

  Eigen::MatrixXd A_;
  Eigen::VectorXd h_;  // [upper; -lower]
  Eigen::VectorXd q_;
  double gamma_, tolerance_;
  int max_iterations_, iterations_ = 0;
  Eigen::VectorXd x_, s_, z_;
  Eigen::LLT<Eigen::MatrixXd> llt_;
  Status status_ = Status::Running;
  std::string message_;
};

}  // namespace attnlab
