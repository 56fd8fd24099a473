// The mirror map's array powers (docs/mirror.md s.2): MagnitudePower::apply gives for every element
// the bits of the scalar form, and the scalar form those of the formulas it stands for.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "core/det_math.hpp"
#include "core/rng.hpp"
#include "experiments/mirror/mirror_map.hpp"
#include "experiments/mirror/power_kernel.hpp"
#include "double_bits.hpp"

using namespace attnlab;
using namespace attnlab::mirror;

namespace {

// The formulas written out once more, independently of the kernel's dispatch: the cube root by
// Halley's iteration from the bit-level guess, the square-root forms, else the deterministic pow.
double reference_cube_root(double a) {
  if (a == 0.0 || !std::isfinite(a)) return a;
  std::uint64_t bits = bits_of(a) / 3 + 0x2a9f7893782da1ceULL;
  double y = from_bits(bits);
  for (int k = 0; k < 3; ++k) {
    const double y3 = y * y * y;
    y = y * (y3 + 2.0 * a) / (2.0 * y3 + a);
  }
  return y;
}
double reference_power(double a, double e) {
  const auto near = [e](double target) { return std::fabs(e - target) < 1e-12; };
  if (e == 1.0) return a;
  if (e == 0.5) return std::sqrt(a);
  if (e == -0.5) return 1.0 / std::sqrt(a);
  if (e == 1.5) return a * std::sqrt(a);
  if (e == 2.0) return a * a;
  if (near(0.75)) return std::sqrt(a) * std::sqrt(std::sqrt(a));
  if (near(4.0 / 3.0)) return a * reference_cube_root(a);
  if (near(1.0 / 3.0)) return reference_cube_root(a);
  if (near(7.0 / 3.0)) return a * a * reference_cube_root(a);
  return dmath::pow(a, e);
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

TEST_CASE("MagnitudePower: the array form equals the scalar form, and both the formulas, bit for bit", "[mirror][map]") {
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
    for (std::size_t i = 0; i < x.size(); ++i) {
      const double want = reference_power(x[i], e);
      const bool same = bits_of(out[i]) == bits_of(want) && bits_of(power(x[i])) == bits_of(want);
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
