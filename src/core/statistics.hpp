// Binomial statistics for success rates (docs/separation.md section 4: Wilson error bars).
#pragma once
#include <cstdint>

namespace attnlab {

struct Interval {
  double low;
  double high;
};

// Wilson score interval for k successes in n trials at normal quantile z (1.959963985 = 95%).
Interval wilson_interval(std::int64_t successes, std::int64_t trials, double z = 1.959963984540054);

// Standard error sqrt(p (1 - p) / n) of a binomial proportion with true rate p.
double binomial_standard_error(double p, std::int64_t trials);

}  // namespace attnlab
