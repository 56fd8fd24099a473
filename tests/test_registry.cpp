#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <utility>

#include "experiments/papers.hpp"
#include "experiments/registry.hpp"
#include "experiments/reproductions.hpp"
#include "experiments/stories.hpp"
#include "lab/url_hash.hpp"

using namespace attnlab;

TEST_CASE("every experiment's defaults and presets validate", "[lab][registry]") {
  for (const auto& id : experiment_ids()) {
    auto e = make_experiment(id);
    CHECK(e->info().id == id);
    CHECK_NOTHROW(e->schema().defaults());
    for (const auto& p : e->presets()) {
      INFO(id << " preset " << p.name);
      CHECK_NOTHROW(e->make_params(p.name, {}));
      CHECK_FALSE(p.description.empty());
    }
    for (const auto& s : e->schema().specs()) {
      INFO(id << " parameter " << s.key);
      CHECK_FALSE(is_reserved_hash_key(s.key));
      CHECK_FALSE(s.help.empty());
    }
  }
}

TEST_CASE("unknown experiments and presets are named in the error", "[lab][registry]") {
  std::string known;
  for (const auto& id : experiment_ids()) known += (known.empty() ? "" : ", ") + id;
  CHECK_THROWS_WITH(make_experiment("nope"), "unknown experiment 'nope'; experiments: " + known);
  auto e = make_experiment("separation.toy");
  CHECK_THROWS_WITH(e->make_params("fig9", {}), Catch::StartsWith("unknown preset 'fig9' for separation.toy; presets: fig3a"));
}

// The declarations that let the faces know nothing of particular experiments (lab/experiment.hpp).
TEST_CASE("every experiment declares its inspector and its data selector truthfully", "[lab][registry]") {
  for (const auto& id : experiment_ids()) {
    INFO(id);
    auto e = make_experiment(id);
    // has_inspector() is what a run shows: points to inspect after reset, for the defaults and
    // the small settings, and an inspection (or the refusal) of point 0, trial 0.
    for (const KeyValues& settings : {KeyValues{}, e->smoke_settings()}) {
      e->reset(e->make_params("", settings), 1);
      CHECK(e->inspector_points().empty() == !e->has_inspector());
    }
    if (e->has_inspector()) {
      const Results r = e->inspect(0, 0);
      CHECK(r.heatmaps.size() + r.plots.size() > 0);
    } else {
      CHECK_THROWS_WITH(e->inspect(0, 0), Catch::Contains("has no inspector"));
    }
    // The data selector is a valid setting that the experiment refuses without data (naming the
    // parameter), and no experiment without one takes data.
    const Experiment::DataSelector data = e->data_selector();
    CHECK(e->accepts_data() == !data.key.empty());
    if (data.key.empty()) {
      CHECK(data.value.empty());
      CHECK_THROWS_WITH(e->set_data("{}"), Catch::Contains("takes no data file"));
      continue;
    }
    REQUIRE(e->schema().find(data.key) != nullptr);
    Params p = e->schema().defaults();
    CHECK_NOTHROW(e->schema().set(p, data.key, data.value));
    CHECK(e->schema().find(data.key)->default_value != data.value);  // the defaults run without data
    CHECK_THROWS_WITH(e->reset(p, 1), Catch::Contains("parameter '" + data.key + "'"));
  }
}

TEST_CASE("every reproduction names existing panels whose tables have its declared columns", "[lab][registry]") {
  for (const auto& name : reproduction_names()) {
    const Reproduction& r = reproduction(name);
    INFO(name);
    CHECK(r.name == name);
    CHECK_FALSE(r.panels.empty());
    for (const Panel& panel : r.panels) {
      INFO(panel.name);
      auto e = make_experiment(panel.experiment);
      CHECK(e->schema().find("paper_trials") != nullptr);  // the page's and the CLI's --paper-trials switch
      // Prepared only (no work): the table's columns are there before its rows.
      e->reset(e->make_params(panel.preset, {}), 1);
      const Table t = e->results().table;
      CHECK(t.column(r.summary_column) >= 0);
      CHECK(t.column(r.trials_column) >= 0);
    }
  }
  CHECK_THROWS_WITH(reproduction("nope"), Catch::StartsWith("unknown reproduction 'nope'; reproductions: "));
}

