// The guided stories (experiments/stories.hpp): every step of every story opens valid settings,
// runs, and measures every number its text states; predictions can be answered by the run; the
// story= and step= link keys are checked like every other key. No story id is pinned here.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <set>

#include "experiments/registry.hpp"
#include "experiments/stories.hpp"
#include "lab/runner.hpp"
#include "lab/story.hpp"

using namespace attnlab;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// `number` ("99.5%", "0.0262", "12") stands in `text` as a number of its own: not inside a longer
// one ("12" is not in "0.12" or "120").
bool states_number(const std::string& text, const std::string& number) {
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  for (std::size_t at = text.find(number); at != std::string::npos; at = text.find(number, at + 1)) {
    const std::size_t end = at + number.size();
    const bool before = at > 0 && (digit(text[at - 1]) || text[at - 1] == '.' || text[at - 1] == '-');
    const bool after = end < text.size() && (digit(text[end]) || (text[end] == '.' && end + 1 < text.size() &&
                                                                  digit(text[end + 1])));
    if (!before && !after) return true;
  }
  return false;
}

// Every number a student reads in `text`, as written: "99.5%", "0.0262", "1e-3", "3/4", "12".
// Left out: parts of names (a1, j3, x_0, D.5) and citations, a reference word and the numbers that
// follow it ("Lemma 5.2", "Lemmas 4.2 and 5.2", "Figs. 3, 4, 5 and 7", "Definitions 3.5-3.7",
// "Algs. 3/4", "step 1").
std::vector<std::string> numbers_read(const std::string& text) {
  static const std::vector<std::string> kReferences{
      "Definition", "Definitions", "Def.", "Lemma", "Lemmas", "Theorem", "Theorems", "Section", "Sections",
      "Fig.", "Figs.", "Figure", "Figures", "Algorithm", "Algorithms", "Alg.", "Algs.", "Corollary",
      "Appendix", "Eq.", "Equation", "equation", "part", "parts", "step", "steps", "Step", "Assumption",
      "Remark", "Proposition", "Claim", "Table", "story", "Example"};
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  const auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  // The end of the number starting at `at`: digits, decimals, an exponent, a percent or a fraction.
  const auto number_end = [&](std::size_t at) {
    std::size_t i = at;
    while (i < text.size() && digit(text[i])) ++i;
    if (i + 1 < text.size() && text[i] == '.' && digit(text[i + 1]))
      for (++i; i < text.size() && digit(text[i]);) ++i;
    if (i + 1 < text.size() && text[i] == 'e' && (digit(text[i + 1]) || text[i + 1] == '-'))
      for (i += 2; i < text.size() && digit(text[i]);) ++i;
    if (i + 1 < text.size() && text[i] == '/' && digit(text[i + 1]))
      for (++i; i < text.size() && digit(text[i]);) ++i;
    if (i < text.size() && text[i] == '%') ++i;
    return i;
  };
  // A citation's number: "5.2", "3b", "D.5", "(a)".
  const auto reference_end = [&](std::size_t at) {
    std::size_t i = at;
    while (i < text.size() && (digit(text[i]) || letter(text[i]) || (text[i] == '.' && i + 1 < text.size() &&
                                                                       (digit(text[i + 1]) || letter(text[i + 1])))))
      ++i;
    return i;
  };
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < text.size()) {
    if (letter(text[i])) {  // a word: a reference word swallows the citation after it
      std::size_t end = i;
      while (end < text.size() && (letter(text[end]) || digit(text[end]))) ++end;
      if (end < text.size() && text[end] == '.') ++end;  // "Fig." "Algs."
      const std::string word = text.substr(i, end - i);
      const bool reference = std::find(kReferences.begin(), kReferences.end(), word) != kReferences.end() ||
                             std::find(kReferences.begin(), kReferences.end(), word.substr(0, word.size() - 1)) !=
                                 kReferences.end();
      i = end;
      if (!reference) continue;
      for (;;) {  // "3, 4, 5 and 7", "3.5-3.7", "3/4", "4.2 and 5.2"
        std::size_t j = i;
        while (j < text.size() && text[j] == ' ') ++j;
        if (j < text.size() && (digit(text[j]) || (letter(text[j]) && j + 1 < text.size() && text[j + 1] == '.'))) {
          i = reference_end(j);
          std::size_t k = i;
          for (const char* joint : {", ", " and ", "-", "/", " or ", " to "})
            if (text.compare(k, std::strlen(joint), joint) == 0) {
              k += std::strlen(joint);
              break;
            }
          if (k != i && k < text.size() && digit(text[k])) {
            i = k;
            continue;
          }
        }
        break;
      }
      continue;
    }
    if (digit(text[i])) {
      const bool part_of_name = i > 0 && (text[i - 1] == '.' || letter(text[i - 1]));
      const std::size_t end = number_end(i);
      if (!part_of_name) out.push_back(text.substr(i, end - i));
      i = end;
      while (i < text.size() && (digit(text[i]) || letter(text[i]))) ++i;  // "3b", "2x"
      continue;
    }
    ++i;
  }
  return out;
}

