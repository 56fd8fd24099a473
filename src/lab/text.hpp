// printf-style text for notes and read-outs, with up to four numbers (every argument a double, so
// integers passed here are converted before formatting, never read as the wrong type).
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace attnlab {

std::string printf_text(const char* format, double a, double b = 0.0, double c = 0.0, double d = 0.0);

// The parts of `s` between the separators, empty ones included ("a,,b" -> "a", "", "b"; "" -> "").
std::vector<std::string> split(const std::string& s, char sep);

// Characters (not bytes) of valid UTF-8 text, and its first `count` characters.
std::size_t characters(const std::string& s);
std::string first_characters(const std::string& s, std::size_t count);

// `text` in lines no wider than `width` (as `text_width` measures a string): greedy, broken at
// spaces; a word wider than a line is broken between characters, so no line is ever cut. The one
// home of wrapping for the page's texts, plot headings and legend entries (and their SVG twins).
std::vector<std::string> wrap_lines(const std::string& text, double width,
                                    const std::function<double(const std::string&)>& text_width);

// `text` cut after the last sentence that ends within `words` words (the whole text when it is
// that short), and the rest; the rest is "" when nothing is folded (no sentence ends in time).
std::pair<std::string, std::string> fold_text(const std::string& text, int words);

// A count with its noun, singular for one: counted(1, "note") -> "1 note", counted(3, "note") ->
// "3 notes" (the noun's plural is the noun and "s").
std::string counted(long long n, const std::string& noun);

// An ordinal as a sentence writes it: 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, 102nd.
std::string ordinal(long long n);

// An axis label's name only, for sentences that repeat it (a map's place, the text view's curve
// sentences): the label up to its first ": ", ", ", "; " or " (": "column: 1 planted | ..." ->
// "column", "x_2 (bottom to top)" -> "x_2", "E ||F(X)||^2 (test set)" -> "E ||F(X)||^2"; `unnamed`
// for an empty label.
std::string axis_short_name(const std::string& label, const std::string& unnamed);

// A plain non-negative integer written with 1 to `max_digits` decimal digits and nothing else (no
// sign, no space, no exponent), or nothing. Every count read from a link or an option goes through it.
std::optional<long long> parse_digits(const std::string& text, std::size_t max_digits);

}  // namespace attnlab
