// RunController (lab/run_controller.hpp): the one loop every face runs an experiment with.
#include <catch2/catch.hpp>

#include <stdexcept>

#include "experiments/registry.hpp"
#include "lab/run_controller.hpp"
#include "lab/run_record.hpp"
#include "lab/runner.hpp"

using namespace attnlab;

namespace {

// Four one-piece units that count their index; it can refuse its run at reset() or fail in a unit.
class Counting final : public Experiment {
 public:
  bool refuse = false;         // prepare() throws ParamError
  std::int64_t fail_unit = -1;  // that unit throws std::runtime_error
  mutable int results_calls = 0;

  Counting() : Experiment(Schema{{}}) { info_ = {"test.counting", "Counting", "", ""}; }
  KeyValues smoke_settings() const override { return {}; }
  Results inputs(const Params&, std::uint64_t) const override { return {}; }  // not a registered experiment
  std::unique_ptr<UnitTask> start_unit(std::int64_t unit) const override {
    const bool fail = unit == fail_unit;
    return make_single_piece_task([unit, fail] {
      if (fail) throw std::runtime_error("unit " + std::to_string(unit) + " broke");
      Partial p;
      p.put("x", static_cast<double>(unit));
      return p;
    });
  }
  Results results() const override {
    ++results_calls;
    Results r;
    r.table.columns = {"x"};
    for (double x : kept_)
      if (x >= 0) r.table.rows.push_back({x});
    return r;
  }

 protected:
  std::vector<std::int64_t> prepare(const Params&, std::uint64_t) override {
    if (refuse) throw ParamError("parameter 'n': too large together");
    kept_.assign(4, -1.0);
    return {1, 1, 1, 1};
  }
  void merge(std::int64_t unit, const Partial& partial) override { kept_[static_cast<std::size_t>(unit)] = partial.value("x"); }

 private:
  std::vector<double> kept_;
};

Budget units(std::int64_t n) {
  Budget b;
  b.max_units = n;
  return b;
}

}  // namespace

TEST_CASE("RunController: lazy reset, slices, results with a version, Done", "[lab][run]") {
  RunController run;
  CHECK_FALSE(run.has_experiment());
  auto owned = std::make_unique<Counting>();
  Counting& e = *owned;
  run.open(std::move(owned), Params{}, 3);
  CHECK(run.state() == RunState::Idle);
  CHECK_FALSE(run.prepared());  // nothing runs until the first slice
  CHECK(run.fraction() == 0.0);
  CHECK_FALSE(run.finished());
  CHECK(run.results().table.rows.empty());
  const unsigned v0 = run.version();

  run.set_state(RunState::Running);
  run.step(units(1));
  CHECK(run.prepared());
  CHECK(run.state() == RunState::Running);
  CHECK(run.fraction() == 0.25);
  CHECK(run.version() != v0);
  CHECK(run.results().table.rows.size() == 1);
  // results() copies once per change, however often it is read.
  const int calls = e.results_calls;
  run.results();
  run.results();
  CHECK(e.results_calls == calls);

  run.step(units(10));
  CHECK(run.state() == RunState::Done);
  CHECK(run.finished());
  CHECK(run.fraction() == 1.0);
  CHECK(run.results().table.rows.size() == 4);
  CHECK(to_string(run.state()) == std::string("done"));

  // reset() starts over with the same settings; nothing is kept.
  const unsigned v1 = run.version();
  run.reset();
  CHECK(run.state() == RunState::Idle);
  CHECK_FALSE(run.prepared());
  CHECK(run.results().table.rows.empty());
  CHECK(run.version() != v1);
  CHECK(run.seed() == 3);
}

TEST_CASE("RunController: units absorbed elsewhere, taking the experiment out, a finished run", "[lab][run]") {
  RunController run;
  run.open(std::make_unique<Counting>(), Params{}, 1);
  const unsigned v0 = run.version();
  // A scheduler that has nothing new leaves the results (and their version) as they were.
  run.advance([](Experiment&) { return false; });
  CHECK(run.prepared());
  CHECK(run.version() == v0);
  run.advance([](Experiment& e) {
    for (std::int64_t u = 0; u < e.unit_count(); ++u) e.absorb(u, run_task_to_end(*e.start_unit(u)));
    return true;
  });
  CHECK(run.state() == RunState::Done);
  CHECK(run.results().table.rows.size() == 4);

  std::unique_ptr<Experiment> taken = run.take_experiment();
  REQUIRE(taken);
  CHECK_FALSE(run.has_experiment());
  CHECK(run.results().table.rows.size() == 4);  // the results stay
  CHECK_FALSE(run.take_experiment());

  RunController opened;
  opened.open_finished(std::move(taken), run.params(), run.seed());
  CHECK(opened.state() == RunState::Done);
  CHECK(opened.prepared());
  CHECK(opened.results().table.rows.size() == 4);
}

TEST_CASE("RunController: what a reset or a slice throws ends the run with its message", "[lab][run]") {
  auto refusing = std::make_unique<Counting>();
  refusing->refuse = true;
  RunController refused;
  refused.open(std::move(refusing), Params{}, 1);
  CHECK_THROWS_AS(refused.prepare(), ParamError);  // the eager form throws, state unchanged
  CHECK(refused.state() == RunState::Idle);
  refused.set_state(RunState::Running);
  refused.step(units(1));  // the lazy form catches
  CHECK(refused.failed());
  CHECK(refused.error() == "parameter 'n': too large together");
  CHECK_THROWS_AS(refused.rethrow_error(), ParamError);

  auto breaking = std::make_unique<Counting>();
  breaking->fail_unit = 2;
  RunController broken;
  broken.open(std::move(breaking), Params{}, 1);
  broken.step(units(2));
  CHECK(broken.results().table.rows.size() == 2);
  broken.step(units(10));
  CHECK(broken.failed());
  CHECK(broken.error() == "unit 2 broke");
  CHECK(broken.results().table.rows.size() == 2);  // the results of the slices before stay
  broken.close();
  CHECK_FALSE(broken.has_experiment());
  CHECK(broken.error().empty());
  CHECK(broken.state() == RunState::Idle);
}

TEST_CASE("run_to_completion is a RunController over the caller's experiment", "[lab][run]") {
  Counting e;
  e.reset(Params{}, 1);
  int reports = 0;
  run_to_completion(e, [&](const Progress&) { ++reports; });
  CHECK(e.progress().finished());
  CHECK(reports >= 1);
  Counting broken;
  broken.fail_unit = 0;
  broken.reset(Params{}, 1);
  CHECK_THROWS_WITH(run_to_completion(broken), "unit 0 broke");

  // The same bytes as the experiment stepped by hand.
  auto a = make_experiment("separation.toy"), b = make_experiment("separation.toy");
  const Params p = a->make_params("", a->smoke_settings());
  a->reset(p, 5);
  b->reset(p, 5);
  run_to_completion(*a);
  while (!b->progress().finished()) b->step(units(1));
  CHECK(to_csv(make_record(*a, p, "", 5)) == to_csv(make_record(*b, p, "", 5)));
}
