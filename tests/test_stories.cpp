// The guided stories (experiments/stories.hpp) as data: every story is declared completely, every
// step predicts before it runs and names only declared measures, answers are rendered from the run
// (lab/story_answer.hpp), and the story= and step= link keys are checked like every other key. No
// story id is pinned here. The runs of the steps are in test_story_runs.cpp.
#include <catch2/catch.hpp>

#include <cctype>
#include <cmath>
#include <set>

#include "experiments/registry.hpp"
#include "experiments/stories.hpp"
#include "lab/story.hpp"
#include "lab/text.hpp"
#include "story_text.hpp"

using namespace attnlab;
using namespace attnlab::story_text;

namespace {

// Every placeholder and condition of `parts` names one of `measures`.
void check_names(const std::vector<AnswerPart>& parts, const std::vector<StoryMeasure>& measures) {
  std::set<std::string> names;
  for (const StoryMeasure& m : measures) CHECK(names.insert(m.name).second);
  for (const AnswerPart& part : parts) {
    INFO(part.text);
    if (!part.when.empty()) CHECK(names.count(part.when) == 1);
    if (!part.also_when.empty()) CHECK(names.count(part.also_when) == 1);
    CHECK(part.low <= part.high);
    for (const std::string& p : placeholders(part.text)) CHECK(names.count(p) == 1);
  }
}

}  // namespace

TEST_CASE("every story is declared completely, with unique ids", "[stories]") {
  REQUIRE_FALSE(stories().empty());
  std::set<std::string> ids;
  for (const Story& s : stories()) {
    INFO(s.id);
    CHECK(ids.insert(s.id).second);
    CHECK(&story(s.id) == &s);
    CHECK_FALSE(s.paper.empty());
    CHECK_FALSE(s.authors.empty());
    CHECK_FALSE(s.result.empty());
    CHECK_FALSE(s.figure_caption.empty());
    CHECK(s.steps.size() >= 4);
    CHECK(s.steps.size() <= 7);
    CHECK_FALSE(s.summary.empty());
    CHECK_FALSE(s.glossary.empty());
    check_names(s.summary, s.steps.back().measures);
    for (const StoryStep& step : s.steps) {
      INFO(step.title);
      CHECK_FALSE(step.title.empty());
      CHECK_FALSE(step.text.empty());
      CHECK_FALSE(step.question.empty());
      CHECK_FALSE(step.answer.empty());  // what the run showed, and why
      CHECK_FALSE(step.expect.empty());  // what the answer of the step's own run says
      // Predict, run, explain: every step asks first and never runs by itself.
      REQUIRE(step.prediction.has_value());
      CHECK_FALSE(step.run);
      CHECK_FALSE(step.prediction->question.empty());
      CHECK_FALSE(step.prediction->measured_label.empty());
      CHECK(step.prediction->choices.size() >= 2);
      check_names(step.answer, step.measures);
      bool decided = false;
      for (const StoryMeasure& m : step.measures) decided = decided || m.name == step.prediction->measured;
      CHECK(decided);
      for (const std::string& text : {step.text, step.question, step.prediction->question}) {
        INFO(text);
        CHECK(text.find("Press Run") == std::string::npos);  // the step has not run; Run is the student's
      }
      auto e = make_experiment(step.settings.experiment);
      CHECK_NOTHROW(e->make_params(step.settings.preset, step.settings.params));
      for (const auto& key : step.shows) CHECK(e->schema().find(key) != nullptr);
      for (const StoryInvitation& inv : step.invited) {
        KeyValues changed = step.settings.params;
        changed.insert(changed.end(), inv.params.begin(), inv.params.end());
        CHECK_NOTHROW(e->make_params(step.settings.preset, changed));
        CHECK_FALSE(inv.expect.empty());
        for (const auto& [key, value] : inv.params)  // the student can make the invited change
          CHECK(std::find(step.shows.begin(), step.shows.end(), key) != step.shows.end());
      }
    }
  }
  CHECK_THROWS_WITH(story("nope"), Catch::StartsWith("unknown story 'nope'; stories: " + stories().front().id));
}