TEST_CASE("every reproduction lays its panels out in its figures: one per cell, inside the grid, letters in order", "[lab][registry]") {
  for (const auto& name : reproduction_names()) {
    const Reproduction& r = reproduction(name);
    INFO(name);
    REQUIRE_FALSE(r.figures.empty());
    for (const PaperFigure& fig : r.figures) {
      INFO(fig.name);
      CHECK_FALSE(fig.title.empty());
      std::set<std::pair<int, int>> cells;
      std::vector<std::string> letters;
      for (const Panel& panel : r.panels) {
        if (panel.figure != fig.name) continue;
        INFO(panel.name);
        CHECK((panel.row >= 0 && panel.row < fig.rows));
        CHECK((panel.column >= 0 && panel.column < fig.columns));
        CHECK(cells.insert({panel.row, panel.column}).second);
        CHECK(panel.letter.size() == 1);
        CHECK_FALSE(panel.caption.empty());
        // Reading order (row by row) is the paper's letter order.
        CHECK((letters.empty() || letters.back() < panel.letter));
        letters.push_back(panel.letter);
      }
      CHECK_FALSE(letters.empty());
    }
    for (const Panel& panel : r.panels) {
      INFO(panel.name);
      CHECK(std::count_if(r.figures.begin(), r.figures.end(),
                          [&](const PaperFigure& f) { return f.name == panel.figure; }) == 1);
      // The figures show plot r.figure_plot of every panel.
      auto e = make_experiment(panel.experiment);
      e->reset(e->make_params(panel.preset, {}), 1);
      CHECK(r.figure_plot < e->results().plots.size());
    }
  }
}

// A paper is declared once (src/experiments/papers.cpp): every experiment belongs to exactly one
// paper and cites it; its story and reproduction exist and the story names the paper.
TEST_CASE("every paper's declaration agrees with the experiments, stories and reproductions", "[lab][registry]") {
  std::vector<std::string> listed;
  std::set<std::string> ids;
  for (const Paper& p : papers()) {
    INFO(p.id);
    CHECK(ids.insert(p.id).second);
    CHECK(&paper(p.id) == &p);
    CHECK_FALSE(p.title.empty());
    CHECK_FALSE(p.authors.empty());
    CHECK_FALSE(p.arxiv.empty());
    CHECK(p.docs_page == "docs/" + p.id + ".md");
    CHECK_FALSE(p.experiments.empty());
    for (const auto& id : p.experiments) {
      INFO(id);
      listed.push_back(id);
      CHECK(Catch::StartsWith(p.citation()).match(make_experiment(id)->info().paper));
    }
    if (!p.story.empty()) {
      CHECK(story(p.story).paper == p.title);
      CHECK(story(p.story).authors == p.authors);
    }
    if (!p.reproduction.empty())
      for (const Panel& panel : reproduction_panels(p.reproduction))
        CHECK(std::count(p.experiments.begin(), p.experiments.end(), panel.experiment) == 1);
  }
  CHECK(listed == experiment_ids());
  CHECK(stories().size() == static_cast<std::size_t>(std::count_if(
                                papers().begin(), papers().end(), [](const Paper& p) { return !p.story.empty(); })));
  CHECK(reproduction_names().size() == static_cast<std::size_t>(std::count_if(
                                           papers().begin(), papers().end(),
                                           [](const Paper& p) { return !p.reproduction.empty(); })));
  CHECK(paper("mirror").citation("Fig. 2") ==
        "Julistiono, Tarzanagh, Azizan. Optimizing Attention with Mirror Descent: Generalized Max-Margin Token "
        "Selection (arXiv 2410.14581), Fig. 2");
  CHECK_THROWS_WITH(paper("nope"), Catch::StartsWith("unknown paper 'nope'; papers: separation, regression"));
}
