#include "experiments/multihead/acceptance_inputs.hpp"

#include "core/rng.hpp"
#include "experiments/multihead/acceptance_unit.hpp"
#include "experiments/multihead/multihead_inputs.hpp"
#include "lab/schema.hpp"
#include "lab/sweep.hpp"
#include "lab/text.hpp"

namespace attnlab::multihead {

// The sweep's last point (the most heads, when it sweeps m): every head of that layer on the first
// example its run certifies, so the heads can be compared before the run counts how often they agree.
Results acceptance_inputs(const Schema& schema, const Params& p, std::uint64_t seed) {
  const Sweep sweep = parse_sweep(schema, "sweep", p.text("sweep"));
  Params last = p;
  std::size_t index = 0;
  if (sweep.active()) {
    index = sweep.values.size() - 1;
    schema.set(last, sweep.key, format_number(sweep.values.back()));
  }
  const AcceptancePoint point = make_acceptance_point(last, seed);
  Rng rng = Rng::for_stream(seed, (std::uint64_t(index) + 1) << 32);  // its point's block 0 (BlockTask)
  const Eigen::MatrixXd X = random_input(point.k, point.truth.d(), rng);
  Results r;
  r.heatmaps = attention_heatmaps(point.truth, X, "the first example");
  r.notes.push_back(printf_text("Drawn for the sweep's last point (m = %.0f heads). A row is certified only when "
                                "every head's attention row is nearly the same mix of two tokens.",
                                double(point.truth.heads())));
  return r;
}

}  // namespace attnlab::multihead
