#include "ui/preview_run.hpp"

#include <algorithm>

#include "experiments/registry.hpp"
#include "lab/clock.hpp"

namespace attnlab::ui {

void PreviewRun::start(const std::string& experiment_id, const Params& params, std::uint64_t seed, double budget_seconds) {
  run_.open(make_experiment(experiment_id), params, seed);
  budget_left_ = budget_seconds;
}

bool PreviewRun::advance(double slice_seconds) {
  if (!active() || finished() || budget_left_ <= 0.0 || run_.failed()) return false;
  const double start = now_seconds();
  Budget b;
  b.seconds = std::min(slice_seconds, budget_left_);
  run_.step(b);
  budget_left_ -= now_seconds() - start;
  return true;
}

}  // namespace attnlab::ui
