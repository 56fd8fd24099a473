// Nelder-Mead minimisation (reflection 1, expansion 2, contraction 1/2, shrink 1/2): derivative-free,
// for small searches such as the multi-head experiment's head search over a few coefficients.
#pragma once
#include <Eigen/Dense>
#include <functional>

namespace attnlab {

struct NelderMeadResult {
  Eigen::VectorXd x;
  double value = 0.0;
  int evaluations = 0;
};

// Starts from the simplex x0, x0 + step e_i; stops after `max_evaluations` or when the simplex's
// values agree to `tolerance` (relative).
NelderMeadResult nelder_mead(const std::function<double(const Eigen::VectorXd&)>& f, const Eigen::VectorXd& x0,
                             double step, int max_evaluations, double tolerance = 1e-10);

}  // namespace attnlab
