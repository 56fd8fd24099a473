// A story's state on the page (page/story_state.hpp) without drawing: the step, the prediction
// (refused values leave it as it was), Back / Next, the step as JSON, and the empty frame of the
// plot it names before Run (page/story_frame.hpp).
#include <catch2/catch.hpp>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "experiments/stories.hpp"
#include "page/page_json.hpp"
#include "page/story_frame.hpp"
#include "page/story_state.hpp"

using namespace attnlab;
using namespace attnlab::page;

namespace {
// The first step of any story whose prediction asks for a choice (or a number).
std::pair<const Story*, std::size_t> step_asking(bool choices) {
  for (const Story& s : stories())
    for (std::size_t k = 0; k < s.steps.size(); ++k)
      if (s.steps[k].prediction && s.steps[k].prediction->choices.empty() != choices) return {&s, k};
  return {nullptr, 0};
}
}  // namespace

TEST_CASE("page story: Back and Next stay inside the story", "[page]") {
  const Story& s = stories().front();
  REQUIRE(s.steps.size() >= 2);
  StoryState st;
  CHECK_FALSE(st.is_open());
  st.open(s, 0);
  CHECK(st.first_step());
  CHECK(st.step_by(+1) == 1);
  CHECK_THROWS_WITH(st.step_by(-1), Catch::Contains("no step there") && Catch::Contains("steps 1 to"));
  st.open(s, 99);  // past the end: the last step
  CHECK(st.last_step());
  CHECK(st.step_index() == s.steps.size() - 1);
  CHECK_THROWS_WITH(st.step_by(+1), Catch::Contains("no step there"));
  CHECK(st.step_by(-1) == s.steps.size() - 2);
  CHECK(next_story_id(stories(), stories()[0].id) == stories()[1].id);
  CHECK(next_story_id(stories(), stories().back().id).empty());
}

TEST_CASE("page story: a choice is predicted once, refusals keep it, a new step forgets it", "[page]") {
  const auto [s, k] = step_asking(true);
  REQUIRE(s);
  StoryState st;
  st.open(*s, k);
  CHECK(st.awaiting_prediction());
  const std::size_t n = st.step().prediction->choices.size();
  for (double bad : {-1.0, 0.5, static_cast<double>(n), std::nan("")})
    CHECK_THAT(st.predict(bad), Catch::Contains("a choice in [0, " + std::to_string(n - 1) + "]"));
  CHECK(st.awaiting_prediction());
  CHECK(st.predict(1.0).empty());
  CHECK(st.choice() == 1);
  CHECK_FALSE(st.awaiting_prediction());
  CHECK_FALSE(st.predict(-1.0).empty());
  CHECK(st.choice() == 1);  // a refused value leaves the prediction
  st.open(*s, k);           // the same step again: kept
  CHECK(st.choice() == 1);
  st.open(*s, k == 0 ? 1 : 0);
  CHECK(st.choice() == -1);
  CHECK_FALSE(st.predicted());
}

TEST_CASE("page story: the step as JSON: answer and summary once the run is done", "[page]") {
  const auto [s, k] = step_asking(true);
  REQUIRE(s);
  StoryState st;
  st.open(*s, k);
  const Results none;
  auto j = nlohmann::json::parse(st.json(none, false));
  CHECK(j["story"] == s->id);
  CHECK(j["step"] == k + 1);
  CHECK(j["steps"] == s->steps.size());
  CHECK(j["answer"] == "");
  CHECK(j["prediction"]["predicted"].is_null());
  CHECK(j["prediction"]["choices"].size() == s->steps[k].prediction->choices.size());
  st.predict(0.0);
  j = nlohmann::json::parse(st.json(none, true));
  CHECK(j["prediction"]["predicted"] == 0);
  CHECK(j["answer"] == render_answer(s->steps[k], none));
  CHECK(j["summary"] == (k + 1 == s->steps.size() ? render_summary(*s, none) : ""));
  st.open(*s, s->steps.size() - 1);
  CHECK(nlohmann::json::parse(st.json(none, true))["summary"] == render_summary(*s, none));
  CHECK(nlohmann::json::parse(st.json(none, false))["summary"] == "");
  CHECK(nlohmann::json::parse(st.json(none, true))["summaryHeading"] == "What you saw");  // the canvas's heading
}

