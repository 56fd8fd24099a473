// The rescaled hyperbolic regression problem of Gao et al. (docs/regression.md s.1):
//   min_x L(x) = 1/2 ||u(x) - <u(x), 1> b||^2 + 1/2 ||W A x||^2,  u = exp, cosh or sinh of A x.
#pragma once
#include <Eigen/Dense>
#include <Eigen/SparseCore>
#include <string>

#include "lab/choice_table.hpp"

namespace attnlab::regression {

enum class Hyperbolic { Exp, Cosh, Sinh };

// A is stored by rows (compressed): A x is a dot product per row, and A^T D A is a sum of per-row
// outer products that skips rows with weight 0 (sampling) and allocates nothing.
using SparseRows = Eigen::SparseMatrix<double, Eigen::RowMajor>;
// The function u: parameter `function` of `regression` and `regression.icl`, and a problem file's
// "function".
inline constexpr ChoiceTable<Hyperbolic> kHyperbolicTable{
    {"exp", Hyperbolic::Exp}, {"cosh", Hyperbolic::Cosh}, {"sinh", Hyperbolic::Sinh}};
const char* to_string(Hyperbolic f);  // kHyperbolicTable's text

struct Problem {
  Hyperbolic function = Hyperbolic::Exp;
  SparseRows A;                   // n x d, full column rank, n >= d (sparse: nnz(A) matters)
  Eigen::VectorXd b;              // ||b|| <= 1
  Eigen::VectorXd w;              // W = diag(w)
  Eigen::VectorXd x0;             // the start every solver shares
  Eigen::VectorXd x_true;         // the planted solution, when there is one (else empty)
  int n() const { return static_cast<int>(A.rows()); }
  int d() const { return static_cast<int>(A.cols()); }
};

// Facts about A, measured once per problem (the Gram matrix A^T A is d x d).
struct MatrixFacts {
  double norm = 0.0;       // ||A||_2
  double sigma_min = 0.0;  // smallest singular value
  double condition() const { return sigma_min > 0.0 ? norm / sigma_min : INFINITY; }
  long long nonzeros = 0;
};
MatrixFacts measure(const SparseRows& A);

// Checks shapes, finiteness, n >= d, ||b|| <= 1 and full column rank; throws ParamError naming the
// field (`source` says where the problem came from, e.g. "problem file").
void validate(const Problem& p, const std::string& source);

// exp/cosh/sinh overflow above 709: the largest |(A x)_i| accepted anywhere (docs/regression.md s.6).
constexpr double kMaxExponent = 700.0;

}  // namespace attnlab::regression
