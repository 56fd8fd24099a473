#include "lab/text.hpp"

#include <cstdio>

namespace attnlab {

std::string printf_text(const char* format, double a, double b, double c, double d) {
  char buf[512];
  std::snprintf(buf, sizeof buf, format, a, b, c, d);
  return buf;
}

}  // namespace attnlab
