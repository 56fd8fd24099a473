// The `regression` results table (docs/regression.md s.3): one row per iteration t, for each solver
// its distance, loss gap, gradient norm, contraction ratio and eps0 (and a sampled solver's sample),
// each column said in words (Table::key).
#include "experiments/regression/regression_results.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "experiments/regression/solvers.hpp"

namespace attnlab::regression {

Table results_table(const std::vector<Method>& methods, const std::vector<Trace>& traces) {
  Table t;
  t.columns = {"t"};
  t.key = {{"t", "iteration t (an empty cell: that solver had stopped before t)"}};
  // Each column and its words (lab/column_key.hpp): the solver's name, then what is measured.
  struct Measured {
    const char *column, *words;
    bool sampled_only;  // a sampled solver's own (its sample's size and error)
  };
  const Measured measured[] = {
      {"distance", "distance ||x_t - x*||", false},
      {"loss_gap", "L(x_t) - L(x*)", false},
      {"grad_norm", "gradient norm ||grad L(x_t)||", false},
      {"ratio", "contraction ratio ||x_t - x*|| / ||x_(t-1) - x*||", false},
      {"eps0", "eps0 of the step into x_t: max |lambda - 1| of its matrix against the Hessian at x_(t-1) "
               "(empty at t = 0, for Newton and for gradient descent)", false},
      {"kept", "rows the sample of the step into x_t kept", true},
      {"expected_rows", "rows kept in expectation (the sum of the sampling probabilities)", true},
      {"sampling_eps", "the spectral error of the step into x_t's sample against the full matrix", true}};
  for (Method m : methods) {
    // Wall-clock times are not in the table (they differ run to run); the notes report them.
    for (const auto& [c, words, sampled_only] : measured) {
      if (sampled_only && !is_sampled(m)) continue;
      t.columns.push_back(std::string(method_key(m)) + "_" + c);
      t.key.push_back({t.columns.back(), std::string(method_label(m)) + ": " + words});
    }
  }
  std::size_t rows = 0;
  for (const Trace& s : traces) rows = std::max(rows, s.size());
  const double nan = NAN;
  for (std::size_t i = 0; i < rows; ++i) {
    std::vector<double> row{double(i)};
    for (std::size_t k = 0; k < traces.size(); ++k) {
      const Trace& s = traces[k];
      const bool sampled = is_sampled(methods[k]);
      if (i >= s.size()) {
        row.insert(row.end(), sampled ? 8 : 5, nan);
        continue;
      }
      const double ratio = i > 0 && s.distance[i - 1] > 0.0 ? s.distance[i] / s.distance[i - 1] : nan;
      row.insert(row.end(), {s.distance[i], s.loss_gap[i], s.grad_norm[i], ratio, s.eps0[i]});
      if (sampled) row.insert(row.end(), {s.kept[i], s.expected_rows[i], s.sampling_eps[i]});
    }
    t.rows.push_back(std::move(row));
  }
  return t;
}

}  // namespace attnlab::regression