// Every number of a step's texts is measured (`numbers`) or declared (`given`), and every
// declared one is read somewhere.
void check_every_number_declared(const StoryStep& step) {
  std::string read = step.text + "\n" + step.question + "\n" + step.answer;
  if (step.prediction) read += "\n" + step.prediction->question;
  std::set<std::string> declared(step.given.begin(), step.given.end());
  for (const StoryNumber& n : step.numbers)  // "1315 of 150000" declares both
    for (const std::string& part : numbers_read(n.text)) declared.insert(part);
  for (const std::string& n : numbers_read(read)) {
    INFO("the number '" << n << "' is read but neither measured (numbers) nor declared (given)");
    CHECK(declared.count(n) == 1);
  }
  for (const std::string& g : step.given) {
    INFO("given '" << g << "' is not read in the step's texts");
    CHECK(states_number(read, g));
  }
}

// What the page shows of a step before its run: the text, the question, the prediction and the
// words of the picture of the run's inputs (Experiment::inputs: titles, labels, curve names, notes).
std::string before_run(const StoryStep& step) {
  std::string out = step.text + "\n" + step.question;
  if (step.prediction) {
    out += "\n" + step.prediction->question + "\n" + step.prediction->measured_label;
    for (const auto& c : step.prediction->choices) out += "\n" + c.label;
  }
  const auto e = make_experiment(step.settings.experiment);
  const Results picture = e->inputs(e->make_params(step.settings.preset, step.settings.params), step.settings.seed);
  for (const Plot& p : picture.plots) {
    out += "\n" + p.title + "\n" + p.x_label + "\n" + p.y_label;
    for (const Series& series : p.series) out += "\n" + series.name;
  }
  for (const Heatmap& h : picture.heatmaps) out += "\n" + h.title + "\n" + h.note + "\n" + h.value_label;
  for (const std::string& note : picture.notes) out += "\n" + note;
  return out;
}

// A number the run measures (from a note, or from a column that is not a parameter), as opposed
// to a setting the text names (m = 7, n = 200).
bool measured(const StoryNumber& number, const Schema& schema) {
  return !number.note.empty() || schema.find(number.cell.column) == nullptr;
}

// The settings made into an experiment with its parameters, reset for a run.
std::unique_ptr<Experiment> prepared(const StorySettings& s) {
  auto e = make_experiment(s.experiment);
  e->reset(e->make_params(s.preset, s.params), s.seed);
  return e;
}

// The results of the step's settings with `variant`'s parameters changed (appended to the step's
// overrides: Schema::apply lets a later value win), run once per variant and kept in `runs`.
const Results& variant_results(const StorySettings& settings, const KeyValues& variant,
                               std::map<KeyValues, Results>& runs) {
  auto found = runs.find(variant);
  if (found != runs.end()) return found->second;
  StorySettings changed = settings;
  changed.params.insert(changed.params.end(), variant.begin(), variant.end());
  auto e = prepared(changed);
  run_to_completion(*e);
  return runs.emplace(variant, e->results()).first->second;
}

// Every number the step's texts state, against the run of the step's settings (or of its variant).
// A measured number is in the answer and nowhere the student reads before Run.
void check_numbers(const StoryStep& step, const Results& step_results) {
  std::map<KeyValues, Results> variant_runs;
  const auto schema = make_experiment(step.settings.experiment);
  for (const StoryNumber& number : step.numbers) {
    INFO("number '" << number.text << "'");
    const Results& r =
        number.variant.empty() ? step_results : variant_results(step.settings, number.variant, variant_runs);
    if (measured(number, schema->schema())) {
      CHECK(states_number(step.answer, number.text));
      CHECK_FALSE(states_number(before_run(step), number.text));
    } else {
      CHECK((states_number(step.text, number.text) || states_number(step.answer, number.text)));
    }
    if (number.note.empty()) {
      const std::optional<double> value = read_cell(r.table, number.cell);
      REQUIRE(value.has_value());
      CHECK(format_like(*value, number.text) == number.text);
    } else {
      CHECK(contains(number.note, number.text));
      bool found = false;
      for (const auto& note : r.notes) found = found || contains(note, number.note);
      CHECK(found);
    }
  }
}

void check_prediction(const StoryPrediction& p, const Results& r) {
  CHECK_FALSE(p.question.empty());
  CHECK_FALSE(p.measured_label.empty());
  const std::optional<double> value = read_cell(r.table, p.measured);
  REQUIRE(value.has_value());
  REQUIRE(std::isfinite(*value));
  if (p.choices.empty()) {
    CHECK(p.min < p.max);
    return;
  }
  // The run answers it: exactly one choice holds the measured value.
  int holding = 0;
  for (const auto& c : p.choices) {
    CHECK(c.low <= c.high);
    holding += *value >= c.low && *value <= c.high;
  }
  CHECK(holding == 1);
  CHECK(matching_choice(p, *value) >= 0);
}

