// What the page shows is written for students (docs/design.md "Words on the page"): no word of the
// project's own working files ("spec"), no file paths, in any text an experiment, a preset, a
// parameter, a run's notes and plots, or a story gives the page. One property over every
// registered experiment and every story.
#include <catch2/catch.hpp>

#include <regex>
#include <string>
#include <vector>

#include "experiments/registry.hpp"
#include "experiments/stories.hpp"
#include "lab/column_key.hpp"
#include "lab/runner.hpp"

using namespace attnlab;

namespace {

// A developer's word in a student's text: the working spec, or a path to a source or docs file.
std::string developer_word(const std::string& text) {
  static const std::regex pattern(
      R"((\bspec\b|\bspecs\b|\bdocs/|\bsrc/|\btests/|\b[A-Za-z_]+\.(cpp|hpp|md|py|sh|mjs|cjs)\b))",
      std::regex::icase);
  std::smatch m;
  return std::regex_search(text, m, pattern) ? m.str() : "";
}

void check_words(const std::string& where, const std::string& text) {
  INFO(where << ": " << text);
  CHECK(developer_word(text).empty());
}

}  // namespace

TEST_CASE("the developer-word check finds what it should", "[words]") {
  CHECK(developer_word("15-35% at d <= 32 in our spec") == "spec");
  CHECK(developer_word("see docs/separation.md s.1") == "docs/");
  CHECK(developer_word("in mirror_unit.cpp") == "mirror_unit.cpp");
  CHECK(developer_word("the spectral norm, a special case, Fig. 4.") == "");
  CHECK(developer_word("1.5 s, e.g. 2.0, Lemma 4.2, 3 x 100 seeds").empty());
}

TEST_CASE("every text an experiment gives the page is written for students", "[words]") {
  for (const auto& id : experiment_ids()) {
    auto e = make_experiment(id);
    const ExperimentInfo& info = e->info();
    check_words(id + " title", info.title);
    check_words(id + " summary", info.summary);
    for (const Preset& p : e->presets()) {
      check_words(id + " preset " + p.name, p.title);
      check_words(id + " preset " + p.name, p.description);
    }
    for (const ParamSpec& s : e->schema().specs()) {
      check_words(id + " parameter " + s.key, s.label);
      check_words(id + " parameter " + s.key, s.help);
    }
    e->reset(e->make_params("", e->smoke_settings()), 1);
    run_to_completion(*e);
    const Results r = e->results();
    for (const std::string& note : r.notes) check_words(id + " note", note);
    for (const Plot& p : r.plots) {
      check_words(id + " plot", p.title + " | " + p.x_label + " | " + p.y_label);
      for (const Series& s : p.series) check_words(id + " series", s.name);
    }
    // Every column of the table is said in words (walk 13: the CSV's names in the text view).
    for (const Table::KeyEntry& c : column_key(r.table, e->schema())) {
      INFO(id << " column '" << c.name << "' has no words (Table::key)");
      CHECK_FALSE(c.words.empty());
      check_words(id + " column " + c.name, c.words);
    }
  }
}

TEST_CASE("a column's words: its own entry, a parameter's label, or the patterns it matches", "[words]") {
  const Schema schema({ParamSpec::integer("n", "tokens n")});
  const std::vector<Table::KeyEntry> key = {{"exp_d1*", "softmax fires on D1"}, {"*_low", "the range's lower end"},
                                            {"exp_d1_low", "exact"}, {"t", "iteration t"}};
  CHECK(column_words("t", key, schema) == "iteration t");
  CHECK(column_words("n", key, schema) == "tokens n");                        // the parameter's label
  CHECK(column_words("exp_d1", key, schema) == "softmax fires on D1");
  CHECK(column_words("exp_d1_high", key, schema) == "softmax fires on D1");   // "*_low" does not match
  CHECK(column_words("lin_d1_low", key, schema) == "the range's lower end");
  CHECK(column_words("exp_d1_low", key, schema) == "exact");                  // an exact entry first
  CHECK(column_words("exp_d", key, schema).empty());
  CHECK(column_words("low", key, schema).empty());                            // "*_low" needs its "_"
}

TEST_CASE("every story is written for students", "[words]") {
  for (const Story& s : stories()) {
    check_words(s.id + " result", s.result);
    check_words(s.id + " caption", s.figure_caption);
    check_words(s.id + " summary", parts_template(s.summary));
    for (const GlossaryEntry& g : s.glossary) check_words(s.id + " glossary " + g.term, g.definition);
    for (const StoryStep& step : s.steps) {
      const std::string where = s.id + " step " + step.title;
      check_words(where, step.title + " | " + step.text + " | " + step.question + " | " + parts_template(step.answer));
      for (const StoryInvitation& inv : step.invited) for (const auto& e : inv.expect) check_words(where, e);
      if (step.prediction) {
        check_words(where, step.prediction->question + " | " + step.prediction->measured_label);
        for (const auto& c : step.prediction->choices) check_words(where, c.label);
      }
    }
  }
}
