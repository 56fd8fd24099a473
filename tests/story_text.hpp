// What a student reads in a story's texts, for the story tests: the numbers (citations left
// out) and whether a number stands on its own.
#pragma once
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

namespace attnlab::story_text {

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// `number` ("99.5%", "0.0262", "12") stands in `text` as a number of its own: not inside a longer
// one ("12" is not in "0.12" or "120").
inline bool states_number(const std::string& text, const std::string& number) {
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
inline std::vector<std::string> numbers_read(const std::string& text) {
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

}  // namespace attnlab::story_text
