// Index of this file
// [SECTION] Reductions
// [SECTION] Curves
// [SECTION] Notes
// [SECTION] Results

#include "experiments/regression/regression_results.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "core/det_math.hpp"
#include "lab/text.hpp"

namespace attnlab::regression {

namespace {

// [SECTION] Reductions

// The median of the finite values (the upper one of an even count), NaN when there are none.
double median(std::vector<double> v) {
  v.erase(std::remove_if(v.begin(), v.end(), [](double x) { return !std::isfinite(x); }), v.end());
  if (v.empty()) return double(NAN);
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
}

// The median eps0 of a solver's steps (NaN when it measured none, e.g. exact Newton).
double median_eps0(const Trace& s) { return median(s.eps0); }

// The median ratio ||x_{t+1} - x*|| / ||x_t - x*|| over the steps from t = 1 on that stay above
// the rounding floor (1e-12): the measured linear rate the preset texts quote.
double median_contraction(const Trace& s) {
  std::vector<double> ratios;
  for (std::size_t i = 2; i < s.size(); ++i)
    if (s.distance[i - 1] > 0.0 && s.distance[i] > 1e-12 && std::isfinite(s.distance[i]))
      ratios.push_back(s.distance[i] / s.distance[i - 1]);
  return median(ratios);
}

}  // namespace

// [SECTION] Curves

namespace {

// What every curve reads: the table's columns by name and the range of iterations shown. The
// Newton-type solvers finish in tens of iterations, gradient descent may take thousands: the main
// plots show the Newton-type range, and one more plot shows every solver over all of it (log x).
struct Curves {
  const std::vector<Method>& methods;  // unit k ran methods[k]
  const Table& table;                  // results_table's
  std::vector<double> iterations;      // the column t
  std::size_t rows = 0;                // the table's rows: the longest trace
  std::size_t newton_range = 0;        // the rows the main plots show
  double last = 1.0;                   // the last iteration they show: reference lines end there

  Curves(const std::vector<Method>& methods_in, const std::vector<Trace>& traces, const Table& table_in)
      : methods(methods_in), table(table_in) {
    iterations = column("t");
    rows = table.rows.size();
    newton_range = 10;
    for (std::size_t k = 0; k < traces.size(); ++k)
      if (methods[k] != Method::GradientDescent) newton_range = std::max(newton_range, traces[k].size() + 2);
    newton_range = std::min(newton_range, rows);
    last = newton_range > 1 ? double(newton_range - 1) : 1.0;
  }

  std::vector<double> column(const std::string& name) const {
    std::vector<double> v;
    const int k = table.column(name);
    for (const auto& row : table.rows) v.push_back(row[static_cast<std::size_t>(k)]);
    return v;
  }

