// Every technical word a story uses is in its glossary (Story::glossary), with a definition and
// where it comes from (the paper's section, or "ours"); a symbol is first read in a step's text,
// the place that defines it, never in a title, a question, a prediction or an answer before that.
#include <catch2/catch.hpp>

#include <cctype>
#include <string>
#include <vector>

#include "experiments/stories.hpp"
#include "lab/story.hpp"

using namespace attnlab;

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The words a student is not expected to know; a story that uses one must define it.
const std::vector<std::string> kTechnical = {
    "in-context learning", "eps0", "certif", "simplex edge", "leverage score", "armijo", "bregman",
    "statistical-query", "gf(2)", "wilson 95%", "fires", "sign pattern", "x = i", "planted row",
    "tau_i", "max-margin", "mirror descent", "hessian", "parity", "softmax", "lasso", "minimiser",
    "regulariser", "gradient descent"};

// The word as it starts a glossary entry: "certif" is covered by "certify" and "certified".
bool covered(const Story& s, const std::string& word) {
  for (const GlossaryEntry& g : s.glossary)
    if (lower(g.term).rfind(word, 0) == 0 || word.rfind(lower(g.term), 0) == 0) return true;
  return false;
}

// `word` stands in `text` on its own ("fires", not "firest"; "eps0", not "eps0_x").
bool uses(const std::string& text, const std::string& word) {
  const std::string t = lower(text);
  const auto letter = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (std::size_t at = t.find(word); at != std::string::npos; at = t.find(word, at + 1)) {
    const bool before = at > 0 && letter(t[at - 1]);
    const std::size_t end = at + word.size();
    const bool after = end < t.size() && letter(t[end]) && word != "certif";
    if (!before && !after) return true;
  }
  return false;
}

// Every text of the story in the order a student reads it, each with where it stands.
std::vector<std::pair<std::string, std::string>> reading_order(const Story& s) {
  std::vector<std::pair<std::string, std::string>> out{{"result", s.result}, {"caption", s.figure_caption}};
  for (std::size_t k = 0; k < s.steps.size(); ++k) {
    const StoryStep& step = s.steps[k];
    const std::string at = "step " + std::to_string(k + 1) + " ";
    out.push_back({at + "title", step.title});
    out.push_back({at + "text", step.text});
    out.push_back({at + "question", step.question});
    if (step.prediction) out.push_back({at + "prediction", step.prediction->question});
    out.push_back({at + "answer", parts_template(step.answer)});
  }
  out.push_back({"summary", parts_template(s.summary)});
  return out;
}

}  // namespace

TEST_CASE("every story's glossary covers its technical words, each entry defined and sourced", "[stories][glossary]") {
  for (const Story& s : stories()) {
    INFO(s.id);
    for (const GlossaryEntry& g : s.glossary) {
      INFO(g.term);
      CHECK_FALSE(g.definition.empty());
      const bool sourced = g.source == "ours" || g.source.find("Section") != std::string::npos ||
                           g.source.find("Definition") != std::string::npos ||
                           g.source.find("Theorem") != std::string::npos || g.source.find("Lemma") != std::string::npos ||
                           g.source.find("Appendix") != std::string::npos || g.source.find("Algorithm") != std::string::npos ||
                           g.source.find("Eq.") != std::string::npos || g.source.find("Fig.") != std::string::npos ||
                           g.source.find("Corollary") != std::string::npos || g.source.find("Remark") != std::string::npos;
      CHECK(sourced);
    }
    for (const auto& [where, text] : reading_order(s))
      for (const std::string& word : kTechnical) {
        INFO(where << " uses '" << word << "' with no glossary entry");
        if (uses(text, word)) CHECK(covered(s, word));
      }
  }
}

TEST_CASE("a story's symbols are first read in a step's text, where the step defines them", "[stories][glossary]") {
  for (const Story& s : stories())
    for (const GlossaryEntry& g : s.glossary) {
      if (!g.symbol) continue;
      INFO(s.id << ": symbol '" << g.term << "'");
      std::string first;
      for (const auto& [where, text] : reading_order(s))
        if (first.empty() && uses(text, lower(g.term))) first = where;
      CHECK(first.size() > 5);
      CHECK(first.find(" text") != std::string::npos);
    }
}

// The text view lists a step's terms under "Words in this step" (web/twin.js), from the terms its
// text marks (glossary_segments): every step's text uses at least one, so the list is never empty.
TEST_CASE("every step's text marks a glossary term, so its list of words is never empty", "[stories][glossary]") {
  for (const Story& s : stories())
    for (std::size_t k = 0; k < s.steps.size(); ++k) {
      INFO(s.id << " step " << k + 1 << " marks no glossary term in its text");
      std::size_t marked = 0;
      for (const GlossarySegment& seg : glossary_segments(s.glossary, s.steps[k].text)) marked += seg.term != nullptr;
      CHECK(marked > 0);
    }
}

TEST_CASE("the glossary's word check finds a word on its own", "[glossary]") {
  CHECK(uses("softmax fires on D1", "fires"));
  CHECK(uses("the certified rows", "certif"));
  CHECK(uses("with eps0 = 0.1", "eps0"));
  CHECK_FALSE(uses("eps0_x", "eps0"));
  CHECK_FALSE(uses("firestorm", "fires"));
}
