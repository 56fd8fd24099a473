// The unit scheduler (lab/unit_scheduler.hpp) with a fake pool of workers: posting to idle workers
// only, absorbing what comes back into the same results as one go, dropping units of a cancelled
// generation, a lost worker's rerun, a failed unit and a malformed run key; the typed run key.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "experiments/registry.hpp"
#include "lab/partial_codec.hpp"
#include "lab/runner.hpp"
#include "lab/unit_scheduler.hpp"
#include "lab/work_unit.hpp"
#include "unit_schedules.hpp"

using namespace attnlab;

namespace {

// A pool of `workers` that never computes: the test answers for it through `events`.
class FakePool final : public WorkerPool {
 public:
  struct Post {
    std::string run_key;
    std::string spec;
    std::int64_t unit;
    int generation;
  };
  bool up = true;
  int workers = 0, busy_now = 0;
  std::vector<Post> posted;
  std::vector<WorkerEvent> events;
  std::vector<int> cancelled;

  void resize(int n) override { workers = n; }
  int size() const override { return workers; }
  bool failed() const override { return false; }
  bool ready() const override { return up && workers > 0; }
  int busy() const override { return busy_now; }
  bool post(const std::string& key, const std::string& spec, std::int64_t unit, int generation) override {
    if (busy_now >= workers) return false;
    ++busy_now;
    posted.push_back({key, spec, unit, generation});
    return true;
  }
  std::vector<WorkerEvent> take_events() override {
    for (const WorkerEvent& e : events)
      if (e.kind == WorkerEvent::Kind::Done || e.kind == WorkerEvent::Kind::Error) --busy_now;
    return std::exchange(events, {});
  }
  void cancel(int generation) override { cancelled.push_back(generation), busy_now = 0; }
  std::string memory_text() const override { return "fake"; }
};

struct Fixture {
  std::unique_ptr<Experiment> run = make_experiment("separation.toy");
  std::unique_ptr<Experiment> worker = make_experiment("separation.toy");
  Params params = run->make_params("", run->smoke_settings());
  Fixture() {
    run->reset(params, 5);
    worker->reset(params, 5);
  }
  std::vector<UnitScheduler::Run> runs() { return {{run.get(), UnitScheduler::spec_json(*run, params, 5, "")}}; }
  // The worker's answer for a post: the unit computed by another experiment object.
  WorkerEvent done(const FakePool::Post& p) {
    WorkerEvent e;
    e.kind = WorkerEvent::Kind::Done;
    e.generation = p.generation;
    e.run_key = p.run_key;
    e.unit = p.unit;
    e.partial = encode_partial(run_task_to_end(*worker->start_unit(p.unit)));
    e.seconds = 0.25;
    return e;
  }
};

std::string one_go_fingerprint(const Params& params) {
  auto e = make_experiment("separation.toy");
  e->reset(params, 5);
  run_to_completion(*e);
  return testing::fingerprint(e->results());
}

}  // namespace

TEST_CASE("page scheduler: posts only to idle workers and absorbs every unit into the one-go results", "[page]") {
  Fixture f;
  REQUIRE(f.run->unit_count() >= 3);
  FakePool pool;
  UnitScheduler s;
  CHECK(s.drive(pool, 2, [&] { return f.runs(); }).has_value());
  CHECK(pool.posted.size() == 2);  // two workers: two units out, the rest wait
  CHECK(s.pending() == static_cast<std::size_t>(f.run->unit_count()) - 2);
  std::size_t answered = 0;
  while (s.active()) {
    while (answered < pool.posted.size()) pool.events.push_back(f.done(pool.posted[answered++]));
    const auto changed = s.tick(pool);
    CHECK(changed.size() <= 2);  // the one run, once per unit that came in
    for (std::size_t r : changed) CHECK(r == 0);
    REQUIRE(pool.posted.size() <= static_cast<std::size_t>(f.run->unit_count()));
  }
  CHECK(pool.posted.size() == static_cast<std::size_t>(f.run->unit_count()));
  CHECK(testing::fingerprint(f.run->results()) == one_go_fingerprint(f.params));
  CHECK(s.compute_seconds(0) == Approx(0.25 * static_cast<double>(f.run->unit_count())));
  CHECK(s.progress() == 1.0);
}

