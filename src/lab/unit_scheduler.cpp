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
  runs_ = std::move(runs);
  seconds_.assign(runs_.size(), 0.0);
  last_rerun_.clear();
  double total = 0.0, done = 0.0;
  for (const Run& run : runs_) {
    const Progress p = run.experiment->progress();
    total += double(p.total), done += double(p.done);
  }
  ledger_.start(++g_last_generation, total, done);
  for (std::size_t r = 0; r < runs_.size(); ++r)
    for (std::int64_t u = 0; u < runs_[r].experiment->unit_count(); ++u)
      if (!runs_[r].experiment->unit_finished(u)) ledger_.add(r, u, double(runs_[r].experiment->unit_cost(u)));
}

void UnitScheduler::stop(WorkerPool* pool) {
  if (pool && active()) pool->cancel(ledger_.generation());
  runs_.clear();
  ledger_.clear();
}

std::vector<std::size_t> UnitScheduler::tick(WorkerPool& pool) {
  using Act = UnitLedger::Act;
  std::vector<std::size_t> changed;
  if (!active()) return changed;
  for (WorkerEvent& ev : pool.take_events()) {
    std::size_t r = 0;
    const Act act = ledger_.accept(ev.kind, ev.generation, ev.run_key, ev.unit, ev.fraction, r);
    if (act == Act::Drop) continue;  // only units in flight are accepted: r names one of runs_
    Experiment& e = *runs_[r].experiment;
    switch (act) {
      case Act::Absorb:
        e.absorb(ev.unit, decode_partial(ev.partial));
        seconds_[r] += ev.seconds;
        changed.push_back(r);
        break;
      case Act::Preview:
        if (!ev.partial.empty()) e.absorb_preview(ev.unit, decode_partial(ev.partial)), changed.push_back(r);
        break;
      case Act::Rerun:
        last_rerun_ = ev.message;
        break;
      case Act::Fail:
        throw std::runtime_error(e.info().id + ", unit " + std::to_string(ev.unit) + ": " + ev.message);
      case Act::Drop:
        break;
    }
  }
  while (ledger_.has_next() &&
         pool.post(RunKey{ledger_.generation(), ledger_.next_run()}.encode(), runs_[ledger_.next_run()].spec_json,
                   ledger_.next_unit(), ledger_.generation()))
    ledger_.posted();
  if (ledger_.all_in()) runs_.clear();  // every unit is in
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
  if (reruns() == 0) return "";
  if (reruns() == 1) return "A worker stopped; its unit ran again";
  return "Workers stopped; " + std::to_string(reruns()) + " units ran again";
}

double UnitScheduler::progress() const { return active() ? ledger_.progress() : 1.0; }

}  // namespace attnlab