TEST_CASE("page story: a number is predicted inside its range", "[page]") {
  const auto [s, k] = step_asking(false);
  if (!s) return;  // every story asks for choices
  StoryState st;
  st.open(*s, k);
  const StoryPrediction& p = *st.step().prediction;
  CHECK_THAT(st.predict(p.max + 1.0), Catch::Contains("a prediction in ["));
  CHECK(st.awaiting_prediction());
  CHECK(st.predict(p.min).empty());
  CHECK(nlohmann::json::parse(st.json(Results(), false))["prediction"]["predicted"] == p.min);
}

TEST_CASE("page story: the prediction for the link, the downloads and a course page's resume", "[page]") {
  const auto [s, k] = step_asking(true);
  REQUIRE(s);
  StoryState st;
  st.open(*s, k);
  CHECK_FALSE(st.prediction().has_value());
  const Results none;
  KeyValues context = st.record_context(none, false);
  CHECK(context == KeyValues{{"story", s->id}, {"story_step", std::to_string(k + 1)}, {"prediction", "no prediction"}});
  // The resume hook: only the step on screen, with the same checks as a click.
  CHECK(st.predict_at(s->id, k + 1, 0.0) == "story: step " + std::to_string(k + 2) + " of story '" + s->id +
                                                "' is not on screen; on screen: step " + std::to_string(k + 1) +
                                                " of story '" + s->id + "'");
  CHECK_FALSE(st.predicted());
  CHECK_THAT(st.predict_at(s->id, k, 99.0), Catch::Contains("a choice in [0, "));
  CHECK(st.predict_at(s->id, k, 1.0).empty());
  CHECK(st.prediction() == 1.0);
  const std::string label = s->steps[k].prediction->choices[1].label;
  CHECK(st.record_context(none, false).back() == std::pair<std::string, std::string>{"prediction", label});
  context = st.record_context(none, true);
  REQUIRE(context.size() == 4);
  CHECK(context[3].first == "measured");
  CHECK(StoryState().predict_at(s->id, k, 1.0) == "story: step " + std::to_string(k + 1) + " of story '" + s->id +
                                                     "' is not on screen; no story step is open");
  // A link's position opens the step with its prediction, or none.
  st.open(*s, StoryPosition{s->id, k, 0.0});
  CHECK(st.choice() == 0);
  st.open(*s, StoryPosition{s->id, k, std::nullopt});
  CHECK_FALSE(st.predicted());
}

TEST_CASE("page story: a step's text marks the first use of each glossary term", "[page][glossary]") {
  std::vector<GlossaryEntry> glossary(3);
  glossary[0].term = "softmax", glossary[1].term = "simplex edge", glossary[2].term = "eps0";
  const std::string text = "Softmax attention on simplex edges; softmax again, eps0_x and softmaxed, then eps0.";
  std::vector<std::string> marked;
  const std::vector<GlossarySegment> parts = glossary_segments(glossary, text, &marked);
  std::string joined, terms;
  for (const GlossarySegment& p : parts) {
    joined += p.text;
    if (p.term) terms += "[" + p.text + "=" + p.term->term + "]";
  }
  CHECK(joined == text);  // nothing lost
  CHECK(terms == "[Softmax=softmax][simplex edges=simplex edge][eps0=eps0]");  // the first use, whole words
  CHECK(marked == std::vector<std::string>{"softmax", "simplex edge", "eps0"});
  CHECK(glossary_segments(glossary, "softmax later", &marked).size() == 1);  // marked once per step
  // An exponent's notation is not the term: (kd)^Theta(m) is big-Theta, not the matrix Theta.
  std::vector<GlossaryEntry> theta(1);
  theta[0].term = "Theta";
  const std::vector<GlossarySegment> exponent = glossary_segments(theta, "(kd)^Theta(m) examples; Theta is 2 x 4", nullptr);
  REQUIRE(exponent.size() == 3);
  CHECK(exponent[0].text == "(kd)^Theta(m) examples; ");
  CHECK(exponent[1].term == &theta[0]);
  // Every step of every story: its text is kept whole, and the page's JSON says the same parts.
  std::size_t steps_marking = 0;
  for (const Story& s : stories())
    for (std::size_t k = 0; k < s.steps.size(); ++k) {
      StoryState st;
      st.open(s, k);
      const auto j = nlohmann::json::parse(st.json(Results(), false));
      std::string whole;
      bool any = false;
      for (const auto& p : j["textParts"]) whole += p["text"].get<std::string>(), any = any || p.contains("definition");
      CHECK(whole == s.steps[k].text);
      steps_marking += any ? 1 : 0;
    }
  CHECK(steps_marking >= 10);
}

