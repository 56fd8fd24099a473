// The mirror map's array powers (docs/mirror.md s.2): MagnitudePower::apply gives for every element
// the bits of the scalar form, and the scalar form those of the square-root formulas it stands for
// and, for the cube-root forms, a^(k/3) within 3 to 5 ulps of long double cbrt.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <vector>

#include "core/det_math.hpp"
#include "core/rng.hpp"
#include "experiments/mirror/mirror_map.hpp"
#include "experiments/mirror/power_kernel.hpp"
#include "double_bits.hpp"

using namespace attnlab;
using namespace attnlab::mirror;

namespace {

// The formulas written out once more, independently of the kernel's dispatch: the square-root forms
// (IEEE sqrt is exact, so these are bit for bit), the cube-root forms against the C library's long
// double cbrt (an independent reference, not a copy of the kernel's iteration; within 3 ulps for
// the root, each further product an ulp more), else the deterministic pow.
std::optional<double> exact_power(double a, double e) {
  const auto near = [e](double target) { return std::fabs(e - target) < 1e-12; };
  if (e == 1.0) return a;
  if (e == 0.5) return std::sqrt(a);
  if (e == -0.5) return 1.0 / std::sqrt(a);
  if (e == 1.5) return a * std::sqrt(a);
  if (e == 2.0) return a * a;
  if (near(0.75)) return std::sqrt(a) * std::sqrt(std::sqrt(a));
  if (near(4.0 / 3.0) || near(1.0 / 3.0) || near(7.0 / 3.0)) return std::nullopt;
  return dmath::pow(a, e);
}
// Within `bound` ulps of a^(k/3) (k = 1, 4, 7) computed in long double from cbrtl.
bool near_cube_power(double got, double a, int k, long double bound) {
  const long double x = a, r = std::cbrt(x), want = k == 1 ? r : k == 4 ? x * r : x * x * r;
  if (std::isnan(a)) return std::isnan(got);
  const double rounded = static_cast<double>(want);
  if (std::isinf(rounded) || std::isinf(got)) return rounded == got;
  int ex = 0;
  (void)std::frexp(std::fabs(rounded), &ex);
  const long double ulp = std::ldexp(1.0L, std::max(ex - 53, -1074));
  return std::fabs(static_cast<long double>(got) - want) <= bound * ulp;
}

// Nonnegative arguments (the kernel's domain: |x|), the special values first, then magnitudes from
// subnormal to huge, the range the mirror map sees (1e-6 to 1e3) and arbitrary bit patterns.
std::vector<double> arguments(std::size_t total, std::uint64_t seed) {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> x = {0.0, -0.0, 1.0, inf, nan, std::numeric_limits<double>::denorm_min(),
                           std::numeric_limits<double>::min(), std::numeric_limits<double>::max(), 0.5, 2.0, 8.0};
  Rng rng(seed);
  while (x.size() < total) {
    const double u = rng.uniform();
    switch (x.size() % 4) {
      case 0: x.push_back(from_bits(rng.next_u64() & 0x7fffffffffffffffULL)); break;  // any, incl. inf and NaN
      case 1: x.push_back(std::pow(10.0, -6.0 + 9.0 * u)); break;
      case 2: x.push_back(from_bits(rng.next_u64() & 0x000fffffffffffffULL)); break;  // subnormal
      default: x.push_back(u); break;
    }
  }
  x.push_back(0.25);  // an odd length: the scalar tail
  return x;
}
}  // namespace

TEST_CASE("MagnitudePower: the array form equals the scalar form and both the formulas (the cube roots within 3 to 5 ulps)", "[mirror][map]") {
  // The exponents the paper's p = 1.75, 2, 3 produce (p - 1, 1 / (p - 1), q, q - 1, q - 2), the
  // p = 1.1 run's and two that go through pow.
  std::vector<double> exponents;
  for (double p : {1.75, 2.0, 3.0, 1.1}) {
    const double q = dual_exponent(p);
    exponents.insert(exponents.end(), {p, p - 1.0, 1.0 / (p - 1.0), q, q - 1.0, q - 2.0, 1.0 / q});
  }
  exponents.insert(exponents.end(), {0.5, -0.5, 1.5, 2.0, 1.0, 0.3});
  const std::vector<double> x = arguments(1'000'000, 2212);
  std::vector<double> out(x.size());
  for (double e : exponents) {
    const MagnitudePower power(e);
    power.apply(x.data(), out.data(), x.size());
    std::size_t differ = 0, first = x.size();
    const int thirds = std::fabs(e - 1.0 / 3.0) < 1e-12 ? 1 : std::fabs(e - 4.0 / 3.0) < 1e-12 ? 4 : 7;
    for (std::size_t i = 0; i < x.size(); ++i) {
      const std::optional<double> want = exact_power(x[i], e);
      bool same = bits_of(out[i]) == bits_of(power(x[i]));
      if (want) same = same && bits_of(power(x[i])) == bits_of(*want);
      else same = same && near_cube_power(power(x[i]), x[i], thirds, thirds == 1 ? 3.0L : thirds == 4 ? 4.0L : 5.0L);
      if (!same && differ++ == 0) first = i;
    }
    INFO("exponent " << e << ": first difference at a = " << (first < x.size() ? x[first] : 0.0));
    CHECK(differ == 0);
  }
}

TEST_CASE("signed_power_array equals signed_power bit for bit, zeros and signs included", "[mirror][map]") {
  std::vector<double> x = arguments(200'001, 2213);
  for (std::size_t i = 0; i < x.size(); i += 2) x[i] = -x[i];
  std::vector<double> out(x.size());
  for (double e : {0.5, 1.0 / 0.75, 0.75, 1.0 / 3.0, 1.5, 10.0 / 11.0}) {
    signed_power_array(x.data(), out.data(), x.size(), MagnitudePower(e));
    std::size_t differ = 0;
    for (std::size_t i = 0; i < x.size(); ++i) differ += bits_of(out[i]) != bits_of(signed_power(x[i], e));
    INFO("exponent " << e);
    CHECK(differ == 0);
  }
}
