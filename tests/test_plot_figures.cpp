// Every registered experiment's figures (the picture of its inputs at the defaults and at each
// preset, and its results at the smoke settings) read on a phone: headings, legends, map titles and
// captions wrap within the figure, maps carry tick labels on both axes, and no two series of a plot
// are drawn alike (tests/plot_checks.hpp).
#include <catch2/catch.hpp>

#include "experiments/registry.hpp"
#include "lab/runner.hpp"
#include "plot_checks.hpp"

using namespace attnlab;

TEST_CASE("every experiment's figures fit a phone, maps have ticks, and no two series look alike",
          "[figures][registry]") {
  for (const std::string& id : experiment_ids()) {
    auto e = make_experiment(id);
    {
      INFO(id << ": the inputs at the defaults");
      test::check_figures(e->inputs(e->schema().defaults(), 1));
    }
    for (const Preset& p : e->presets()) {
      INFO(id << ": the inputs of preset " << p.name);
      test::check_figures(e->inputs(e->make_params(p.name, {}), 1));
    }
    INFO(id << ": the results at the smoke settings");
    e->reset(e->make_params("", e->smoke_settings()), 1);
    run_to_completion(*e);
    test::check_figures(e->results());
  }
}
