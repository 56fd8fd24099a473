#include "experiments/separation/toy_inspector.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/det_math.hpp"
#include "core/rng.hpp"
#include "core/statistics.hpp"
#include "lab/text.hpp"

namespace attnlab::separation {

namespace {

const char* const kEvaluationNames[4] = {"softmax, D1", "linear, D1", "softmax, D0", "linear, D0"};

// Sign vectors of the Monte Carlo: about 2e7 products in all, between 200 and 4000 of them.
int monte_carlo_draws(int n) { return static_cast<int>(std::clamp(2e7 / (4.0 * n), 200.0, 4000.0)); }

bool inside(const LemmaBound& b, double value) { return b.lower ? value >= b.radius : value <= b.radius; }

}  // namespace

// The entrywise bounds are the lemmas' proofs, with the datasets' ranges v_i in [log n, 1.4 log n]
// and v_j = 4 log n (Definition 3.8).
LemmaBound lemma_bound(int evaluation, int n) {
  const double nn = n;
  const double hoeffding = std::sqrt(2.0 * nn * dmath::log(2.0 * nn / kLemmaDelta));
  switch (evaluation) {
    case 0:  // Lemma 4.2 part 2: f_j >= 1/2, the rest <= n^-2.6, so |<f, sigma>| >= 1/4
      return {"Lemma 4.2, part 2 (softmax, D1): |<f, sigma>| >= 1/4 with probability 1",
              dmath::pow(nn, 1.4) / (nn * (nn - 1.0) + dmath::pow(nn, 4.0)), 0.25, true};
    case 1: {  // Lemma 4.2 part 1: |f_i| <= 4 log n / ((n - 1) log n + 4 log n) = 4 / (n + 3)
      const double M = 4.0 / (nn + 3.0);
      return {"Lemma 4.2, part 1 (linear, D1)", M, M * hoeffding, false};
    }
    case 2: {  // Lemma 4.1 part 2: |f_i| <= n^1.4 / (n n) = n^-0.6
      const double M = dmath::pow(nn, -0.6);
      return {"Lemma 4.1, part 2 (softmax, D0)", M, M * hoeffding, false};
    }
    default: {  // Lemma 4.1 part 1: |f_i| <= 1.4 log n / (n log n) = 1.4 / n
      const double M = 1.4 / nn;
      return {"Lemma 4.1, part 1 (linear, D0)", M, M * hoeffding, false};
    }
  }
}

namespace {

// The largest entry of f once one entry equal to `largest` is left out.
double largest_but_one(const std::vector<double>& f, double largest) {
  double second = 0.0;
  bool skipped = false;
  for (double x : f)
    if (x == largest && !skipped) skipped = true;
    else second = std::max(second, x);
  return second;
}

// The lemmas' bounds and tau as horizontal lines over readout columns 1..last (log scale: all of
// them are positive).
void add_bound_lines(const ToySettings& s, double last, Plot& plot) {
  for (int k : {1, 2, 3, 0}) {  // the solid lines first: series 4-6 take the palette's next colours
    const LemmaBound bound = lemma_bound(k, s.n);
    const std::string label = std::string(k == 0 ? "lower bound 1/4 (" : "bound t (") + kEvaluationNames[k] + ")";
    // The upper bounds as solid lines in their own colours (dashed references would all look alike);
    // the lower bound 1/4 dashed, like tau, which it meets at the default tau = 1/4.
    plot.series.push_back({label, k == 0 ? SeriesStyle::Reference : SeriesStyle::Line, {0.5, last + 0.5},
                           {bound.radius, bound.radius}, {}, {}});
  }
  plot.series.push_back({"threshold tau", SeriesStyle::Reference, {0.5, last + 0.5}, {s.tau, s.tau}, {}, {}});
}

}  // namespace

Results inspect_toy_trial(const ToySettings& s, std::uint64_t seed, std::int64_t trial) {
  Rng rng = Rng::for_stream(seed, static_cast<std::uint64_t>(trial));
  ToyTrialInputs in;
  draw_trial_inputs(s, rng, in);
  // The Monte Carlo's own stream, apart from every trial's (trials are numbered below 2^62).
  Rng signs_rng = Rng::for_stream(seed, (std::uint64_t(1) << 62) + static_cast<std::uint64_t>(trial));
  const int draws = monte_carlo_draws(s.n);
  Readout signs;
  signs.draw(s.n, draws, signs_rng);

  Results r;
  Table& t = r.table;
  t.columns = {"evaluation", "entry_bound", "max_f", "bound", "readout_min", "readout_max", "readout_inside",
               "readout_columns", "sigma_inside", "sigma_draws", "sigma_inside_low", "sigma_inside_high", "sigma_positive", "F"};
  Plot plot = Plot::titled("Lemmas 4.1 / 4.2: |<f, y_l>| of each readout column against the bounds")
      .x("readout column l").y("|<f, y_l>|").log_y_axis();
  r.notes.push_back(printf_text("Trial %.0f at n = %.0f, m = %.0f, tau = %.3g. ", double(trial), s.n, s.m, s.tau) +
                    printf_text("The lemmas' constant C made explicit by Hoeffding: |<f, sigma>| <= M sqrt(2 n log(2n / "
                                "delta)) with probability >= 1 - delta / n (delta = %.3g), M the lemma's bound on every "
                                "|f_i| (from the datasets' ranges alone).",
                                kLemmaDelta));
  std::vector<double> f, dots(static_cast<std::size_t>(std::max(s.m, draws)));
  double last = s.m;
  for (int k = 0; k < 4; ++k) {
    attention_vector(in, k, f);
    const LemmaBound bound = lemma_bound(k, s.n);
    // For softmax on D1 the lemma bounds the planted entry from below and the others from above.
    double max_f = 0.0;
    for (double x : f) max_f = std::max(max_f, x);
    const double second = k == 0 ? largest_but_one(f, max_f) : 0.0;  // softmax on D1: off the planted entry
    const Readout& y = in.readout(k, s.shared_readout);
    readout_margins(f.data(), y, 0.0, dots.data());
    Series columns{kEvaluationNames[k], SeriesStyle::LineMarkers, {}, {}, {}, {}};
    double low = INFINITY, high = 0.0, inside_count = 0.0, F = 0.0;
    for (int l = 0; l < s.m; ++l) {
      const double a = std::fabs(dots[static_cast<std::size_t>(l)]);
      columns.x.push_back(l + 1), columns.y.push_back(a);
      low = std::min(low, a), high = std::max(high, a);
      inside_count += inside(bound, a);
      F += std::max(dots[static_cast<std::size_t>(l)] - s.tau, 0.0);
    }
    plot.series.push_back(std::move(columns));
    readout_margins(f.data(), signs, 0.0, dots.data());
    std::int64_t sigma_inside = 0, positive = 0;
    for (int l = 0; l < draws; ++l) {
      sigma_inside += inside(bound, std::fabs(dots[static_cast<std::size_t>(l)]));
      positive += dots[static_cast<std::size_t>(l)] > 0.0;
    }
    const Interval band = wilson_interval(sigma_inside, draws, 3.2905267314919255);
    t.rows.push_back({double(k), bound.entry_bound, k == 0 ? second : max_f, bound.radius, low, high, inside_count,
                      double(s.m), double(sigma_inside) / draws, double(draws), band.low, band.high,
                      double(positive) / draws, F});
    std::string line = std::string(bound.name) + ": ";
    if (k == 0) {
      line += printf_text("planted entry f_j = %.6g >= 1/2, the others at most %.3g <= n^1.4 / (n (n - 1) + n^4) = %.3g; ",
                          max_f, second, bound.entry_bound);
      line += printf_text("|<f, y_l>| from %.4g to %.4g, >= 1/4 in %.0f of %.0f columns", low, high, inside_count, s.m);
      const Interval half = wilson_interval(positive, draws, 3.2905267314919255);
      line += printf_text("; over %.0f fresh sign vectors sigma: >= 1/4 in %.0f, positive in a share %.3f ", draws,
                          double(sigma_inside), double(positive) / draws) +
              printf_text("(99.9%% [%.3f, %.3f]; part 3: exactly 1/2, the sign of sigma_j).", half.low, half.high);
    } else {
      line += printf_text("max_i f_i = %.4g <= M = %.4g; bound t = %.4g; ", max_f, bound.entry_bound, bound.radius);
      line += printf_text("|<f, y_l>| from %.3g to %.3g, inside in %.0f of %.0f columns", low, high, inside_count, s.m);
      line += printf_text("; over %.0f fresh sign vectors sigma: inside in a share %.4f", draws,
                          double(sigma_inside) / draws) +
              printf_text(" (99.9%% [%.4f, %.4f]; the lemma: >= 1 - delta / n = %.6f)", band.low, band.high,
                          1.0 - kLemmaDelta / s.n);
      if (bound.radius >= 1.0) line += "; vacuous at this n: |<f, sigma>| <= sum_i f_i = 1 < t";
      else if (bound.radius >= s.tau) line += printf_text("; t >= tau = %.3g: the bound alone does not keep F silent", s.tau);
      line += ".";
    }
    r.notes.push_back(line);
  }
  add_bound_lines(s, last, plot);
  r.plots.push_back(std::move(plot));
  r.notes.push_back("Ours: the explicit constant (Hoeffding with sum_i f_i^2 <= n M^2), delta = 0.01 and poly(n) = n; the "
                    "paper states the bounds with an unspecified C and probability 1 - delta / poly(n).");
  return r;
}

}  // namespace attnlab::separation
