#include "core/det_math.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace attnlab::dmath {

namespace {

// 2^(j/64), j = 0..63, correctly rounded (generated with Python's decimal module at 60 digits).
constexpr double kExp2Table[64] = {
    0x1.0000000000000p+0, 0x1.02c9a3e778061p+0, 0x1.059b0d3158574p+0, 0x1.0874518759bc8p+0,
    0x1.0b5586cf9890fp+0, 0x1.0e3ec32d3d1a2p+0, 0x1.11301d0125b51p+0, 0x1.1429aaea92de0p+0,
    0x1.172b83c7d517bp+0, 0x1.1a35beb6fcb75p+0, 0x1.1d4873168b9aap+0, 0x1.2063b88628cd6p+0,
    0x1.2387a6e756238p+0, 0x1.26b4565e27cddp+0, 0x1.29e9df51fdee1p+0, 0x1.2d285a6e4030bp+0,
    0x1.306fe0a31b715p+0, 0x1.33c08b26416ffp+0, 0x1.371a7373aa9cbp+0, 0x1.3a7db34e59ff7p+0,
    0x1.3dea64c123422p+0, 0x1.4160a21f72e2ap+0, 0x1.44e086061892dp+0, 0x1.486a2b5c13cd0p+0,
    0x1.4bfdad5362a27p+0, 0x1.4f9b2769d2ca7p+0, 0x1.5342b569d4f82p+0, 0x1.56f4736b527dap+0,
    0x1.5ab07dd485429p+0, 0x1.5e76f15ad2148p+0, 0x1.6247eb03a5585p+0, 0x1.6623882552225p+0,
    0x1.6a09e667f3bcdp+0, 0x1.6dfb23c651a2fp+0, 0x1.71f75e8ec5f74p+0, 0x1.75feb564267c9p+0,
    0x1.7a11473eb0187p+0, 0x1.7e2f336cf4e62p+0, 0x1.82589994cce13p+0, 0x1.868d99b4492edp+0,
    0x1.8ace5422aa0dbp+0, 0x1.8f1ae99157736p+0, 0x1.93737b0cdc5e5p+0, 0x1.97d829fde4e50p+0,
    0x1.9c49182a3f090p+0, 0x1.a0c667b5de565p+0, 0x1.a5503b23e255dp+0, 0x1.a9e6b5579fdbfp+0,
    0x1.ae89f995ad3adp+0, 0x1.b33a2b84f15fbp+0, 0x1.b7f76f2fb5e47p+0, 0x1.bcc1e904bc1d2p+0,
    0x1.c199bdd85529cp+0, 0x1.c67f12e57d14bp+0, 0x1.cb720dcef9069p+0, 0x1.d072d4a07897cp+0,
    0x1.d5818dcfba487p+0, 0x1.da9e603db3285p+0, 0x1.dfc97337b9b5fp+0, 0x1.e502ee78b3ff6p+0,
    0x1.ea4afa2a490dap+0, 0x1.efa1bee615a27p+0, 0x1.f50765b6e4540p+0, 0x1.fa7c1819e90d8p+0,
};
constexpr double kInvLn2Times64 = 0x1.71547652b82fep+6;  // 64 / ln 2
constexpr double kLn2Over64Hi = 0x1.62e42fe800000p-7;   // ln 2 / 64, leading 30 bits: k * hi is exact
constexpr double kLn2Over64Lo = 0x1.e8e7bcd5e4f1ep-37;     // the rest of ln 2 / 64
constexpr double kLn2Hi = 0x1.62e42fee00000p-1;      // ln 2, leading 32 bits
constexpr double kLn2Lo = 0x1.a39ef35793c76p-33;
constexpr double kShifter = 0x1.8p52;  // adding it rounds to an integer in the low bits
// The smallest x for which exp()'s k rounds to 64 * 1024 (so the scale 2^e would be 2^1024): the
// vector path stops just below it (709.77729768103586).
constexpr double kExpVectorEnd = 0x1.62e37e7d8ba72p+9;

double from_bits(std::uint64_t b) {
  double x;
  std::memcpy(&x, &b, sizeof x);
  return x;
}
std::uint64_t to_bits(double x) {
  std::uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

}  // namespace

double exp(double x) noexcept {
  // 709.782712893384 is the double just below log(DBL_MAX): exp of it is finite, of the next is not.
  if (!(x <= 709.782712893384)) return x != x ? x : HUGE_VAL;  // NaN stays NaN; overflow
  if (x < -745.2) return 0.0;
  // x = (64 k' + j) ln2/64 + r with |r| <= ln2/128; exp(x) = 2^k' 2^(j/64) exp(r).
  double kd = x * kInvLn2Times64 + kShifter;
  const std::int64_t k = static_cast<std::int64_t>(static_cast<std::int32_t>(to_bits(kd) & 0xffffffffu));
  kd -= kShifter;
  const double r = (x - kd * kLn2Over64Hi) - kd * kLn2Over64Lo;
  // exp(r) - 1 to degree 6: |r| <= 0.0055, so r^7 / 7! < 1e-20.
  const double p = r + r * r * (0.5 + r * (1.0 / 6 + r * (1.0 / 24 + r * (1.0 / 120 + r * (1.0 / 720)))));
  const int j = static_cast<int>(k & 63);
  const std::int64_t e = (k - j) / 64;
  const double t = kExp2Table[j];
  const double m = t + t * p;
  if (e >= -1022) {
    if (e <= 1023) return m * from_bits(static_cast<std::uint64_t>(e + 1023) << 52);
    // e = 1024 (x >= kExpVectorEnd: k rounds to 64 * 1024, j = 0, m < 1): 2^1024 is not a double,
    // so scale in two exact steps; m 2^1023 is normal and doubling it rounds nothing.
    return (m * 0x1p1023) * 2.0;
  }
  // Subnormal results: scale in two steps (the second rounds once, into the subnormal range).
  return (m * from_bits(static_cast<std::uint64_t>(e + 1000 + 1023) << 52)) * 0x1p-1000;
}

namespace {
#if defined(__SSE2__)
struct ExpConstants {
  __m128d lo, hi, inv, shifter, c_hi, c_lo, c2, c3, c4, c5, c6;
  __m128i low6, bias;
};
const ExpConstants& exp_constants() {
  static ExpConstants c{_mm_set1_pd(-708.0), _mm_set1_pd(kExpVectorEnd), _mm_set1_pd(kInvLn2Times64),
      _mm_set1_pd(kShifter), _mm_set1_pd(kLn2Over64Hi), _mm_set1_pd(kLn2Over64Lo), _mm_set1_pd(0.5),
      _mm_set1_pd(1.0 / 6), _mm_set1_pd(1.0 / 24), _mm_set1_pd(1.0 / 120), _mm_set1_pd(1.0 / 720),
      _mm_set1_epi64x(63), _mm_set1_epi64x(static_cast<long long>(1023) << 52)};
  return c;
}
#endif
}  // namespace

std::size_t exp_array(const double* x, double* out, std::size_t n) noexcept {
  std::size_t i = 0, vector_pairs = 0;
#if defined(__SSE2__)
  // exp() above, step for step on two lanes: the same IEEE operations in the same order (no FMA:
  // the build has -mno-fma -ffp-contract=off natively, and wasm has no fused multiply-add), so each
  // lane rounds exactly as the scalar code does. Only the fast path runs here: on
  // [-708, kExpVectorEnd) the scale 2^e is a normal number (-1022 <= e <= 1023); both lanes in range
  // or both go scalar.
  // The constants come from memory (ExpConstants), not from immediates: in wasm a vector constant
  // is rebuilt wherever it is used, and V8 does not hoist it out of the loop.
  const ExpConstants& c = exp_constants();
  const __m128d lo = c.lo, hi = c.hi, inv = c.inv, shifter = c.shifter, c_hi = c.c_hi, c_lo = c.c_lo;
  const __m128d c2 = c.c2, c3 = c.c3, c4 = c.c4, c5 = c.c5, c6 = c.c6;
  const __m128i low6 = c.low6, bias = c.bias;
  for (; i + 2 <= n; i += 2) {
    const __m128d v = _mm_loadu_pd(x + i);
    const __m128d ok = _mm_and_pd(_mm_cmpge_pd(v, lo), _mm_cmplt_pd(v, hi));  // false for NaN
    if (_mm_movemask_pd(ok) != 3) {
      const double a = x[i], b = x[i + 1];
      out[i] = exp(a);
      out[i + 1] = exp(b);
      continue;
    }
    __m128d kd = _mm_add_pd(_mm_mul_pd(v, inv), shifter);
    // The bits of kd are those of kShifter plus k in the low bits: j = k & 63, and (k - j) << 46 is
    // e << 52 (k - j = 64 e) modulo 2^64, so adding 1023 << 52 gives the bits of 2^e.
    const __m128i kbits = _mm_castpd_si128(kd);
    const __m128i j = _mm_and_si128(kbits, low6);
    const __m128i scale_bits = _mm_add_epi64(_mm_slli_epi64(_mm_sub_epi64(kbits, j), 46), bias);
    kd = _mm_sub_pd(kd, shifter);
    const __m128d r = _mm_sub_pd(_mm_sub_pd(v, _mm_mul_pd(kd, c_hi)), _mm_mul_pd(kd, c_lo));
    __m128d q = _mm_add_pd(c5, _mm_mul_pd(r, c6));
    q = _mm_add_pd(c4, _mm_mul_pd(r, q));
    q = _mm_add_pd(c3, _mm_mul_pd(r, q));
    q = _mm_add_pd(c2, _mm_mul_pd(r, q));
    const __m128d p = _mm_add_pd(r, _mm_mul_pd(_mm_mul_pd(r, r), q));
    const int j0 = _mm_cvtsi128_si32(j), j1 = _mm_cvtsi128_si32(_mm_unpackhi_epi64(j, j));
    const __m128d t = _mm_set_pd(kExp2Table[j1], kExp2Table[j0]);
    const __m128d m = _mm_add_pd(t, _mm_mul_pd(t, p));
    _mm_storeu_pd(out + i, _mm_mul_pd(m, _mm_castsi128_pd(scale_bits)));
    ++vector_pairs;
  }
#endif
  for (; i < n; ++i) out[i] = exp(x[i]);
  return vector_pairs;
}

double log(double x) noexcept {
  if (!(x > 0.0)) return x == 0.0 ? -HUGE_VAL : NAN;
  if (x == HUGE_VAL) return x;
  int e = 0;
  double m = std::frexp(x, &e);  // x = m 2^e, m in [0.5, 1): exact
  if (m < 0.70710678118654752) {
    m *= 2.0;
    --e;
  }
  // log m = 2 atanh(s), s = (m - 1) / (m + 1), |s| <= 0.1716: the series to s^23 is below an ulp.
  const double s = (m - 1.0) / (m + 1.0), s2 = s * s;
  double sum = 1.0 / 23;
  for (int k = 21; k >= 3; k -= 2) sum = 1.0 / k + s2 * sum;
  const double log_m = 2.0 * s + 2.0 * s * s2 * sum;
  return (e * kLn2Hi + log_m) + e * kLn2Lo;
}

double pow(double base, double exponent) noexcept {
  if (exponent == 0.0) return 1.0;
  if (base == 0.0) return exponent > 0.0 ? 0.0 : HUGE_VAL;
  // Integer exponents by repeated squaring (exact where the product is), others through exp/log.
  if (exponent == std::floor(exponent) && std::fabs(exponent) <= 1024.0) {
    double result = 1.0, b = base;
    for (long long n = static_cast<long long>(std::fabs(exponent)); n > 0; n >>= 1) {
      if (n & 1) result *= b;
      b *= b;
    }
    return exponent < 0.0 ? 1.0 / result : result;
  }
  if (base < 0.0) return NAN;
  return exp(exponent * log(base));
}

double log10(double x) noexcept { return log(x) * 0.43429448190325182765; }

namespace {
// exp(a) / 2 for a beyond exp's overflow (a > 709.782712893384), where cosh a and sinh a are still
// finite up to about 710.4758: exp(a / 2)^2 / 2 (a / 2 is exact), rounded twice.
double half_exp_beyond_overflow(double a) {
  const double h = exp(0.5 * a);
  return (0.5 * h) * h;
}
constexpr double kExpLast = 709.782712893384;  // exp's largest argument with a finite result
}  // namespace

double cosh(double z) noexcept {
  const double a = std::fabs(z);
  if (a > kExpLast) return half_exp_beyond_overflow(a);  // 0.5 / e is below half an ulp there
  const double e = exp(a);
  return 0.5 * e + 0.5 / e;  // e >= 1: no cancellation; 0.5 / e underflows harmlessly
}

double sinh(double z) noexcept {
  const double a = std::fabs(z);
  double s;
  if (a < 1.0) {
    // Taylor series: e - 1/e would cancel here. a^25 / 25! < 1e-25 at a = 1: below an ulp.
    const double a2 = a * a;
    double term = a, sum = a;
    for (int k = 1; k <= 12; ++k) {
      term *= a2 / double((2 * k) * (2 * k + 1));
      sum += term;
    }
    s = sum;
  } else if (a > kExpLast) {
    s = half_exp_beyond_overflow(a);
  } else {
    const double e = exp(a);
    s = 0.5 * e - 0.5 / e;
  }
  return z < 0.0 ? -s : s;
}

#if defined(__SSE2__)
namespace {
struct LogConstants {
  __m128d smallest, largest, one, two, sqrt_half, bias, ln2_hi, ln2_lo;
  __m128i mantissa, half;
  __m128d inverse_odd[11];  // 1/23, 1/21, ..., 1/3: log()'s series from its last term
};
const LogConstants& log_constants() {
  static const LogConstants c = [] {
    LogConstants k{_mm_set1_pd(0x1p-1022), _mm_set1_pd(0x1.fffffffffffffp+1023), _mm_set1_pd(1.0), _mm_set1_pd(2.0),
                   _mm_set1_pd(0.70710678118654752), _mm_set1_pd(1022.0), _mm_set1_pd(kLn2Hi), _mm_set1_pd(kLn2Lo),
                   _mm_set1_epi64x(0x000fffffffffffffLL), _mm_set1_epi64x(0x3fe0000000000000LL), {}};
    for (int j = 0; j <= 10; ++j) k.inverse_odd[j] = _mm_set1_pd(1.0 / (23 - 2 * j));
    return k;
  }();
  return c;
}
}  // namespace
#endif

std::size_t log_array(const double* x, double* out, std::size_t n) noexcept {
  std::size_t i = 0, vector_pairs = 0;
#if defined(__SSE2__)
  // log() above, step for step on two lanes. On positive normal numbers frexp is a split of the
  // bits: m has the mantissa with the exponent of 0.5, e = (biased exponent) - 1022; both lanes
  // normal or both go scalar.
  // The constants from memory, as in exp_array.
  const LogConstants& c = log_constants();
  const __m128d smallest = c.smallest, largest = c.largest, one = c.one, two = c.two, sqrt_half = c.sqrt_half;
  const __m128d bias = c.bias, ln2_hi = c.ln2_hi, ln2_lo = c.ln2_lo;
  const __m128i mantissa = c.mantissa, half = c.half;
  for (; i + 2 <= n; i += 2) {
    const __m128d v = _mm_loadu_pd(x + i);
    const __m128d ok = _mm_and_pd(_mm_cmpge_pd(v, smallest), _mm_cmple_pd(v, largest));  // false for NaN
    if (_mm_movemask_pd(ok) != 3) {
      const double a = x[i], b = x[i + 1];
      out[i] = log(a);
      out[i + 1] = log(b);
      continue;
    }
    const __m128i bits = _mm_castpd_si128(v);
    __m128d m = _mm_castsi128_pd(_mm_or_si128(_mm_and_si128(bits, mantissa), half));
    // The biased exponents (below 2^11) as two int32 lanes, then exactly as doubles.
    const __m128i biased = _mm_shuffle_epi32(_mm_srli_epi64(bits, 52), _MM_SHUFFLE(3, 1, 2, 0));
    __m128d e = _mm_sub_pd(_mm_cvtepi32_pd(biased), bias);
    const __m128d low = _mm_cmplt_pd(m, sqrt_half);
    m = _mm_or_pd(_mm_and_pd(low, _mm_mul_pd(m, two)), _mm_andnot_pd(low, m));  // m or 2 m
    e = _mm_sub_pd(e, _mm_and_pd(low, one));
    const __m128d s = _mm_div_pd(_mm_sub_pd(m, one), _mm_add_pd(m, one)), s2 = _mm_mul_pd(s, s);
    __m128d sum = c.inverse_odd[0];  // 1/23, then 1/21 ... 1/3
    for (int k = 1; k <= 10; ++k) sum = _mm_add_pd(c.inverse_odd[k], _mm_mul_pd(s2, sum));
    const __m128d two_s = _mm_mul_pd(two, s);
    const __m128d log_m = _mm_add_pd(two_s, _mm_mul_pd(_mm_mul_pd(two_s, s2), sum));
    const __m128d r = _mm_add_pd(_mm_add_pd(_mm_mul_pd(e, ln2_hi), log_m), _mm_mul_pd(e, ln2_lo));
    _mm_storeu_pd(out + i, r);
    ++vector_pairs;
  }
#endif
  for (; i < n; ++i) out[i] = log(x[i]);
  return vector_pairs;
}

}  // namespace attnlab::dmath
