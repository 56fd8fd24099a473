// The `regression` run's shared structs (docs/design.md "The run: prepare, units, merge, results"):
// the prepared run that prepare() builds and the units and results() read, and one solver's trace,
// which its unit sends as its partial. n: rows of A, d: columns of A, T: a trace's length
// (iterations + 1).
#pragma once
#include <Eigen/Core>
#include <cmath>
#include <string>
#include <vector>

#include "experiments/regression/solvers.hpp"
#include "experiments/regression/theory_checks.hpp"
#include "lab/results.hpp"

namespace attnlab::regression {

// The d = 2 contour's grid: kContourGrid x kContourGrid cells.
constexpr int kContourGrid = 120;

// The prepared run, read-only while units run (start_unit hands out references to it).
struct RegressionRun {
  Problem problem;                 // A (n x d), b (n), w (n), x0 (d), x_true (d or empty): the problem solved
  MatrixFacts facts;               // ||A||, kappa(A), nnz(A), measured once per run
  Reference reference;             // x* (d) and L*, found by damped exact Newton
  TheoryReport theory;             // the theorem's conditions and constants, as note lines
  SolverOptions options;           // the options every solver shares
  std::vector<Method> methods;     // unit k runs methods[k]
  std::vector<std::string> notes;  // the problem's notes, shown after the solvers' own
  Heatmap contour;                 // d = 2 only: log10(L - L*) on the grid, x* and x0 marked
  Eigen::Array2d lo, hi;           // d = 2 only: the grid's lowest and highest corner (x_1, x_2)
};

// What results() needs of one solver, and all its unit sends: the trace per iteration (entry 0 is
// the start), the final state, and the timings, which only the notes show (they differ run to
// run; the table must not).
struct Trace {
  std::vector<double> distance;   // T: ||x_t - x*||
  std::vector<double> loss_gap;   // T: L(x_t) - L*
  std::vector<double> grad_norm;  // T: ||grad L(x_t)||
  std::vector<double> eps0;       // T: the step's measured eps0 (NaN where none was measured)
  // Sampled methods only (else empty), per iteration (NaN at the start):
  std::vector<double> kept;              // T: rows kept
  std::vector<double> expected_rows;     // T: rows expected (sum_i p_i)
  std::vector<double> sampling_eps;      // T: the spectral error of A^T D~ A against A^T D A
  std::vector<double> path_x1, path_x2;  // T each, d = 2 only (else empty): the iterates (the contour's paths)
  // Newton-type methods (else empty), per iteration: the counted work of building H~ (or H) and
  // solving with it (loss.hpp's Work), and the rows summed into its Gram matrices. Entry 0 is the
  // work done once before the first step (A^T W^2 A for approx_w2; NaN for the others).
  std::vector<double> work_flops;        // T
  std::vector<double> work_rows;         // T
  double flags = 0;                      // IterationFlag bits seen over the run
  double clamped = 0;                    // entries of D clamped, summed over the run
  double seconds = 0;                    // solver time, measurements excluded
  double seconds_to_1e10 = NAN;          // solver time until ||x - x*|| <= 1e-10, if reached
  std::string state;                     // the final SolverState, as text
  std::string message;                   // the solver's message ("" when it has none)
  std::size_t size() const { return distance.size(); }
};

inline bool is_sampled(Method m) { return m == Method::Sampled || m == Method::SampledRank2; }

}  // namespace attnlab::regression
