#include "ui/preview_run.hpp"

#include <algorithm>

#include "experiments/registry.hpp"
#include "lab/clock.hpp"

namespace attnlab::ui {

void PreviewRun::start(const std::string& experiment_id, const Params& params, std::uint64_t seed, double budget_seconds) {
  experiment_ = make_experiment(experiment_id);
  params_ = params;
  seed_ = seed;
  prepared_ = false;
  budget_left_ = budget_seconds;
  results_ = Results{};
  fraction_ = 0.0;
  error_.clear();
  ++version_;
}

bool PreviewRun::advance(double slice_seconds) {
  if (!experiment_ || finished() || budget_left_ <= 0.0 || !error_.empty()) return false;
  const double start = now_seconds();
  try {
    if (!prepared_) {
      experiment_->reset(params_, seed_);
      prepared_ = true;
    }
    Budget b;
    b.seconds = std::min(slice_seconds, budget_left_);
    experiment_->step(b);
    results_ = experiment_->results();
    fraction_ = experiment_->progress().fraction();
  } catch (const std::exception& e) {
    error_ = e.what();
  }
  budget_left_ -= now_seconds() - start;
  ++version_;
  return true;
}

}  // namespace attnlab::ui
