// lab/deadline.hpp against a simulated clock: short pieces read the clock rarely, long pieces at
// every piece, and the deadline is overrun by at most one piece plus the documented margin.
#include <catch2/catch.hpp>

#include "lab/deadline.hpp"

using namespace attnlab;

namespace {
struct Run {
  std::int64_t pieces = 0, reads = 0;
  double overrun = 0.0;
  double last_gap = 0.0;  // between the last two clock reads
};
// Pieces of `piece_seconds` each (a function of the piece's index) until the deadline passes.
template <class PieceSeconds>
Run run_until(double budget, PieceSeconds piece_seconds) {
  double t = 100.0, previous_read = t, last_read = t;
  Deadline deadline(budget, [&] {
    previous_read = last_read, last_read = t;
    return t;
  });
  Run r;
  do t += piece_seconds(r.pieces++);
  while (!deadline.passed() && r.pieces < 100000000);
  r.reads = deadline.clock_reads();
  r.overrun = t - (100.0 + budget);
  r.last_gap = last_read - previous_read;
  return r;
}
}  // namespace

TEST_CASE("a deadline reads the clock rarely for short pieces and keeps its bound", "[lab]") {
  const double margin = 4.0 * Deadline::kQuietSeconds;
  SECTION("pieces of 2 microseconds, 50 ms budget") {
    const Run r = run_until(0.05, [](std::int64_t) { return 2e-6; });
    CHECK(r.pieces >= 25000);
    CHECK(r.reads * 100 < r.pieces);  // at most one read in a hundred pieces
    CHECK(r.overrun >= 0.0);
    CHECK(r.overrun <= margin + 2e-6);
  }
  SECTION("pieces of 10 ms: a read after every piece, overrun under one piece") {
    const Run r = run_until(0.05, [](std::int64_t) { return 0.01; });
    CHECK(r.pieces == r.reads - 1);  // the read at construction, then one per piece
    CHECK(r.overrun < 0.01);
  }
  SECTION("pieces that get 20 times longer midway") {
    const Run r = run_until(0.2, [](std::int64_t k) { return k < 20000 ? 2e-6 : 4e-5; });
    CHECK(r.overrun <= 20.0 * margin);
    CHECK(r.last_gap <= margin + 4e-5);  // the stride came down again after the switch
  }
  SECTION("a budget of zero passes at the first piece") {
    const Run r = run_until(0.0, [](std::int64_t) { return 1e-6; });
    CHECK(r.pieces == 1);
  }
}
