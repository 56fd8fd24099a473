// How long a run has left, said to a student: estimated from the fraction of its work done and the
// seconds it has run (paused time not counted), and only once a tenth is done (before that the
// rate is mostly start-up). The page's story panel shows it while a step runs; pure, so tested natively.
#pragma once
#include <optional>
#include <string>

namespace attnlab {

// The fraction done before an estimate is given.
inline constexpr double kTimeLeftFromFraction = 0.1;

// Seconds left at the rate so far: elapsed * (1 - fraction) / fraction, never negative; nothing
// when the fraction is below kTimeLeftFromFraction, above 1, or either value is not finite.
std::optional<double> seconds_left(double fraction, double elapsed);

// "about 4 s left" (whole seconds under a minute, at least 1; then "about 2 min left"), "" when
// seconds_left has no estimate or the run is done (fraction 1).
std::string time_left_text(double fraction, double elapsed);

// The seconds a run has run, counted while it runs: a new run (the fraction falls back, or the run
// starts from nothing) starts the count again.
class RunClock {
 public:
  // Called each frame with whether the run is running, its fraction done and the time now.
  void update(bool running, double fraction, double now);
  double elapsed() const { return elapsed_; }

 private:
  double elapsed_ = 0.0;
  double last_fraction_ = 0.0;
  std::optional<double> last_now_;  // the previous frame's time while running
};

}  // namespace attnlab
