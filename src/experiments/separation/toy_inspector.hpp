// The toy model's inspector: one trial of `separation.toy` against the concentration bounds of the
// paper's Lemmas 4.1 and 4.2 (docs/separation.md s.1, "Claims to visualise").
//
// For a fixed input f and a random sign vector sigma, Hoeffding's inequality gives
// P(|<f, sigma>| > t) <= 2 exp(-t^2 / (2 sum_i f_i^2)). The lemmas bound |f_i| <= M entrywise from
// the datasets' ranges alone (so sum_i f_i^2 <= n M^2) and leave the constant C open; here it is
// explicit: t = M sqrt(2 n log(2 / delta')) at the failure probability delta' = delta / n (the
// lemmas' delta / poly(n), with delta = 0.01). Softmax on D1 has instead a lower bound,
// |<f, sigma>| >= 1/2 - (n - 1) n^-2.6 >= 1/4 with probability 1, and the sign of sigma_j.
#pragma once
#include <cstdint>

#include "experiments/separation/toy_model.hpp"
#include "lab/results.hpp"

namespace attnlab::separation {

// The lemmas' failure probability delta (the toy has no delta of its own; the attention figures'
// value) and the one the explicit bounds use, delta' = delta / n.
constexpr double kLemmaDelta = 0.01;

// What one lemma says about one of the four evaluations, and the bound's explicit numbers.
struct LemmaBound {
  const char* name;       // e.g. "Lemma 4.1, part 1 (linear, D0)"
  double entry_bound;     // M: |f_i| <= M for every input of the dataset (the lemma's proof)
  double radius;          // t = M sqrt(2 n log(2n / delta)); for softmax on D1, the lower bound 1/4
  bool lower;             // true for softmax on D1: |<f, sigma>| >= radius
};
// The bound for evaluation k (0: softmax on D1, 1: linear on D1, 2: softmax on D0, 3: linear on D0).
LemmaBound lemma_bound(int evaluation, int n);

// Trial `trial` of seed `seed` at these settings (the draw the sweep used): for each evaluation the
// measured max_i f_i against M, |<f, y_l>| for each readout column l against the bound, and the
// fraction of fresh sign vectors sigma (a Monte Carlo over the same f) inside it. Table: one row
// per evaluation k (0..3): evaluation, entry_bound (M; for softmax on D1 the bound on the entries off
// the planted one), max_f (the largest entry; off the planted one for softmax on D1), bound (t, or
// 1/4), readout_min / readout_max / readout_inside / readout_columns (|<f, y_l>| over the trial's
// m columns), sigma_inside / sigma_draws / sigma_inside_low / sigma_inside_high (the Monte Carlo's
// share inside, 99.9% Wilson band), sigma_positive (the share with <f, sigma> > 0), F.
Results inspect_toy_trial(const ToySettings& s, std::uint64_t seed, std::int64_t trial);

}  // namespace attnlab::separation