// "Words in this step" (StoryState::words, both faces) lists the terms a student reads anywhere in
// the step: a term used only in the answer joins once the run is done, a term only in a plot's
// legend while the plot is on screen.
TEST_CASE("page story: the step's words include the answer's and the plots' terms", "[page][glossary]") {
  // The terms of "words" in the step's JSON (StoryState::json, what the twin lists; the canvas
  // passes the same answer and summary to StoryState::words).
  const auto words = [](const StoryState& st, const Results& results, bool done) {
    const nlohmann::json page = nlohmann::json::parse(st.json(results, done));
    std::vector<std::string> terms;
    for (const auto& w : page["words"]) terms.push_back(w["term"]);
    return terms;
  };
  const auto has = [](const std::vector<std::string>& terms, const std::string& term) {
    return std::find(terms.begin(), terms.end(), term) != terms.end();
  };
  std::size_t answer_only = 0;
  for (const Story& s : stories())
    for (std::size_t k = 0; k < s.steps.size(); ++k) {
      const StoryStep& step = s.steps[k];
      StoryState st;
      st.open(s, k);
      std::string before = step.text + "\n" + step.question;
      if (step.prediction) {
        before += "\n" + step.prediction->question;
        for (const PredictionChoice& c : step.prediction->choices) before += "\n" + c.label;
      }
      std::vector<std::string> read_before;
      glossary_segments(s.glossary, before, &read_before);
      std::vector<std::string> in_answer;  // the unconditional parts, rendered without a run
      glossary_segments(s.glossary, render_answer(step, Results()), &in_answer);
      const auto after = words(st, Results(), true), not_yet = words(st, Results(), false);
      for (const std::string& term : read_before) CHECK(has(not_yet, term));
      for (const std::string& term : in_answer) {
        INFO(s.id << " step " << k + 1 << ": '" << term << "' is in the answer");
        CHECK(has(after, term));
        if (std::find(read_before.begin(), read_before.end(), term) != read_before.end()) continue;
        CHECK_FALSE(has(not_yet, term));  // not listed before the answer shows
        ++answer_only;
      }
      // A term named only by a legend on screen.
      for (const GlossaryEntry& g : s.glossary) {
        if (std::find(read_before.begin(), read_before.end(), g.term) != read_before.end() || g.symbol) continue;
        Results shown;
        shown.plots.emplace_back();
        shown.plots.back().series.emplace_back();
        shown.plots.back().series.back().name = "the " + g.term + " curve";
        INFO(s.id << " step " << k + 1 << ": a legend names '" << g.term << "'");
        CHECK(has(words(st, shown, false), g.term));
        CHECK_FALSE(has(not_yet, g.term));
        break;
      }
    }
  CHECK(answer_only >= 5);  // the stories do use terms first in an answer
}

