#include "lab/sweep.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "lab/schema.hpp"
#include "lab/text.hpp"

namespace attnlab {

Sweep parse_sweep(const Schema& schema, const std::string& param_key, const std::string& text) {
  const std::string form = "; write none, KEY=FROM:TO:STEP or KEY=V1,V2,...";
  auto fail = [&](const std::string& why) -> Sweep {
    throw ParamError("parameter '" + param_key + "': '" + text + "' " + why);
  };
  Sweep sweep;
  if (text == "none" || text.empty()) return sweep;
  const std::size_t eq = text.find('=');
  if (eq == std::string::npos) return fail("has no '='" + form);
  sweep.key = text.substr(0, eq);
  const ParamSpec* target = schema.find(sweep.key);
  if (!target || !target->sweepable) {
    std::string allowed;
    for (const auto& s : schema.specs())
      if (s.sweepable) allowed += (allowed.empty() ? "" : ", ") + s.key;
    return fail("sweeps '" + sweep.key + "', which cannot be swept; sweepable: " + allowed);
  }
  const std::string rest = text.substr(eq + 1);
  // Each value is validated exactly as if it were set on its own.
  auto value_of = [&](const std::string& item) { return schema.validate(sweep.key, item).number; };
  if (rest.find(':') != std::string::npos) {
    auto parts = split(rest, ':');
    if (parts.size() != 3) return fail("needs exactly FROM:TO:STEP" + form);
    const double from = value_of(parts[0]);
    const double to = value_of(parts[1]);
    const double step = is_plain_decimal(parts[2]) ? std::strtod(parts[2].c_str(), nullptr) : 0.0;
    if (!(step > 0.0) || !std::isfinite(step))
      return fail("has step '" + parts[2] + "'; the step must be a positive number");
    if (target->type == ParamType::Integer && step != std::floor(step))
      return fail("has step '" + parts[2] + "'; '" + sweep.key + "' is an integer, so the step must be too");
    if (to < from) return fail("runs backwards; FROM must not exceed TO");
    const double count = std::floor((to - from) / step + 1e-9) + 1.0;
    if (count > static_cast<double>(kMaxSweepPoints))
      return fail("has " + format_number(count) + " points; at most " +
                  format_number(static_cast<double>(kMaxSweepPoints)) + " are allowed");
    for (long long k = 0; k < static_cast<long long>(count); ++k) {
      // from + k*step, rounded to 12 significant digits so that 0.1-steps give clean values.
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.12g", from + static_cast<double>(k) * step);
      double x = std::strtod(buf, nullptr);
      if (x > to) x = to;
      sweep.values.push_back(x);
    }
  } else {
    auto parts = split(rest, ',');
    if (parts.size() > kMaxSweepPoints) return fail("has too many points");
    for (const auto& p : parts) sweep.values.push_back(value_of(p));
  }
  return sweep;
}

Params first_sweep_point(const Schema& schema, const Params& params, const std::string& param_key) {
  const Sweep sweep = parse_sweep(schema, param_key, params.text(param_key));
  if (!sweep.active()) return params;
  Params first = params;
  schema.set(first, sweep.key, format_number(sweep.values.front()));
  return first;
}

}  // namespace attnlab
