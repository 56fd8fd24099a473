#include "cli/progress_bar.hpp"

#include <cstdio>

#include "lab/clock.hpp"

namespace attnlab {

ProgressBar::ProgressBar(bool enabled) : enabled_(enabled), start_(now_seconds()) {}

void ProgressBar::update(const Progress& p) {
  if (!enabled_) return;
  const double now = now_seconds(), elapsed = now - start_;
  if (elapsed < 0.3 || now - last_ < 0.1) return;
  last_ = now;
  const double f = p.fraction();
  const int width = 30, filled = static_cast<int>(f * width);
  char bar[width + 1];
  for (int i = 0; i < width; ++i) bar[i] = i < filled ? '#' : '.';
  bar[width] = '\0';
  const double left = f > 0.0 ? elapsed * (1.0 - f) / f : 0.0;
  std::fprintf(stderr, "\r[%s] %5.1f%%  %lld/%lld  %.1f s elapsed, ~%.0f s left ", bar, 100.0 * f,
               static_cast<long long>(p.done), static_cast<long long>(p.total), elapsed, left);
  std::fflush(stderr);
  drawn_ = true;
}

void ProgressBar::finish() {
  if (drawn_) std::fprintf(stderr, "\r%*s\r", 79, "");
}

}  // namespace attnlab
