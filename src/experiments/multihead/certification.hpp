// The paper's learner at browser scale (docs/multihead.md s.2), with the lab's changes (ours):
// certification of examples on the edges of the token simplex (phases II/IV), the "certify, then
// refit" refinement of W_sum (ours, not the paper's), span extraction by SVD instead of the paper's
// nets (phase V), and the value regression of Alg. 5 (phase VI).
#pragma once
#include <Eigen/Dense>
#include <vector>

#include "experiments/multihead/layer.hpp"

namespace attnlab::multihead {

// The best fit of an output row y by a point of a simplex edge: min over a < b and t in [0, 1] of
// ||(t z_a + (1 - t) z_b) - y|| with z = rows of X W^.
struct EdgeFit {
  int a = 0, b = 1;
  double t = 0.5, residual = INFINITY;
};
EdgeFit best_edge(const Eigen::MatrixXd& Z, const Eigen::RowVectorXd& y);

bool has_duplicate_rows(const Eigen::MatrixXd& X);

// A certified slab |<A, Theta> - rhs| <= width, A = x_r (x_a - x_b)^T, rhs = log(t / (1 - t)),
// satisfied (up to the width) by every head when the example is certified.
struct Constraint {
  Eigen::VectorXd a;  // vec(A), d^2
  double rhs = 0.0;
};

struct CertifySettings {
  double eps = 0.05;          // residual threshold eps/2 (||W_i|| = 1 by the instance's scaling), slab 2 eps
  double min_weight = 1.0 / 3.0;
};

// Certifies every row of one example against the current W^; appends accepted constraints and
// returns how many rows were accepted.
int certify(const Eigen::MatrixXd& X, const Eigen::MatrixXd& Y, const Eigen::MatrixXd& W_hat, const CertifySettings& s,
            std::vector<Constraint>& out);

// "Certify, then refit" (ours): keep the best `keep` fraction of rows by edge residual and refit
// W_sum by least squares on t x_a + (1 - t) x_b. Returns the refitted W^.
Eigen::MatrixXd refit_w_sum(const std::vector<Eigen::MatrixXd>& X, const std::vector<Eigen::MatrixXd>& Y,
                            const Eigen::MatrixXd& W_hat, double keep);

// The lab's version of the paper's phase III (Alg. 2; docs/multihead.md s.2 marks what is ours): certify
// the pool with W^ (phase II), read a proxy Theta~ off the constraints by least squares, keep the examples whose proxy logits make query row 0 attend to
// one token t by a margin of at least `margin`, and regress Y_0 on x_t (Y_0 ~ x_t W_sum).
Eigen::MatrixXd paper_phase3(const std::vector<Eigen::MatrixXd>& X, const std::vector<Eigen::MatrixXd>& Y,
                             const Eigen::MatrixXd& W_hat, const CertifySettings& s, double margin);

// Span extraction: the m - 1 least-constrained directions N (d^2 x (m-1)) of the stacked
// constraints and the truncated least-squares point theta_p; singular values for the page.
struct Span {
  Eigen::VectorXd theta_p;
  Eigen::MatrixXd directions;
  Eigen::VectorXd singular_values;  // descending
};
Span extract_span(const std::vector<Constraint>& constraints, int d, int m);

// Alg. 5: given Theta_1..m, regress Y_r on the attention-averaged tokens z_{r,i} by least squares;
// returns the W_i and the mean squared residual per example.
double fit_values(const std::vector<Eigen::MatrixXd>& Theta, const std::vector<Eigen::MatrixXd>& X,
                  const std::vector<Eigen::MatrixXd>& Y, std::vector<Eigen::MatrixXd>& W);

}  // namespace attnlab::multihead
