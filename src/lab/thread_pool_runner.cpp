#include "lab/thread_pool_runner.hpp"

#include <atomic>
#include <mutex>
#include <thread>

#include "lab/clock.hpp"

namespace attnlab {

std::vector<UnitRef> all_units(const std::vector<Experiment*>& runs) {
  std::vector<UnitRef> units;
  for (std::size_t r = 0; r < runs.size(); ++r)
    for (std::int64_t u = 0; u < runs[r]->unit_count(); ++u) units.push_back({r, u});
  return units;
}

ThreadedRunReport run_units_on_threads(const std::vector<Experiment*>& runs, const std::vector<UnitRef>& units,
                                       int threads, const std::function<void(const UnitRef&, const Partial&)>& on_unit_done) {
  ThreadedRunReport report;
  report.errors.assign(runs.size(), "");
  report.seconds.assign(runs.size(), 0.0);
  std::atomic<std::size_t> next{0};
  std::mutex lock;
  auto worker = [&] {
    for (std::size_t i = next++; i < units.size(); i = next++) {
      const UnitRef ref = units[i];
      {
        std::lock_guard<std::mutex> guard(lock);
        if (!report.errors[ref.run].empty()) continue;
      }
      const double t0 = now_seconds();
      std::string error;
      Partial partial;
      try {
        partial = run_task_to_end(*runs[ref.run]->start_unit(ref.unit));  // start_unit is const: thread-safe
      } catch (const std::exception& e) {
        error = e.what();
      }
      std::lock_guard<std::mutex> guard(lock);
      report.seconds[ref.run] += now_seconds() - t0;
      if (!error.empty()) {
        if (report.errors[ref.run].empty()) report.errors[ref.run] = error;
        continue;
      }
      try {
        runs[ref.run]->absorb(ref.unit, partial);
      } catch (const std::exception& e) {
        report.errors[ref.run] = e.what();
      }
      if (on_unit_done) on_unit_done(ref, partial);
    }
  };
  std::vector<std::thread> pool;
  for (int k = 1; k < threads; ++k) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
  return report;
}

}  // namespace attnlab
