// `mirror` (docs/mirror.md): results() as named parts (mirror_results.hpp); the figures of the shown
// run are in mirror_figures.cpp.
//
// Index of this file
// [SECTION] Helpers
// [SECTION] Table
// [SECTION] Plots
// [SECTION] Notes
// [SECTION] Plots over p
// [SECTION] Results
#include "experiments/mirror/mirror_results.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <iterator>
#include <utility>

#include "core/det_math.hpp"
#include "experiments/mirror/mirror_map.hpp"
#include "lab/text.hpp"

namespace attnlab::mirror {

namespace {

// [SECTION] Helpers

// Mean and 10% / 90% quantiles of the finite values.
struct Summary {
  double mean = NAN, low = NAN, high = NAN;  // NaN without finite values
  int count = 0;                             // the finite values
};
Summary summarise(std::vector<double> v) {
  v.erase(std::remove_if(v.begin(), v.end(), [](double x) { return !std::isfinite(x); }), v.end());
  Summary s;
  s.count = static_cast<int>(v.size());
  if (v.empty()) return s;
  double sum = 0.0;
  for (double x : v) sum += x;
  s.mean = sum / static_cast<double>(v.size());
  std::sort(v.begin(), v.end());
  const double last = static_cast<double>(v.size() - 1);
  s.low = v[static_cast<std::size_t>(0.1 * last)];
  s.high = v[static_cast<std::size_t>(std::ceil(0.9 * last))];
  return s;
}

// [SECTION] Table

// The columns of p in the row of k, appended to `row`.
void append_columns_of_p(const PreparedRun& run, const MergedRecords& records, double p, int k,
                         std::vector<double>& row) {
  // The runs of this p that reached their checkpoint at iteration k, with its index c.
  std::vector<std::pair<const RunRecord*, std::size_t>> reached;
  for (std::size_t i = 0; i < run.runs.size(); ++i) {
    if (!records[i] || run.runs[i].p != p) continue;
    const std::vector<int>& own = run.runs[i].checkpoints;
    const auto at = std::lower_bound(own.begin(), own.end(), k);
    const auto c = static_cast<std::size_t>(at - own.begin());
    if (at != own.end() && *at == k && c < records[i]->norm.size()) reached.emplace_back(&*records[i], c);
  }
  for (std::size_t qi = 0; qi < 3; ++qi) {
    std::vector<double> values;
    for (const auto& [rec, c] : reached)
      if (rec->done) values.push_back(rec->D[qi][c]);
    const Summary s = summarise(values);
    row.insert(row.end(), {s.mean, s.low, s.high});
  }
  std::vector<double> norms, losses, probs, logits;
  for (const auto& [rec, c] : reached) {
    norms.push_back(rec->norm[c]);
    losses.push_back(rec->loss[c]);
    probs.push_back(rec->max_prob[c]);
    if (c < rec->logistic_prob.size()) logits.push_back(rec->logistic_prob[c]);
  }
  row.insert(row.end(), {summarise(norms).mean, summarise(losses).mean, summarise(probs).mean});
  if (run.setup.settings.joint) row.push_back(summarise(logits).mean);
}

// [SECTION] Plots

std::vector<double> table_column(const Table& t, const std::string& name) {
  std::vector<double> v;
  const int k = t.column(name);
  for (const auto& row : t.rows) v.push_back(row[static_cast<std::size_t>(k)]);
  return v;
}

// A curve over the rows where it has a value: a run's curve passes over the rows of other runs'
// checkpoints (e.g. p = 3's over k = 1500 and 2000) instead of breaking there.
Series curve(const Table& t, const std::string& name, SeriesStyle style, const std::string& y_name, bool band) {
  const std::vector<double> kx = table_column(t, "k");
  const std::vector<double> y = table_column(t, y_name);
  const std::vector<double> low = band ? table_column(t, y_name + "_low") : std::vector<double>{};
  const std::vector<double> high = band ? table_column(t, y_name + "_high") : std::vector<double>{};
  Series out{name, style, {}, {}, {}, {}};
  for (std::size_t i = 0; i < y.size(); ++i) {
    if (std::isnan(y[i])) continue;
    out.x.push_back(kx[i]);
    out.y.push_back(y[i]);
    if (band) out.y_low.push_back(low[i]), out.y_high.push_back(high[i]);
  }
  return out;
}

// [SECTION] Notes

// The index of the checkpoint nearest half of the run (of its last checkpoint): from there the notes
// read how much ||W_k||_p still grew over the run's last half.
std::size_t half_way(const std::vector<int>& ks) {
  std::size_t best = 0;
  for (std::size_t c = 0; c < ks.size(); ++c)
    if (std::abs(2 * ks[c] - ks.back()) < std::abs(2 * ks[best] - ks.back())) best = c;
  return best;
}

// The first note of p: how far its runs got, which SVM is closest, SVM quality, sparsity, tokens
// changes. None while no run of p is done.
std::optional<std::string> runs_note(const PreparedRun& run, const MergedRecords& records, double p) {
  int done = 0, own_closest = 0, saturated = 0, not_optimal = 0;
  double changes = 0.0;
  double worst_gap = 0.0, worst_violation = 0.0;
  std::vector<double> final_D, sparsity, half_norm, end_norm;
  int half_k = 0;
  for (std::size_t i = 0; i < run.runs.size(); ++i) {
    const std::optional<RunRecord>& rec = records[i];
    if (run.runs[i].p != p || !rec || !rec->done) continue;
    ++done;
    const std::size_t half = half_way(run.runs[i].checkpoints);
    if (half < rec->norm.size()) {
      half_norm.push_back(rec->norm[half]), end_norm.push_back(rec->norm.back());
      half_k = run.runs[i].checkpoints[half];
    }
    saturated += rec->saturated;
    std::size_t best = 0;
    for (std::size_t qi = 0; qi < 3; ++qi)
      if (rec->D[qi].back() < rec->D[best].back()) best = qi;
    own_closest += kComparePs[best] == p;
    final_D.push_back(rec->own_final_D);
    worst_gap = std::max(worst_gap, rec->own_gap);
    worst_violation = std::max(worst_violation, rec->own_violation);
    not_optimal += !rec->locally_optimal;
    changes += rec->alpha_changes;
    sparsity.push_back(rec->sparsity);
  }
  if (!done) return std::nullopt;
  std::string line = label_p(p) + printf_text(": %.0f runs done; final D_k against the own-p SVM: mean %.3g", done,
                                              summarise(final_D).mean);
  line += printf_text("; own-p SVM the closest of p' = 1.75, 2, 3 in %.0f of %.0f runs (%.3g%%)", own_closest, done,
                      100.0 * own_closest / done);
  line += printf_text("; SVM duality gap <= %.2g, violation <= %.2g", worst_gap, worst_violation);
  line += printf_text("; %.0f%% of entries of W_k below 1%% of the largest", 100.0 * summarise(sparsity).mean);
  if (done > 1)
    line += printf_text(" (per run %.0f%% to %.0f%%)", 100.0 * *std::min_element(sparsity.begin(), sparsity.end()),
                        100.0 * *std::max_element(sparsity.begin(), sparsity.end()));
  const double half_mean = summarise(half_norm).mean, end_mean = summarise(end_norm).mean;
  if (half_mean > 0.0)
    line += printf_text("; ||W_k||_p mean %.3g at k = %.0f (the checkpoint nearest half-way) and %.3g at the end, "
                        "%.3g times as large", half_mean, double(half_k), end_mean, end_mean / half_mean);
  if (not_optimal) line += printf_text("; %.0f ", not_optimal) + (not_optimal == 1 ? "run selects" : "runs select") + " tokens that are not locally optimal";
  if (saturated) line += printf_text("; %.0f ", saturated) + (saturated == 1 ? "run" : "runs") + " saturated (the gradient underflowed to 0)";
  line += printf_text("; the selection of tokens changed %.3g times per run on average", changes / done);
  return line + ".";
}

// Whose tokens the 3 x 3's SVMs were solved on; a note beginning "Ours: " where not the authors'.
std::vector<std::string> svm_tokens_notes(const PreparedRun& run) {
  if (run.setup.svm_tokens == SvmTokens::ThisRun)
    return {"Ours: the 3 x 3 comparison solves each p' SVM on this run's selected tokens; the authors' code takes the "
            "same seed's p' run's tokens (svm_tokens = authors)."};
  std::vector<std::string> notes{"The 3 x 3 comparison solves each p' SVM on the tokens the same seed's p' run selected, "
                                 "as the authors' code does; the diagonal is each run against its own SVM."};
  std::string missing;
  for (double q : kComparePs)
    if (std::find(run.ps.begin(), run.ps.end(), q) == run.ps.end())
      missing += (missing.empty() ? "" : ", ") + format_number(q);
  if (!missing.empty())
    notes.push_back("Ours: the sweep has no run of p' = " + missing +
                    ", so the SVM of that p' is solved on each run's own tokens.");
  return notes;
}

// The tokens the shown run of p selected, when alpha changed, and v for joint training.
std::string tokens_note(double p, const RunRecord& first) {
  std::string tokens = label_p(p) + ": selected tokens [";
  for (std::size_t i = 0; i < first.alpha.size(); ++i)
    tokens += (i ? ", " : "") + std::to_string(static_cast<int>(first.alpha[i]));
  tokens += "] (0-indexed)";
  if (first.change_ks.empty()) {
    tokens += "; the selection never changed during training";
  } else {
    tokens += "; the selection changed " + counted(static_cast<long long>(first.change_ks.size()), "time") + ", at k = ";
    for (std::size_t i = 0; i < first.change_ks.size() && i < 8; ++i)
      tokens += (i ? ", " : "") + format_number(first.change_ks[i]);
    if (first.change_ks.size() > 8) tokens += ", ...";
  }
  if (first.has_v_svm)
    tokens += printf_text("; v = (%.3g, %.3g), ||v_mm||_p = %.3g", first.v_final[0],
                          first.v_final.size() > 1 ? first.v_final[1] : 0.0, first.v_svm_norm);
  return tokens + ".";
}

// [SECTION] Plots over p

// The share of W_k's entries below 1% of the largest at the end, per p: the mean over the done runs,
// with bars from the sparsest to the least sparse run (the numbers of the notes, drawn); with one
// run per p, that run's share and no bars. A mark per p: a line between two p would suggest values between them.
Plot sparsity_plot(const PreparedRun& run, const MergedRecords& records) {
  const bool one_run = run.runs.size() <= run.ps.size();
  Plot plot = Plot::titled("Sparsity of W_k at the end, per p").x("p")
      .y(one_run ? "% of entries below 1% of the largest (one run per p)"
                 : "% of entries below 1% of the largest (mean; bars: range over runs)")
      .y_range(0, 100);
  Series share{"share of small entries", SeriesStyle::LineMarkers, {}, {}, {}, {}};
  share.flags = SeriesFlags_Marks;
  for (double p : run.ps) {
    std::vector<double> values;
    for (std::size_t i = 0; i < run.runs.size(); ++i)
      if (run.runs[i].p == p && records[i] && records[i]->done && std::isfinite(records[i]->sparsity))
        values.push_back(100.0 * records[i]->sparsity);
    if (values.empty()) continue;
    share.x.push_back(p);
    share.y.push_back(summarise(values).mean);
    share.y_low.push_back(*std::min_element(values.begin(), values.end()));
    share.y_high.push_back(*std::max_element(values.begin(), values.end()));
  }
  if (one_run) share.y_low.clear(), share.y_high.clear();  // a range over one run is no range
  plot.series.push_back(share);
  return plot;
}

// The token each sequence selects at the end (seed 1), per p: one curve per sequence, drawn side by
// side (SeriesFlags_Dodge), so that sequences ending on the same token both show (walk 6: a mark
// hidden under another) while the read-out and the table keep p itself (walk 10: p = 1.9875).
Plot selected_tokens_plot(const PreparedRun& run, const MergedRecords& records) {
  Plot plot = Plot::titled("Selected token of each sequence at the end, per p (seed 1)")
      .x("p (each sequence's marks drawn side by side)").y("selected token (0-indexed)").y_axis(AxisFlags_Index);
  for (double p : run.ps) {
    const RunRecord* first = shown_record(run, records, p);
    if (!first) continue;
    for (std::size_t i = 0; i < first->alpha.size(); ++i) {
      if (plot.series.size() <= i)
        plot.series.push_back({printf_text("sequence %.0f", double(i)), SeriesStyle::LineMarkers, {}, {}, {}, {},
                               SeriesFlags_Dodge});
      plot.series[i].x.push_back(p);
      plot.series[i].y.push_back(first->alpha[i]);
    }
  }
  return plot;
}

// D_k of the shown run of each p that is none of p' = 1.75, 2, 3 against its own SVM, added to the
// own-p plot: the table's own-p columns only exist for those three p.
// In sweep order, like the table's curves.
void add_other_own_curves(const PreparedRun& run, const MergedRecords& records, Plot& own) {
  std::size_t at = 0;  // where p's curve goes: after the curves of the p before it
  for (double p : run.ps) {
    if (std::find(std::begin(kComparePs), std::end(kComparePs), p) != std::end(kComparePs)) {
      ++at;
      continue;
    }
    const RunRecord* first = shown_record(run, records, p);
    if (!first || first->D_final_alpha.empty()) continue;
    Series s{"MD " + label_p(p) + " (seed 1)", SeriesStyle::LineMarkers, {}, {}, {}, {}};
    for (std::size_t i = 0; i < run.runs.size(); ++i) {
      if (!records[i] || &*records[i] != first) continue;
      const std::vector<int>& ks = run.runs[i].checkpoints;
      for (std::size_t c = 0; c < ks.size() && c < first->D_final_alpha.size(); ++c)
        if (std::isfinite(first->D_final_alpha[c])) s.x.push_back(ks[c]), s.y.push_back(first->D_final_alpha[c]);
    }
    own.series.insert(own.series.begin() + static_cast<std::ptrdiff_t>(at++), std::move(s));
  }
}

}  // namespace

// [SECTION] Results

const RunRecord* shown_record(const PreparedRun& run, const MergedRecords& records, double p) {
  const RunRecord* first = nullptr;  // seed 1's run (seed index 0), which the heatmaps show
  for (std::size_t i = 0; i < run.runs.size(); ++i) {
    const std::optional<RunRecord>& rec = records[i];
    if (run.runs[i].p != p || !rec || !rec->done) continue;
    if (rec->shown) first = &*rec;
  }
  return first;
}


Table results_table(const PreparedRun& run, const MergedRecords& records) {
  std::vector<int> ks;
  for (const RunPlan& plan : run.runs) ks.insert(ks.end(), plan.checkpoints.begin(), plan.checkpoints.end());
  std::sort(ks.begin(), ks.end());
  ks.erase(std::unique(ks.begin(), ks.end()), ks.end());
  Table t;
  t.columns = {"k"};
  // Each column and its words (lab/column_key.hpp).
  t.key = {{"k", "iteration k (an empty cell: k is not a checkpoint of that p's runs)"}};
  const auto add = [&t](const std::string& name, const std::string& words) {
    t.columns.push_back(name);
    t.key.push_back({name, words});
  };
  for (double p : run.ps) {
    const std::string run_p = "mirror descent with " + label_p(p);
    for (double q : kComparePs) {
      const std::string c = "D_" + label_p(p) + "_svm_" + label_p(q);
      const std::string d = "D_k of " + run_p + " to the SVM of " + label_p(q) + " (directional Bregman divergence)";
      add(c, "mean " + d + " over seeds");
      add(c + "_low", "10% quantile over seeds, rounded outward (the smallest with 10 seeds or fewer), of " + d);
      add(c + "_high", "90% quantile over seeds, rounded outward (the largest with 10 seeds or fewer), of " + d);
    }
    add("norm_" + label_p(p), "mean ||W_k||_p over seeds, " + run_p);
    add("loss_" + label_p(p), "mean training loss L(W_k) over seeds, " + run_p);
    add("max_prob_" + label_p(p), "mean largest softmax weight max_t s_it, " + run_p);
    if (run.setup.settings.joint)
      add("logistic_prob_" + label_p(p), "mean logistic probability sigma(Y_i x_(i,alpha_i)^T v_k), " + run_p);
  }
  for (int k : ks) {
    std::vector<double> row{double(k)};
    for (double p : run.ps) append_columns_of_p(run, records, p, k, row);
    t.rows.push_back(std::move(row));
  }
  return t;
}

std::vector<Plot> results_plots(const PreparedRun& run, const Table& t) {
  // One seed draws no band: its label says so rather than promise one (walk 12).
  const bool one_seed = run.runs.size() <= run.ps.size();
  Plot own = Plot::titled("Directional Bregman divergence to the SVM of the run's own p").x("iteration k")
      .y(one_seed ? "D_psi(W_mm/||W_mm||, W_k/||W_k||), one seed" : "D_psi(W_mm/||W_mm||, W_k/||W_k||), mean and 10-90% over seeds (min-max at 10 or fewer)")
      .log_x_axis().log_y_axis();
  Plot all = Plot::titled("Each p against every SVM p' (the paper's 3 x 3)").x("iteration k").y("mean D_k").log_x_axis()
      .log_y_axis();
  Plot norm = Plot::titled("Norm growth ||W_k||_p").x("iteration k")
      .y("mean ||W_k||_p; dashed: (eta k)^(1/(p-1))").log_x_axis().log_y_axis();
  Plot loss = Plot::titled("Training loss").x("iteration k").y("mean L(W_k)").log_x_axis().log_y_axis();
  Plot prob = Plot::titled("Softmax concentration").x("iteration k").y("mean max_t s_it").log_x_axis().y_range(0, 1);
  for (double p : run.ps) {
    for (double q : kComparePs) {
      const std::string c = "D_" + label_p(p) + "_svm_" + label_p(q);
      if (q == p) own.series.push_back(curve(t, "MD " + label_p(p), SeriesStyle::LineMarkers, c, true));
      all.series.push_back(curve(t, "MD " + label_p(p) + " vs SVM " + label_p(q),
                                 q == p ? SeriesStyle::LineMarkers : SeriesStyle::Line, c, false));
    }
    Series grown = curve(t, label_p(p), SeriesStyle::LineMarkers, "norm_" + label_p(p), false);
    std::vector<double> theory;
    for (double k : grown.x) theory.push_back(k > 0.0 ? dmath::pow(run.setup.settings.eta * k, 1.0 / (p - 1.0)) : NAN);
    norm.series.push_back({"(eta k)^(1/(p-1)), " + label_p(p), SeriesStyle::Reference, grown.x, theory, {}, {}});
    norm.series.insert(norm.series.end() - 1, std::move(grown));
    loss.series.push_back(curve(t, label_p(p), SeriesStyle::LineMarkers, "loss_" + label_p(p), false));
    prob.series.push_back(curve(t, label_p(p), SeriesStyle::LineMarkers, "max_prob_" + label_p(p), false));
  }
  // More curves than a reader tells apart: the texts name each p against its own SVM and the first p
  // against every SVM (the mirror story's step 3 quotes those), the others dim.
  if (all.series.size() > kSeriesShownMax)
    for (std::size_t k = 0; k < all.series.size(); ++k)
      if (all.series[k].style == SeriesStyle::LineMarkers || k < std::size(kComparePs)) all.series[k].flags |= SeriesFlags_Highlight;
  std::vector<Plot> plots = {own, all, norm, loss, prob};
  if (run.setup.settings.joint) {
    // The joint toy's plot (docs/mirror.md s.4): the mean logistic probability sigma(Y_i x_{i,alpha_i}^T v_k).
    Plot logit = Plot::titled("Logistic probability (joint training)").x("iteration k")
        .y("mean_i sigma(Y_i x_{i,alpha_i}^T v_k), alpha_i the current argmax").log_x_axis().y_range(0, 1);
    for (double p : run.ps)
      logit.series.push_back(curve(t, label_p(p), SeriesStyle::LineMarkers, "logistic_prob_" + label_p(p), false));
    plots.push_back(logit);
  }
  return plots;
}

std::vector<std::string> results_notes(const PreparedRun& run, const MergedRecords& records, double p) {
  std::vector<std::string> notes;
  std::optional<std::string> line = runs_note(run, records, p);
  if (!line) return notes;
  notes.push_back(std::move(*line));
  if (p == run.ps.front())
    for (std::string& note : svm_tokens_notes(run)) notes.push_back(std::move(note));
  const RunRecord* first = shown_record(run, records, p);
  if (first && (run.setup.data_kind != DataKind::Synthetic || run.runs.size() <= 3 * run.ps.size()))
    notes.push_back(tokens_note(p, *first));
  return notes;
}

Results mirror_results(const PreparedRun& run, const MergedRecords& records) {
  Results r;
  r.table = results_table(run, records);
  r.plots = results_plots(run, r.table);
  add_other_own_curves(run, records, r.plots.front());
  for (double p : run.ps) {
    for (std::string& note : results_notes(run, records, p)) r.notes.push_back(std::move(note));
    results_figures(run, records, p, r);
  }
  r.plots.push_back(sparsity_plot(run, records));
  if (run.setup.settings.joint) r.plots.push_back(selected_tokens_plot(run, records));
  return r;
}

}  // namespace attnlab::mirror
