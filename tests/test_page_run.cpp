// The page's main run (page/page_run.hpp) without a browser: Run waits while blocked, runs to the
// one-go results in frame slices, a change of settings starts over; the run buttons by name; the
// change stamp counts every change (two cannot cancel out).
#include <catch2/catch.hpp>

#include "experiments/registry.hpp"
#include "lab/runner.hpp"
#include "page/change_stamp.hpp"
#include "page/page_run.hpp"
#include "unit_schedules.hpp"

using namespace attnlab;
using namespace attnlab::page;

TEST_CASE("page run: Run waits while blocked, then computes in slices to the one-go results", "[page]") {
  PageRun run;
  run.open("separation.toy");
  const KeyValues smoke = run.experiment().smoke_settings();
  run.apply(run.experiment().make_params("", smoke), "", 3);
  run.reset();
  CHECK(run.state() == RunState::Idle);
  CHECK(run.inputs_version() >= 2);
  run.run("a field shows a refused value");
  CHECK(run.state() == RunState::Idle);
  run.step_once("a field shows a refused value");
  CHECK(run.state() == RunState::Idle);
  run.run("");
  CHECK(run.state() == RunState::Running);
  CHECK(run.compute_text() == "Computing on the page's main thread");
  for (int i = 0; i < 100000 && run.state() == RunState::Running; ++i) run.compute(0.01);
  REQUIRE(run.state() == RunState::Done);
  auto e = make_experiment("separation.toy");
  e->reset(e->make_params("", smoke), 3);
  run_to_completion(*e);
  CHECK(testing::fingerprint(run.results()) == testing::fingerprint(e->results()));
  CHECK(run.csv().find("separation.toy") != std::string::npos);
  // Another seed: the run starts over, Idle, and a running run keeps running.
  run.set_seed(4);
  run.settings_changed();
  CHECK(run.state() == RunState::Idle);
  CHECK(run.progress() == 0.0);
  run.run("");
  run.settings_changed();
  CHECK(run.state() == RunState::Running);
}

TEST_CASE("page run: the run buttons by name, an unknown one is an error", "[page]") {
  CHECK(kRunActions.decode("action", "pause") == RunAction::Pause);
  CHECK_THROWS_WITH(kRunActions.decode("action", "stop"),
                    Catch::Contains("'stop'") && Catch::Contains("allowed: run, pause, step, reset"));
}

TEST_CASE("page change stamp: every change counts, two changes never cancel", "[page]") {
  ChangeStamp stamp;
  const std::uint64_t a = stamp.observe({1, 0, 0});
  CHECK(stamp.observe({1, 0, 0}) == a);  // nothing new
  // Two fields that change by the same bits: an XOR of them would be unchanged.
  const std::uint64_t b = stamp.observe({1 ^ 4, 0 ^ 4, 0});
  CHECK(b == a + 1);
  CHECK(stamp.observe({1, 0, 0}) == a + 2);  // back to an earlier state is a change too
}
