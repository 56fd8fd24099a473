// The unit ledger (lab/unit_ledger.hpp) for the JS API's worker path (web/api/attnlab-api.mjs,
// computeOnWorkers): the rules the page's UnitScheduler follows (what goes out next, what a
// worker's message means, the progress by cost), written once in C++. One run per ledger (run 0).
#include <emscripten/bind.h>

#include <cstdint>
#include <string>

#include "lab/unit_ledger.hpp"
#include "lab/unit_scheduler.hpp"

namespace {

using attnlab::UnitLedger;

class JsUnitLedger {
 public:
  void start(int generation, double total_cost, double done_cost) { ledger_.start(generation, total_cost, done_cost); }
  void add(double unit, double cost) { ledger_.add(0, static_cast<std::int64_t>(unit), cost); }
  bool has_next() const { return ledger_.has_next(); }
  double next_unit() const { return static_cast<double>(ledger_.next_unit()); }
  void posted() { ledger_.posted(); }
  void clear() { ledger_.clear(); }
  // "drop", "absorb", "preview", "rerun" or "fail" for an event of `type` (the pool's "done",
  // "progress", "rerun", "error"); "refused" with error() saying why for a malformed message.
  std::string accept(const std::string& type, int generation, const std::string& run_key, double unit, double fraction) {
    error_.clear();
    try {
      std::size_t run = 0;
      const UnitLedger::Kind kind = attnlab::kWorkerEventKinds.decode("type", type);
      switch (ledger_.accept(kind, generation, run_key, static_cast<std::int64_t>(unit), fraction, run)) {
        case UnitLedger::Act::Drop: return "drop";
        case UnitLedger::Act::Absorb: return "absorb";
        case UnitLedger::Act::Preview: return "preview";
        case UnitLedger::Act::Rerun: return "rerun";
        case UnitLedger::Act::Fail: return "fail";
      }
    } catch (const std::exception& e) {
      error_ = e.what();
    }
    return "refused";
  }
  const std::string& error() const { return error_; }
  bool all_in() const { return ledger_.all_in(); }
  double progress() const { return ledger_.progress(); }
  int reruns() const { return ledger_.reruns(); }
  std::size_t in_flight() const { return ledger_.in_flight(); }
  // The run key of this generation's run, as the workers echo it.
  std::string run_key() const { return attnlab::RunKey{ledger_.generation(), 0}.encode(); }

 private:
  UnitLedger ledger_;
  std::string error_;
};

}  // namespace

EMSCRIPTEN_BINDINGS(attnlab_unit_ledger) {
  emscripten::class_<JsUnitLedger>("UnitLedger")
      .constructor<>()
      .function("start", &JsUnitLedger::start)
      .function("add", &JsUnitLedger::add)
      .function("hasNext", &JsUnitLedger::has_next)
      .function("nextUnit", &JsUnitLedger::next_unit)
      .function("posted", &JsUnitLedger::posted)
      .function("clear", &JsUnitLedger::clear)
      .function("accept", &JsUnitLedger::accept)
      .function("error", &JsUnitLedger::error)
      .function("allIn", &JsUnitLedger::all_in)
      .function("progress", &JsUnitLedger::progress)
      .function("reruns", &JsUnitLedger::reruns)
      .function("inFlight", &JsUnitLedger::in_flight)
      .function("runKey", &JsUnitLedger::run_key);
}
