// The numeric kernels against independent references over their whole domain: dmath's exp, log, pow,
// cosh, sinh, exp_array and log_array, the mirror map's MagnitudePower (its cube root included), and
// softmax_shift. The references are the C library's long double functions (natively x87's 64-bit
// mantissa; in wasm musl's, whose long double functions partly fall back to its double ones, still
// an independent implementation within an ulp), never the kernels' own code. Each kernel is held to
// a stated bound in ulps of the correctly rounded result (an ulp of a subnormal result is 2^-1074),
// on every edge: around each threshold of the code, subnormals, the largest finite arguments, NaN,
// +-inf and +-0. The array kernels get each special value in both lanes beside an in-range partner,
// and the number of pairs that took the vector path is counted against the documented domain.
// Set ATTNLAB_KERNEL_REPORT=1 to print the largest error measured for each kernel.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/attention.hpp"
#include "core/det_math.hpp"
#include "core/rng.hpp"
#include "experiments/mirror/power_kernel.hpp"
#include "double_bits.hpp"

using namespace attnlab;

namespace {

using ld = long double;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kMax = std::numeric_limits<double>::max();
constexpr double kMin = std::numeric_limits<double>::min();         // smallest normal
constexpr double kTrue0 = std::numeric_limits<double>::denorm_min();  // smallest subnormal
constexpr ld kNever = 1e30L;                                           // "no bound holds"
// The reference's own error, in ulps of a double: natively x87's long double carries 11 more bits;
// in wasm musl's long double exp, log and pow return its double functions' results (within an ulp).
#if defined(__EMSCRIPTEN__)
constexpr ld kReferenceSlack = 1.0L;
#else
constexpr ld kReferenceSlack = 0.0L;
#endif

// |got - ref| in ulps of the correctly rounded ref (2^-1074 for subnormal or zero ref). NaN must meet
// NaN; a ref beyond the largest double must meet an infinity of its sign, and an infinity a ref
// beyond the largest double.
ld ulp_error(double got, ld ref) {
  if (std::isnan(ref) || std::isnan(got)) return std::isnan(ref) && std::isnan(got) ? 0.0L : kNever;
  const double rounded = static_cast<double>(ref);
  if (std::isinf(rounded) || std::isinf(got)) return rounded == got ? 0.0L : kNever;
  int e = 0;
  (void)std::frexp(static_cast<double>(std::fabs(rounded)), &e);  // |ref| in [2^(e-1), 2^e)
  const ld ulp = std::ldexp(1.0L, std::max(e - 53, -1074));
  if (rounded == 0.0) return std::fabs(static_cast<ld>(got) - ref) / std::ldexp(1.0L, -1074);
  return std::fabs(static_cast<ld>(got) - ref) / ulp;
}

// The largest error of one kernel over a list of arguments, with the worst argument for the message.
struct Worst {
  ld ulps = 0.0L;
  double x = 0.0, y = 0.0;
  std::size_t checked = 0;
  void add(ld err, double at, double at_y = 0.0) {
    ++checked;
    if (err > ulps || std::isnan(static_cast<double>(err))) {
      ulps = err;
      x = at;
      y = at_y;
    }
  }
};
// Under node the environment does not reach the module: build with -DATTNLAB_KERNEL_REPORT to print.
bool reporting() {
#if defined(ATTNLAB_KERNEL_REPORT)
  return true;
#else
  return std::getenv("ATTNLAB_KERNEL_REPORT") != nullptr;
#endif
}
void report(const char* kernel, const char* domain, const Worst& w) {
  if (reporting()) {
    std::printf("kernel-report | %s | %s | %zu arguments | max %.3Lf ulp at %.17g %.17g\n", kernel, domain, w.checked,
                w.ulps, w.x, w.y);
  }
}

ld ref_exp(double x) { return std::exp(static_cast<ld>(x)); }
ld ref_log(double x) { return std::log(static_cast<ld>(x)); }

// exp's thresholds, as the header states them: overflow after log(DBL_MAX) (709.782712893384 is the
// double below it), results subnormal below -708.39, zero below -745.13, and the vector path's
// domain [-708, 709.7773) (the smallest x whose reduction k is 64 * 1024, so that 2^e is 2^1024).
constexpr double kExpLast = 709.782712893384;
constexpr double kExpVectorLo = -708.0, kExpVectorEnd = 0x1.62e37e7d8ba72p+9;

std::vector<double> around(double t, int ulps_each_side) {
  std::vector<double> v{t};
  double up = t, down = t;
  for (int k = 0; k < ulps_each_side; ++k) {
    up = std::nextafter(up, kInf);
    down = std::nextafter(down, -kInf);
    v.push_back(up);
    v.push_back(down);
  }
  return v;
}

// Every special and edge argument of exp: the values themselves and a few ulps on both sides.
std::vector<double> exp_edges() {
  std::vector<double> x = {0.0, -0.0, kInf, -kInf, kNaN, -kNaN, kMax, -kMax, kMin, -kMin, kTrue0, -kTrue0,
                           1.0, -1.0, 1e-300, -1e-300, 700.0, -700.0, 709.7, 709.78, 710.0, -746.0, -1e4, 1e4};
  for (double t : {kExpLast, kExpVectorEnd, kExpVectorLo, -708.3964185322641 /* 2^-1022 */,
                   -745.1332191019411 /* 2^-1075 */, -744.44007192138122 /* 2^-1074 */, -745.2, 0.0}) {
    const std::vector<double> a = around(t, 8);
    x.insert(x.end(), a.begin(), a.end());
  }
  return x;
}

// Arguments drawn over exp's whole domain: every bit pattern, [-750, 710], and dense bands around
// each threshold.
std::vector<double> exp_sample(std::size_t total, std::uint64_t seed) {
  std::vector<double> x = exp_edges();
  Rng rng(seed);
  while (x.size() < total) {
    const double u = rng.uniform();
    switch (x.size() % 8) {
      case 0: x.push_back(from_bits(rng.next_u64())); break;
      case 1: x.push_back(-750.0 + 1460.0 * u); break;
      case 2: x.push_back(kExpVectorEnd + (u - 0.5) * 1e-2); break;
      case 3: x.push_back(kExpLast - u * 1e-2); break;
      case 4: x.push_back(-708.0 + (u - 0.5) * 1.0); break;
      case 5: x.push_back(-745.2 + u * 37.0); break;  // subnormal results
      case 6: x.push_back(-40.0 * u); break;          // softmax logits
      default: x.push_back((u - 0.5) * 1e-6); break;
    }
  }
  return x;
}

constexpr ld kExpBound = 1.5L + kReferenceSlack;  // ulps; measured 1.00 natively

// Lays every special value in both lanes of a pair beside an in-range partner: (s, p), (p, s).
std::vector<double> both_lanes(const std::vector<double>& specials, double partner) {
  std::vector<double> x;
  for (double s : specials) x.insert(x.end(), {s, partner, partner, s});
  return x;
}

}  // namespace

