// printf-style text for notes and read-outs, with up to four numbers (every argument a double, so
// integers passed here are converted before formatting, never read as the wrong type).
#pragma once
#include <string>
#include <vector>

namespace attnlab {

std::string printf_text(const char* format, double a, double b = 0.0, double c = 0.0, double d = 0.0);

// The parts of `s` between the separators, empty ones included ("a,,b" -> "a", "", "b"; "" -> "").
std::vector<std::string> split(const std::string& s, char sep);

// Characters (not bytes) of valid UTF-8 text, and its first `count` characters.
std::size_t characters(const std::string& s);
std::string first_characters(const std::string& s, std::size_t count);

}  // namespace attnlab
