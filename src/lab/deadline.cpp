#include "lab/deadline.hpp"

#include "lab/clock.hpp"

namespace attnlab {

Deadline::Deadline(double seconds, std::function<double()> clock) : clock_(std::move(clock)) {
  last_ = now();
  deadline_ = last_ + seconds;
}

double Deadline::now() {
  ++reads_;
  return clock_ ? clock_() : now_seconds();
}

bool Deadline::passed() {
  if (passed_) return true;
  if (++since_read_ < stride_) return false;
  since_read_ = 0;
  const double t = now(), gap = t - last_;
  last_ = t;
  if (t >= deadline_) return passed_ = true;
  if (gap < kQuietSeconds && stride_ < kStrideMax) stride_ *= 2;
  else if (gap > 4.0 * kQuietSeconds && stride_ > 1) stride_ /= 2;
  return false;
}

}  // namespace attnlab
