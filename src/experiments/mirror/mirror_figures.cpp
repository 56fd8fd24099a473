// `mirror` (docs/mirror.md): the figures of p's shown run (seed index 0): its final direction against
// its SVM and its softmax as heatmaps, the path of two entries, D_k against the SVM of the current
// alpha and, for joint training, the path of v (mirror_results.hpp, results_figures).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>
#include <utility>

#include "experiments/mirror/mirror_map.hpp"
#include "experiments/mirror/mirror_results.hpp"
#include "lab/text.hpp"

namespace attnlab::mirror {

namespace {

// |M| on a colour scale from 0 to its largest entry.
Heatmap magnitude_heatmap(const std::string& title, const Eigen::MatrixXd& M) {
  Heatmap h{title, "column", "row", static_cast<int>(M.rows()), static_cast<int>(M.cols()), {}, 0.0, 1.0, "", {}, {}};
  for (Eigen::Index i = 0; i < M.rows(); ++i)
    for (Eigen::Index j = 0; j < M.cols(); ++j) h.values.push_back(std::fabs(M(i, j)));
  h.high = std::max(1e-300, M.cwiseAbs().maxCoeff());
  h.note = "|entries|; colour scale 0 to the largest";
  return h;
}

// The own-p SVM's direction W_mm / ||W_mm||_p of the shown run.
Eigen::MatrixXd svm_direction(const RunRecord& first) { return first.svm_W / std::max(1e-300, first.svm_norm); }

// Heatmaps of the first seed's final direction against its SVM, and its softmax at the end.
void shown_heatmaps(const PreparedRun& run, double p, const RunRecord& first, std::vector<Heatmap>& out) {
  const Eigen::MatrixXd& W = first.final_W;
  const Eigen::MatrixXd Wn = W / std::max(1e-300, entrywise_norm(W, p));
  const Eigen::MatrixXd Sn = svm_direction(first);
  Heatmap wk = magnitude_heatmap("|W_k| / ||W_k||_p at the end, " + label_p(p) + " (seed 1)", Wn);
  const double largest = Wn.cwiseAbs().maxCoeff();
  wk.note = printf_text("%.0f of %.0f entries below 1%% of the largest", double((Wn.cwiseAbs().array() < 0.01 * largest).count()),
                        double(Wn.size()));
  out.push_back(wk);
  out.push_back(magnitude_heatmap("|W_mm| / ||W_mm||_p, " + label_p(p), Sn));
  out.push_back(magnitude_heatmap("|W_k / ||W_k|| - W_mm / ||W_mm|||, " + label_p(p), Wn - Sn));
  // The softmax of every sequence at the end (rows: sequences, columns: tokens); the selected
  // token and the SVM's support tokens are marked.
  if (!first.final_s.empty()) {
    const int T = run.data_T, n = static_cast<int>(first.final_s.size()) / T;
    Heatmap soft{"softmax s_it at the end, " + label_p(p) + " (rows: sequences, columns: tokens)", "token t",
                 "sequence i", n, T, first.final_s, 0.0, 1.0, "ringed: support tokens of the SVM (each scores exactly 1 below its sequence's chosen token at W_mm; like "
                 "every token but the chosen one, they end with almost no attention)", {}, {}};
    for (std::size_t k = 0; k + 1 < first.support.size(); k += 2)
      soft.marks.push_back({static_cast<int>(first.support[k]), static_cast<int>(first.support[k + 1]), "support token"});
    out.push_back(soft);
  }
}

// The path of two entries of W_k / ||W_k|| against the SVM's direction (docs/mirror.md s.4: W[1,2] and
// W[3,4] of a single run, 0-indexed; (W00, W01) for the d = 2 joint toy).
std::optional<Plot> path_plot(const PreparedRun& run, double p, const RunRecord& first) {
  const auto e = path_entries(run.data_d);
  if (!e || first.path_wa.empty()) return std::nullopt;
  const Eigen::MatrixXd Sn = svm_direction(first);
  const std::string a = printf_text("W[%.0f,%.0f]", double(e->ra), double(e->ca));
  const std::string b = printf_text("W[%.0f,%.0f]", double(e->rb), double(e->cb));
  Plot path = Plot::titled("Path of (" + a + ", " + b + ") / ||W_k||_p, " + label_p(p) + " (seed 1, 0-indexed)")
      .x(a + " / ||W||_p").y(b + " / ||W||_p");
  Series walk{"W_k", SeriesStyle::LineMarkers, {}, {}, {}, {}};
  for (std::size_t c = 0; c < first.path_wa.size(); ++c) {
    const double nrm = first.norm[c];
    if (nrm > 0.0) walk.x.push_back(first.path_wa[c] / nrm), walk.y.push_back(first.path_wb[c] / nrm);
  }
  path.series.push_back(walk);
  path.series.push_back({"SVM direction (final alpha)", SeriesStyle::Reference, {0.0, Sn(e->ra, e->ca)},
                         {0.0, Sn(e->rb, e->cb)}, {}, {}});
  return path;
}

// D_k of the shown run against the own-p SVM of the final alpha and of the alpha current at
// each checkpoint; the checkpoints after which alpha had changed are marked (docs/mirror.md s.5, s.6).
std::optional<Plot> current_alpha_plot(const PreparedRun& run, const MergedRecords& records, double p,
                                       const RunRecord& first) {
  if (first.D_current_alpha.empty()) return std::nullopt;
  Plot current = Plot::titled("Seed 1, " + label_p(p) + ": D_k against the SVM of the current and of the final alpha")
      .x("iteration k").y("D_psi(W_mm/||W_mm||, W_k/||W_k||)").log_x_axis().log_y_axis();
  std::vector<int> own_ks;  // the shown run's checkpoints
  for (std::size_t i = 0; i < run.runs.size(); ++i)
    if (records[i] && &*records[i] == &first) own_ks = run.runs[i].checkpoints;
  Series final_alpha{"SVM of the final alpha", SeriesStyle::Line, {}, {}, {}, {}};
  Series current_alpha{"SVM of the current alpha", SeriesStyle::LineMarkers, {}, {}, {}, {}};
  double low = INFINITY, high = -INFINITY;
  for (std::size_t c = 0; c < first.D_current_alpha.size() && c < own_ks.size(); ++c) {
    final_alpha.x.push_back(own_ks[c]), final_alpha.y.push_back(first.D_final_alpha[c]);
    current_alpha.x.push_back(own_ks[c]), current_alpha.y.push_back(first.D_current_alpha[c]);
    for (double v : {first.D_final_alpha[c], first.D_current_alpha[c]})
      if (std::isfinite(v) && v > 0.0) low = std::min(low, v), high = std::max(high, v);
  }
  current.series = {final_alpha, current_alpha};
  // A vertical mark at each step where alpha changed (segments apart, split by NaN).
  if (std::isfinite(low) && !first.change_ks.empty()) {
    Series changed{"selection changed", SeriesStyle::Reference, {}, {}, {}, {}};
    for (double k : first.change_ks) {
      if (k <= 0.0) continue;
      changed.x.insert(changed.x.end(), {k, k, NAN});
      changed.y.insert(changed.y.end(), {low, high, NAN});
    }
    current.series.push_back(changed);
  }
  return current;
}

// Joint training: the (v0, v1) path against the v-SVM ray.
std::optional<Plot> value_path_plot(double p, const RunRecord& first) {
  if (!first.has_v_svm || first.path_v0.size() <= 1) return std::nullopt;
  Plot vpath = Plot::titled("Path of (v0, v1) / ||v||_p, " + label_p(p)).x("v0 / ||v||_p").y("v1 / ||v||_p");
  Series walk{"v_k", SeriesStyle::LineMarkers, {}, {}, {}, {}};
  for (std::size_t c = 0; c < first.path_v0.size(); ++c) {
    const double nrm = first.path_v_norm[c];
    if (nrm > 0.0) walk.x.push_back(first.path_v0[c] / nrm), walk.y.push_back(first.path_v1[c] / nrm);
  }
  vpath.series.push_back(walk);
  const double vn = std::max(1e-300, first.v_svm_norm);
  vpath.series.push_back({"v-SVM direction", SeriesStyle::Reference, {0.0, first.v_svm_W[0] / vn},
                          {0.0, first.v_svm_W[1] / vn}, {}, {}});
  return vpath;
}

}  // namespace

void results_figures(const PreparedRun& run, const MergedRecords& records, double p, Results& out) {
  const RunRecord* first = shown_record(run, records, p);
  if (!first) return;
  shown_heatmaps(run, p, *first, out.heatmaps);
  for (std::optional<Plot> plot :
       {path_plot(run, p, *first), current_alpha_plot(run, records, p, *first), value_path_plot(p, *first)})
    if (plot) out.plots.push_back(std::move(*plot));
}

}  // namespace attnlab::mirror
