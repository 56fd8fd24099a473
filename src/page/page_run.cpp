#include "page/page_run.hpp"

#include <algorithm>

#include "experiments/registry.hpp"
#include "lab/run_record.hpp"

namespace attnlab::page {

void PageRun::open(const std::string& id) {
  run_.open(make_experiment(id), run_.params(), seed_);
  data_status_.clear();
  data_text_.clear();
  params_ = run_.experiment().schema().defaults();
  preset_.clear();
  reset();
}

void PageRun::open_finished(std::unique_ptr<Experiment> run, const Params& params, const std::string& preset,
                            std::uint64_t seed) {
  open(run->info().id);
  params_ = params;
  preset_ = preset;
  seed_ = seed;
  run_.open_finished(std::move(run), params_, seed_);
}

void PageRun::apply(const Params& params, const std::string& preset, std::uint64_t seed) {
  params_ = params;
  preset_ = preset;
  seed_ = seed;
}

void PageRun::reset() {
  stop_workers();
  scheduler_ = UnitScheduler();  // forgets the last run's reruns
  run_.reset(params_, seed_);
  error_.clear();
  ++inputs_version_;
  try {
    inputs_ = run_.experiment().inputs(params_, seed_);
  } catch (const std::exception&) {  // a run these settings cannot make: Run says why
    inputs_ = Results();
  }
}

void PageRun::settings_changed() {
  // Results always belong to the settings on screen: a change discards the old run.
  const bool was_running = run_.state() == RunState::Running;
  reset();
  if (was_running) run("");
}

void PageRun::run(const std::string& blocked) {
  if (run_.state() != RunState::Paused && !blocked.empty()) return;
  if (run_.state() == RunState::Done || run_.state() == RunState::Failed) reset();
  run_.set_state(RunState::Running);
}

void PageRun::step_once(const std::string& blocked) {
  if (run_.state() != RunState::Paused && !blocked.empty()) return;
  if (run_.state() == RunState::Done || run_.state() == RunState::Failed) reset();
  Budget b;
  b.seconds = 0.05;
  run_.set_state(RunState::Paused);
  advance(b);
}

void PageRun::advance(const Budget& budget) {
  run_.advance([&](Experiment& experiment) {
    if (computing_on_workers() && run_.state() == RunState::Running) {
      // The workers compute; this thread posts units, absorbs partials and redraws what changed.
      const auto changed = scheduler_.drive(*pool_, threads(), [&] {
        return std::vector<UnitScheduler::Run>{{&experiment, UnitScheduler::spec_json(experiment, params_, seed_, data_text_)}};
      });
      return changed && !changed->empty();
    }
    // On this thread; if the workers all failed mid-run, the units they had not returned are
    // computed here (step() runs every unit not yet absorbed).
    if (scheduler_.active()) stop_workers();
    experiment.step(budget);
    return true;
  });
  if (run_.failed()) error_ = run_.error();
}

void PageRun::compute(double slice_seconds) {
  if (run_.state() != RunState::Running && scheduler_.active()) stop_workers();  // paused or stopped
  if (run_.state() != RunState::Running) return;
  Budget b;
  b.seconds = slice_seconds;
  advance(b);
}

double PageRun::progress() const { return scheduler_.active() ? scheduler_.progress() : run_.fraction(); }

void PageRun::set_worker_pool(std::unique_ptr<WorkerPool> pool, int default_threads) {
  pool_ = std::move(pool);
  default_threads_ = std::max(1, default_threads);
}

void PageRun::set_threads(int threads) {
  threads_ = threads;
  stop_workers();  // the next frame hands the remaining units to the new pool size
}

std::string PageRun::compute_text() const {
  if (!pool_ || threads() == 0) return "Computing on the page's main thread";
  if (pool_->failed()) return "Computing on the page's main thread: Web Workers could not start here";
  if (!pool_->ready()) return "Starting " + std::to_string(threads()) + " worker" + (threads() == 1 ? "" : "s");
  return "Computing on " + pool_->memory_text();
}

std::string PageRun::load_data(const std::string& json) {
  try {
    run_.experiment().set_data(json);
    data_text_ = json;
    const Experiment::DataSelector selector = run_.experiment().data_selector();
    run_.experiment().schema().set(params_, selector.key, selector.value);
    preset_.clear();
    data_status_ = "Data file loaded (" + std::to_string(json.size()) + " bytes); the experiment now uses it.";
    settings_changed();
    return "";
  } catch (const std::exception& e) {
    data_status_ = std::string("Data file not loaded: ") + e.what();
    return e.what();
  }
}

std::string PageRun::check_data_size(double bytes) {
  try {
    Experiment::check_data_size(bytes > 0.0 ? static_cast<std::uintmax_t>(std::min(bytes, 1e18)) : 0);
    return "";
  } catch (const std::exception& e) {
    data_status_ = std::string("Data file not loaded: ") + e.what();
    return e.what();
  }
}

namespace {
RunRecord record_with(RunRecord record, const KeyValues& context) {
  record.context = context;
  return record;
}
}  // namespace

std::string PageRun::csv(const KeyValues& context) const {
  return run_.prepared() ? to_csv(record_with(make_record(run_.experiment(), params_, preset_, seed_), context)) : "";
}
std::string PageRun::json(const KeyValues& context) const {
  return run_.prepared() ? to_json(record_with(make_record(run_.experiment(), params_, preset_, seed_), context)) : "{}";
}

}  // namespace attnlab::page
