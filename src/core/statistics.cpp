#include "core/statistics.hpp"

#include <cmath>

namespace attnlab {

Interval wilson_interval(std::int64_t successes, std::int64_t trials, double z) {
  if (trials <= 0) return {0.0, 1.0};
  const double n = static_cast<double>(trials);
  const double p = static_cast<double>(successes) / n;
  const double z2 = z * z;
  const double denom = 1.0 + z2 / n;
  const double centre = (p + z2 / (2.0 * n)) / denom;
  const double half = z * std::sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n)) / denom;
  // At k = 0 (k = n) the lower (upper) end is exactly 0 (1); rounding must not move it.
  return {successes == 0 ? 0.0 : std::fmax(0.0, centre - half),
          successes == trials ? 1.0 : std::fmin(1.0, centre + half)};
}

double binomial_standard_error(double p, std::int64_t trials) {
  return std::sqrt(p * (1.0 - p) / static_cast<double>(trials));
}

}  // namespace attnlab