TEST_CASE("exp against long double exp over its whole domain within 1.5 ulps", "[core][det_math][kernel]") {
  const std::vector<double> x = exp_sample(400'000, 3601);
  Worst w;
  for (double v : x) w.add(ulp_error(dmath::exp(v), ref_exp(v)), v);
  report("exp", "all doubles; bands at 709.7827, 709.7773, -708, -745.2..-708", w);
  INFO("worst at x = " << w.x);
  CHECK(w.ulps <= kExpBound);
  // The window the reduction used to overflow in, and the last finite argument.
  CHECK(std::isfinite(dmath::exp(709.78)));
  CHECK(std::isfinite(dmath::exp(kExpLast)));
  CHECK(std::isinf(dmath::exp(std::nextafter(kExpLast, kInf))));
  CHECK(dmath::exp(-kInf) == 0.0);
  CHECK(dmath::exp(-0.0) == 1.0);
  CHECK(dmath::exp(-745.2) == 0.0);
  CHECK(dmath::exp(-744.44007192138122) == kTrue0);
}

namespace {
// An array kernel (exp_array, log_array) against its long double reference and, bit for bit, its
// scalar form: first `edges` (each edge in both lanes beside an in-range partner), whose pairs with
// both lanes in `in_lanes` must take the vector path, then `sample` in pairs as they come.
template <class Array, class Scalar, class Reference, class InLanes>
void check_array_kernel(const char* name, const char* domain, Array array, Scalar scalar, Reference reference,
                        const std::vector<double>& edges, const std::vector<double>& sample, InLanes in_lanes,
                        ld bound) {
  std::size_t expect_vector = 0;
  for (std::size_t i = 0; i + 1 < edges.size(); i += 2) expect_vector += in_lanes(edges[i]) && in_lanes(edges[i + 1]);
  Worst w;
  std::size_t differ = 0, vector_pairs = 0;
  for (const std::vector<double>* x : {&edges, &sample}) {
    std::vector<double> out(x->size());
    const std::size_t pairs = array(x->data(), out.data(), x->size());
    if (x == &edges) vector_pairs = pairs;
    for (std::size_t i = 0; i < x->size(); ++i) {
      w.add(ulp_error(out[i], reference((*x)[i])), (*x)[i]);
      differ += bits_of(out[i]) != bits_of(scalar((*x)[i]));
    }
  }
  report(name, domain, w);
  INFO("worst at x = " << w.x);
  CHECK(w.ulps <= bound);
  CHECK(differ == 0);
#if defined(__SSE2__)
  CHECK(expect_vector > 20);  // the in-range edges (-708, 709.7773 from below, 0, ...) did run in lanes
  CHECK(vector_pairs == expect_vector);
#else
  CHECK(vector_pairs == 0);
#endif
}
}  // namespace

TEST_CASE("exp_array against long double exp with each edge in both lanes and the vector pairs counted",
          "[core][det_math][kernel]") {
  check_array_kernel(
      "exp_array", "exp's edges in both lanes + exp's sample",
      [](const double* x, double* out, std::size_t n) { return dmath::exp_array(x, out, n); },
      [](double v) { return dmath::exp(v); }, ref_exp, both_lanes(exp_edges(), -1.5), exp_sample(200'001, 3602),
      [](double v) { return v >= kExpVectorLo && v < kExpVectorEnd; },  // false for NaN
      kExpBound);
}

TEST_CASE("cosh and sinh against long double over their whole domain within 3 ulps", "[core][det_math][kernel]") {
  std::vector<double> x = exp_sample(200'000, 3603);
  for (double t : {1.0, -1.0, 0.5, 710.475860073943 /* cosh overflow */}) {
    const std::vector<double> a = around(t, 8);
    x.insert(x.end(), a.begin(), a.end());
  }
  Worst wc, ws;
  for (double v : x) {
    wc.add(ulp_error(dmath::cosh(v), std::cosh(static_cast<ld>(v))), v);
    ws.add(ulp_error(dmath::sinh(v), std::sinh(static_cast<ld>(v))), v);
  }
  report("cosh", "exp's sample + 1, 0.5, 710.4759", wc);
  report("sinh", "exp's sample + 1, 0.5, 710.4759", ws);
  INFO("cosh worst at " << wc.x << ", sinh worst at " << ws.x);
  CHECK(wc.ulps <= 3.0L + kReferenceSlack);
  CHECK(ws.ulps <= 3.0L + kReferenceSlack);
  // Past exp's overflow both are finite up to about 710.4758.
  CHECK(std::isfinite(dmath::cosh(710.0)));
  CHECK(std::isfinite(dmath::sinh(-710.475)));
  CHECK(dmath::sinh(-710.475) < 0.0);
  CHECK(std::isinf(dmath::cosh(710.5)));
}

namespace {
// log's edges: zeros, negatives, the normal/subnormal boundary, the largest double, the mantissa
// boundary sqrt(1/2) where the reduction doubles m, and 1.
std::vector<double> log_edges() {
  std::vector<double> x = {0.0, -0.0, kInf, -kInf, kNaN, -kNaN, -1.0, -kMax, -kMin, -kTrue0, 2.0, 0.5, 1e-300, 1e300};
  for (double t : {kMin, kMax, kTrue0, 1.0, 0.70710678118654752, 1.4142135623730951, 0x1p-1060}) {
    const std::vector<double> a = around(t, 8);
    for (double v : a) x.push_back(std::isinf(v) ? kMax : v);
  }
  return x;
}
std::vector<double> log_sample(std::size_t total, std::uint64_t seed) {
  std::vector<double> x = log_edges();
  Rng rng(seed);
  while (x.size() < total) {
    const double u = rng.uniform();
    switch (x.size() % 6) {
      case 0: x.push_back(from_bits(rng.next_u64() & 0x7fffffffffffffffULL)); break;  // positive, any
      case 1: x.push_back(from_bits(rng.next_u64() & 0x000fffffffffffffULL)); break;  // subnormal
      case 2: x.push_back(1.0 + (u - 0.5) * 1e-6); break;
      case 3: x.push_back(std::ldexp(0.70710678118654752 + (u - 0.5) * 1e-9, int(u * 2000) - 1000)); break;
      case 4: x.push_back(1.0 + 7.0 * u); break;
      default: x.push_back(from_bits(rng.next_u64())); break;  // negatives too
    }
  }
  return x;
}
constexpr ld kLogBound = 2.0L + kReferenceSlack;  // ulps; measured 1.93 natively, next to 1
}  // namespace

TEST_CASE("log against long double log over its whole domain within 2 ulps", "[core][det_math][kernel]") {
  const std::vector<double> x = log_sample(400'000, 3611);
  Worst w;
  for (double v : x) w.add(ulp_error(dmath::log(v), ref_log(v)), v);
  report("log", "all doubles; subnormals, near 1, near sqrt(1/2) 2^k", w);
  INFO("worst at x = " << w.x);
  CHECK(w.ulps <= kLogBound);
  CHECK(dmath::log(0.0) == -kInf);
  CHECK(dmath::log(-0.0) == -kInf);
  CHECK(std::isnan(dmath::log(-kTrue0)));
  CHECK(dmath::log(1.0) == 0.0);
  CHECK(dmath::log(kInf) == kInf);
}

TEST_CASE("log_array against long double log with each edge in both lanes and the vector pairs counted",
          "[core][det_math][kernel]") {
  check_array_kernel(
      "log_array", "log's edges in both lanes + log's sample",
      [](const double* x, double* out, std::size_t n) { return dmath::log_array(x, out, n); },
      [](double v) { return dmath::log(v); }, ref_log, both_lanes(log_edges(), 3.0), log_sample(200'001, 3612),
      [](double v) { return v >= kMin && v <= kMax; },  // positive normal finite
      kLogBound);
}

namespace {
// dmath::pow's bound in ulps. Integer exponents |n| <= 1024 by repeated squaring: every product
// rounds once and squaring doubles the error carried, so up to about |n| ulps (one more for 1 / x^n).
// Others as exp(y log x): log's error of an ulp of log x, times y, is an absolute error in the
// argument of exp (log within 2 ulps, the product's rounding half an ulp: 2.5 |t| 2^-52 for
// t = y log x), a relative one in the result: up to 5 |t| ulps, plus exp's own.
ld pow_bound(double x, double y) {
  if (y == std::floor(y) && std::fabs(y) <= 1024.0) return 1.0L + std::fabs(y) + kReferenceSlack;
  const ld t = std::fabs(static_cast<ld>(y) * std::log(std::fabs(static_cast<ld>(x))));
  return 2.0L + 5.0L * t + kReferenceSlack;
}
}  // namespace

TEST_CASE("pow against long double pow within its stated bound and the C library's special values",
          "[core][det_math][kernel]") {
  Rng rng(3621);
  std::vector<std::pair<double, double>> args;
  const std::vector<double> bases = {0.5, 2.0,  10.0,  0.9,   1.1,  1.0 - 1e-9, 1e-300,
                                     1e300, 3.0, 0.999, kMin, kMax, kTrue0};
  const std::vector<double> exponents = {0.5, -0.5, 1.4,    -0.6,    0.6,    1.5,  3.0,   4.0,    -3.0, 2.0,
                                         1.0 / 3.0, 1024.0, -1024.0, 1025.0, 1023.5, 1e-9, 100.5, -100.5, 0.3};
  for (double b : bases)
    for (double e : exponents) args.emplace_back(b, e);
  while (args.size() < 300'000) {
    const double u = rng.uniform(), v = rng.uniform();
    switch (args.size() % 5) {
      case 0: args.emplace_back(std::exp(-50.0 + 100.0 * u), -10.0 + 20.0 * v); break;  // any real exponent
      case 1: args.emplace_back(0.5 + 9.5 * u, std::floor(-60.0 + 120.0 * v)); break;   // integer exponents
      case 2: args.emplace_back(-10.0 + 20.0 * u, std::floor(-30.0 + 60.0 * v)); break;  // negative bases
      case 3: args.emplace_back(0.9 + 0.2 * u, -5000.0 + 10000.0 * v); break;           // large exponents
      default: args.emplace_back(from_bits(rng.next_u64() & 0x7fffffffffffffffULL), (v - 0.5) * 4.0); break;
    }
  }
  Worst w;
  ld worst_ratio = 0.0L;
  double worst_x = 0.0, worst_y = 0.0;
  for (const auto& [x, y] : args) {
    const double got = dmath::pow(x, y);
    const ld ref = std::pow(static_cast<ld>(x), static_cast<ld>(y));
    // Below the normal range the integer path's 1 / x^n can lose x^n to overflow (see below).
    if (std::fabs(ref) < kMin && std::isfinite(static_cast<double>(ref))) continue;
    const ld err = ulp_error(got, ref), ratio = err / pow_bound(x, y);
    w.add(err, x, y);
    if (ratio > worst_ratio) {
      worst_ratio = ratio;
      worst_x = x;
      worst_y = y;
    }
  }
  report("pow", "x in e^[-50,50], any positive double; y integer |y|<=60, real |y|<=5000", w);
  INFO("largest error " << static_cast<double>(w.ulps) << " ulp at pow(" << w.x << ", " << w.y
                         << "); closest to the bound: " << static_cast<double>(worst_ratio) << " of it at pow("
                         << worst_x << ", " << worst_y << ")");
  CHECK(worst_ratio <= 1.0L);
  // The C library's special values that dmath::pow keeps.
  CHECK(dmath::pow(kNaN, 0.0) == 1.0);
  CHECK(dmath::pow(2.0, 0.0) == 1.0);
  CHECK(dmath::pow(0.0, 2.0) == 0.0);
  CHECK(dmath::pow(0.0, -2.0) == kInf);
  CHECK(dmath::pow(0.0, 0.5) == 0.0);
  CHECK(std::isnan(dmath::pow(-8.0, 1.0 / 3.0)));
  CHECK(std::isnan(dmath::pow(kNaN, 2.0)));
  CHECK(std::isnan(dmath::pow(2.0, kNaN)));
  CHECK(dmath::pow(kInf, 0.5) == kInf);
  CHECK(dmath::pow(kInf, -0.5) == 0.0);
  CHECK(dmath::pow(-kInf, 3.0) == -kInf);
  CHECK(dmath::pow(0.5, kInf) == 0.0);
  CHECK(dmath::pow(0.5, -kInf) == kInf);
  CHECK(dmath::pow(2.0, kInf) == kInf);
  CHECK(dmath::pow(-2.0, 3.0) == -8.0);
  CHECK(dmath::pow(2.0, -1022.0) == kMin);
  // Where it departs from the C library (pinned, so a change is seen): the sign of a zero base is
  // dropped, pow(1, NaN) and pow(-1, +-inf) are NaN (C: 1), and 1 / x^n is 0 once x^n overflows
  // (C: a subnormal result).
  CHECK(bits_of(dmath::pow(-0.0, 3.0)) == bits_of(0.0));
  CHECK(dmath::pow(-0.0, -3.0) == kInf);
  CHECK(std::isnan(dmath::pow(1.0, kNaN)));
  CHECK(std::isnan(dmath::pow(-1.0, kInf)));
  CHECK(dmath::pow(10.0, -320.0) == 0.0);  // C: 1e-320
  CHECK(dmath::pow(2.0, -1024.0) == 0.0);  // C: 2^-1024
}

namespace {
// MagnitudePower's forms and their references: the cube-root forms through cbrtl, the others
// through powl of the exponent itself (0.75, 0.5, ... are exact doubles).
ld ref_power(double a, double e) {
  const ld x = a;
  const auto near = [e](double t) { return std::fabs(e - t) < 1e-12; };
  if (near(1.0 / 3.0)) return std::cbrt(x);
  if (near(4.0 / 3.0)) return x * std::cbrt(x);
  if (near(7.0 / 3.0)) return x * x * std::cbrt(x);
  return std::pow(x, static_cast<ld>(e));
}
// The bound of each form: a square root and a square are correctly rounded (half an ulp); each
// further operation adds a relative half ulp, which is up to a whole ulp of the result; the cube root
// (three Halley steps, each rounding five times) within 3 ulps (2.97 the largest measured over 4e7
// random doubles); the general exponent inherits dmath::pow's bound.
ld power_bound(double a, double e) {
  if (e == 1.0) return 0.0L;
  if (e == 0.5 || e == 2.0) return 0.5L + kReferenceSlack;
  if (e == -0.5 || e == 1.5) return 1.5L + kReferenceSlack;
  if (std::fabs(e - 0.75) < 1e-12) return 2.5L + kReferenceSlack;
  if (std::fabs(e - 1.0 / 3.0) < 1e-12) return 3.0L + kReferenceSlack;
  if (std::fabs(e - 4.0 / 3.0) < 1e-12) return 4.0L + kReferenceSlack;
  if (std::fabs(e - 7.0 / 3.0) < 1e-12) return 5.0L + kReferenceSlack;
  return pow_bound(a, e);
}
std::vector<double> power_edges() {
  std::vector<double> x = {0.0, kInf, kNaN, 1.0, 0.5, 2.0, 8.0, 27.0, 1e-6, 1e3};  // |x|: no -0
  // The cube root's scaling thresholds 2^+-765, where it used to fail (2^+-767 and beyond), the
  // normal/subnormal edge, the smallest and largest doubles.
  for (double t : {0x1p765, 0x1p-765, 0x1p767, 0x1p-767, 0x1p-771, 0x1p900, 0x1p-900, kMin, kTrue0, kMax}) {
    const std::vector<double> a = around(t, 4);
    for (double v : a) x.push_back(std::isinf(v) ? kMax : std::fabs(v));
  }
  return x;
}
}  // namespace

TEST_CASE("MagnitudePower against long double cbrt and pow over a >= 0 with each edge in both lanes",
          "[mirror][map][kernel]") {
  std::vector<double> exponents = {1.0, 0.5, -0.5, 1.5, 2.0, 0.75, 4.0 / 3.0, 1.0 / 3.0, 7.0 / 3.0, 0.3, 10.0 / 11.0,
                                   1.1, 3.0};
  std::vector<double> x = both_lanes(power_edges(), 0.7);
  Rng rng(3631);
  while (x.size() < 100'000) {
    const double u = rng.uniform();
    switch (x.size() % 4) {
      case 0: x.push_back(from_bits(rng.next_u64() & 0x7fffffffffffffffULL)); break;  // any, inf and NaN too
      case 1: x.push_back(std::pow(10.0, -6.0 + 9.0 * u)); break;                      // the mirror map's range
      case 2: x.push_back(from_bits(rng.next_u64() & 0x000fffffffffffffULL)); break;  // subnormal
      default: x.push_back(std::ldexp(1.0 + u, int(rng.uniform() * 2046.0) - 1022)); break;  // every exponent
    }
  }
  x.push_back(0.25);  // odd length: the scalar tail
  std::vector<double> out(x.size());
  for (double e : exponents) {
    const mirror::MagnitudePower power(e);
    power.apply(x.data(), out.data(), x.size());
    Worst w;
    ld worst_ratio = 0.0L;
    std::size_t differ = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      const ld ref = ref_power(x[i], e);
      const ld err = ulp_error(power(x[i]), ref);
      w.add(err, x[i]);
      worst_ratio = std::max(worst_ratio, err / power_bound(x[i], e));
      differ += bits_of(out[i]) != bits_of(power(x[i]));
    }
    const std::string name = "MagnitudePower e=" + std::to_string(e);
    report(name.c_str(), "a >= 0: all doubles, subnormals, 2^+-765..2^+-771, edges in both lanes", w);
    INFO("exponent " << e << ": worst " << static_cast<double>(w.ulps) << " ulp at a = " << w.x);
    CHECK(worst_ratio <= 1.0L);
    CHECK(differ == 0);
  }
}

TEST_CASE("softmax_shift is the largest logit wherever it sits and a non-finite maximum throws",
          "[core][attention][kernel]") {
  // The reference: std::max_element over the values. The largest value at every position of every
  // length 1..40 (both lanes of both running registers, the scalar tail), among negatives, zeros
  // and -inf; then every special value at every position.
  std::size_t checked = 0;
  Rng rng(3641);
  for (std::size_t n = 1; n <= 40; ++n) {
    for (std::size_t at = 0; at < n; ++at) {
      std::vector<double> v(n);
      for (double& x : v) x = -1.0 - 10.0 * rng.uniform();
      if (n > 2) v[(at + 1) % n] = -kInf;
      v[at] = 0.5 + rng.uniform();
      REQUIRE(softmax_shift(v.data(), n) == *std::max_element(v.begin(), v.end()));
      v[at] = -0.0;  // a zero maximum among negatives
      REQUIRE(softmax_shift(v.data(), n) == 0.0);
      v[at] = kMax;
      REQUIRE(softmax_shift(v.data(), n) == kMax);
      v[at] = kInf;
      REQUIRE_THROWS_AS(softmax_shift(v.data(), n), std::domain_error);
      if (at == 0) {
        v[0] = kNaN;
        REQUIRE_THROWS_AS(softmax_shift(v.data(), n), std::domain_error);
      } else {
        // A NaN after the first value is passed over, as the plain loop it replaces did (pinned).
        v[at] = kNaN;
        double largest = -kInf;
        for (double x : v) largest = std::isnan(x) ? largest : std::max(largest, x);
        if (std::isfinite(largest)) REQUIRE(softmax_shift(v.data(), n) == largest);
      }
      std::vector<double> all(n, -kInf);
      REQUIRE_THROWS_AS(softmax_shift(all.data(), n), std::domain_error);
      ++checked;
    }
  }
  CHECK(checked == 40 * 41 / 2);
  if (reporting()) {
    std::printf("kernel-report | softmax_shift | n 1..40, max at every position | %zu | exact\n", checked);
  }
}
