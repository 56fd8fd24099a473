#include "experiments/multihead/acceptance_inputs.hpp"

#include "core/rng.hpp"
#include "experiments/multihead/acceptance_unit.hpp"
#include "experiments/multihead/multihead_inputs.hpp"
#include "lab/sweep.hpp"

namespace attnlab::multihead {

Results acceptance_inputs(const Schema& schema, const Params& p, std::uint64_t seed) {
  const Params first = first_sweep_point(schema, p, "sweep");
  const AcceptancePoint point = make_acceptance_point(first, seed);
  Rng rng = Rng::for_stream(seed, std::uint64_t(1) << 32);  // point 0, block 0 (BlockTask)
  const Eigen::MatrixXd X = random_input(point.k, point.truth.d(), rng);
  Results r;
  r.heatmaps = attention_heatmaps(point.truth, X, "the first example");
  r.notes.push_back("A row is certified only when every head's attention row is nearly the same mix of two "
                    "tokens.");
  return r;
}

}  // namespace attnlab::multihead
