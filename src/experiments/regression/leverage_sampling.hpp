// Leverage-score sampling of the middle matrix D (docs/regression.md s.3, SubSample; the paper's
// Lemma 6.4 and Theorem F.1): the scores tau_i of the rows of D^{1/2} A, a keep probability p_i per
// row, and the sampled diagonal D~ with D~_ii = D_ii / p_i for kept rows, so that E[D~] = D.
#pragma once
#include <Eigen/Dense>

#include "core/rng.hpp"
#include "experiments/regression/loss.hpp"
#include "experiments/regression/problem.hpp"

namespace attnlab::regression {

// How p_i is set.
//  Budget (ours): p_i = min(1, samples tau_i / d), so that about `samples` rows are kept.
//  Paper (our reading of Lemma 6.4, which writes no p_i out): p_i = min(1, C tau_i log(d / delta) / eps1^2).
//    Then at most C d log(d / delta) / eps1^2 rows are kept in expectation (sum_i tau_i = rank <= d), and
//    (1 - eps1) A^T D A <= A^T D~ A <= (1 + eps1) A^T D A with probability at least 1 - delta.
enum class SamplingRule { Budget, Paper };
// Sketch (ours): O(nnz(A)) approximate scores (a uniform-sample Gram matrix and a 16-column
// Johnson-Lindenstrauss projection). Exact: from a Cholesky factor of A^T D A, O(nnz(A) d + d^3).
enum class LeverageScores { Sketch, Exact };

struct SamplingSettings {
  SamplingRule rule = SamplingRule::Budget;
  LeverageScores scores = LeverageScores::Sketch;
  double samples = 100.0;                  // Budget: the expected rows kept
  double C = 4.0, delta = 0.1, eps1 = 0.5;  // Paper: its constant, failure probability, accuracy

  // p_i before the cap at 1, for a row of score tau in dimension d.
  double uncapped_probability(double tau, int d) const;
  // The law's bound on the expected rows kept: sum_i p_i <= d times the factor on tau_i
  // (= samples for the budget rule, C d log(d / delta) / eps1^2 for the paper's).
  double expected_rows_bound(int d) const;
};

// tau_i = D_i a_i^T (A^T D A)^-1 a_i for D >= 0 (the leverage scores of the rows of D^{1/2} A).
// Sketch draws from `rng` (uniform rows, then 16 d normals); Exact draws nothing.
// With `work`, adds the flops and Gram rows it spent (loss.hpp's Work): sketched, the uniform
// sample's Gram sum, its Cholesky factor (d^3 / 3), the solve for the projection (16 d^2), the
// product A Y (32 nnz(A)) and the n scores (32 n); exact, the full Gram sum, its factor, U^-1
// (d^3 / 3), the product A U^-1 (2 d nnz(A)) and the scores (2 d n).
Eigen::VectorXd leverage_scores(const SparseRows& A, const Eigen::VectorXd& D, const SamplingSettings& s, Rng& rng,
                                Work* work = nullptr);

struct SampledDiagonal {
  Eigen::VectorXd D;           // D~: D_i / p_i for kept rows, 0 elsewhere
  int kept = 0;                // rows kept
  double expected_rows = 0.0;  // sum_i p_i, the expected number kept
};

// Keeps row i with probability p_i = min(1, uncapped_probability(tau_i)); one uniform per row
// drawn whatever D is, so the stream does not depend on the data.
SampledDiagonal sample_rows(const Eigen::VectorXd& D, const Eigen::VectorXd& tau, const SamplingSettings& s, int d,
                            Rng& rng);

// Scores, then rows: SubSample(D, A, eps1, delta). D must be >= 0.
SampledDiagonal leverage_sample(const SparseRows& A, const Eigen::VectorXd& D, const SamplingSettings& s, Rng& rng,
                                Work* work = nullptr);

// eps = max |lambda - 1| over the generalised eigenvalues of (approx, exact), i.e. the smallest eps
// with (1 - eps) exact <= approx <= (1 + eps) exact; NaN when `exact` is not positive definite.
double spectral_error(const Eigen::MatrixXd& approx, const Eigen::MatrixXd& exact);

}  // namespace attnlab::regression