// Walk 17: the multihead card drew the preset's hidden head (d = 6) under the caption "on one
// input", and step 1 another (d = 8) under the same words. The card's picture is step 1's.
TEST_CASE("a start card's picture is the one its story's first step shows before Run", "[stories]") {
  for (const Story& s : stories()) {
    INFO(s.id);
    const StorySettings& first = s.steps.at(0).settings;
    auto e = make_experiment(s.figure.experiment);
    REQUIRE(s.figure.experiment == first.experiment);
    const Results card = e->inputs(e->make_params(s.figure.preset, s.figure.params), s.figure.seed);
    const Results step = e->inputs(e->make_params(first.preset, first.params), first.seed);
    REQUIRE(card.heatmaps.size() == step.heatmaps.size());
    for (std::size_t i = 0; i < card.heatmaps.size(); ++i) CHECK(card.heatmaps[i].values == step.heatmaps[i].values);
    REQUIRE(card.plots.size() == step.plots.size());
    for (std::size_t i = 0; i < card.plots.size(); ++i) {
      REQUIRE(card.plots[i].series.size() == step.plots[i].series.size());
      for (std::size_t k = 0; k < card.plots[i].series.size(); ++k) CHECK(card.plots[i].series[k].y == step.plots[i].series[k].y);
    }
  }
}

TEST_CASE("an answer is rendered from the run: placeholders, conditions and the student's changes", "[stories]") {
  Results r;
  r.table.columns = {"m", "rate"};
  r.table.rows = {{1, 0.5}, {2, 0.0}};
  r.notes = {"Certification: 0 of 300000 rows accepted", "p=2: selected tokens [1, 0] (0-indexed)"};
  const std::vector<StoryMeasure> measures = {
      StoryMeasure::from_cell("rate1", {"rate", "m", 1}, "0.0%"),
      StoryMeasure::from_note("certified", "Certification: {certified} of {rows} rows accepted"),
      StoryMeasure::from_note("rows", "Certification: {certified} of {rows} rows accepted"),
      StoryMeasure::from_note("tokens", "p=2: selected tokens {tokens} (0-indexed)"),
      StoryMeasure::from_setting("n", "n")};
  const std::vector<AnswerPart> parts = {
      say("Rate {rate1}, {certified} of {rows}, tokens {tokens}."),
      say_if("certified", 0, 0, "No row was certified."),
      say_if("certified", 1, INFINITY, "Some rows were certified."),
      say("n = {n}.")};
  CHECK(render_parts(parts, measures, r, {{{"n", "1000"}}, {{"n", "1000"}}}) ==
        "Rate 50.0%, 0 of 300000, tokens [1, 0]. No row was certified. n = 1000.");
  CHECK(render_parts(parts, measures, r, {{{"n", "1000"}, {"m", "7"}}, {{"n", "200"}, {"m", "7"}}}) ==
        "You changed n from 1000 to 200; these numbers are from your run; the step's text describes its own settings. "
        "Rate 50.0%, 0 of 300000, tokens [1, 0]. No row was certified. n = 200.");
  // The changed setting is named by its control's label where the run gives one.
  CHECK(settings_changed({{{"n", "1000"}}, {{"n", "200"}}, {{"n", "sequence length n"}}}) ==
        "You changed sequence length n from 1000 to 200; these numbers are from your run; the step's text describes its own settings.");
  r.notes[0] = "Certification: 150 of 300000 rows accepted";
  CHECK(render_parts({parts[1], parts[2]}, measures, r) == "Some rows were certified.");
  // A part with two conditions shows only while both hold.
  AnswerPart both = say_if("certified", 1, INFINITY, "Both.");
  both.and_if("rate1", 0.4, 0.6);
  CHECK(render_parts({both}, measures, r) == "Both.");
  both.and_if("rate1", 0.0, 0.1);
  CHECK(render_parts({both}, measures, r).empty());
  r.notes.clear();  // not measured yet: the placeholder says so, a condition on it shows nothing
  CHECK(render_parts({say("{certified} rows"), parts[1]}, measures, r) == "not measured rows");
  CHECK_THROWS_WITH(render_parts({say("{nope}")}, measures, r), "story answer: '{nope}' names no declared measure");
  // An invitation shows while the run keeps the step's value, and goes once the student takes it.
  const AnswerPart invite = say_at_step("n", "Then try n = 200.");
  CHECK(render_parts({invite}, measures, r, {{{"n", "1000"}, {"m", "7"}}, {{"n", "1000"}, {"m", "3"}}}) ==
        "You changed m from 7 to 3; these numbers are from your run; the step's text describes its own settings. Then try n = 200.");
  CHECK(render_parts({invite}, measures, r, {{{"n", "1000"}}, {{"n", "200"}}}).find("Then try") == std::string::npos);
  CHECK(render_parts({invite}, measures, r) == "Then try n = 200.");  // settings unknown: the step's own run
  CHECK_THROWS_WITH(render_parts({say_at_step("k", "x")}, measures, r, {{{"n", "1"}}, {{"n", "1"}}}),
                    "an answer names setting 'k', which the step's experiment lacks");
  CHECK(placeholders("{a} of {b}") == std::vector<std::string>{"a", "b"});
  CHECK(parts_template(parts).find("{certified} of {rows}") != std::string::npos);
}

