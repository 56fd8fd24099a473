// The `multihead` run's settings, shared by the schema (which decodes them), the units (which read
// them) and the results (docs/multihead.md; docs/design.md "The run: prepare, units, merge, results").
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include <Eigen/Dense>

#include "experiments/multihead/certification.hpp"
#include "experiments/multihead/head_search.hpp"
#include "experiments/multihead/layer.hpp"
#include "experiments/multihead/learners.hpp"

namespace attnlab::multihead {

// The run's units (docs/design.md "The run: prepare, units, merge, results"): the two learners. They share no random
// stream (phase I and the pipeline draw from stream 1 of the seed, Adam from streams 2-4, the test
// sets from their own), so each unit alone gives the numbers of the old sequential run.
enum Unit : std::int64_t { kPipelineUnit = 0, kAdamUnit = 1, kUnits = 2 };

// What the units of a run read: fixed by prepare() and shared read-only by every task (which
// keeps it alive if the experiment is reset meanwhile).
struct RunSettings {
  Layer truth;                 // the hidden layer: m heads Theta_i and W_i, each d x d
  Eigen::MatrixXd w_sum;       // d x d: W_1 + ... + W_m of `truth`
  int k = 3;                   // tokens per input: X is k x d
  int m = 2;                   // heads
  bool gaussian = false;       // inputs with N(0, 1) entries instead of uniform +-1
  std::uint64_t seed = 1;      // the run's seed (one random stream per stage)
  long long crude_total = 0;   // phase I examples
  long long adam_total = 0;    // Adam steps
  bool pipeline = true;        // run the pipeline past phase I
  bool paper_phase3 = false;   // refine W_sum by the paper's Alg. 2 instead of certify-then-refit
  CertifySettings certify;     // certification's eps (and its fixed rules)
  long long pool_total = 0;    // examples in the refit pool
  long long cert_total = 0;    // examples streamed through certification
  double keep = 0.01;          // fraction of rows each refit round keeps
  int refit_rounds = 8;        // rounds of certify-then-refit
  int heldout_total = 300;     // held-out examples for the head search and the value regression
  bool enclosure = false;      // measure K: min-norm points and LP width probes
  int width_probes = 3;        // random unit directions probed (enclosure on)
  AdamSettings adam;           // the baseline's training set, batch and step size

  // The programmes over K (enclosure on): two minimum-norm points, then a max and a min per probe.
  int enclosure_programmes() const {
    return enclosure ? 2 + 2 * (width_probes + (m >= 2 ? 2 : 0)) : 0;
  }

  int d() const { return truth.d(); }
  double relative(const Eigen::MatrixXd& estimate) const { return (estimate - w_sum).norm() / w_sum.norm(); }
  // Unit 0's cost in examples: the head search's cells are regressions on the held-out set,
  // counted as a tenth of it each.
  std::int64_t pipeline_cost() const {
    if (!pipeline) return crude_total;
    return crude_total + pool_total + cert_total + heldout_total + HeadSearch::cells(m) * heldout_total / 10 +
           kEnclosureIterationCost * kEnclosureIterations * enclosure_programmes();
  }
  // Progress accounting of the enclosure: an interior-point iteration counts as this many examples,
  // and a programme as about this many iterations.
  static constexpr std::int64_t kEnclosureIterationCost = 50, kEnclosureIterations = 30;
  std::int64_t adam_cost() const { return adam_total * adam.batch; }
  // Certification keeps at most this many constraints: the span's SVD of them (extract_span) costs
  // about #constraints x d^4 multiply-adds, one piece of work a worker must finish before its
  // watchdog gives up (5 s), so they are capped at 2^29 / d^4 (d = 8: 131072, 1.1 s natively; the
  // one_head preset's 19961 at d = 12 stays under its 25890). Certification stops there, said in the
  // notes (walk 12: 50002000 samples at d = 8 ran out of memory; walk 18: 2^24 / d^2 = 262144 of them
  // took the SVD past the watchdog in the page, and the run failed).
  std::size_t most_constraints() const {
    const std::int64_t unknowns = std::int64_t{d()} * d();
    return static_cast<std::size_t>((std::int64_t{1} << 29) / std::max<std::int64_t>(1, unknowns * unknowns));
  }
};

}  // namespace attnlab::multihead