TEST_CASE("page scheduler: a new generation drops the units of the cancelled one", "[page]") {
  Fixture f;
  FakePool pool;
  UnitScheduler s;
  REQUIRE(s.drive(pool, 1, [&] { return f.runs(); }));
  REQUIRE(pool.posted.size() == 1);
  const FakePool::Post stale = pool.posted[0];
  s.stop(&pool);
  CHECK(pool.cancelled == std::vector<int>{stale.generation});
  f.run->reset(f.params, 5);
  s.start(f.runs());
  CHECK(s.generation() != stale.generation);
  s.tick(pool);  // the new generation's first unit goes out: the same unit as the stale one
  REQUIRE(pool.posted.size() == 2);
  REQUIRE(pool.posted[1].unit == stale.unit);
  // The old generation's answer arrives late, with its own key or dressed in the new generation.
  pool.events.push_back(f.done(stale));
  WorkerEvent dressed = f.done(stale);
  dressed.generation = s.generation();
  pool.events.push_back(dressed);
  CHECK(s.tick(pool).empty());
  CHECK_FALSE(f.run->unit_finished(stale.unit));
  CHECK(s.progress() == 0.0);
}

TEST_CASE("page scheduler: a lost worker's unit runs again, a failed unit names itself", "[page]") {
  Fixture f;
  FakePool pool;
  UnitScheduler s;
  REQUIRE(s.drive(pool, 1, [&] { return f.runs(); }));
  const FakePool::Post p = pool.posted.at(0);
  WorkerEvent progress{WorkerEvent::Kind::Progress, p.generation, p.run_key, p.unit, "", 0.5, 0.0, ""};
  pool.events.push_back(progress);
  s.tick(pool);
  CHECK(s.progress() > 0.0);
  WorkerEvent rerun{WorkerEvent::Kind::Rerun, p.generation, p.run_key, p.unit, "", 0.0, 0.0, "worker 1 ran out of memory"};
  pool.events.push_back(rerun);
  s.tick(pool);
  CHECK(s.reruns() == 1);
  CHECK(s.last_rerun() == "worker 1 ran out of memory");
  CHECK(s.rerun_text() == "A worker stopped; its unit ran again");
  CHECK(s.progress() == 0.0);  // the rerun starts the unit over
  pool.events.push_back(f.done(p));
  CHECK(s.tick(pool) == std::vector<std::size_t>{0});
  const FakePool::Post next = pool.posted.at(1);
  pool.events.push_back({WorkerEvent::Kind::Error, next.generation, next.run_key, next.unit, "", 0.0, 0.0, "out of memory"});
  CHECK_THROWS_WITH(s.tick(pool), Catch::Contains("separation.toy, unit " + std::to_string(next.unit)) &&
                                      Catch::Contains("out of memory"));
}

TEST_CASE("page scheduler: no worker up yet starts nothing; a malformed run key is an error", "[page]") {
  Fixture f;
  FakePool pool;
  pool.up = false;
  UnitScheduler s;
  CHECK_FALSE(s.drive(pool, 3, [&] { return f.runs(); }).has_value());
  CHECK_FALSE(s.active());
  CHECK(pool.workers == 3);
  pool.up = true;
  REQUIRE(s.drive(pool, 3, [&] { return f.runs(); }));
  pool.events.push_back({WorkerEvent::Kind::Done, s.generation(), "g" + std::to_string(s.generation()) + "rx", 0, "", 0, 0, ""});
  CHECK_THROWS_WITH(s.tick(pool), Catch::Contains("run key") && Catch::Contains("g<generation>r<run>"));
  // A run or a unit that is not in flight: dropped, whatever the message says.
  pool.events.push_back({WorkerEvent::Kind::Done, s.generation(), RunKey{s.generation(), 7}.encode(), 0, "", 0, 0, ""});
  pool.events.push_back({WorkerEvent::Kind::Error, s.generation(), RunKey{s.generation(), 0}.encode(), 99999, "", 0, 0, "x"});
  CHECK(s.tick(pool).empty());
  CHECK(f.run->progress().done == 0);  // nothing absorbed
}

TEST_CASE("page scheduler: the run key is written and read in one place", "[page]") {
  CHECK(RunKey{12, 3}.encode() == "g12r3");
  CHECK(RunKey::decode("g12r3") == RunKey{12, 3});
  for (const char* bad : {"", "g", "g1", "g1r", "gr1", "1r2", "g-1r2", "g1r2x", "gxr1", "g1r+2", "r1g2", "g 1r2"})
    CHECK_THROWS_WITH(RunKey::decode(bad), Catch::Contains("g<generation>r<run>"));
}

TEST_CASE("page scheduler: a worker's settings are JSON with the experiment, parameters, seed and data", "[page]") {
  Fixture f;
  const auto spec = nlohmann::json::parse(UnitScheduler::spec_json(*f.run, f.params, 5, "{\"x\": \"\\u00e9\"}"));
  CHECK(spec["id"] == "separation.toy");
  CHECK(spec["seed"] == 5);
  CHECK(spec["params"].size() == f.run->schema().specs().size());
  CHECK(spec["data"] == "{\"x\": \"\\u00e9\"}");
  CHECK_FALSE(nlohmann::json::parse(UnitScheduler::spec_json(*f.run, f.params, 5, "")).contains("data"));
}
