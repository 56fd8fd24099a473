#include "ui/unit_scheduler.hpp"

#include <stdexcept>

#include "lab/partial_codec.hpp"
#include "lab/run_record.hpp"

namespace attnlab::ui {

namespace {
// Generations are unique across schedulers: the main view and a reproduction share one pool.
int g_last_generation = 0;

std::string run_key(int generation, std::size_t run) {
  return "g" + std::to_string(generation) + "r" + std::to_string(run);
}
}  // namespace

std::string UnitScheduler::spec_json(const Experiment& e, const Params& params, std::uint64_t seed,
                                     const std::string& data_text) {
  std::string out = "{\"id\":" + json_escape(e.info().id) + ",\"params\":{";
  const KeyValues kv = e.schema().to_key_values(params);
  for (std::size_t i = 0; i < kv.size(); ++i) out += (i ? "," : "") + json_escape(kv[i].first) + ":" + json_escape(kv[i].second);
  out += "},\"seed\":" + std::to_string(seed);
  if (!data_text.empty()) out += ",\"data\":" + json_escape(data_text);
  return out + "}";
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
    if (ev.generation != generation_) continue;
    const std::string prefix = "g" + std::to_string(generation_) + "r";
    if (ev.run_key.rfind(prefix, 0) != 0) continue;
    const std::size_t r = std::stoul(ev.run_key.substr(prefix.size()));
    if (r >= runs_.size()) continue;
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
    if (!pool.post(run_key(generation_, r), runs_[r].spec_json, u, generation_)) break;
    in_flight_[{r, u}] = 0.0;
    pending_.pop_front();
  }
  if (pending_.empty() && in_flight_.empty()) runs_.clear();  // every unit is in
  return changed;
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

}  // namespace attnlab::ui
