#include "lab/unit_ledger.hpp"

#include <algorithm>

#include "lab/unit_scheduler.hpp"

namespace attnlab {

void UnitLedger::start(int generation, double total_cost, double done_cost) {
  clear();
  generation_ = generation;
  total_ = total_cost;
  done_ = done_cost;
  reruns_ = 0;
}

void UnitLedger::add(std::size_t run, std::int64_t unit, double cost) { pending_.push_back({run, unit, cost}); }

void UnitLedger::clear() {
  pending_.clear();
  in_flight_.clear();
}

void UnitLedger::posted() {
  const Unit u = pending_.front();
  pending_.pop_front();
  in_flight_[{u.run, u.unit}] = {0.0, u.cost};
}

UnitLedger::Act UnitLedger::accept(Kind kind, int generation, const std::string& run_key, std::int64_t unit, double fraction,
                                   std::size_t& run) {
  if (generation != generation_) return Act::Drop;  // a unit of a cancelled generation
  const RunKey key = RunKey::decode(run_key);
  if (key.generation != generation_) return Act::Drop;
  run = key.run;
  const auto it = in_flight_.find({key.run, unit});
  if (it == in_flight_.end()) return Act::Drop;  // not out, or already in
  switch (kind) {
    case Kind::Done:
      done_ += it->second.second;
      in_flight_.erase(it);
      return Act::Absorb;
    case Kind::Progress:
      it->second.first = std::min(1.0, std::max(0.0, fraction));
      return Act::Preview;
    case Kind::Rerun:
      ++reruns_;
      it->second.first = 0.0;
      return Act::Rerun;
    case Kind::Error:
      return Act::Fail;
  }
  return Act::Drop;
}

double UnitLedger::progress() const {
  double done = done_;
  for (const auto& [key, f] : in_flight_) done += f.first * f.second;
  return total_ > 0.0 ? std::min(1.0, done / total_) : 1.0;
}

}  // namespace attnlab
