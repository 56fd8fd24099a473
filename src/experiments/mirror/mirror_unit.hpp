// `mirror` (docs/mirror.md): the unit task, the runs of one seed (SeedUnit in mirror_unit.cpp), and
// its partial codec: each run's RunRecord, a run's compact share of its unit's Partial.
#pragma once
#include <Eigen/Dense>
#include <cmath>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "experiments/mirror/mirror_run.hpp"
#include "lab/work_unit.hpp"

namespace attnlab::mirror {

// What results() reads of one run, and nothing more. A unit's Partial holds it as fields
// "r<i>.<name>", i = the run's place in its unit. Curves have one entry per checkpoint reached, so
// the preview of a run in progress is the same record, shorter and not done. W is never kept per
// checkpoint: its norm is, and the two entries the path plot follows.
struct RunRecord {
  bool done = false;
  std::vector<double> loss, max_prob, norm;  // per checkpoint: L(W_k), mean_i max_t s_it, ||W_k||_p
  // Once done: the directional Bregman divergence to the SVM of each p' = 1.75, 2, 3 per checkpoint,
  // and what the notes count.
  std::vector<double> D[3];  // D[qi]: against the SVM of p' = kComparePs[qi]
  double own_final_D = NAN;                  // against the SVM of the run's own p, at the end
  double own_gap = 0.0, own_violation = 0.0;  // that SVM's duality gap and worst violation
  double sparsity = NAN;                      // share of the final W's entries below 1% of the largest
  bool saturated = false, locally_optimal = true;
  double alpha_changes = 0;                   // steps at which the selected tokens changed (docs/mirror.md s.5)
  // Joint training, per checkpoint: the mean logistic probability sigma(Y_i x_{i,alpha_i}^T v_k), with
  // alpha_i the current argmax of the softmax (as the authors' code records it).
  std::vector<double> logistic_prob;
  // Only for seed index 0, whose run of each p the heatmaps, path plots and token notes show.
  bool shown = false;
  std::vector<double> path_wa, path_wb;               // two entries of W_k per checkpoint (path_entries())
  std::vector<double> path_v0, path_v1, path_v_norm;  // v_k[0], v_k[1], ||v_k||_p (joint training)
  std::vector<double> alpha;                          // once done: the selected tokens,
  // per checkpoint: D_k against the own-p SVM of the final alpha and of the alpha current at k, and
  // the steps k at which alpha changed (docs/mirror.md s.6: "offer current alpha and final alpha")
  std::vector<double> D_final_alpha, D_current_alpha, change_ks;
  Eigen::MatrixXd final_W, svm_W;                     // d x d: W at the end and the own-p SVM,
  double svm_norm = 0.0;
  std::vector<double> support;  // the own-p SVM's support tokens, (i, t) pairs in a row
  std::vector<double> final_s;  // the softmax at the end, n x T row-major
  bool has_v_svm = false;       // joint training: v at the end and the v-SVM
  std::vector<double> v_final, v_svm_W;  // R^d each
  double v_svm_norm = 0.0;

  // Every field a unit's Partial holds of the run, in order, listed once (lab/partial_fields.hpp):
  // encode and decode walk it. Each tier is there only when the run has it.
  template <class Record, class Io>
  static void fields(Record& r, Io& io);

  void encode(Partial& out, const std::string& prefix) const;

  // `d`: the dimension of every dataset of the run. Throws std::runtime_error naming a missing field.
  static RunRecord decode(const Partial& in, const std::string& prefix, int d);
};

// The prefix of the fields of the run at `place` in its unit: "r<place>.".
inline std::string run_prefix(std::size_t place) { return "r" + std::to_string(place) + "."; }

// The unit of one seed: `plans`, every p of that seed, in sweep order. Its partial holds a RunRecord
// per run started, at run_prefix(place).
std::unique_ptr<UnitTask> make_seed_unit(const RunSetup& setup, std::vector<RunPlan> plans);

}  // namespace attnlab::mirror
