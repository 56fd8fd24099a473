#include "lab/time_left.hpp"

#include <algorithm>
#include <cmath>

#include "lab/text.hpp"

namespace attnlab {

std::optional<double> seconds_left(double fraction, double elapsed) {
  if (!std::isfinite(fraction) || !std::isfinite(elapsed) || fraction < kTimeLeftFromFraction || fraction > 1.0)
    return std::nullopt;
  return std::max(0.0, elapsed) * (1.0 - fraction) / fraction;
}

std::string time_left_text(double fraction, double elapsed) {
  const std::optional<double> left = seconds_left(fraction, elapsed);
  if (!left || fraction >= 1.0) return "";
  if (*left < 59.5) return printf_text("about %.0f s left", std::max(1.0, std::round(*left)));
  return printf_text("about %.0f min left", std::round(*left / 60.0));
}

void RunClock::update(bool running, double fraction, double now) {
  if (fraction < last_fraction_ || (running && !last_now_ && fraction <= 0.0)) elapsed_ = 0.0;
  last_fraction_ = fraction;
  if (running && last_now_ && now > *last_now_) elapsed_ += now - *last_now_;
  last_now_ = running ? std::optional<double>(now) : std::nullopt;
}

}  // namespace attnlab