  // One series per solver: its column `suffix` over the first `range` iterations.
  Plot per_method(const char* title, const char* y_label, const char* suffix, bool log_y, std::size_t range) const {
    Plot p = Plot::titled(title).x("iteration t").y(y_label).log_y_axis(log_y);
    for (Method m : methods) {
      std::vector<double> y = column(std::string(method_key(m)) + suffix);
      // A solver that runs on past the plot's range says so (walk 18: the text view read gradient
      // descent's t = 44 here as its end; it ran to t = 182).
      bool cut = false;
      for (std::size_t i = range; i < y.size() && !cut; ++i) cut = std::isfinite(y[i]);
      y.resize(range);
      // A diverging solver's values leave the page: they stop at 1e6 times the start (the
      // divergence itself is reported as the solver's state in the notes).
      if (log_y && !y.empty() && std::isfinite(y[0]) && y[0] > 0.0)
        for (double& v : y)
          if (v > 1e6 * y[0]) v = NAN;
      p.series.push_back({method_label(m) + (cut ? " (its first " + std::to_string(range) + " iterates)" : ""),
                          SeriesStyle::LineMarkers,
                          std::vector<double>(iterations.begin(), iterations.begin() + range), y, {}, {}});
    }
    return p;
  }
};

// Correct digits -log10 ||x_t - x*||: exact Newton doubles them per step, linear rates add a constant.
Plot digits_plot(const Curves& c) {
  Plot digits = c.per_method("Correct digits", "-log10 ||x_t - x*||", "_distance", false, c.newton_range);
  for (Series& series : digits.series)
    for (double& v : series.y) v = v > 0.0 ? -dmath::log10(v) : NAN;
  return digits;
}

// The contraction ratio against the theorem's rate and each approximation's own bound 2 eps0
// (median over its steps), where it holds (eps0 < 1/2): a bound on the spectral radius of the
// linearised error map, so a rate over many steps, not a bound on each step's ratio.
Plot contraction_plot(const Curves& c, const std::vector<Trace>& traces) {
  Plot ratio = c.per_method("Contraction ratio", "||x_{t+1} - x*|| / ||x_t - x*||", "_ratio", false, c.newton_range);
  // From 0, to 1.2 or the largest ratio drawn (walk 14: the first steps' ratios, above 1.2, were cut),
  // at most 4: a step that moved away from x* by more reads in the hover.
  double largest = 1.2;
  for (const Series& s : ratio.series)
    for (double y : s.y)
      if (std::isfinite(y)) largest = std::max(largest, std::min(4.0, 1.05 * y));
  ratio.fixed_y = true;
  ratio.y_min = 0.0;
  ratio.y_max = largest;
  // Levels: drawn across the plot and read by the hover at every iteration (walk 13: the read-out
  // left them out).
  ratio.series.push_back({"theorem's rate 0.4", SeriesStyle::Reference, {0.0, c.last}, {0.4, 0.4}, {}, {},
                          SeriesFlags_Level});
  for (std::size_t k = 0; k < traces.size(); ++k) {
    const double bound = 2.0 * median_eps0(traces[k]);
    if (bound < 1.0)
      ratio.series.push_back({std::string("bound 2 eps0, ") + method_label(c.methods[k]), SeriesStyle::Reference,
                              {0.0, c.last}, {bound, bound}, {}, {}, SeriesFlags_Level});
  }
  return ratio;
}

// The sampler's own claim (docs/regression.md s.3, Lemma 6.4): A^T D~ A against A^T D A at every
// step. Empty (no series) when no sampled solver runs.
Plot sampling_plot(const Curves& c, const SamplingSettings& settings) {
  Plot sampling = Plot::titled("Leverage sampling: A^T D~ A against A^T D A").x("iteration t")
      .y("eps = max |lambda((A^T D A)^-1 A^T D~ A) - 1|").log_y_axis();
  const std::vector<double> shown(c.iterations.begin(), c.iterations.begin() + c.newton_range);
  for (Method m : c.methods)
    if (is_sampled(m)) {
      std::vector<double> y = c.column(std::string(method_key(m)) + "_sampling_eps");
      y.resize(c.newton_range);
      sampling.series.push_back({method_label(m), SeriesStyle::LineMarkers, shown, y, {}, {}});
    }
  if (!sampling.series.empty() && settings.rule == SamplingRule::Paper) {
    const double eps1 = settings.eps1;
    sampling.series.push_back({"the paper's eps1", SeriesStyle::Reference, {0.0, c.last}, {eps1, eps1}, {}, {},
                               SeriesFlags_Level});
  }
  return sampling;
}

// Every solver's distance over the whole run, on log-log axes: gradient descent's thousands of
// iterations and the Newton-type solvers' few side by side (t = 0, the shared start, is off a log
// axis). Each curve ends where its solver stopped, so the short ones keep their markers.
Plot whole_run_plot(const Curves& c, const std::vector<Trace>& traces) {
  Plot p = Plot::titled("Distance to the minimiser over the whole run").x("iteration t (log scale)")
      .y("||x_t - x*||").log_x_axis().log_y_axis();
  for (std::size_t k = 0; k < c.methods.size(); ++k) {
    std::vector<double> y = c.column(std::string(method_key(c.methods[k])) + "_distance");
    y.resize(std::min(y.size(), traces[k].size()));
    if (!y.empty() && std::isfinite(y[0]) && y[0] > 0.0)  // as per_method: a diverging curve stops at 1e6 x the start
      for (double& v : y)
        if (v > 1e6 * y[0]) v = NAN;
    p.series.push_back({method_label(c.methods[k]), SeriesStyle::LineMarkers,
                        std::vector<double>(c.iterations.begin(), c.iterations.begin() + y.size()), y, {}, {}});
  }
  return p;
}

// The counted work of each Newton-type step (docs/regression.md s.3, "What a step costs"): flops
// to build H~ (or H) and solve with it, per iteration, on an axis from 0 (a difference in work is drawn to scale).
Plot work_plot(const Curves& c, const std::vector<Trace>& traces) {
  Plot p = Plot::titled("Work per iteration").x("iteration t").y("flops to build H~ and solve with it")
               .y_axis(AxisFlags_FromZero);
  for (std::size_t k = 0; k < traces.size(); ++k) {
    const Trace& s = traces[k];
    if (s.work_flops.size() < 2) continue;
    std::vector<double> x, y;
    for (std::size_t i = 1; i < std::min(s.work_flops.size(), c.newton_range); ++i)
      x.push_back(double(i)), y.push_back(s.work_flops[i]);
    p.series.push_back({method_label(c.methods[k]), SeriesStyle::LineMarkers, x, y, {}, {}});
  }
  return p;
}

}  // namespace

std::vector<Plot> results_plots(const RegressionRun& run, const std::vector<Trace>& traces, const Table& table) {
  const Curves c(run.methods, traces, table);
  std::vector<Plot> plots;
  plots.push_back(c.per_method("Distance to the minimiser", "||x_t - x*||", "_distance", true, c.newton_range));
  plots.push_back(c.per_method("Gradient norm", "||grad L(x_t)||", "_grad_norm", true, c.newton_range));
  plots.push_back(c.per_method("Loss gap", "L(x_t) - L*", "_loss_gap", true, c.newton_range));
  plots.push_back(digits_plot(c));
  plots.push_back(contraction_plot(c, traces));
  plots.push_back(c.per_method("Quality of each Hessian approximation", "eps0 = max |lambda(H^-1 H~) - 1|", "_eps0",
                               true, c.newton_range));
  Plot sampling = sampling_plot(c, run.options.sampling);
  if (!sampling.series.empty()) plots.push_back(sampling);
  if (c.rows > c.newton_range) plots.push_back(whole_run_plot(c, traces));
  Plot work = work_plot(c, traces);
  if (!work.series.empty()) plots.push_back(work);
  return plots;
}

// [SECTION] Notes

namespace {

// One solver's state and speed: iterations, time per iteration and to 1e-10, its median eps0 with
// the local rate bound it gives, its median contraction, the steps that rate needs from the start to
// the tolerance, the flags it met and its message.
std::string solver_note(const std::string& label, const Trace& s, double tolerance) {
  const int its = static_cast<int>(s.size()) - 1;
  std::string line = label + ": " + s.state + printf_text(" after %.0f iterations, %.3g ms per iteration", its,
                                                          its > 0 ? 1e3 * s.seconds / its : 0.0);
  if (!std::isnan(s.seconds_to_1e10)) line += printf_text(", ||x - x*|| <= 1e-10 after %.3g ms", 1e3 * s.seconds_to_1e10);
  const double eps = median_eps0(s);
  if (!std::isnan(eps)) {
    // Near x* the error maps as e -> (I - H~^-1 H) e, whose eigenvalues 1 - 1/mu (mu an eigenvalue
    // of H^-1 H~, |mu - 1| <= eps0) are at most eps0 / (1 - eps0) in size: at most 2 eps0 while
    // eps0 <= 1/2, and no contraction at all is promised once eps0 >= 1/2 (docs/regression.md s.3).
    // A spectral radius: a rate over many steps, not a bound on each step's ||x - x*|| ratio.
    line += printf_text(", median eps0 %.3g", eps);
    if (eps < 0.5)
      line += printf_text(" (local rate bound eps0 / (1 - eps0) = %.3g <= 2 eps0 = %.3g)", eps / (1.0 - eps), 2.0 * eps);
    else if (eps < 1.0)
      line += printf_text(" (eps0 >= 1/2: the local factor eps0 / (1 - eps0) = %.3g is not below 1, no contraction)",
                          eps / (1.0 - eps));
    else
      line += " (eps0 >= 1: no local rate bound)";
    const double contraction = median_contraction(s);
    if (!std::isnan(contraction)) line += printf_text(", median contraction %.3g per step", contraction);
    // The count a student can check: a factor eps0 per step takes the start's distance r0 to the
    // tolerance in log(tolerance / r0) / log(eps0) steps.
    const double r0 = s.distance.empty() ? NAN : s.distance.front();
    if (eps > 0.0 && eps < 0.5 && r0 > tolerance)
      line += printf_text("; at a factor eps0 per step, log(%.3g / %.3g) / log(eps0) = %.3g steps from the start "
                          "to the tolerance", tolerance, r0, std::log(tolerance / r0) / std::log(eps));
  }
  const unsigned flags = static_cast<unsigned>(s.flags);
  if (flags & kFallbackLdlt) line += "; Cholesky failed, LDLT used";
  if (flags & kJitter) line += "; LDLT failed, jitter added";
  if (flags & kClampedD) line += printf_text("; %.0f negative entries of D clamped to 0", s.clamped);
  if (!s.message.empty()) line += "; " + s.message;
  return line + ".";
}

// One sampled solver's sampling, summed up for its note (docs/regression.md s.3 SubSample; Lemma 6.4 / Theorem
// F.1 for the paper's rule): rows kept and expected per step against the law's bound, and how often
// A^T D~ A was within (1 +- eps1) of A^T D A.
std::string sampling_note(const std::string& label, const Trace& s, const SamplingSettings& settings, int n, int d) {
  double kept = 0, expected = 0, steps = 0, within = 0, measured = 0;
  std::vector<double> eps;
  for (std::size_t i = 1; i < s.kept.size(); ++i) {
    if (std::isnan(s.kept[i])) continue;
    kept += s.kept[i], expected += s.expected_rows[i], ++steps;
    if (std::isnan(s.sampling_eps[i])) continue;
    eps.push_back(s.sampling_eps[i]), ++measured;
    within += s.sampling_eps[i] <= settings.eps1;
  }
  if (steps == 0) return "";
  const bool paper = settings.rule == SamplingRule::Paper;
  std::string line = label + (paper ? printf_text(": the paper's sampling rule as we read Lemma 6.4 (ours: its p_i and C) with C = %.3g, delta = %.3g, "
                                                  "eps1 = %.3g", settings.C, settings.delta, settings.eps1)
                                    : std::string(": sampling with the budget rule (ours)"));
  line += settings.scores == LeverageScores::Exact ? ", exact leverage scores" : ", sketched leverage scores (ours)";
  line += printf_text(": %.4g rows kept per step on average, %.4g expected (sum of p_i)", kept / steps, expected / steps);
  line += paper ? printf_text("; the law's bound C d log(d/delta) / eps1^2 = %.4g", settings.expected_rows_bound(d))
                : printf_text("; the budget %.4g", settings.expected_rows_bound(d));
  if (expected / steps > 0.5 * n) line += printf_text(" (more than half of the n = %.0f rows: little is saved at this n)", n);
  if (!eps.empty()) {
    line += printf_text("; A^T D~ A against A^T D A: median eps %.3g", median(eps));
    if (paper)
      line += printf_text(", within 1 +- eps1 at %.0f of %.0f steps (the lemma: each with probability >= %.3g)", within,
                          measured, 1.0 - settings.delta);
  }
  return line + ".";
}

// A Newton-type solver's mean counted work per step (docs/regression.md s.3, "What a step costs"):
// {flops, rows summed into Gram matrices}, over its steps t >= 1; NaN when it took none.
std::pair<double, double> mean_work(const Trace& s) {
  double flops = 0, rows = 0, steps = 0;
  for (std::size_t i = 1; i < s.work_flops.size(); ++i)
    if (std::isfinite(s.work_flops[i])) flops += s.work_flops[i], rows += s.work_rows[i], ++steps;
  if (steps == 0) return {double(NAN), double(NAN)};
  return {flops / steps, rows / steps};
}

// A Newton-type solver's counted work over its whole run: every step's and the one before the
// first (docs/regression.md s.3, "What a step costs"); NaN when it took no step.
double whole_work(const Trace& s) {
  double flops = 0;
  for (double f : s.work_flops) flops += std::isfinite(f) ? f : 0.0;
  return flops > 0.0 ? flops : double(NAN);
}

// One Newton-type solver's work per step: what it costs to build H~ and solve with it, counted; a sampled
// solver's rows split into those its leverage sample kept and those its sketch summed (its uniform sample).
std::string work_note(const std::string& label, const Trace& s, int n) {
  const auto [flops, rows] = mean_work(s);
  if (std::isnan(flops)) return "";
  std::string line = label + printf_text(": work per step %.3g million flops, %.0f of the n = %.0f rows summed into "
                                         "Gram matrices (counted: building H~ and solving with it)", flops / 1e6, rows, n);
  double kept = 0, steps = 0;  // a sampled solver's rows kept, over its steps t >= 1
  for (std::size_t i = 1; i < s.work_flops.size() && i < s.kept.size(); ++i)
    if (std::isfinite(s.work_flops[i]) && std::isfinite(s.kept[i])) kept += s.kept[i], ++steps;
  if (steps > 0)  // rounded so that the two parts add up to the rows written above
    line += printf_text(": %.0f kept by the leverage sample, %.0f summed by the sketch", std::round(kept / steps),
                        std::round(rows) - std::round(kept / steps));
  if (!s.work_flops.empty() && std::isfinite(s.work_flops[0]))
    line += printf_text("; once before the first step %.3g million flops, %.0f rows", s.work_flops[0] / 1e6, s.work_rows[0]);
  return line + ".";
}

}  // namespace

std::vector<std::string> results_notes(const RegressionRun& run, const std::vector<Trace>& traces) {
  std::vector<std::string> notes;
  // Solver states and speed.
  for (std::size_t k = 0; k < traces.size(); ++k) {
    const Trace& s = traces[k];
    const std::string label = method_label(run.methods[k]);
    notes.push_back(s.size() == 0 ? label + ": waiting to start." : solver_note(label, s, run.options.tolerance));
    if (s.size() == 0) continue;
    if (is_sampled(run.methods[k])) {
      const std::string note = sampling_note(label, s, run.options.sampling, run.problem.n(), run.problem.d());
      if (!note.empty()) notes.push_back(note);
    }
  }
  // The work per step: every Newton-type solver's, then the sampled against the unsampled one.
  for (std::size_t k = 0; k < traces.size(); ++k)
    if (std::string note = work_note(method_label(run.methods[k]), traces[k], run.problem.n()); !note.empty())
      notes.push_back(std::move(note));
  const auto unsampled = std::find(run.methods.begin(), run.methods.end(), Method::ApproxDiag);
  if (unsampled != run.methods.end()) {
    const Trace& full = traces[static_cast<std::size_t>(unsampled - run.methods.begin())];
    const double base = mean_work(full).first, base_whole = whole_work(full);
    for (std::size_t k = 0; k < traces.size(); ++k) {
      const double flops = mean_work(traces[k]).first, whole = whole_work(traces[k]);
      if (!is_sampled(run.methods[k]) || !(base > 0.0) || std::isnan(flops)) continue;
      const std::string other = method_label(Method::ApproxDiag);
      notes.push_back(std::string(method_label(run.methods[k])) +
                      printf_text(": a step costs %.2f times the flops of one of ", flops / base) + other +
                      (flops < base ? " (cheaper)" : " (not cheaper at this n and d)") +
                      printf_text("; its whole run, %.2f times the flops of the whole run of ", whole / base_whole) +
                      other + ".");
    }
  }
  for (const std::string& n : run.notes) notes.push_back(n);
  for (std::string& n : minima_notes(run, traces)) notes.push_back(std::move(n));
  if (std::any_of(run.methods.begin(), run.methods.end(), is_sampled)) {
    if (run.options.sampling.rule == SamplingRule::Budget)
      notes.push_back("Ours: leverage-score sampling keeps row i with probability min(1, samples tau_i / d), not the "
                      "rule min(1, C tau_i log(d/delta) / eps1^2) that we read from Lemma 6.4 (sampling = paper).");
    if (run.options.sampling.scores == LeverageScores::Sketch)
      notes.push_back("Ours: the leverage scores are sketched (a uniform-sample Gram matrix and a 16-column "
                      "Johnson-Lindenstrauss projection), not exact (leverage = exact).");
  }
  return notes;
}
// [SECTION] Results

Results regression_results(const RegressionRun& run, const std::vector<Trace>& traces) {
  Results r;
  r.table = results_table(run.methods, traces);
  r.plots = results_plots(run, traces, r.table);
  r.notes = results_notes(run, traces);
  r.heatmaps = results_figures(run, traces);
  return r;
}

}  // namespace attnlab::regression
