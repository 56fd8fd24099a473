// The loss, its gradient and its Hessian (docs/regression.md sections 1-2).
#pragma once
#include <Eigen/Dense>

#include "experiments/regression/problem.hpp"

namespace attnlab::regression {

// The work of one step, counted where it is done (docs/regression.md s.3, "What a step costs"):
// floating-point operations (a multiplication and an addition count two) of the products with A,
// the d x d Gram sums and the d x d factorisations; entrywise work on n-vectors is left out.
struct Work {
  double flops = 0.0;
  double gram_rows = 0.0;  // rows whose outer product was summed into a d x d matrix
};

// Everything the derivatives need at one point x.
struct Point {
  Eigen::VectorXd x, Ax;
  Eigen::VectorXd u, v;  // u(x) and its derivative partner: du/dx_i = v o A_{*,i}
  Eigen::VectorXd c;     // c(x) = u(x) - alpha(x) b
  double alpha = 0.0;    // <u(x), 1>
  double cb = 0.0;       // <c, b>
  double loss = 0.0;     // L = 1/2 ||c||^2 + 1/2 ||W A x||^2
  double max_exponent = 0.0;  // max_i |(A x)_i|
  // False when exp/cosh/sinh would overflow (max_exponent > kMaxExponent) or a value is not finite.
  bool finite = true;
};

Point evaluate(const Problem& p, const Eigen::VectorXd& x);

// grad L = A^T (v o c - <c, b> v) + A^T W^2 A x
Eigen::VectorXd gradient(const Problem& p, const Point& at);

// diag(B) part of the Hessian's middle matrix: v o v + u o c - <c, b> u (docs/regression.md s.2, s.3 "B_diag").
Eigen::VectorXd b_diagonal(const Point& at);

// The exact Hessian in its low-rank form, never forming an n x n matrix (docs/regression.md s.2):
// p = A^T v, q = A^T (v o b), delta = B_diag + w o w,
// H = A^T diag(delta) A + ||b||^2 p p^T - q p^T - p q^T.   O(nnz(A) d + d^2).
Eigen::MatrixXd hessian(const Problem& p, const Point& at, Work* work = nullptr);
// The rank-2 part ||b||^2 p p^T - q p^T - p q^T alone. With `work`: its two products with A^T
// (2 nnz(A) flops each) and its d x d outer products (6 d^2).
Eigen::MatrixXd hessian_rank2(const Problem& p, const Point& at, Work* work = nullptr);
// A^T diag(weights) A: per-row outer products in a fixed order (the same on every target), rows
// with weight 0 skipped. O(sum over rows of nnz(row)^2). With `work`, adds what it did: one row and
// k + k (k + 1) flops per row summed (k its non-zeros: w a_j, then the k (k + 1) / 2 entries of the
// lower triangle, a multiply-add each).
Eigen::MatrixXd weighted_gram(const SparseRows& A, const Eigen::VectorXd& weights, Work* work = nullptr);

// The textbook form with the n x n matrix B (tests only: O(n^2) memory).
Eigen::MatrixXd hessian_dense_formula(const Problem& p, const Point& at);

// ||B(x)||_2 of the n x n middle matrix, by power iteration on its O(n) matrix-vector product.
double b_norm(const Problem& p, const Point& at);

}  // namespace attnlab::regression