TEST_CASE("page story: before Run the plot a step names is an empty frame: its title and axes, no data", "[page]") {
  // From a run's figures before any unit: the labels and scales stay, every series, range and band goes.
  Results skeleton;
  Plot rate = Plot::titled("Success rate").x("m").y("successes / trials").log_y_axis().y_range(0, 1).rounding_band(1e-12);
  rate.series.push_back({"softmax", SeriesStyle::LineMarkers, {1, 2}, {0.25, 0.75}, {0.2, 0.7}, {0.3, 0.8}});
  rate.series.push_back({"bound", SeriesStyle::Reference, {1, 2}, {0.5, 0.5}, {}, {}});
  skeleton.plots = {Plot::titled("Other").x("a").y("b"), rate};
  Heatmap map;
  map.title = "Loss around x*";
  map.x_label = "x_0", map.y_label = "x_1";
  skeleton.heatmaps.push_back(map);
  const Plot f = empty_frame("Success rate", skeleton);
  CHECK(f.title == "Success rate");
  CHECK(f.x_label == "m");
  CHECK(f.y_label == "successes / trials");
  CHECK(f.log_y);
  CHECK(f.series.empty());
  CHECK_FALSE(f.fixed_y);
  CHECK(f.rounding_level == 0.0);
  const Plot m = empty_frame("Loss around x*", skeleton);
  CHECK((m.x_label == "x_0" && m.y_label == "x_1" && m.series.empty()));
  const Plot missing = empty_frame("Work per iteration", skeleton);  // added by its run only with data
  CHECK((missing.title == "Work per iteration" && missing.x_label.empty() && missing.series.empty()));

  // Every story step's frame: the title it names, no data; the text twin carries it with its note.
  int labelled = 0, steps = 0;
  for (const Story& s : stories())
    for (const StoryStep& step : s.steps) {
      INFO(s.id << ": " << step.title);
      const Plot frame = step_frame(step);
      CHECK(frame.title == step.plot);
      CHECK(frame.series.empty());
      labelled += !frame.x_label.empty() && !frame.y_label.empty();
      ++steps;
    }
  CHECK(labelled * 4 >= steps * 3);  // most runs declare their figures before any data
  const Story& separation = story("separation");
  const Plot first = step_frame(separation.steps[0]);
  CHECK(first.title == separation.steps[0].plot);
  CHECK_FALSE(first.x_label.empty());
  const auto twin = nlohmann::json::parse(twin_figures_json(Results{}, true, &first));
  CHECK(twin["pending"]["title"] == first.title);
  CHECK(twin["pending"]["x_label"] == first.x_label);
  CHECK(twin["pending"]["note"] == kDrawnAtRun);
  CHECK(nlohmann::json::parse(twin_figures_json(Results{}, true))["pending"].is_null());
  // The twin lists a step's figures in the canvas's order (plots_in_order, maps_in_order), each
  // with its own index: the named plot, then the ones the answer relies on, then the rest.
  Results r;
  r.plots = {Plot::titled("Loss"), Plot::titled("D_k"), Plot::titled("Path")};
  r.heatmaps.resize(2);
  r.heatmaps[0].title = "Map A", r.heatmaps[1].title = "Map B";
  const auto ordered = nlohmann::json::parse(twin_figures_json(r, false, nullptr, "D_k", {"Path"}));
  REQUIRE(ordered["plots"].size() == 3);
  CHECK(ordered["plots"][0]["title"] == "D_k");
  CHECK(ordered["plots"][0]["index"] == 1);
  CHECK(ordered["plots"][1]["title"] == "Path");
  CHECK(ordered["plots"][2]["index"] == 0);
  CHECK_FALSE(ordered["heatmaps"][0]["named"].get<bool>());
  const auto map_named = nlohmann::json::parse(twin_figures_json(r, false, nullptr, "Map B"));
  CHECK(map_named["heatmaps"][0]["title"] == "Map B");
  CHECK(map_named["heatmaps"][0]["index"] == 1);
  CHECK(map_named["heatmaps"][0]["named"].get<bool>());
  CHECK(map_named["plots"][0]["title"] == "Loss");  // no plot is named: the results' own order
  // A plot's rounding band is named for the twin's words (walk 12: multihead 3's band was not in the
  // text view); a plot without one has an empty band.
  r.plots[2].rounding_band(1e-12);
  const auto banded = nlohmann::json::parse(twin_figures_json(r, false, nullptr, "D_k", {"Path"}));
  CHECK(banded["plots"][1]["band"] == "rounding level (below 1e-12)");
  CHECK(banded["plots"][0]["band"] == "");
}

TEST_CASE("page story: the plots a step's answer relies on are drawn open after the named one", "[page]") {
  std::vector<Plot> plots = {Plot::titled("Loss"), Plot::titled("Norm growth"), Plot::titled("D_k"), Plot::titled("Path")};
  CHECK(plots_in_order(plots, "D_k", {}) == std::vector<std::size_t>{2, 0, 1, 3});
  CHECK(plots_shown_open(plots, "D_k", {}) == 1);
  CHECK(plots_in_order(plots, "D_k", {"Path", "Norm growth"}) == std::vector<std::size_t>{2, 3, 1, 0});
  CHECK(plots_shown_open(plots, "D_k", {"Path", "Norm growth"}) == 3);
  CHECK(plots_in_order(plots, "a map", {"Path", "missing"}) == std::vector<std::size_t>{3, 0, 1, 2});  // the map's step
  CHECK(plots_shown_open(plots, "a map", {"Path", "missing"}) == 1);
  // Mirror step 1's answer cites Norm growth (test_story_plots checks each is among the run's plots).
  CHECK(story("mirror").steps[0].shown_plots == std::vector<std::string>{"Norm growth ||W_k||_p"});
}
