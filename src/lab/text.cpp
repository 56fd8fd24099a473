#include "lab/text.hpp"

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

}  // namespace attnlab
