#include "lab/run_controller.hpp"

namespace attnlab {

const char* to_string(RunState s) {
  switch (s) {
    case RunState::Idle: return "ready";
    case RunState::Running: return "running";
    case RunState::Paused: return "paused";
    case RunState::Done: return "done";
    case RunState::Failed: return "failed";
  }
  return "";
}

RunController::RunController(Experiment& prepared) : experiment_(&prepared), prepared_(true) {}

void RunController::start_over() {
  prepared_ = false;
  state_ = RunState::Idle;
  error_.clear();
  thrown_ = nullptr;
  results_ = Results{};
  results_version_ = ++version_;
}

void RunController::open(std::unique_ptr<Experiment> experiment, const Params& params, std::uint64_t seed) {
  owned_ = std::move(experiment);
  experiment_ = owned_.get();
  reset(params, seed);
}

void RunController::open_finished(std::unique_ptr<Experiment> experiment, const Params& params, std::uint64_t seed) {
  open(std::move(experiment), params, seed);
  prepared_ = true;
  state_ = RunState::Done;
  ++version_;
}

void RunController::reset(const Params& params, std::uint64_t seed) {
  params_ = params;
  seed_ = seed;
  start_over();
}

void RunController::close() {
  owned_.reset();
  experiment_ = nullptr;
  start_over();
}

std::unique_ptr<Experiment> RunController::take_experiment() {
  results();
  experiment_ = nullptr;
  return std::move(owned_);
}

void RunController::prepare() {
  if (prepared_ || !experiment_) return;
  experiment_->reset(params_, seed_);
  prepared_ = true;
}

void RunController::step(const Budget& budget) {
  advance([&](Experiment& e) {
    e.step(budget);
    return true;
  });
}

void RunController::advance(const std::function<bool(Experiment&)>& compute) {
  if (!experiment_) return;
  try {
    prepare();
    if (compute(*experiment_)) ++version_;
    if (experiment_->progress().finished()) state_ = RunState::Done;
  } catch (const std::exception& e) {
    error_ = e.what();
    thrown_ = std::current_exception();
    state_ = RunState::Failed;
  }
}

void RunController::rethrow_error() const {
  if (thrown_) std::rethrow_exception(thrown_);
}

const Results& RunController::results() const {
  if (experiment_ && prepared_ && results_version_ != version_) {
    results_ = experiment_->results();
    results_version_ = version_;
  }
  return results_;
}

Progress RunController::progress() const { return experiment_ && prepared_ ? experiment_->progress() : Progress{}; }

}  // namespace attnlab
