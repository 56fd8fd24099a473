#include "experiments/separation/success_sweep.hpp"

#include <cstdio>
#include <limits>

#include "core/statistics.hpp"

namespace attnlab::separation {

const char* const kComponentRates[4] = {"exp_d1", "lin_d1", "exp_d0", "lin_d0"};

ParamSpec trials_spec() {
  return {"trials", "trials per point", ParamType::Integer, 1, 1000000, "1000", "trials",
          "Independent trials at each sweep point. 100 trials give about +-0.05 noise; 1000 give +-0.015.",
          "spec/separation.md s.4", {}, true};
}

ParamSpec paper_trials_spec(int paper_count) {
  const std::string count = std::to_string(paper_count);
  return {"paper_trials", "paper's trial count", ParamType::Boolean, 0, 0, "false", "",
          "Run " + count + " trials per point as the paper did, instead of the 'trials' parameter.",
          "spec/separation.md s.4"};
}

std::int64_t trials_per_point(const Params& params, int paper_count) {
  return params.boolean("paper_trials") ? paper_count : params.integer("trials");
}

void SuccessSweep::reset(const Schema& schema, const Params& params, std::uint64_t seed,
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
  tallies_.assign(points_.size(), OutcomeTally{});
  trials_per_point_ = trials_per_point;
  done_ = 0;
  seed_ = seed;
}

Table SuccessSweep::table(const std::vector<std::string>& point_columns,
                          const std::function<std::vector<double>(std::size_t)>& describe) const {
  Table t;
  t.columns = point_columns;
  for (const char* c : {"trials", "successes", "success_rate", "ci_low", "ci_high"}) t.columns.push_back(c);
  for (const char* rate : kComponentRates)
    for (const char* suffix : {"", "_low", "_high"}) t.columns.push_back(std::string(rate) + suffix);
  t.columns.push_back("near_ties");
  for (std::size_t i = 0; i < points_.size(); ++i) {
    const OutcomeTally& c = tallies_[i];
    if (c.trials == 0) continue;
    std::vector<double> row = describe(i);
    const double n = static_cast<double>(c.trials);
    const Interval ci = wilson_interval(c.successes, c.trials);
    for (double x : {n, static_cast<double>(c.successes), c.successes / n, ci.low, ci.high}) row.push_back(x);
    // The four component rates with their own Wilson intervals (spec s.4).
    for (std::int64_t k : {c.exp_d1, c.lin_d1, c.exp_d0, c.lin_d0}) {
      const Interval ck = wilson_interval(k, c.trials);
      for (double x : {k / n, ck.low, ck.high}) row.push_back(x);
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
  const Series theory_curve{theory.label, SeriesStyle::Reference, x, column(theory.column), {}, {}};
  if (!theory.column.empty() && theory.on_success) success.series.push_back(theory_curve);

  Plot parts;
  parts.title = "How often each network fires";
  parts.x_label = x_column;
  parts.y_label = "fraction of trials with F > 0";
  parts.fixed_y = true;
  const char* names[] = {"softmax on D1 (want 1)", "linear on D1 (want 0)", "softmax on D0 (want 0)",
                         "linear on D0 (want 0)"};
  for (int k = 0; k < 4; ++k) {
    const std::string rate = kComponentRates[k];
    parts.series.push_back(
        {names[k], SeriesStyle::LineMarkers, x, column(rate), column(rate + "_low"), column(rate + "_high")});
  }
  if (!theory.column.empty() && !theory.on_success) parts.series.push_back(theory_curve);
  return {success, parts};
}

}  // namespace attnlab::separation
