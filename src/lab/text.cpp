#include "lab/text.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace attnlab {

std::string printf_text(const char* format, double a, double b, double c, double d) {
  char buf[512];
  std::snprintf(buf, sizeof buf, format, a, b, c, d);
  return buf;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (;;) {
    std::size_t pos = s.find(sep, start);
    parts.push_back(s.substr(start, pos - start));
    if (pos == std::string::npos) return parts;
    start = pos + 1;
  }
}

std::size_t characters(const std::string& s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c >> 6) != 2;
  return n;
}

std::string first_characters(const std::string& s, std::size_t count) {
  std::size_t i = 0;
  for (std::size_t seen = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) >> 6) != 2 && seen++ == count) break;
  }
  return s.substr(0, i);
}

std::vector<std::string> wrap_lines(const std::string& text, double width,
                                    const std::function<double(const std::string&)>& text_width) {
  std::vector<std::string> lines;
  std::string line;
  const auto put_word = [&](std::string word) {
    // A word wider than a line: its longest head that fits (at least one character) per line.
    while (text_width(word) > width && characters(word) > 1) {
      std::size_t keep = characters(word) - 1;
      while (keep > 1 && text_width(first_characters(word, keep)) > width) --keep;
      lines.push_back(first_characters(word, keep));
      word = word.substr(first_characters(word, keep).size());
    }
    line = word;
  };
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t space = text.find(' ', start);
    if (space == std::string::npos) space = text.size();
    const std::string word = text.substr(start, space - start);
    const std::string candidate = line.empty() ? word : line + " " + word;
    if (text_width(candidate) <= width) {
      line = candidate;
    } else {
      if (!line.empty()) lines.push_back(line);
      put_word(word);
    }
    start = space + 1;
  }
  if (!line.empty() || lines.empty()) lines.push_back(line);
  return lines;
}

std::string counted(long long n, const std::string& noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

std::string ordinal(long long n) {
  const long long last_two = (n < 0 ? -n : n) % 100, last = last_two % 10;
  const char* suffix = last_two >= 11 && last_two <= 13 ? "th" : last == 1 ? "st" : last == 2 ? "nd" : last == 3 ? "rd" : "th";
  return std::to_string(n) + suffix;
}

std::string axis_short_name(const std::string& label, const std::string& unnamed) {
  if (label.empty()) return unnamed;
  // The first ": ", ", ", "; " or " (" outside brackets (walk 14: "D_psi(W_mm/||W_mm||, W_k/||W_k||)" was
  // cut at its comma).
  int depth = 0;
  for (std::size_t i = 0; i < label.size(); ++i) {
    const char c = label[i];
    const bool space_next = i + 1 < label.size() && label[i + 1] == ' ';
    if (depth == 0 && ((c == ' ' && i + 1 < label.size() && label[i + 1] == '(') ||
                       ((c == ':' || c == ',' || c == ';') && space_next)))
      return label.substr(0, i);
    if (c == '(') ++depth;
    if (c == ')' && depth > 0) --depth;
  }
  return label;
}

std::optional<long long> parse_digits(const std::string& text, std::size_t max_digits) {
  const bool digits = !text.empty() && text.size() <= std::min<std::size_t>(max_digits, 18) &&
                      text.find_first_not_of("0123456789") == std::string::npos;
  if (!digits) return std::nullopt;
  return std::stoll(text);
}

std::pair<std::string, std::string> fold_text(const std::string& text, int words) {
  int count = 0;
  std::size_t cut = std::string::npos;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const bool word_end = text[i] != ' ' && (i + 1 == text.size() || text[i + 1] == ' ');
    if (!word_end) continue;
    if (++count > words) break;
    // A sentence ends at '.', '?' or '!' after a word and before a space and a capital (not "Fig. 4",
    // "e.g. ", nor the dot product in "x_t . W z_i": walk 21 saw a phone's text cut there).
    const bool sentence = (text[i] == '.' || text[i] == '?' || text[i] == '!') && i > 0 && text[i - 1] != ' ' &&
                          i + 2 < text.size() && std::isupper(static_cast<unsigned char>(text[i + 2]));
    if (sentence) cut = i + 1;
  }
  if (count <= words || cut == std::string::npos) return {text, ""};
  return {text.substr(0, cut), text.substr(cut + 1)};
}

}  // namespace attnlab
