// The plot each story step names, drawn honestly (docs/design.md "How to add a story"): at most
// kSeriesShownMax series or a highlight of the ones the text names; no two visible series share a
// colour; every point inside the plot area; an amount of work from zero; and the named plot shows
// what the text compares (multihead step 1: both methods' errors in Theta).
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <string>

#include "experiments/registry.hpp"
#include "experiments/stories.hpp"
#include "lab/plot_looks.hpp"
#include "lab/plot_ticks.hpp"
#include "lab/runner.hpp"
#include "lab/story.hpp"
#include "plot_checks.hpp"

using namespace attnlab;

namespace {

Results run_step(const StoryStep& step) {
  auto e = make_experiment(step.settings.experiment);
  e->reset(e->make_params(step.settings.preset, step.settings.params), step.settings.seed);
  run_to_completion(*e);
  return e->results();
}

void check_honest(const Plot& plot) {
  const std::vector<SeriesDrawing> drawn = series_drawings(plot);
  bool highlight = false;
  for (const Series& s : plot.series) highlight = highlight || (s.flags & SeriesFlags_Highlight);
  INFO(plot.series.size() << " series");
  CHECK((plot.series.size() <= kSeriesShownMax || highlight));
  std::set<std::size_t> colours;
  for (std::size_t k = 0; k < plot.series.size(); ++k) {
    if (drawn[k].reference || drawn[k].dimmed) continue;
    INFO("series '" << plot.series[k].name << "' shares its colour with an earlier visible one");
    CHECK(colours.insert(drawn[k].colour_slot % kSeriesColours).second);
  }
  // Every usable point is inside the plot area (a point on the frame or beyond it is not read).
  const PlotAxes a = fit_plot_axes(plot);
  for (const Series& s : plot.series)
    for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
      if (!a.x.usable(s.x[i]) || !a.y.usable(s.y[i])) continue;
      INFO("series '" << s.name << "' point (" << s.x[i] << ", " << s.y[i] << ")");
      CHECK(a.x.map(s.x[i]) > 0.0);
      CHECK(a.x.map(s.x[i]) < 1.0);
      CHECK(a.y.map(s.y[i]) > 0.0);
      CHECK(a.y.map(s.y[i]) < 1.0);
    }
}

}  // namespace

TEST_CASE("every story step's named plot is drawn honestly", "[stories][figures]") {
  for (const Story& story : stories())
    for (std::size_t k = 0; k < story.steps.size(); ++k) {
      const StoryStep& step = story.steps[k];
      INFO(story.id << " step " << k + 1 << ": plot '" << step.plot << "'");
      const Results r = run_step(step);
      test::check_figures(r);  // every plot and map of the step: fits a phone, no two series alike
      for (const std::string& title : step.shown_plots) {  // drawn open after the named plot
        INFO("shown plot '" << title << "'");
        CHECK(std::any_of(r.plots.begin(), r.plots.end(), [&](const Plot& p) { return p.title == title; }));
      }
      const Plot* named = nullptr;
      for (const Plot& p : r.plots)
        if (p.title == step.plot) named = &p;
      if (!named) continue;  // a heatmap (test_story_runs checks the step draws what it names)
      check_honest(*named);
      if (named->title == "Work per iteration") CHECK(fit_plot_axes(*named).y.lo == 0.0);
      if (story.id == "multihead" && k == 0) {
        // The text compares both methods' errors in Theta: both are on the named plot.
        int theta = 0;
        for (const Series& s : named->series) theta += s.name.rfind("Theta", 0) == 0;
        CHECK(theta == 2);
      }
      if (story.id == "mirror" && step.plot.rfind("Selected token", 0) == 0)
        CHECK((named->y_flags & AxisFlags_Index) != 0);
    }
}
