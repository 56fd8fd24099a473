#include "experiments/regression/regression_unit.hpp"

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "lab/partial_fields.hpp"

namespace attnlab::regression {

// [SECTION] Partial codec
// A trace's fields, listed once for both directions (lab/partial_fields.hpp): Record is Trace with a
// PartialReader, const Trace with a PartialWriter. The sampling and path fields only when present.
namespace {
template <class Record, class Io>
void trace_fields(Record& t, Io& io) {
  io.numbers("distance", t.distance);
  io.numbers("loss_gap", t.loss_gap);
  io.numbers("grad_norm", t.grad_norm);
  io.numbers("eps0", t.eps0);
  bool sampled = !t.kept.empty();
  if (io.present("kept", sampled)) {
    io.numbers("kept", t.kept);
    io.numbers("expected_rows", t.expected_rows);
    io.numbers("sampling_eps", t.sampling_eps);
  }
  bool path = !t.path_x1.empty();
  if (io.present("path_x1", path)) {
    io.numbers("path_x1", t.path_x1);
    io.numbers("path_x2", t.path_x2);
  }
  io.optional_numbers("work_flops", t.work_flops);
  io.optional_numbers("work_rows", t.work_rows);
  io.number("flags", t.flags);
  io.number("clamped", t.clamped);
  io.number("seconds", t.seconds);
  io.number("seconds_to_1e-10", t.seconds_to_1e10);
  io.text("state", t.state);
  io.text("message", t.message);
}
}  // namespace

Partial to_partial(const Trace& t) {
  Partial p;
  PartialWriter io(p, "");
  trace_fields(t, io);
  return p;
}

Trace from_partial(const Partial& p) {
  Trace t;
  PartialReader io(p, "");
  trace_fields(t, io);
  return t;
}

// [SECTION] Unit task
// One solver's run: a work unit (docs/design.md "The run: prepare, units, merge, results"):
// the solvers share only the prepared problem, x* and x0 (read-only), and every iteration draws
// from its own stream Rng::for_stream(seed, 1000003 method + t) (Solver::step), so one solver's
// trace does not depend on which others run, in which order, or where: one unit per solver.

namespace {

// One solver's trace so far, as its unit sends it.
Trace trace_of(const Solver& s) {
  Trace t;
  unsigned flags = 0;
  for (const TraceRow& row : s.trace()) {
    t.distance.push_back(row.distance);
    t.loss_gap.push_back(row.loss_gap);
    t.grad_norm.push_back(row.grad_norm);
    t.eps0.push_back(row.eps0);
    if (is_sampled(s.method())) {
      t.kept.push_back(row.kept_rows >= 0 ? double(row.kept_rows) : NAN);
      t.expected_rows.push_back(row.expected_rows);
      t.sampling_eps.push_back(row.sampling_eps);
    }
    if (row.x.size() == 2) t.path_x1.push_back(row.x[0]), t.path_x2.push_back(row.x[1]);
    if (s.method() != Method::GradientDescent) t.work_flops.push_back(row.flops), t.work_rows.push_back(row.gram_rows);
    flags |= row.flags;
    t.clamped += row.clamped;
    if (std::isnan(t.seconds_to_1e10) && row.distance <= 1e-10) t.seconds_to_1e10 = row.seconds;
  }
  t.flags = flags;
  if (s.method() == Method::ApproxW2 && !t.work_flops.empty())
    t.work_flops[0] = s.setup_work().flops, t.work_rows[0] = s.setup_work().gram_rows;
  t.seconds = s.trace().back().seconds;
  t.state = to_string(s.state());
  t.message = s.message();
  return t;
}

// A piece is one iteration: well under a millisecond at the reference size (n = 200, d = 10), but
// up to ~100 ms for large_sparse (n = 100000, d = 50: A^T D A costs n d^2), the smallest step a
// solver can take. The solver is made in the first piece, not in start_unit(): for W^2 and
// gradient descent that is an n d^2 product too.
class SolverTask final : public UnitTask {
 public:
  SolverTask(Method method, const Problem& problem, const Reference& reference, const SolverOptions& options)
      : method_(method), problem_(problem), reference_(reference), options_(options) {}
  bool run_piece() override {
    if (!solver_) solver_.emplace(method_, problem_, reference_, options_);
    solver_->step();
    return solver_->finished();
  }
  Partial finish() override { return to_partial(trace_of(*solver_)); }
  double fraction() const override {
    if (!solver_) return 0.0;
    if (solver_->finished()) return 1.0;
    return double(solver_->trace().size() - 1) / double(options_.max_iterations);
  }
  // The trace so far (a copy of at most max_iterations rows), so the curves grow while it runs.
  bool preview(Partial& out) const override {
    if (!solver_) return false;
    out = to_partial(trace_of(*solver_));
    return true;
  }

 private:
  Method method_;
  const Problem& problem_;      // the experiment's, read-only while units run
  const Reference& reference_;  // likewise
  SolverOptions options_;
  std::optional<Solver> solver_;
};

}  // namespace

std::unique_ptr<UnitTask> make_solver_task(Method method, const Problem& problem, const Reference& reference,
                                           const SolverOptions& options) {
  return std::make_unique<SolverTask>(method, problem, reference, options);
}

}  // namespace attnlab::regression
