// A deadline checked between pieces of work, without a clock read after every piece: a piece can
// take a few microseconds (a separation trial), where reading the clock costs a noticeable share in
// wasm (a call out to JavaScript). Used by Experiment::step and the workers' units
// (docs/design.md "The step(budget) contract, written once").
#pragma once
#include <cstdint>
#include <functional>

namespace attnlab {

class Deadline {
 public:
  // The clock is read once every `stride` pieces: the stride doubles (up to kStrideMax) while the
  // pieces between two reads took less than kQuietSeconds, and halves when they took more than
  // 4 kQuietSeconds. So the deadline is overrun by at most one piece plus about 4 kQuietSeconds.
  static constexpr double kQuietSeconds = 0.5e-3;
  static constexpr std::int64_t kStrideMax = 1024;

  // `seconds` from now by `clock` (seconds, increasing; lab/clock.hpp's now_seconds by default).
  explicit Deadline(double seconds, std::function<double()> clock = {});
  // Call after each piece: true once the deadline has passed (read at this call or an earlier one).
  bool passed();
  std::int64_t clock_reads() const { return reads_; }

 private:
  double now();
  std::function<double()> clock_;
  double deadline_ = 0.0, last_ = 0.0;
  std::int64_t stride_ = 1, since_read_ = 0, reads_ = 0;
  bool passed_ = false;
};

}  // namespace attnlab
