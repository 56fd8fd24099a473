// `mirror` (docs/mirror.md): what prepare() decodes from the parameters and what every unit and
// results() read: the runs (seed x p), the settings they share and the SVMs they are compared with.
// Shapes: W is d x d, v in R^d, with d the dimension of the data's tokens.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/rng.hpp"
#include "experiments/mirror/dataset.hpp"
#include "experiments/mirror/trainer.hpp"
#include "lab/schema.hpp"

namespace attnlab::mirror {

// The SVM p's of the paper's 3 x 3 figure (docs/mirror.md s.4).
inline constexpr double kComparePs[3] = {1.75, 2.0, 3.0};

// Whose tokens the SVM of p' in the 3 x 3 comparison is solved on: the same seed's p' run's (the
// authors' code: run-correlations-W.sh pairs the iterates of run p with the SVM saved by run p'), or
// this run's own (ours). The parameter's texts: mirror_schema.cpp.
enum class SvmTokens { Authors, ThisRun };
// Where the data comes from (parameter `data`).
enum class DataKind { Synthetic, JointToy, File };

// One mirror-descent run. Every p of a seed starts from the same data and the same W0 (docs/mirror.md s.4).
struct RunPlan {
  double p = 2.0;                // the potential's p
  int seed_index = 0;            // 0, 1, ...: the data and W0 are drawn from seed + seed_index
  int iterations = 0;            // mirror-descent steps
  std::vector<int> checkpoints;  // increasing, 0 to iterations: the steps k where curves are sampled
};

// What prepare() fixes for every run; each unit keeps its own copy.
struct RunSetup {
  TrainerSettings settings;                   // settings.p is set per run
  DataKind data_kind = DataKind::Synthetic;  // synthetic, joint_toy or file
  std::shared_ptr<const Dataset> file_data;   // the loaded data file (data = file)
  int n = 6, T = 8, d = 10;                   // synthetic sizes
  std::uint64_t seed = 1;                     // the run's seed
  bool init_zero = false, init_cone = false;  // W0 = 0; W0 in the cone of the own-p SVM
  double init_std = 1.0;                      // standard deviation of W0's Gaussian entries
  SvmTokens svm_tokens = SvmTokens::Authors;  // the tokens of the 3 x 3's SVMs
};

// The prepared run: the runs seed-major (seed 0's p's, then seed 1's, ...), unit u holding seed u's.
struct PreparedRun {
  RunSetup setup;                        // what every run reads
  std::vector<double> ps;                // the p's of the sweep, or the one p, in sweep order
  std::vector<RunPlan> runs;             // every run, seed-major
  std::size_t runs_per_unit = 1;         // every p of one seed
  int data_d = 10, data_T = 8;           // the sizes of every seed's data
  std::vector<std::int64_t> unit_costs;  // mirror-descent steps per unit
};

// The data of the seed index's runs.
inline Dataset dataset_for(const RunSetup& setup, int seed_index) {
  if (setup.data_kind == DataKind::JointToy) return joint_toy_dataset();
  if (setup.data_kind == DataKind::File) return *setup.file_data;
  return synthetic_dataset(setup.n, setup.T, setup.d, setup.seed + static_cast<std::uint64_t>(seed_index));
}

// W0 before the cone's SVM term (docs/mirror.md s.4): zero, or entries N(0, init_std^2) drawn from
// seed + seed_index (stream 99), the same for every p of the seed. d is the data's token dimension.
inline Eigen::MatrixXd random_start(const RunSetup& setup, int seed_index, int d) {
  Eigen::MatrixXd W0 = Eigen::MatrixXd::Zero(d, d);
  if (setup.init_zero) return W0;
  Rng rng = Rng::for_stream(setup.seed + static_cast<std::uint64_t>(seed_index), 99);
  for (Eigen::Index k = 0; k < W0.size(); ++k) W0.data()[k] = setup.init_std * rng.normal();
  return W0;
}

inline std::string label_p(double p) { return "p=" + format_number(p); }

// The two entries of W the single-run path plot follows (0-indexed), as the authors' plotter.ipynb
// does (docs/mirror.md s.4): W[1,2] and W[3,4] when d >= 5 (its "Single Experiment" cell calls
// plot_directions(result['Ws'], result['att-svm'], (1, 2), (3, 4), ...) on numpy arrays, and Ws holds
// the paper's W: logits x_t^T W z); (W[0,0], W[0,1]) otherwise, as its joint-training cells do on
// the d = 2 toy. None for d = 1.
struct PathEntries {
  int ra, ca, rb, cb;  // W[ra, ca] and W[rb, cb]
};
inline std::optional<PathEntries> path_entries(int d) {
  if (d >= 5) return PathEntries{1, 2, 3, 4};
  if (d >= 2) return PathEntries{0, 0, 0, 1};
  return std::nullopt;
}

}  // namespace attnlab::mirror