// The last step's answer says what the student changed; "What you saw" under it does not say it
// again (the canvas and the twin both show render_answer and render_summary).
TEST_CASE("the change notice is said once on the last step: in the answer, not in the summary", "[stories]") {
  Story story;
  story.steps.resize(1);
  story.steps[0].measures = {StoryMeasure::from_setting("n", "n")};
  story.steps[0].answer = {say("Measured at n = {n}.")};
  story.summary = {say("You saw n = {n}.")};
  const Results r;
  const RunSettings changed{{{"n", "1000"}}, {{"n", "200"}}, {}};
  const std::string notice = settings_changed(changed);
  REQUIRE_FALSE(notice.empty());
  CHECK(render_answer(story.steps[0], r, changed) == notice + " Measured at n = 200.");
  CHECK(render_summary(story, r, changed) == "You saw n = 200.");
  CHECK(render_summary(story, r, {{{"n", "1000"}}, {{"n", "1000"}}, {}}) == "You saw n = 1000.");
  CHECK(render_parts_only({say("x")}, story.steps[0].measures, r, changed) == "x");
  CHECK(render_parts({}, story.steps[0].measures, r, changed) == notice);  // nothing after it: no trailing space
}

TEST_CASE("the numbers a student reads are found, citations left out", "[stories]") {
  using V = std::vector<std::string>;
  CHECK(numbers_read("success is 12.5% at m = 3, 1e-3 and 3/4 of it") == V{"12.5%", "3", "1e-3", "3/4"});
  CHECK(numbers_read("Lemma 5.2 and Lemmas 4.2 and 5.2; Figs. 3, 4, 5 and 7; Definitions 3.5-3.7") == V{});
  CHECK(numbers_read("Algs. 3/4 (2 d^2)^m, step 1 of 5") == V{"2", "2", "5"});
  CHECK(numbers_read("a1 = 1.2, j3, x_0, Theorems D.5 and E.4, Fig. 3b: 99.6%") == V{"1.2", "99.6%"});
  CHECK(numbers_read("1 - 2^-m") == V{"1", "2"});
}

TEST_CASE("a number counts only where it stands on its own", "[stories]") {
  CHECK(states_number("success is 12% at m = 3", "12%"));
  CHECK(states_number("from 12 examples.", "12"));
  CHECK_FALSE(states_number("d = 120", "12"));
  CHECK_FALSE(states_number("0.12 and 3.12", "12"));
  CHECK_FALSE(states_number("1.125", "1.12"));
  CHECK(states_number("at 1.12.", "1.12"));
}

TEST_CASE("numbers are written like the text writes them", "[stories]") {
  CHECK(format_like(0.995, "99.5%") == "99.5%");
  CHECK(format_like(0.24666, "24.7%") == "24.7%");
  CHECK(format_like(1.333e-5, "0.0013%") == "0.0013%");
  CHECK(format_like(0.517, "0.517") == "0.517");
  CHECK(format_like(12, "12") == "12");
  CHECK(format_like(1.2e-5, "sig2%") == "0.0012%");
  CHECK(format_like(2.4791e-06, "sig3") == "2.48e-06");
  CHECK(format_like(704.2, "sig2") == "700");  // walk 18: "90 against 6.7e+02"
  CHECK(format_like(90.4, "sig2") == "90");
  CHECK(format_like(1234.5, "sig3") == "1230");
  CHECK(format_like(2.5e6, "sig2") == "2.5e+06");
  StoryPrediction p;
  p.percent = true;
  CHECK(format_measured(p, 0.125) == "12.5%");
  CHECK(format_measured(p, 0.0012666) == "0.13%");
  CHECK(format_measured(p, 0.0) == "0.0%");
  p.percent = false;
  CHECK(format_measured(p, 0.00035165) == "0.000352");
  CHECK(format_measured(p, NAN) == "not measured");
  // Beside a choice's edge the value is written with the digits that put it on its side.
  StoryPrediction edge = StoryPrediction::asking("?").options({{"most", 0.5, 0.99}, {"nearly all", 0.99, 1.0}}).in_percent();
  CHECK(format_measured(edge, 0.99017) == "99.02%");
  CHECK(format_measured(edge, 0.98996) == "98.996%");
  CHECK(format_measured(edge, 0.99) == "99.0%");
  CHECK(format_measured(edge, 0.97) == "97.0%");
  Table t;
  t.columns = {"m", "rate"};
  t.rows = {{1, 0.5}, {2, 0.75}};
  CHECK(read_cell(t, {"rate", "m", 1}) == 0.5);
  CHECK(read_cell(t, {"rate", "", 0}) == 0.75);
  CHECK_FALSE(read_cell(t, {"rate", "m", 3}).has_value());
  CHECK_FALSE(read_cell(t, {"nope", "", 0}).has_value());
  t.rows.push_back({3, NAN});  // a series that stopped before the last row: its last value
  CHECK(read_cell(t, {"rate", "", 0}) == 0.75);
}

