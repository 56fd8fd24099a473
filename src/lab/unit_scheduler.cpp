#include "lab/unit_scheduler.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "lab/partial_codec.hpp"
#include "lab/text.hpp"

namespace attnlab {

namespace {
// Generations are unique across schedulers: the main view and a reproduction share one pool.
int g_last_generation = 0;

}  // namespace

std::string RunKey::encode() const { return "g" + std::to_string(generation) + "r" + std::to_string(run); }

RunKey RunKey::decode(const std::string& text) {
  const std::size_t r = text.find('r');
  const auto bad = [&] {
    return std::runtime_error("worker message: run key '" + text.substr(0, 40) +
                              "' is not allowed; allowed: g<generation>r<run>, both decimal integers");
  };
  if (text.size() < 4 || text[0] != 'g' || r == std::string::npos) throw bad();
  const std::optional<long long> g = parse_digits(text.substr(1, r - 1), 9), run = parse_digits(text.substr(r + 1), 9);
  if (!g || !run) throw bad();
  return {static_cast<int>(*g), static_cast<std::size_t>(*run)};
}

std::string UnitScheduler::spec_json(const Experiment& e, const Params& params, std::uint64_t seed,
                                     const std::string& data_text) {
  nlohmann::ordered_json spec = {{"id", e.info().id}, {"params", nlohmann::ordered_json::object()}, {"seed", seed}};
  for (const auto& [key, value] : e.schema().to_key_values(params)) spec["params"][key] = value;
  if (!data_text.empty()) spec["data"] = data_text;
  return spec.dump();
}

void UnitScheduler::start(std::vector<Run> runs) {
  generation_ = ++g_last_generation;
  runs_ = std::move(runs);
  seconds_.assign(runs_.size(), 0.0);
  reruns_ = 0;
  last_rerun_.clear();
  pending_.clear();
  in_flight_.clear();
  for (std::size_t r = 0; r < runs_.size(); ++r)
    for (std::int64_t u = 0; u < runs_[r].experiment->unit_count(); ++u)
      if (!runs_[r].experiment->unit_finished(u)) pending_.emplace_back(r, u);
}

void UnitScheduler::stop(WorkerPool* pool) {
  if (pool && active()) pool->cancel(generation_);
  runs_.clear();
  pending_.clear();
  in_flight_.clear();
}

std::vector<std::size_t> UnitScheduler::tick(WorkerPool& pool) {
  std::vector<std::size_t> changed;
  if (!active()) return changed;
  for (WorkerEvent& ev : pool.take_events()) {
    if (ev.generation != generation_) continue;  // a unit of a cancelled generation
    const RunKey key_of = RunKey::decode(ev.run_key);
    if (key_of.generation != generation_) continue;
    const std::size_t r = key_of.run;
    if (r >= runs_.size())
      throw std::runtime_error("worker message: run key '" + ev.run_key + "' names run " + std::to_string(r) +
                               "; allowed: 0 to " + std::to_string(runs_.size() - 1));
    Experiment& e = *runs_[r].experiment;
    const auto key = std::make_pair(r, ev.unit);
    switch (ev.kind) {
      case WorkerEvent::Kind::Done:
        e.absorb(ev.unit, decode_partial(ev.partial));
        seconds_[r] += ev.seconds;
        in_flight_.erase(key);
        changed.push_back(r);
        break;
      case WorkerEvent::Kind::Progress:
        if (in_flight_.count(key)) in_flight_[key] = ev.fraction;
        if (!ev.partial.empty()) e.absorb_preview(ev.unit, decode_partial(ev.partial)), changed.push_back(r);
        break;
      case WorkerEvent::Kind::Rerun:
        ++reruns_;
        last_rerun_ = ev.message;
        if (in_flight_.count(key)) in_flight_[key] = 0.0;
        break;
      case WorkerEvent::Kind::Error:
        throw std::runtime_error(e.info().id + ", unit " + std::to_string(ev.unit) + ": " + ev.message);
    }
  }
  while (!pending_.empty()) {
    const auto [r, u] = pending_.front();
    if (!pool.post(RunKey{generation_, r}.encode(), runs_[r].spec_json, u, generation_)) break;
    in_flight_[{r, u}] = 0.0;
    pending_.pop_front();
  }
  if (pending_.empty() && in_flight_.empty()) runs_.clear();  // every unit is in
  return changed;
}

std::optional<std::vector<std::size_t>> UnitScheduler::drive(WorkerPool& pool, int workers,
                                                             const std::function<std::vector<Run>()>& make_runs) {
  pool.resize(workers);
  if (!pool.ready()) return std::nullopt;  // still starting (a failure shows in pool.failed())
  if (!active()) start(make_runs());
  return tick(pool);
}

std::string UnitScheduler::rerun_text() const {
  if (reruns_ == 0) return "";
  if (reruns_ == 1) return "A worker stopped; its unit ran again";
  return "Workers stopped; " + std::to_string(reruns_) + " units ran again";
}

double UnitScheduler::progress() const {
  double done = 0.0, total = 0.0;
  for (const Run& run : runs_) {
    const Progress p = run.experiment->progress();
    done += double(p.done);
    total += double(p.total);
  }
  for (const auto& [key, fraction] : in_flight_) done += fraction * double(runs_[key.first].experiment->unit_cost(key.second));
  return total > 0.0 ? std::min(1.0, done / total) : 1.0;
}

}  // namespace attnlab
