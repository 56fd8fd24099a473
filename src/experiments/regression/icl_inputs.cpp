#include "experiments/regression/icl_inputs.hpp"

#include <cmath>

#include "experiments/regression/generator.hpp"
#include "experiments/regression/icl_run.hpp"
#include "experiments/regression/icl_schema.hpp"
#include "experiments/regression/icl_unit.hpp"
#include "experiments/regression/regression_inputs.hpp"
#include "experiments/regression/regression_schema.hpp"

namespace attnlab::regression {

Results icl_inputs(const Params& params, std::uint64_t seed) {
  Results r;
  const GeneratorSettings s = shared_generator_settings(params);  // throws when n < d, as the run does
  const std::vector<double> deltas = sweep_deltas(params);
  const bool move_A = kPerturbTable.decode(params, "perturb") == Perturb::A;
  const double largest = deltas.empty() ? 0.0 : deltas.back();
  if (double(s.n) * double(s.d) <= kPictureEntries) {
    const Problem problem = generate(s, seed);
    Eigen::VectorXd x, direction;
    draw_point(params, seed, s.d, x, direction);
    const Point at = evaluate(problem, x);
    if (!at.finite) throw ParamError("parameter 'x_norm': exp/cosh/sinh of A x overflows at this x");
    // (A x)_i over the sweep: linear in delta when x moves (extremes at delta = 0 and the largest),
    // within largest ||x|| of A x_t when A moves (||dA||_2 = 1).
    double lo = at.Ax.minCoeff(), hi = at.Ax.maxCoeff();
    if (move_A) {
      lo -= largest * x.norm(), hi += largest * x.norm();
    } else {
      const Eigen::VectorXd moved = at.Ax + largest * (problem.A * direction);
      lo = std::min(lo, moved.minCoeff()), hi = std::max(hi, moved.maxCoeff());
    }
    r.plots.push_back(function_plot("Inputs: the function u over the range of (A x)_i during the step", s.function,
                                    lo, hi, std::vector<double>(at.Ax.data(), at.Ax.data() + at.Ax.size()),
                                    "entries of A x_t (where the step starts)"));
  } else {
    // |(A x)_i| <= ||A|| ||x||, and a move adds at most ||A|| delta (x moves) or delta ||x|| (A moves).
    const double x_norm = params.real("x_norm");
    const double R = s.norm * x_norm + largest * (move_A ? x_norm : s.norm);
    r.plots.push_back(function_plot("Inputs: the function u over [-R, R], R = ||A|| ||x_t|| + the largest move",
                                    s.function, -R, R, {}, ""));
  }
  // The move size on the x axis, as in the results' plots (walk 13: an x axis of sweep point
  // numbers said nothing); each point's number up the y axis.
  Plot sweep = Plot::titled("Inputs: the move sizes swept, one point each")
                   .x(move_size_name(move_A))
                   .y("sweep point")
                   .log_x_axis()
                   .y_axis(AxisFlags_Index);
  std::vector<double> index;
  for (std::size_t k = 0; k < deltas.size(); ++k) index.push_back(double(k + 1));
  sweep.series.push_back({"move size delta", SeriesStyle::LineMarkers, deltas, index, {}, {}});
  if (!deltas.empty()) r.plots.push_back(sweep);
  return r;
}

}  // namespace attnlab::regression