TEST_CASE("story= and step= are checked like every link key", "[stories][url]") {
  const Story& first = stories().front();
  const std::string n = std::to_string(first.steps.size());
  CHECK_FALSE(parse_story_position(decode_hash("exp=separation.toy"), stories()).has_value());
  const auto at = parse_story_position(decode_hash("story=" + first.id + "&step=" + n), stories());
  REQUIRE(at.has_value());
  CHECK(at->story == first.id);
  CHECK(at->step == first.steps.size() - 1);
  CHECK(parse_story_position(decode_hash("story=" + first.id), stories())->step == 0);
  std::string known;
  for (const Story& s : stories()) known += (known.empty() ? "" : ", ") + s.id;
  CHECK_THROWS_WITH(parse_story_position(decode_hash("story=nope&step=1"), stories()),
                    "link: 'story=nope' is not allowed; allowed: " + known);
  for (const std::string& bad : std::vector<std::string>{"0", std::to_string(first.steps.size() + 1), "x", "-1", "1.5", ""})
    CHECK_THROWS_WITH(parse_story_position(decode_hash("story=" + first.id + "&step=" + bad), stories()),
                      "link: 'step=" + bad + "' is not allowed; allowed: integer in [1, " + n + "] (the steps of story '" +
                          first.id + "')");
  CHECK_THROWS_WITH(parse_story_position(decode_hash("step=2"), stories()),
                    "link: 'step=2' needs a story; allowed: story=ID&step=N");
  CHECK_THROWS_WITH(parse_story_position(decode_hash("exp=mirror&story=" + first.id), stories()),
                    Catch::StartsWith("link: 'exp=mirror' cannot be given with 'story'"));
  CHECK_THROWS_WITH(parse_story_position(decode_hash("story=" + first.id + "&preset=fig3a"), stories()),
                    Catch::StartsWith("link: 'preset=fig3a' cannot be given with 'story'"));

  // A step's link with the student's changes reads back as the same position, changes and seed.
  const StoryStep& step = first.steps[1];
  const std::string hash = encode_story_hash({first.id, 1}, step, {{"tau", "0.125"}}, 7, {{"embed", "1"}});
  CHECK(hash == "story=" + first.id + "&step=2&seed=7&tau=0.125&embed=1");
  const HashState back = decode_hash(hash);
  CHECK(parse_story_position(back, stories())->step == 1);
  CHECK(back.params == KeyValues{{"tau", "0.125"}});
  CHECK(back.seed == 7);
  CHECK(encode_story_hash({first.id, 0}, first.steps[0], {}, first.steps[0].settings.seed, {}) ==
        "story=" + first.id + "&step=1");
}

