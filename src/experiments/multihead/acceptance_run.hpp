// The `multihead.acceptance` run that prepare() builds and the units and results() read
// (docs/multihead.md s.5; docs/design.md "The run: prepare, units, merge, results"): per sweep
// point its parameters and its instance, split into blocks of kBlock samples.
#pragma once
#include <Eigen/Core>
#include <cstdint>
#include <memory>
#include <vector>

#include "experiments/multihead/certification.hpp"
#include "experiments/multihead/layer.hpp"
#include "lab/experiment.hpp"
#include "lab/sweep.hpp"

namespace attnlab::multihead {

constexpr std::int64_t kBlock = 10000;  // samples per unit
constexpr std::int64_t kPiece = 256;    // samples per piece

// One sweep point's instance, read-only by its units. Every point uses the instance of the run's
// seed for its (d, k, m, norm), so points differ only in what the sweep changes.
struct AcceptancePoint {
  Layer truth;
  Eigen::MatrixXd w_sum;
  CertifySettings settings;
  int k = 3;
};

// Units: sweep point x block, in that order (the last block of a point may be shorter).
struct AcceptanceRun {
  Sweep sweep;
  std::vector<Params> params;                                  // one per sweep point
  std::shared_ptr<const std::vector<AcceptancePoint>> points;  // the same, read by the tasks
  std::int64_t samples = 0, blocks = 1;                        // per point
  std::uint64_t seed = 1;
};

}  // namespace attnlab::multihead
