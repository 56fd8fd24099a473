#include "experiments/regression/icl_results.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>

#include "core/det_math.hpp"
#include "lab/text.hpp"

namespace attnlab::regression {

Results icl_results(const IclRun& run, const std::vector<std::optional<Row>>& slots) {
  Results r;
  r.table.columns.assign(std::begin(kIclColumns), std::end(kIclColumns));
  r.table.key = {{"delta", run.move_A ? "the move's size ||A_(t+1) - A_t||" : "the move's size ||x_(t+1) - x_t||"},
                 {"b_shift", "the target's shift ||b~ - b||"},
                 {"shift_per_delta", "the shift per unit of move, ||b~ - b|| / delta"},
                 {"bound", "our bound on the shift, about linear in the move"},
                 {"identity_error", "the residual identity's relative error (rounding level below 1e-12)"},
                 {"alpha_new", "alpha at the new point (b~ divides by it)"}};
  // The rows that came, in unit order (increasing delta), whatever order they came in.
  for (const auto& slot : slots)
    if (slot) r.table.rows.push_back(*slot);
  const std::vector<Row>& rows = r.table.rows;
  std::vector<double> delta, shift, bound, identity, slope_line;
  for (const auto& row : rows) {
    delta.push_back(row[0]);
    shift.push_back(row[1]);
    bound.push_back(row[3]);
    identity.push_back(row[4]);
  }
  const char* what = move_size_name(run.move_A);
  Plot p = Plot::titled("Target shift of one step (Corollary F.2)").x(what).y("||b~ - b||").log_x_axis().log_y_axis();
  p.series.push_back({"measured ||b~ - b||", SeriesStyle::LineMarkers, delta, shift, {}, {}});
  p.series.push_back({"our bound, linear in the move", SeriesStyle::Line, delta, bound, {}, {}});
  if (!rows.empty() && shift[0] > 0.0) {
    for (double x : delta) slope_line.push_back(shift[0] * x / delta[0]);
    p.series.push_back({"slope 1, from the first measured point (a curve of slope 1 lies on it)", SeriesStyle::Reference, delta, slope_line, {}, {}});
  }
  r.plots.push_back(p);
  Plot q = Plot::titled("Residual identity: u - alpha b~ at the new point equals u - alpha b at the old")
      .x(what).y("max error / max |entry|").log_x_axis().log_y_axis().rounding_band(kRoundingLevel);
  q.series.push_back({"relative error", SeriesStyle::LineMarkers, delta, identity, {}, {}});
  r.plots.push_back(q);
  if (rows.size() >= 2) {
    // Least-squares slope of log shift against log delta.
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    int m = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      if (!(shift[i] > 0.0)) continue;
      const double lx = dmath::log10(delta[i]), ly = dmath::log10(shift[i]);
      sx += lx, sy += ly, sxx += lx * lx, sxy += lx * ly, ++m;
    }
    if (m >= 2) r.notes.push_back(printf_text("Log-log slope of ||b~ - b|| against the move: %.4f (theory: 1).",
                                      (m * sxy - sx * sy) / (m * sxx - sx * sx)));
    double worst = 0.0;
    for (double e : identity) worst = std::max(worst, e);
    r.notes.push_back(printf_text("Residual identity: largest relative error %.2g over the sweep.", worst));
    double smallest_alpha = INFINITY;
    for (const auto& row : rows) smallest_alpha = std::min(smallest_alpha, std::fabs(row[5]));
    if (smallest_alpha < 1e-6 * std::max(1.0, run.base.u.cwiseAbs().sum()))
      r.notes.push_back(printf_text("Warning: |alpha(x_{t+1})| gets as small as %.2g: b~ divides by it, so ||b~ - b|| has no "
                            "linear bound here (the sinh case of docs/regression.md s.4).",
                            smallest_alpha));
  }
  return r;
}

}  // namespace attnlab::regression