// The measured value the prediction asks about is not on screen before Run.
void check_answer_held_back(const StoryStep& step, const Results& r) {
  const StoryPrediction& p = *step.prediction;
  const std::optional<double> value = read_cell(r.table, p.measured);
  REQUIRE(value.has_value());
  INFO("measured " << format_measured(p, *value));
  CHECK_FALSE(states_number(before_run(step), format_measured(p, *value)));
}

// The plot (or map) the step's text is about is among the run's figures.
void check_named_plot(const StoryStep& step, const Results& r) {
  std::string titles;
  bool found = false;
  for (const Plot& p : r.plots) titles += "\n  '" + p.title + "'", found = found || p.title == step.plot;
  for (const Heatmap& h : r.heatmaps) titles += "\n  map '" + h.title + "'", found = found || h.title == step.plot;
  INFO("the step names '" << step.plot << "'; plots:" << titles);
  CHECK(found);
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
    for (const StoryStep& step : s.steps) {
      INFO(step.title);
      CHECK_FALSE(step.title.empty());
      CHECK_FALSE(step.text.empty());
      CHECK_FALSE(step.question.empty());
      CHECK_FALSE(step.answer.empty());  // what the run showed, and why
      // A step with a prediction waits for it: it never starts running by itself.
      CHECK_FALSE((step.run && step.prediction.has_value()));
      auto e = make_experiment(step.settings.experiment);
      CHECK_NOTHROW(e->make_params(step.settings.preset, step.settings.params));
      for (const auto& key : step.shows) CHECK(e->schema().find(key) != nullptr);
    }
  }
  CHECK_THROWS_WITH(story("nope"), Catch::StartsWith("unknown story 'nope'; stories: " + stories().front().id));
}

TEST_CASE("every story's start-page figure runs and has its plot", "[stories]") {
  for (const Story& s : stories()) {
    INFO(s.id);
    auto e = prepared(s.figure);
    run_to_completion(*e);
    CHECK(s.figure_plot < e->results().plots.size());
  }
}

// Runs every step once at its own settings (they are chosen to take a second or two), so the plot
// the text names and the numbers it quotes are what the page shows for that step.
TEST_CASE("every step of every story runs, draws the plot it names and measures the numbers its text states",
          "[stories][claim:sep-04][claim:sep-07][claim:sep-19][claim:sep-24][claim:sep-29][claim:mir-04][claim:mir-05][claim:mir-09][claim:mir-10][claim:mh-07][claim:mh-08][claim:mh-12][claim:mh-13][claim:mh-14][claim:reg-04][claim:reg-06][claim:reg-09][claim:reg-10][claim:reg-11]") {
  for (const Story& s : stories()) {
    for (std::size_t k = 0; k < s.steps.size(); ++k) {
      const StoryStep& step = s.steps[k];
      INFO(s.id << " step " << k + 1 << ": " << step.title);
      auto e = prepared(step.settings);
      run_to_completion(*e);
      const Results r = e->results();
      CHECK_FALSE(r.plots.empty());
      check_named_plot(step, r);
      check_numbers(step, r);
      check_every_number_declared(step);
      if (step.prediction) check_prediction(*step.prediction, r), check_answer_held_back(step, r);
    }
  }
}

TEST_CASE("every number of a story's summary is measured by a step or declared", "[stories]") {
  for (const Story& s : stories()) {
    INFO(s.id);
    std::set<std::string> declared(s.summary_given.begin(), s.summary_given.end());
    for (const StoryStep& step : s.steps)
      for (const StoryNumber& n : step.numbers)
        for (const std::string& part : numbers_read(n.text)) declared.insert(part);
    for (const std::string& n : numbers_read(s.summary)) {
      INFO("the summary's number '" << n << "' is neither measured by a step nor in summary_given");
      CHECK(declared.count(n) == 1);
    }
    for (const std::string& g : s.summary_given) CHECK(states_number(s.summary, g));
  }
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
  StoryPrediction p;
  p.percent = true;
  CHECK(format_measured(p, 0.125) == "12.5%");
  CHECK(format_measured(p, 0.0012666) == "0.13%");
  CHECK(format_measured(p, 0.0) == "0.0%");
  p.percent = false;
  CHECK(format_measured(p, 0.00035165) == "0.000352");
  CHECK(format_measured(p, NAN) == "not measured");
  Table t;
  t.columns = {"m", "rate"};
  t.rows = {{1, 0.5}, {2, 0.75}};
  CHECK(read_cell(t, {"rate", "m", 1}) == 0.5);
  CHECK(read_cell(t, {"rate", "", 0}) == 0.75);
  CHECK_FALSE(read_cell(t, {"rate", "m", 3}).has_value());
  CHECK_FALSE(read_cell(t, {"nope", "", 0}).has_value());
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
