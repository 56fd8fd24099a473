// The picture before a run (docs/design.md "The picture before a run"), one property over every
// registered experiment, its defaults and every preset: Experiment::inputs() draws something, only
// finite numbers, the same picture for the same seed, small enough for the page's main thread, and
// under titles that say it shows the inputs.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "experiments/registry.hpp"

using namespace attnlab;

namespace {

bool all_finite(const std::vector<double>& v) {
  for (double x : v)
    if (!std::isfinite(x)) return false;
  return true;
}

bool same(const Results& a, const Results& b) {
  if (a.plots.size() != b.plots.size() || a.heatmaps.size() != b.heatmaps.size()) return false;
  for (std::size_t i = 0; i < a.plots.size(); ++i) {
    if (a.plots[i].series.size() != b.plots[i].series.size()) return false;
    for (std::size_t k = 0; k < a.plots[i].series.size(); ++k)
      if (a.plots[i].series[k].x != b.plots[i].series[k].x || a.plots[i].series[k].y != b.plots[i].series[k].y) return false;
  }
  for (std::size_t i = 0; i < a.heatmaps.size(); ++i)
    if (a.heatmaps[i].values != b.heatmaps[i].values) return false;
  return true;
}

// Points and cells the page draws: the picture's size, bounded so that drawing it (and computing
// it, which is proportional) stays well inside a frame.
constexpr std::size_t kMostPoints = 40000;

void check_picture(const std::string& where, const Results& r) {
  INFO(where);
  CHECK((!r.plots.empty() || !r.heatmaps.empty()));
  CHECK(r.table.rows.empty());  // a table is what a run measures
  std::size_t points = 0;
  for (const Plot& p : r.plots) {
    INFO("plot " << p.title);
    CHECK(p.title.rfind("Inputs: ", 0) == 0);
    CHECK_FALSE(p.series.empty());
    for (const Series& s : p.series) {
      INFO("series " << s.name);
      CHECK_FALSE(s.name.empty());
      CHECK_FALSE(s.x.empty());
      CHECK(s.x.size() == s.y.size());
      CHECK(all_finite(s.x));
      CHECK(all_finite(s.y));
      points += s.x.size();
    }
  }
  for (const Heatmap& h : r.heatmaps) {
    INFO("heatmap " << h.title);
    CHECK(h.title.rfind("Inputs: ", 0) == 0);
    CHECK(h.rows > 0);
    CHECK(h.cols > 0);
    CHECK(h.values.size() == static_cast<std::size_t>(h.rows) * static_cast<std::size_t>(h.cols));
    CHECK(all_finite(h.values));
    CHECK(h.low < h.high);
    points += h.values.size();
  }
  CHECK(points <= kMostPoints);
}

}  // namespace

TEST_CASE("every experiment draws its inputs before a run, for its defaults and every preset", "[inputs]") {
  for (const std::string& id : experiment_ids()) {
    const auto experiment = make_experiment(id);
    std::vector<std::string> presets{""};
    for (const Preset& p : experiment->presets()) presets.push_back(p.name);
    for (const std::string& preset : presets) {
      const std::string where = id + (preset.empty() ? " (defaults)" : " preset " + preset);
      const Params params = experiment->make_params(preset, {});
      const Results first = experiment->inputs(params, 7);
      check_picture(where, first);
      INFO(where);
      CHECK(same(first, experiment->inputs(params, 7)));  // drawn from the settings and seed alone
    }
  }
}
