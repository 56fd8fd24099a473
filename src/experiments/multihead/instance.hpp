// Instances of the hidden layer (docs/multihead.md s.3) and the "assumption meter" that says how
// far a small instance is from the paper's non-degeneracy assumptions.
#pragma once
#include <string>
#include <vector>

#include "experiments/multihead/layer.hpp"

namespace attnlab::multihead {

struct InstanceSettings {
  int d = 12, k = 3, m = 2;
  double norm = 3.0;    // ||Theta_1||_F = a
  double lambda = 0.5;  // ||Theta_i||_F spread over [sqrt(lambda) a, a]
};

// Gaussian G_i, trace removed, Gram-Schmidt in the Frobenius inner product, norms set; W_i likewise
// (near-orthogonal, ||W_i||_F = 1).
Layer random_instance(const InstanceSettings& s, std::uint64_t seed);

struct AssumptionMeter {
  double min_effective_rank = 0.0;  // min_i ||Theta_i||_F^2 / ||Theta_i||_2^2 (the paper wants ~d)
  double max_cosine = 0.0;          // max_{i != j} |<Theta_i, Theta_j>| / (||Theta_i|| ||Theta_j||) (kappa)
  double max_trace_ratio = 0.0;     // max_i |tr Theta_i| / ||Theta_i||_F (small trace)
  double norm_ratio = 1.0;          // min_i ||Theta_i|| / max_i ||Theta_i|| (comparable norms)
  std::vector<std::string> lines;   // read-outs for the page
};
AssumptionMeter measure_assumptions(const Layer& layer);

}  // namespace attnlab::multihead
