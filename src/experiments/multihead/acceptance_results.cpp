#include "experiments/multihead/acceptance_results.hpp"

#include <cstdio>

#include "core/statistics.hpp"
#include "lab/text.hpp"

namespace attnlab::multihead {

Results acceptance_results(const AcceptanceRun& run, const std::vector<std::optional<Partial>>& slots) {
  Results r;
  r.table.columns = {"m", "eps", "norm", "rows", "accepted", "rate", "rate_low", "rate_high"};
  r.table.key = {{"rows", "attention rows tried: inputs drawn times their k rows"},
                 {"accepted", "rows certified (accepted)"},
                 {"rate", "accepted / rows"},
                 {"rate_low", "lower end of the rate's Wilson 95% range"},
                 {"rate_high", "upper end of the rate's Wilson 95% range"}};
  Series s{"acceptance per (sample, row), Wilson 95%", SeriesStyle::LineMarkers, {}, {}, {}, {}};
  for (std::size_t i = 0; i < run.params.size(); ++i) {
    std::int64_t accepted = 0, counted = 0;
    for (std::int64_t b = 0; b < run.blocks; ++b)
      if (const auto& slot = slots[i * static_cast<std::size_t>(run.blocks) + static_cast<std::size_t>(b)]) {
        accepted += static_cast<std::int64_t>(slot->value("accepted"));
        counted += static_cast<std::int64_t>(slot->value("samples"));
      }
    if (counted == 0) continue;
    const std::int64_t rows = counted * run.params[i].integer("k");
    const Interval ci = wilson_interval(accepted, rows);
    const double rate = double(accepted) / double(rows);
    r.table.rows.push_back({double(run.params[i].integer("m")), run.params[i].real("eps"), run.params[i].real("norm"),
                            double(rows), double(accepted), rate, ci.low, ci.high});
    s.x.push_back(run.sweep.active() ? run.sweep.values[i] : double(run.params[i].integer("m")));
    s.y.push_back(rate);
    s.y_low.push_back(ci.low);
    s.y_high.push_back(ci.high);
    char buf[200];
    std::snprintf(buf, sizeof buf,
                  "m = %lld, eps = %g, ||Theta|| = %g: %lld of %lld rows accepted (rate %.3g, Wilson 95%% "
                  "[%.3g, %.3g]).",
                  run.params[i].integer("m"), run.params[i].real("eps"), run.params[i].real("norm"),
                  static_cast<long long>(accepted), static_cast<long long>(rows), rate, ci.low, ci.high);
    r.notes.push_back(buf);
  }
  // The fall per head, between consecutive m of an m sweep (docs/multihead.md s.5).
  const std::size_t points = r.table.rows.size();
  if (run.sweep.sweeps("m"))
    for (std::size_t i = 1; i < points; ++i) {
      const std::vector<double>& a = r.table.rows[i - 1];
      const std::vector<double>& b = r.table.rows[i];
      if (a[4] > 0 && b[4] > 0)
        r.notes.push_back(printf_text("From m = %.0f to m = %.0f the rate falls %.3g times", a[0], b[0], a[5] / b[5]) +
                          printf_text(" (%.0f and %.0f accepted rows).", a[4], b[4]));
    }
  Plot p = Plot::titled("Certification acceptance").x(run.sweep.active() ? run.sweep.key : "m").y("accepted rows / rows")
               .log_y_axis();
  p.series.push_back(s);
  r.plots.push_back(p);
  return r;
}

}  // namespace attnlab::multihead