// A story's words name no place on the screen: panels stack on a phone, and a screen reader or the
// text view has no left, right, above or below (docs/design.md "Keyboard and screen reader").
TEST_CASE("no story text names a direction on the screen", "[stories]") {
  static const char* const kDirections[] = {"on the left",  "on the right", "to the left",     "to the right",
                                            "left panel",   "right panel",  "below it",        "above it",
                                            "below the plot", "above the plot", "under the question",
                                            "beside your",  "in the corner", "at the top of the", "at the bottom of the"};
  const auto check = [](const std::string& text) {
    INFO(text);
    std::string lower = text;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (const std::string d : kDirections) {  // as whole words: "below its eps" is no direction
      INFO(d);
      for (std::size_t at = lower.find(d); at != std::string::npos; at = lower.find(d, at + 1))
        CHECK((at + d.size() < lower.size() && std::isalpha(static_cast<unsigned char>(lower[at + d.size()]))));
    }
  };
  std::size_t texts = 0;
  const auto each = [&](const std::string& text) { check(text), ++texts; };
  for (const Story& s : stories()) {
    each(s.result), each(s.figure_caption);
    for (const AnswerPart& part : s.summary) each(part.text);
    for (const GlossaryEntry& g : s.glossary) each(g.definition);
    for (const StoryStep& step : s.steps) {
      each(step.title), each(step.text), each(step.question);
      for (const AnswerPart& part : step.answer) each(part.text);
      if (!step.prediction) continue;
      each(step.prediction->question);
      for (const auto& c : step.prediction->choices) each(c.label);
    }
  }
  CHECK(texts > 200);
}

// On a phone the step's text folds after its first sentences within kStoryWordsBeforeMoreShort
// words, so the question and the choices show without scrolling: every longer text has a sentence
// that ends in time (else fold_text keeps it whole).
TEST_CASE("every step's text folds on a phone before the question", "[stories]") {
  for (const Story& s : stories())
    for (std::size_t k = 0; k < s.steps.size(); ++k) {
      const std::string& text = s.steps[k].text;
      const std::string shown = fold_text(text, kStoryWordsBeforeMoreShort).first;
      INFO(s.id << " step " << k + 1 << ": no sentence ends within " << kStoryWordsBeforeMoreShort << " words: " << text);
      CHECK(split(shown, ' ').size() <= static_cast<std::size_t>(kStoryWordsBeforeMoreShort));
    }
  const auto [shown, folded] = fold_text("One two three. Four five six seven. Eight", 5);
  CHECK(shown == "One two three.");
  CHECK(folded == "Four five six seven. Eight");
  // A dot product's " . " is not a sentence's end (walk 21: mirror 2 folded at "scores x_t .").
  CHECK(fold_text("Scores x_t . W z_i grow. Then", 3).first == "Scores x_t . W z_i grow. Then");
  CHECK(fold_text("Scores x_t . W z_i grow. Then", 6).first == "Scores x_t . W z_i grow.");
}

// The page's generated words: "Details (1 note)", not "1 notes" (lab/text.hpp; the twin's
// web/twin.js writes the same, tests/node/twin_text.test.mjs).
TEST_CASE("counts are singular for one, ordinals end as spoken", "[stories]") {
  CHECK(counted(1, "note") == "1 note");
  CHECK(counted(0, "note") == "0 notes");
  CHECK(counted(12, "note") == "12 notes");
  CHECK(ordinal(1) == "1st");
  CHECK(ordinal(2) == "2nd");
  CHECK(ordinal(3) == "3rd");
  CHECK(ordinal(4) == "4th");
  CHECK(ordinal(11) == "11th");
  CHECK(ordinal(12) == "12th");
  CHECK(ordinal(13) == "13th");
  CHECK(ordinal(21) == "21st");
  CHECK(ordinal(102) == "102nd");
  CHECK(ordinal(111) == "111th");
}

// One rule for an axis's short name, for the map's places and the text view's curve sentences (walk
// 12: the twin cut at " (" and the map at "(", so a formula's bracket cut the name).
TEST_CASE("an axis label's short name ends at its first clause", "[stories]") {
  CHECK(axis_short_name("column: queries 1..d | keys 1..d", "column") == "column");
  CHECK(axis_short_name("x_2 (bottom to top)", "row") == "x_2");
  CHECK(axis_short_name("key token, head 1 to head 2 from left to right", "column") == "key token");
  CHECK(axis_short_name("successes / trials; Wilson 95% bars", "y") == "successes / trials");
  CHECK(axis_short_name("E ||F(X) - F^(X)||_F^2 (test set)", "y") == "E ||F(X) - F^(X)||_F^2");
  CHECK(axis_short_name("", "x") == "x");
  CHECK(axis_short_name("D_psi(W_mm/||W_mm||, W_k/||W_k||), one seed", "y") == "D_psi(W_mm/||W_mm||, W_k/||W_k||)");
}
