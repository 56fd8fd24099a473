// Index of this file
// [SECTION] Table
// [SECTION] Curves
// [SECTION] Notes on certification
// [SECTION] The enclosure of K: notes and plot
// [SECTION] Heatmap
// [SECTION] Notes
// [SECTION] results()
#include "experiments/multihead/multihead_results.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/det_math.hpp"
#include "experiments/multihead/head_search.hpp"
#include "lab/text.hpp"

namespace attnlab::multihead {

namespace {

// [SECTION] Table

// One row per phase I checkpoint (stage 1), refit round (2), the pipeline's result (3) and Adam's
// curve point (4).
Table results_table(const RunSettings& run, const PipelinePartial& pipe, const AdamPartial& adam) {
  const std::vector<double>& pipeline = pipe.pipeline;  // test MSE, Theta error, W error
  Table t;
  t.columns = {"stage", "x", "crude_error", "test_mse", "theta_error", "w_error"};
  t.key = {{"stage", "which part of the run the row is from: 1 the crude estimate of W_sum, 2 a refit round, "
                     "3 the learner's final result, 4 an Adam step"},
           {"x", "stage 1: examples N; stage 2: the refit round (0: before the first); stage 3: cert_samples, the "
                 "examples certification was given; stage 4: Adam's step"},
           {"crude_error", "relative error of the estimate of W_sum (stages 1 and 2; empty elsewhere)"},
           {"test_mse", "test error E ||F(X) - F^(X)||^2 (stages 3 and 4)"},
           {"theta_error", "relative error in Theta, heads matched (stages 3 and 4)"},
           {"w_error", "relative error in W, heads matched (stages 3 and 4)"}};
  for (std::size_t i = 0; i < pipe.crude_examples.size(); ++i)
    t.rows.push_back({1.0, pipe.crude_examples[i], pipe.crude_error[i], NAN, NAN, NAN});
  for (std::size_t i = 0; i < pipe.refit_error.size(); ++i)
    t.rows.push_back({2.0, double(i), pipe.refit_error[i], NAN, NAN, NAN});
  if (!pipeline.empty() && std::isfinite(pipeline[0]))
    t.rows.push_back({3.0, double(run.cert_total), NAN, pipeline[0], pipeline[1], pipeline[2]});
  for (std::size_t i = 0; i < adam.step.size(); ++i)
    t.rows.push_back({4.0, adam.step[i], NAN, adam.mse[i], adam.theta_error[i], adam.w_error[i]});
  return t;
}

// [SECTION] Curves

// The pipeline's curves: phase I, the refit rounds, the constraints' singular values, the latest
// certified row.
void results_pipeline_plots(const PipelinePartial& pipe, std::vector<Plot>& plots) {
  const std::vector<double>& crude_n = pipe.crude_examples;
  const std::vector<double>& crude_error = pipe.crude_error;
  const std::vector<double>& refit_curve = pipe.refit_error;
  const std::vector<double>& stream_alpha = pipe.stream_alpha;
  const std::vector<double>& stream_heads = pipe.stream_heads;
  const std::vector<double>& singular_values = pipe.singular_values;
  // Titles in words (walk 12: "Phase I" and sigma_j were unexplained under "More plots").
  Plot crude = Plot::titled("The learner's first, crude estimate of W_sum (the paper's phase one, Section 5)")
                   .x("examples N").y("||W^ - W_sum||_F / ||W_sum||_F")
                   .log_x_axis().log_y_axis();
  crude.series.push_back({"W^ = (1/(kN)) sum (X^T 1)(1^T Y)", SeriesStyle::LineMarkers, crude_n, crude_error, {}, {}});
  if (!crude_n.empty()) {
    Series ref{"N^(-1/2) (pure sampling noise)", SeriesStyle::Reference, {}, {}, {}, {}};
    for (double n : crude_n) ref.x.push_back(n), ref.y.push_back(crude_error.front() * std::sqrt(crude_n.front() / n));
    crude.series.push_back(ref);
  }
  plots.push_back(crude);
  if (!refit_curve.empty()) {
    Plot refit = Plot::titled("Certify, then refit (ours): W_sum error per round").x("round")
                     .y("||W^ - W_sum|| / ||W_sum||").log_y_axis();
    Series rs{"refitted W^", SeriesStyle::LineMarkers, {}, refit_curve, {}, {}};
    for (std::size_t i = 0; i < refit_curve.size(); ++i) rs.x.push_back(double(i));
    refit.series.push_back(rs);
    plots.push_back(refit);
  }
  if (!singular_values.empty()) {
    Plot sv = Plot::titled("Singular values of the certified constraints").x("index (d^2 columns)")
                  .y("singular value").log_y_axis().x_axis(AxisFlags_Index);
    Series ss{"singular values, largest first", SeriesStyle::LineMarkers, {}, singular_values, {}, {}};
    for (std::size_t j = 0; j < singular_values.size(); ++j) ss.x.push_back(double(j));
    sv.series.push_back(ss);
    plots.push_back(sv);
  }
  if (!stream_alpha.empty()) {
    Plot stream = Plot::titled("Certification stream: the latest certified row").x("token").y("attention weight")
                      .y_range(0, 1).x_axis(AxisFlags_Index);
    const std::size_t k = stream_alpha.size();
    std::vector<double> tokens;
    for (std::size_t t = 0; t < k; ++t) tokens.push_back(double(t));
    stream.series.push_back({"alpha* (simplex edge fit)", SeriesStyle::Bars, tokens, stream_alpha, {}, {}});
    for (std::size_t i = 0; i * k < stream_heads.size(); ++i)
      stream.series.push_back({"head " + std::to_string(i + 1) + " (hidden)", SeriesStyle::LineMarkers, tokens,
                               std::vector<double>(stream_heads.begin() + i * k, stream_heads.begin() + (i + 1) * k),
                               {}, {}});
    plots.push_back(stream);
  }
}

// Adam's curves, then both learners' final test errors on one axis.
void results_adam_plots(const RunSettings& run, const PipelinePartial& pipe, const AdamPartial& adam,
                        std::vector<Plot>& plots) {
  const std::vector<double>& pipeline = pipe.pipeline;  // test MSE, Theta error, W error
  const double pipeline_mse = pipeline.empty() ? NAN : pipeline[0];
  const std::vector<double>& adam_step = adam.step;
  const std::vector<double>& adam_mse = adam.mse;
  const std::vector<double>& adam_theta = adam.theta_error;
  const std::vector<double>& adam_w = adam.w_error;
  const double seconds[2] = {pipe.seconds, adam.seconds};
  Plot mse = Plot::titled("Adam: test error").x("Adam step").y("E ||F(X) - F^(X)||_F^2 (test set)").log_y_axis();
  Plot params =
      Plot::titled("Adam: parameter error, heads matched").x("Adam step").y("relative error (Frobenius norm)").log_y_axis();
  mse.series.push_back({"test MSE", SeriesStyle::Line, adam_step, adam_mse, {}, {}});
  params.series.push_back({"Theta", SeriesStyle::Line, adam_step, adam_theta, {}, {}});
  params.series.push_back({"W", SeriesStyle::Line, adam_step, adam_w, {}, {}});
  // The learner's errors in Theta and W as levels across Adam's steps (a hover at any step reads them).
  if (pipeline.size() >= 3 && !adam_step.empty()) {
    const std::vector<double> across = {adam_step.front(), adam_step.back()};
    for (int j : {1, 2})
      if (const double error = pipeline[static_cast<std::size_t>(j)]; std::isfinite(error)) {
        params.series.push_back({std::string(j == 1 ? "Theta" : "W") + ": the learner's final error (flat line)",
                                 SeriesStyle::Line, across, {error, error}, {}, {}});
        params.series.back().flags = SeriesFlags_Level;
      }
  }
  plots.push_back(mse);
  plots.push_back(params);
  // Both learners on one axis: final test error against the distinct examples each used (Adam: its
  // training set; the pipeline: every example it drew), with wall-clock times in the legend.
  if (std::isfinite(pipeline_mse) || !adam_step.empty()) {
    Plot versus = Plot::titled("Final test error against examples used").x("distinct examples")
                      .y("E ||F(X) - F^(X)||_F^2 (floored at 1e-32)").log_x_axis().log_y_axis();
    if (!adam_step.empty())
      versus.series.push_back({printf_text("Adam (%.1f s)", seconds[1]), SeriesStyle::LineMarkers,
                               {double(run.adam.samples)}, {std::max(adam_mse.back(), 1e-32)}, {}, {}});
    if (std::isfinite(pipeline_mse)) {
      const double used = double(run.crude_total + run.pool_total + run.cert_total + run.heldout_total);
      versus.series.push_back({printf_text("the lab's version of the paper's learner (%.1f s)", seconds[0]), SeriesStyle::LineMarkers,
                               {used}, {pipeline_mse}, {}, {}});
    }
    plots.push_back(versus);
  }
}

// [SECTION] Notes on certification

// Why certification departs from Alg. 1 (docs/multihead.md s.2): the edge rule and the 2 eps slab, against
// the size of the right-hand sides at this run's eps.
std::string certification_note(const RunSettings& run) {
  const double eps = run.certify.eps, paper = 7.0 * eps, largest = std::log(2.0);
  return printf_text("Ours: every row is certified on the simplex edges (a least-squares fit of one weight t per token "
                     "pair, accepted when the residual is < eps/2 and t, 1 - t >= 1/3), not by the paper's fit over the "
                     "whole simplex for row 1 (Alg. 1, steps 8-10), and its slabs have half-width 2 eps = %.3g, not the "
                     "paper's 7 eps = %.3g (step 12). A right-hand side log(t / (1 - t)) has |rhs| <= log 2 = 0.693: ",
                     2.0 * eps, paper) +
         (paper < largest
              ? printf_text("7 eps is %.0f%% of that, so the paper's slabs leave K (the set the constraints carve out) "
                            "loose around the heads; ",
                            100.0 * paper / largest)
              : std::string("7 eps exceeds it, so Theta = 0 satisfies every constraint; ")) +
         "2 eps keeps K tight, at the price of the constraints a true head misses (counted above)" +
         (run.enclosure ? "; the notes on K below measure both widths." : "; 'enclosure' measures K at both widths.");
}

// [SECTION] The enclosure of K: notes and plot

// The two minimum-norm points' notes, from the pipeline's six numbers per programme (e) and the
// hull's reference numbers.
std::vector<std::string> enclosure_min_norm_notes(const RunSettings& run, const std::vector<double>& e,
                                                  const std::vector<double>& reference) {
  std::vector<std::string> notes;
  const std::size_t programmes = e.size() / 6;
  auto at = [&](std::size_t k, std::size_t j) { return e[6 * k + j]; };
  if (programmes >= 1 && at(0, 0) == 1.0 && reference.size() == 2)
    notes.push_back(printf_text("K, the set the certified constraints carve out (slabs |<A_j, Theta> - rhs_j| <= 2 eps): its "
                                "minimum-norm point has norm %.4g, %.3g from the min-norm point of the heads' affine hull ",
                                at(0, 1), at(0, 2)) +
                    printf_text("(relative; norm %.4g; measured with the hidden heads), against %.3g for the SVD point "
                                "theta_p; solved exactly by an interior-point method (duality gap %.2g per constraint, ",
                                reference[0], reference[1], at(0, 3)) +
                    printf_text("worst violation %.2g, %.0f iterations).", at(0, 4), at(0, 5)));
  if (programmes >= 2 && at(1, 0) == 1.0 && reference.size() == 2)
    notes.push_back(printf_text("With the paper's 7 eps slabs (Alg. 1, step 12) K is wider: its minimum-norm point has "
                                "norm %.4g, %.0f%% of the hull's, %.3g from it (%.3g at 2 eps): the wider slabs let it ",
                                at(1, 1), 100.0 * at(1, 1) / reference[0], at(1, 2), at(0, 2)) +
                    (at(1, 1) > 1e-9 ? "move towards Theta = 0, which is still outside K (some right-hand sides exceed "
                                      "7 eps)."
                                    : "reach Theta = 0 (every right-hand side is within 7 eps)."));
  if (programmes >= 2 && at(0, 0) == 1.0 && at(1, 0) == 1.0) {
    double largest = 0.0;  // ||Theta_1||_F, the largest head (measured with the hidden heads)
    for (const auto& T : run.truth.Theta) largest = std::max(largest, T.norm());
    const bool inside = std::max(at(0, 1), at(1, 1)) <= 2.0 * largest;
    notes.push_back(printf_text("Ours: K is the slabs alone; the paper's K (Eq. 102) is also cut by the ball ||Theta||_F <= "
                                "2 ||Theta_1||_F = %.4g (measured with the hidden heads), which the lab leaves out. ",
                                2.0 * largest) +
                    (inside ? "Both minimum-norm points lie inside that ball, so they are the same for the paper's K; "
                              "the width probes can be wider than over the paper's K."
                            : "A minimum-norm point lies outside that ball, so the paper's K would give another one; "
                              "the width probes can be wider than over the paper's K."));
  }
  return notes;
}

// The width probes' note and bar plot: a max and a min per probe direction, after the two
// minimum-norm points.
void enclosure_width_probes(const RunSettings& run, const std::vector<double>& e, std::vector<std::string>& notes,
                            std::vector<Plot>& plots) {
  const std::size_t programmes = e.size() / 6;
  auto at = [&](std::size_t k, std::size_t j) { return e[6 * k + j]; };
  const double eps = run.certify.eps;
  // Probes: a width per direction, max - min.
  std::vector<double> widths[3], index[3];
  std::string random_list;
  double measured_diff = NAN, recovered = NAN;
  for (std::size_t k = 2; k + 1 < programmes; k += 2) {
    if (at(k, 0) != 1.0 || at(k + 1, 0) != 1.0) continue;
    const int kind = static_cast<int>(at(k, 1));
    const double width = at(k, 2) - at(k + 1, 2);
    widths[kind].push_back(width);
    index[kind].push_back(double((k - 2) / 2 + 1));
    if (kind == 0) random_list += (random_list.empty() ? "" : ", ") + printf_text("%.3g", width);
    if (kind == 1) recovered = width;
    if (kind == 2) measured_diff = width;
  }
  if (programmes > 2) {
    std::string line = printf_text("LP width probes of K, max - min <U, Theta> over K for unit U (the slab is %.3g wide): ",
                                   4.0 * eps);
    if (!random_list.empty()) line += "random directions " + random_list;
    if (!std::isnan(recovered)) line += printf_text("; the recovered direction %.4g", recovered);
    if (!std::isnan(measured_diff)) {
      const double length = (run.truth.Theta[0] - run.truth.Theta[1]).norm();
      line += printf_text("; Theta_1 - Theta_2 (hidden heads) %.4g, against ||Theta_1 - Theta_2|| = %.4g", measured_diff,
                          length);
    }
    notes.push_back(line + ". K hugs the heads' affine hull: thin across it, long along it.");
    // One bar series (bars of one width and colour); the axis label says which probe is which.
    std::string axis;
    Series bars{"max - min <U, Theta> over K", SeriesStyle::Bars, {}, {}, {}, {}};
    const char* names[3] = {"random", "the recovered direction", "Theta_1 - Theta_2 (hidden heads)"};
    for (int kind = 0; kind < 3; ++kind) {
      if (widths[kind].empty()) continue;
      bars.x.insert(bars.x.end(), index[kind].begin(), index[kind].end());
      bars.y.insert(bars.y.end(), widths[kind].begin(), widths[kind].end());
      axis += (axis.empty() ? "probe: " : "; ") +
              (index[kind].size() > 1 ? printf_text("%.0f-%.0f ", index[kind].front(), index[kind].back())
                                      : printf_text("%.0f ", index[kind].front())) +
              names[kind];
    }
    Plot plot = Plot::titled("Width of K along probe directions (LP)").x(axis).y("max - min <U, Theta> over K");
    plot.series.push_back(std::move(bars));
    const double last = double((programmes - 2) / 2) + 0.5;
    plot.series.push_back({printf_text("slab width 4 eps = %.3g", 4.0 * eps), SeriesStyle::Reference, {0.5, last},
                           {4.0 * eps, 4.0 * eps}, {}, {}});
    if (run.m >= 2) {
      const double length = (run.truth.Theta[0] - run.truth.Theta[1]).norm();
      plot.series.push_back({"||Theta_1 - Theta_2||_F", SeriesStyle::Reference, {0.5, last}, {length, length}, {}, {}});
    }
    plots.push_back(plot);
  }
}

// The enclosure's notes and plot (docs/multihead.md s.2, optional parts) from the pipeline's six numbers per
// programme (PipelineTask::enclosure_step): the two minimum-norm points, then a max and a min per
// probe direction.
std::vector<std::string> describe_enclosure(const RunSettings& run, const std::vector<double>& e,
                                            const std::vector<double>& reference, std::vector<Plot>& plots) {
  std::vector<std::string> notes = enclosure_min_norm_notes(run, e, reference);
  enclosure_width_probes(run, e, notes, plots);
  return notes;
}

// [SECTION] Heatmap

// The m = 2 head search's first round, log10 of the held-out loss per cell.
std::vector<Heatmap> results_heatmaps(const PipelinePartial& pipe) {
  const std::vector<double>& grid = pipe.search_grid;
  std::vector<Heatmap> heatmaps;
  if (!grid.empty()) {
    Heatmap h{"Head search: held-out loss over (c_1, c_2) (m = 2)", "c_2", "c_1", kGridSize, kGridSize, {}, 0.0,
              1.0, "log10 of the held-out loss after the value regression; two symmetric minima (swapped heads)", {},
              {}};
    double lo = INFINITY, hi = -INFINITY;
    for (double v : grid) {
      const double l = dmath::log10(std::max(v, 1e-300));
      h.values.push_back(l);
      lo = std::min(lo, l), hi = std::max(hi, l);
    }
    h.low = lo, h.high = hi > lo ? hi : lo + 1.0;
    h.value_label = "log10 held-out loss";
    heatmaps.push_back(h);
  }
  return heatmaps;
}

// [SECTION] Notes

std::vector<std::string> results_notes(const RunSettings& run, const AssumptionMeter& meter,
                                       const PipelinePartial& pipe, const AdamPartial& adam,
                                       std::vector<std::string> enclosure_notes) {
  const std::vector<double>& crude_n = pipe.crude_examples;
  const std::vector<double>& crude_error = pipe.crude_error;
  const std::vector<double>& refit_curve = pipe.refit_error;
  const std::vector<double>& cert = pipe.certification;  // done, rows accepted, constraints, violated
  const std::vector<double>& span_cos = pipe.span_cos;
  const std::vector<double>& pipeline = pipe.pipeline;  // test MSE, Theta error, W error
  const double pipeline_mse = pipeline.empty() ? NAN : pipeline[0];
  const std::string& message = pipe.message;
  const std::vector<double>& adam_step = adam.step;
  const std::vector<double>& adam_mse = adam.mse;
  const std::vector<double>& adam_theta = adam.theta_error;
  const std::vector<double>& adam_w = adam.w_error;
  const double seconds[2] = {pipe.seconds, adam.seconds};
  std::vector<std::string> notes;
  for (const auto& line : meter.lines) notes.push_back(line);
  if (!crude_n.empty())
    notes.push_back(printf_text("The crude estimate of W_sum (the paper's phase one): relative error %.3g after %.0f examples; it levels off at the estimator's bias "
                        "(attention depends on X; Theorem 5.1 bounds it under the paper's assumptions), tens of percent "
                        "at the lab's sizes (ours, measured).",
                        crude_error.back(), crude_n.back()));
  if (refit_curve.size() > 1)
    notes.push_back(run.paper_phase3 ? printf_text("The lab's version of the paper's phase III (Alg. 2): W_sum error %.3g -> %.3g.",
                                        refit_curve.front(), refit_curve.back())
                                  : printf_text("Ours: certify, then refit (not the paper's): W_sum error %.3g -> %.3g in %.0f "
                                        "rounds.",
                                        refit_curve.front(), refit_curve.back(), double(refit_curve.size() - 1)));
  if (!cert.empty() && cert[0] > 0) {
    const double rows = cert[0] * run.k;
    notes.push_back(printf_text("Certification: %.0f of %.0f rows accepted", cert[1], rows) +
                    printf_text(" (rate %.3g), %.0f constraints against d^2 = %.0f unknowns (%.3g per unknown)",
                        cert[1] / rows, cert[2], double(run.d() * run.d()), cert[2] / double(run.d() * run.d())) +
                    printf_text("; %.0f (head, constraint) pairs leave the 2 eps slab (measured with the hidden heads).",
                        cert[3]));
  }
  if (!cert.empty() && cert[2] >= double(run.most_constraints()))
    notes.push_back(printf_text("Certification stopped after %.0f of its %.0f samples: it kept %.0f constraints, the most "
                                "the lab holds at d = %.0f (ours: their decomposition then takes about a second).", cert[0], double(run.cert_total), cert[2],
                                double(run.d())));
  if (!cert.empty() && cert[0] > 0)
    notes.push_back(certification_note(run));
  if (run.paper_phase3 && refit_curve.size() > 1)
    notes.push_back("Ours, in this phase III: it certifies with 10 x eps, since the crude W^ it starts from is tens "
                    "of percent off; it reads the proxy Theta~ off those constraints by least squares, not as the minimum-norm "
                    "point of K (Section 7); and it keeps an example when the first query row's largest proxy logit "
                    "beats the others by 2, not when X_1 Theta~ X_2^T > C / sqrt(Z) (Alg. 2, step 3).");
  if (!span_cos.empty())
    notes.push_back("Ours: the span comes from an SVD of the constraints and the heads from a search along it (a grid for "
                    "m = 2, Nelder-Mead for m >= 3), not from the nets of Algs. 3/4, whose size dominates the paper's "
                    "cost: O(||Theta_1||_F / zeta)^O(m^2) orthonormal tuples found by membership queries to K, each "
                    "combined with a net of coefficient vectors, O(||Theta_1||_F / zeta)^O(m^2) O(1/eps*)^O(m^2) "
                    "matrices in all (Lemma 8.1); (dk)^O(m^3) matrices and time at the paper's settings (Section 10).");
  if (!span_cos.empty())
    notes.push_back(printf_text("Span extraction: |cos| between the recovered directions and the true differences "
                        "Theta_1 - Theta_i is at least %.4f (an independent simulation measured >= 0.999).",
                        span_cos[0]));
  if (std::isfinite(pipeline_mse))
    notes.push_back(printf_text("Pipeline: Theta error %.3g, W error %.3g", pipeline[1], pipeline[2]) +
                    printf_text(", test MSE %.3g, %.2f s.", pipeline_mse, seconds[0]));
  if (!message.empty()) notes.push_back("Pipeline: " + message + ".");
  for (std::string& note : enclosure_notes) notes.push_back(std::move(note));
  if (!adam_step.empty())
    notes.push_back(printf_text("Adam: test MSE %.3g, Theta error %.3g", adam_mse.back(), adam_theta.back()) +
                    printf_text(", W error %.3g after %.0f steps (%.2f s).", adam_w.back(), adam_step.back(),
                        seconds[1]));
  notes.push_back(std::string("The honest story: Adam recovers random instances from far fewer examples, with no "
                              "guarantee; the paper proves its algorithm learns every layer that meets its non-degeneracy "
                              "assumptions (Theorem 1.2; this small instance does not, see the meter above), from "
                              "(kd)^Theta(m) examples in (kd)^O(m^3) time, to test loss (kd)^-Omega(m): a bound "
                              "on prediction error, none on the error in Theta compared here.") +
                  (run.enclosure ? "" : " The exact min-norm point of K and the LP width probes (ours, optional): "
                                        "switch on 'enclosure'."));
  return notes;
}

}  // namespace

// [SECTION] results()

// The units' partials, read in unit order: the pipeline's, then Adam's.
Results multihead_results(const RunSettings& run, const AssumptionMeter& meter,
                          const std::optional<Partial>& pipeline_slot, const std::optional<Partial>& adam_slot) {
  const PipelinePartial pipe = decode_pipeline(pipeline_slot);
  const AdamPartial adam = decode_adam(adam_slot);
  Results r;
  r.table = results_table(run, pipe, adam);
  results_pipeline_plots(pipe, r.plots);
  results_adam_plots(run, pipe, adam, r.plots);
  std::vector<std::string> enclosure_notes = describe_enclosure(run, pipe.enclosure, pipe.enclosure_reference, r.plots);
  if (!pipe.enclosure_failure.empty())
    enclosure_notes.push_back("K: a programme did not finish: " + pipe.enclosure_failure +
                              " (some certified constraints miss the heads by more than the slab).");
  r.heatmaps = results_heatmaps(pipe);
  r.notes = results_notes(run, meter, pipe, adam, std::move(enclosure_notes));
  return r;
}

}  // namespace attnlab::multihead
