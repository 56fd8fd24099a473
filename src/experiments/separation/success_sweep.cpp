#include "experiments/separation/success_sweep.hpp"

#include <cstdio>
#include <limits>
#include <stdexcept>

#include "core/statistics.hpp"

namespace attnlab::separation {

const char* const kComponentRates[4] = {"exp_d1", "lin_d1", "exp_d0", "lin_d0"};

ParamSpec trials_spec() {
  return ParamSpec::integer("trials", "trials per point")
      .range(1, 1000000).value("1000").in_units("trials").section("docs/separation.md s.4").log_slider()
      .help_text("Independent trials at each sweep point. Ours: 1000 by default (the paper: 1000 for Fig. 3, 100 for "
                 "Figs. 4, 5 and 7; paper_trials). 100 trials give about +-0.05 noise; 1000 give +-0.015.");
}

ParamSpec paper_trials_spec(int paper_count) {
  const std::string count = std::to_string(paper_count);
  return ParamSpec::boolean("paper_trials", "paper's trial count").value("false").section("docs/separation.md s.4")
      .help_text("Run " + count + " trials per point as the paper did, instead of the 'trials' parameter.");
}

std::int64_t trials_per_point(const Params& params, int paper_count) {
  return params.boolean("paper_trials") ? paper_count : params.integer("trials");
}

// Units of about trials / 32 trials each: enough units for every core and worker, each long enough
// that scheduling costs little.
constexpr std::int64_t kUnitsPerSweep = 32;

std::vector<std::int64_t> SuccessSweep::reset(const Schema& schema, const Params& params, std::uint64_t seed,
                                              const std::string& sweep_key, std::int64_t trials_per_point) {
  sweep_ = parse_sweep(schema, sweep_key, params.text(sweep_key));
  points_.clear();
  if (sweep_.active()) {
    for (double x : sweep_.values) {
      Params p = params;
      schema.set(p, sweep_.key, format_number(x));
      points_.push_back(p);
    }
  } else {
    points_.push_back(params);
  }
  trials_per_point_ = trials_per_point;
  block_ = (trials_per_point + kUnitsPerSweep - 1) / kUnitsPerSweep;
  seed_ = seed;
  std::vector<std::int64_t> costs;
  for (std::int64_t first = 0; first < trials_per_point; first += block_)
    costs.push_back(std::min(block_, trials_per_point - first) * static_cast<std::int64_t>(points_.size()));
  unit_tallies_.assign(costs.size(), {});
  return costs;
}

namespace {
constexpr int kTallyFields = 7;  // trials, successes, exp_d1, lin_d1, exp_d0, lin_d0, near_ties
}

Partial SuccessSweep::to_partial(const std::vector<OutcomeTally>& tallies) {
  std::vector<double> v;
  v.reserve(tallies.size() * kTallyFields);
  for (const OutcomeTally& c : tallies)
    for (std::int64_t x : {c.trials, c.successes, c.exp_d1, c.lin_d1, c.exp_d0, c.lin_d0, c.near_ties})
      v.push_back(static_cast<double>(x));
  Partial p;
  p.put("tallies", std::move(v));
  return p;
}

void SuccessSweep::merge(std::int64_t unit, const Partial& partial) {
  const std::vector<double>& v = partial.values("tallies");
  if (v.size() != points_.size() * kTallyFields)
    throw std::runtime_error("partial result: 'tallies' has " + std::to_string(v.size()) + " numbers; expected " +
                             std::to_string(points_.size() * kTallyFields));
  std::vector<OutcomeTally>& slot = unit_tallies_.at(static_cast<std::size_t>(unit));
  slot.assign(points_.size(), {});
  for (std::size_t i = 0; i < points_.size(); ++i) {
    const double* x = &v[i * kTallyFields];
    auto n = [&](int k) { return static_cast<std::int64_t>(x[k]); };
    slot[i] = {n(0), n(1), n(2), n(3), n(4), n(5), n(6)};
  }
}

std::vector<std::string> SuccessSweep::point_labels() const {
  std::vector<std::string> labels;
  for (std::size_t i = 0; i < points_.size(); ++i)
    labels.push_back(sweep_.active() ? sweep_.key + " = " + format_number(sweep_.values[i]) : "the only point");
  return labels;
}

void SuccessSweep::check_inspectable(std::size_t point, std::int64_t trial) const {
  if (point >= points_.size())
    throw ParamError("inspector point " + std::to_string(point) + " is out of range; allowed: 0 to " +
                     std::to_string(points_.size() - 1));
  if (trial < 0 || trial >= trials_per_point_)
    throw ParamError("inspector trial " + std::to_string(trial) + " is out of range; allowed: 0 to " +
                     std::to_string(trials_per_point_ - 1));
}

std::vector<OutcomeTally> SuccessSweep::tallies() const {
  std::vector<OutcomeTally> sum(points_.size());
  for (const auto& unit : unit_tallies_)
    for (std::size_t i = 0; i < unit.size(); ++i) sum[i] += unit[i];
  return sum;
}

Table SuccessSweep::table(const std::vector<std::string>& point_columns,
                          const std::function<std::vector<double>(std::size_t)>& describe) const {
  Table t;
  t.columns = point_columns;
  for (const char* c : {"trials", "successes", "success_rate", "ci_low", "ci_high"}) t.columns.push_back(c);
  for (const char* rate : kComponentRates)
    for (const char* suffix : {"", "_low", "_high"}) t.columns.push_back(std::string(rate) + suffix);
  t.columns.push_back("near_ties");
  // The columns in words (lab/column_key.hpp; the point's own columns are parameters or named by the
  // experiment).
  t.key = {{"successes", "trials that succeeded: softmax fired on D1 and nothing else fired"},
           {"success_rate", "successes / trials"},
           {"ci_low", "lower end of the success rate's Wilson 95% range"},
           {"ci_high", "upper end of the success rate's Wilson 95% range"},
           {"exp_d1*", "share of trials in which softmax fires on D1"},
           {"lin_d1*", "share of trials in which linear fires on D1"},
           {"exp_d0*", "share of trials in which softmax fires on D0"},
           {"lin_d0*", "share of trials in which linear fires on D0"},
           {"*_low", "lower end of its Wilson 95% range"},
           {"*_high", "upper end of its Wilson 95% range"},
           {"near_ties", "readout scores within 1e-9 tau of tau (per column; per row and column for attention), "
                         "summed over the trials and the four evaluations"}};
  const std::vector<OutcomeTally> tallies = this->tallies();
  for (std::size_t i = 0; i < points_.size(); ++i) {
    const OutcomeTally& c = tallies[i];
    if (c.trials == 0) continue;
    std::vector<double> row = describe(i);
    const double n = static_cast<double>(c.trials);
    const Interval ci = wilson_interval(c.successes, c.trials);
    for (double x : {n, static_cast<double>(c.successes), static_cast<double>(c.successes) / n, ci.low, ci.high}) row.push_back(x);
    // The four component rates with their own Wilson intervals (docs/separation.md s.4).
    for (std::int64_t k : {c.exp_d1, c.lin_d1, c.exp_d0, c.lin_d0}) {
      const Interval ck = wilson_interval(k, c.trials);
      for (double x : {static_cast<double>(k) / n, ck.low, ck.high}) row.push_back(x);
    }
    row.push_back(static_cast<double>(c.near_ties));
    t.rows.push_back(std::move(row));
  }
  return t;
}

std::string SuccessSweep::latest_point_summary(const Table& t, const std::string& x_column) const {
  const auto& row = t.rows.back();
  auto at = [&](const char* c) { return row[t.column(c)]; };
  char buf[200];
  std::snprintf(buf, sizeof buf, "Latest point: %s = %s, success %.3f (Wilson 95%% [%.3f, %.3f]) over %.0f trials",
                x_column.c_str(), format_number(row[t.column(x_column)]).c_str(), at("success_rate"), at("ci_low"),
                at("ci_high"), at("trials"));
  return buf;
}

std::vector<Plot> SuccessSweep::plots(const Table& t, const std::string& x_column, const Theory& theory) const {
  auto column = [&](const std::string& name) {
    std::vector<double> v;
    const int k = t.column(name);
    for (const auto& row : t.rows) v.push_back(k >= 0 ? row[k] : std::numeric_limits<double>::quiet_NaN());
    return v;
  };
  const std::vector<double> x = column(x_column);
  Plot success;
  success.title = "Success rate";
  success.x_label = x_column;
  success.y_label = "successes / trials, Wilson 95% bars";
  success.fixed_y = true;
  Series s{"success (Wilson 95%)", SeriesStyle::LineMarkers, x, column("success_rate"), column("ci_low"),
           column("ci_high")};
  success.series.push_back(s);
  const bool draw_theory = !theory.column.empty() &&
                           std::find(theory.axes.begin(), theory.axes.end(), x_column) != theory.axes.end();
  const Series theory_curve{theory.label, SeriesStyle::Reference, x, column(theory.column), {}, {}};
  if (draw_theory && theory.on_success) success.series.push_back(theory_curve);

  Plot parts;
  parts.title = "How often each network fires";
  parts.x_label = x_column;
  parts.y_label = "fraction of trials in which it fires (F > 0)";
  parts.fixed_y = true;
  // A trial succeeds when softmax fires on D1 and nothing else fires (docs/separation.md s.4).
  const char* names[] = {"softmax on D1", "linear on D1", "softmax on D0", "linear on D0"};
  const char* needs[] = {"success needs it to fire", "success needs it silent", "success needs it silent",
                         "success needs it silent"};
  for (int k = 0; k < 4; ++k) {
    const std::string rate = kComponentRates[k];
    Series series{std::string(names[k]) + " (" + needs[k] + ")", SeriesStyle::LineMarkers, x, column(rate),
                  column(rate + "_low"), column(rate + "_high")};
    // Drawn after an identical rate, it would hide that one: a plain line over its markers, and a note.
    for (int j = 0; j < k; ++j) {
      if (series.y.empty() || series.y != parts.series[static_cast<std::size_t>(j)].y) continue;
      series.style = SeriesStyle::Line;
      series.name = std::string(names[k]) + " (" + needs[k] + "; identical to " + names[j] + ")";
      break;
    }
    parts.series.push_back(std::move(series));
  }
  if (draw_theory && !theory.on_success) parts.series.push_back(theory_curve);
  return {success, parts};
}

}  // namespace attnlab::separation
