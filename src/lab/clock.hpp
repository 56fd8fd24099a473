// Wall-clock seconds for step budgets and progress reports (never for results).
#pragma once
#include <chrono>

namespace attnlab {
inline double now_seconds() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}
}  // namespace attnlab
