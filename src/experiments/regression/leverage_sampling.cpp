#include "experiments/regression/leverage_sampling.hpp"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>

#include "core/det_math.hpp"
#include "experiments/regression/loss.hpp"

namespace attnlab::regression {

double SamplingSettings::uncapped_probability(double tau, int d) const {
  if (rule == SamplingRule::Budget) return samples * tau / d;
  return C * tau * dmath::log(d / delta) / (eps1 * eps1);
}

double SamplingSettings::expected_rows_bound(int d) const {
  if (rule == SamplingRule::Budget) return samples;
  return C * d * dmath::log(d / delta) / (eps1 * eps1);
}

namespace {

// A^T D A with a relative jitter of 1e-12 on its diagonal, so that its Cholesky factor exists when
// sampling or clamping left D with few non-zero rows.
Eigen::LLT<Eigen::MatrixXd> jittered_cholesky(const SparseRows& A, const Eigen::VectorXd& weights, Work* work) {
  Eigen::MatrixXd gram = weighted_gram(A, weights, work);
  if (work) work->flops += double(A.cols()) * double(A.cols()) * double(A.cols()) / 3.0;
  gram.diagonal().array() += 1e-12 * std::max(1e-300, gram.diagonal().maxCoeff());
  return Eigen::LLT<Eigen::MatrixXd>(gram);
}

// ||L^-1 a_i||^2 = a_i^T G^-1 a_i for every row, from the rows of P = A U^-1 (U = L^T).
Eigen::VectorXd exact_scores(const SparseRows& A, const Eigen::VectorXd& D, Work* work) {
  const Eigen::LLT<Eigen::MatrixXd> llt = jittered_cholesky(A, D, work);
  if (work) {
    const double d = double(A.cols());
    work->flops += d * d * d / 3.0 + 2.0 * d * double(A.nonZeros()) + 2.0 * d * double(A.rows());
  }
  const Eigen::MatrixXd U_inverse =
      llt.matrixU().solve(Eigen::MatrixXd::Identity(A.cols(), A.cols()));
  const Eigen::MatrixXd P = A * U_inverse;
  Eigen::VectorXd tau(A.rows());
  for (Eigen::Index i = 0; i < A.rows(); ++i) tau[i] = D[i] * P.row(i).squaredNorm();
  return tau;
}

// Approximate tau_i without forming A^T D A from all rows: (1) G from a uniform sample of rows,
// (2) a Johnson-Lindenstrauss projection with k columns: ||L^-1 a_i||^2 ~ ||Y^T a_i||^2 / k with
// Y = L^-T Omega, so all n scores cost O(nnz(A) k).
Eigen::VectorXd sketched_scores(const SparseRows& A, const Eigen::VectorXd& D, double target_rows, Rng& rng,
                                Work* work) {
  const int n = static_cast<int>(A.rows()), d = static_cast<int>(A.cols());
  const int uniform_rows = std::min(n, static_cast<int>(std::max(8.0 * d, 4.0 * target_rows)));
  Eigen::VectorXd uniform_weights = Eigen::VectorXd::Zero(n);
  for (int k = 0; k < uniform_rows; ++k) {
    const int i = uniform_rows == n ? k : static_cast<int>(rng.below(static_cast<std::uint64_t>(n)));
    uniform_weights[i] += D[i] * double(n) / uniform_rows;
  }
  const Eigen::LLT<Eigen::MatrixXd> llt = jittered_cholesky(A, uniform_weights, work);
  constexpr int kProjection = 16;
  if (work)
    work->flops += kProjection * (double(d) * d + 2.0 * double(A.nonZeros()) + 2.0 * n);
  Eigen::MatrixXd omega(d, kProjection);
  for (int j = 0; j < kProjection; ++j)
    for (int i = 0; i < d; ++i) omega(i, j) = rng.normal();
  const Eigen::MatrixXd Y = llt.matrixU().solve(omega);  // L^-T Omega (U = L^T)
  const Eigen::MatrixXd P = A * Y;                       // n x k
  Eigen::VectorXd tau(n);
  for (int i = 0; i < n; ++i) tau[i] = D[i] * P.row(i).squaredNorm() / kProjection;
  return tau;
}

}  // namespace

Eigen::VectorXd leverage_scores(const SparseRows& A, const Eigen::VectorXd& D, const SamplingSettings& s, Rng& rng,
                                Work* work) {
  if (s.scores == LeverageScores::Exact) return exact_scores(A, D, work);
  return sketched_scores(A, D, s.expected_rows_bound(static_cast<int>(A.cols())), rng, work);
}

SampledDiagonal sample_rows(const Eigen::VectorXd& D, const Eigen::VectorXd& tau, const SamplingSettings& s, int d,
                            Rng& rng) {
  SampledDiagonal out;
  out.D = Eigen::VectorXd::Zero(D.size());
  for (Eigen::Index i = 0; i < D.size(); ++i) {
    const double prob = std::min(1.0, s.uncapped_probability(tau[i], d));
    const double draw = rng.uniform();  // drawn for every row: the stream does not depend on D
    out.expected_rows += prob;
    if (prob > 0.0 && draw < prob) {
      out.D[i] = D[i] / prob;
      ++out.kept;
    }
  }
  return out;
}

SampledDiagonal leverage_sample(const SparseRows& A, const Eigen::VectorXd& D, const SamplingSettings& s, Rng& rng,
                                Work* work) {
  const Eigen::VectorXd tau = leverage_scores(A, D, s, rng, work);
  return sample_rows(D, tau, s, static_cast<int>(A.cols()), rng);
}

double spectral_error(const Eigen::MatrixXd& approx, const Eigen::MatrixXd& exact) {
  const Eigen::LLT<Eigen::MatrixXd> positive(exact);
  if (positive.info() != Eigen::Success) return NAN;
  const Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> ges(approx, exact, Eigen::EigenvaluesOnly);
  if (ges.info() != Eigen::Success) return NAN;
  return (ges.eigenvalues().array() - 1.0).abs().maxCoeff();
}

}  // namespace attnlab::regression
