// The `regression.icl` run that prepare() builds and the units and results() read (docs/design.md
// "The run: prepare, units, merge, results"), and one move's measurements: the table's columns and
// the fields of its unit's partial.
#pragma once
#include <Eigen/Core>
#include <vector>

#include "experiments/regression/loss.hpp"
#include "experiments/regression/problem.hpp"

namespace attnlab::regression {

inline constexpr const char* kIclColumns[] = {"delta",          "b_shift",  "shift_per_delta", "bound",
                                              "identity_error", "alpha_new"};
using Row = std::vector<double>;  // one move: the values of kIclColumns

// The size of one move, the x axis of the results' plots and of the inputs' picture.
inline const char* move_size_name(bool move_A) { return move_A ? "||A_{t+1} - A_t||" : "||x_{t+1} - x_t||"; }

struct IclRun {
  Problem problem;                // A (n x d) and b
  Point base;                     // the problem evaluated at x_t
  Eigen::VectorXd x, direction;   // x_t and the unit direction dx of a move of x
  Eigen::MatrixXd direction_A;    // the direction dA with ||dA||_2 = 1 (when A moves)
  bool move_A = false;            // parameter `perturb`
  double measure_norm = 1.0;      // ||A||
  std::vector<double> deltas;     // unit k moves by deltas[k]
};

}  // namespace attnlab::regression
