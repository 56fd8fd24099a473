// The `regression` results (docs/regression.md s.3, s.5): the table, the curves, the notes and,
// for d = 2, the contour with each solver's path, from the solvers' traces in unit order (empty for
// units not started yet): every reduction reads them in this order, so arrival order and slicing
// never change a byte.
#pragma once
#include <string>
#include <vector>

#include "experiments/regression/regression_run.hpp"
#include "lab/results.hpp"

namespace attnlab::regression {

Results regression_results(const RegressionRun& run, const std::vector<Trace>& traces);

// The parts of regression_results:
Table results_table(const std::vector<Method>& methods, const std::vector<Trace>& traces);
std::vector<Plot> results_plots(const RegressionRun& run, const std::vector<Trace>& traces, const Table& table);
std::vector<std::string> results_notes(const RegressionRun& run, const std::vector<Trace>& traces);
std::vector<Heatmap> results_figures(const RegressionRun& run, const std::vector<Trace>& traces);

// For d = 2: log10(L - L*) on a grid around x* that covers x0, with x* and x0 marked (computed once
// per run, by prepare): sets run.contour, run.lo and run.hi.
void compute_contour(RegressionRun& run);
// With cosh and d = 2: each solver's last iterate's distances to x* and to the other minimiser -x*,
// and how many of its iterates lie off the map (in regression_contour.cpp).
std::vector<std::string> minima_notes(const RegressionRun& run, const std::vector<Trace>& traces);

}  // namespace attnlab::regression
