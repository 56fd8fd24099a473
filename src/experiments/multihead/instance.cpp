#include "experiments/multihead/instance.hpp"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <cstdio>

#include "core/det_math.hpp"

namespace attnlab::multihead {

namespace {
Eigen::MatrixXd gaussian(int d, Rng& rng) {
  Eigen::MatrixXd G(d, d);
  for (Eigen::Index e = 0; e < G.size(); ++e) G.data()[e] = rng.normal();
  return G;
}
// Gram-Schmidt in the Frobenius inner product <A, B> = tr(A^T B).
void orthogonalise(std::vector<Eigen::MatrixXd>& M) {
  for (std::size_t i = 0; i < M.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) M[i] -= (M[i].cwiseProduct(M[j]).sum()) * M[j];
    M[i] /= M[i].norm();
  }
}
}  // namespace

Layer random_instance(const InstanceSettings& s, std::uint64_t seed) {
  Rng rng = Rng::for_stream(seed, 0);
  Layer layer;
  for (int i = 0; i < s.m; ++i) {
    Eigen::MatrixXd G = gaussian(s.d, rng);
    G.diagonal().array() -= G.trace() / s.d;  // trace removed
    layer.Theta.push_back(G);
    layer.W.push_back(gaussian(s.d, rng));
  }
  orthogonalise(layer.Theta);
  orthogonalise(layer.W);
  // Norms spread geometrically over [sqrt(lambda) a, a], largest first.
  for (int i = 0; i < s.m; ++i) {
    const double t = s.m > 1 ? double(i) / double(s.m - 1) : 0.0;
    layer.Theta[i] *= s.norm * dmath::pow(std::sqrt(s.lambda), t);
  }
  return layer;
}

AssumptionMeter measure_assumptions(const Layer& layer) {
  AssumptionMeter a;
  a.min_effective_rank = INFINITY;
  double smallest = INFINITY, largest = 0.0;
  for (int i = 0; i < layer.heads(); ++i) {
    const Eigen::MatrixXd& T = layer.Theta[i];
    Eigen::JacobiSVD<Eigen::MatrixXd> svd(T);
    const double spectral = svd.singularValues()[0], frob = T.norm();
    a.min_effective_rank = std::min(a.min_effective_rank, frob * frob / (spectral * spectral));
    a.max_trace_ratio = std::max(a.max_trace_ratio, std::fabs(T.trace()) / frob);
    smallest = std::min(smallest, frob);
    largest = std::max(largest, frob);
    for (int j = 0; j < i; ++j)
      a.max_cosine = std::max(a.max_cosine, std::fabs(T.cwiseProduct(layer.Theta[j]).sum()) / (frob * layer.Theta[j].norm()));
  }
  a.norm_ratio = largest > 0.0 ? smallest / largest : 1.0;
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "Assumption meter: effective rank of Theta_i >= %.3g (of d = %d; the paper's Assumption 3 needs it "
                "at least r_Theta with polylog(dmk) / (kappa lambda) << r_Theta << d^(1/4), which small d cannot "
                "give), max |cos(Theta_i, Theta_j)| = %.2g, max |tr Theta_i| / ||Theta_i|| = %.2g, norm ratio "
                "min/max = %.3g.",
                a.min_effective_rank, layer.d(), a.max_cosine, a.max_trace_ratio, a.norm_ratio);
  a.lines.push_back(buf);
  return a;
}

}  // namespace attnlab::multihead
