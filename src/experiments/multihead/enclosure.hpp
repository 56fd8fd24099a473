// The set the certified constraints carve out (docs/multihead.md s.2, the optional parts):
//   K = { theta in R^{d^2} : |<A_j, theta> - rhs_j| <= w for every certified constraint j },
// with its exact minimum-norm point, min 1/2 ||theta||^2 over K, and LP "width probes",
// max <U, theta> - min <U, theta> over K for a few unit directions U. Every head satisfies each
// constraint up to the slab (when certification is sound), so K contains the heads and their convex
// hull; the probes show how K hugs their affine hull: thin in most directions, long along the
// differences between heads.
#pragma once
#include <Eigen/Dense>
#include <vector>

#include "core/box_qp.hpp"
#include "experiments/multihead/certification.hpp"

namespace attnlab::multihead {

// The programmes over K with half-width w: the minimum-norm point, or max <U, theta> (`maximise`)
// / min <U, theta>. Each is a BoxQp to be stepped (one interior-point iteration per step).
BoxQp min_norm_programme(const std::vector<Constraint>& constraints, double half_width);
BoxQp width_programme(const std::vector<Constraint>& constraints, double half_width, const Eigen::VectorXd& U,
                      bool maximise);

// The minimum-norm point of the affine hull of the heads (theta_1 + span of theta_i - theta_1):
// what the min-norm point of K approximates when K hugs that hull.
Eigen::VectorXd affine_hull_min_norm(const std::vector<Eigen::MatrixXd>& Theta);

}  // namespace attnlab::multihead
