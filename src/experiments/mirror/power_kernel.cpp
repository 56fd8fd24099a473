#include "experiments/mirror/power_kernel.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>

#include "core/det_math.hpp"

#if defined(__SSE4_1__)
#include <smmintrin.h>
#endif

namespace attnlab::mirror {

namespace {

constexpr std::uint64_t kCubeRootGuess = 0x2a9f7893782da1ceULL;
// Halley's step forms y (y^3 + 2a), about 3 a^(4/3): it overflows above about 2^766 and leaves the
// normal numbers below about 2^-766 (and the bit-level guess is no guess for subnormal a). Outside
// [2^-765, 2^765] the argument is first scaled by 2^-/+768 into it and the root back by 2^+/-256,
// both exact. The guess of a 2^(3k) is the guess of a times 2^k exactly (k << 52 is a third of
// 3k << 52) and every step is then scaled by powers of 2 only, so wherever the unscaled steps stayed
// normal the scaled ones give the same bits: no result inside the window changes.
constexpr double kCubeRootBig = 0x1p765, kCubeRootSmall = 0x1p-765;

// The bit-level guess and three Halley steps, for a in [2^-765, 2^765]: divide the exponent by 3 in
// the bit pattern (within a few percent), then y <- y (y^3 + 2a) / (2 y^3 + a), which triples the
// correct digits each time.
double halley_cube_root(double a) {
  std::uint64_t bits;
  std::memcpy(&bits, &a, sizeof bits);
  bits = bits / 3 + kCubeRootGuess;
  double y;
  std::memcpy(&y, &bits, sizeof y);
  for (int k = 0; k < 3; ++k) {
    const double y3 = y * y * y;
    y = y * (y3 + 2.0 * a) / (2.0 * y3 + a);
  }
  return y;
}

// Cube root by Halley's method from a bit-level first guess: IEEE operations only, so the same
// bits natively and in wasm, about 4x cheaper than exp(log(a) / 3). For a >= 0 (and +inf, NaN).
double cube_root(double a) {
  if (a == 0.0 || !std::isfinite(a)) return a;
  if (a > kCubeRootBig) return halley_cube_root(a * 0x1p-768) * 0x1p256;
  if (a < kCubeRootSmall) return halley_cube_root(a * 0x1p768) * 0x1p-256;
  return halley_cube_root(a);
}

bool near(double e, double target) { return std::fabs(e - target) < 1e-12; }

#if defined(__SSE4_1__)
// cube_root()'s guess and three Halley steps on two lanes, for a in [2^-765, 2^765].
__m128d halley_cube_root2(__m128d a) {
  const __m128i bits = _mm_castpd_si128(a);
  const auto b0 = static_cast<std::uint64_t>(_mm_cvtsi128_si64(bits));
  const auto b1 = static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(bits, bits)));
  __m128d y = _mm_castsi128_pd(_mm_set_epi64x(static_cast<long long>(b1 / 3 + kCubeRootGuess),
                                              static_cast<long long>(b0 / 3 + kCubeRootGuess)));
  const __m128d two = _mm_set1_pd(2.0), two_a = _mm_mul_pd(two, a);
  for (int k = 0; k < 3; ++k) {
    const __m128d y3 = _mm_mul_pd(_mm_mul_pd(y, y), y);
    y = _mm_div_pd(_mm_mul_pd(y, _mm_add_pd(y3, two_a)), _mm_add_pd(_mm_mul_pd(two, y3), a));
  }
  return y;
}

// cube_root() on two lanes, step for step; lanes with a = 0 or a not finite give a. A pair with a
// positive lane outside [2^-765, 2^765] is scaled as cube_root() does (the other lane by 1, exact,
// so it rounds as without); the common pair, both inside, skips the scaling.
__m128d cube_root2(__m128d a) {
  const __m128d big = _mm_cmpgt_pd(a, _mm_set1_pd(kCubeRootBig));
  const __m128d small = _mm_and_pd(_mm_cmplt_pd(a, _mm_set1_pd(kCubeRootSmall)), _mm_cmpgt_pd(a, _mm_setzero_pd()));
  __m128d y;
  if (_mm_movemask_pd(_mm_or_pd(big, small)) == 0) {
    y = halley_cube_root2(a);
  } else {
    const __m128d one = _mm_set1_pd(1.0);
    const __m128d scale_in = _mm_blendv_pd(_mm_blendv_pd(one, _mm_set1_pd(0x1p768), small), _mm_set1_pd(0x1p-768), big);
    const __m128d scale_out = _mm_blendv_pd(_mm_blendv_pd(one, _mm_set1_pd(0x1p-256), small), _mm_set1_pd(0x1p256), big);
    y = _mm_mul_pd(halley_cube_root2(_mm_mul_pd(a, scale_in)), scale_out);
  }
  const __m128d abs_a = _mm_andnot_pd(_mm_set1_pd(-0.0), a);
  const __m128d finite = _mm_cmple_pd(abs_a, _mm_set1_pd(1.7976931348623157e308));  // false for NaN
  const __m128d keep_a = _mm_or_pd(_mm_cmpeq_pd(a, _mm_setzero_pd()), _mm_xor_pd(finite, _mm_castsi128_pd(_mm_set1_epi32(-1))));
  return _mm_blendv_pd(y, a, keep_a);
}

// out[i] = lanes(a[i..i+1]) two at a time, the odd last element by the scalar form.
template <class Lanes, class Scalar>
void two_lanes(const double* a, double* out, std::size_t n, Lanes lanes, Scalar scalar) {
  std::size_t i = 0;
  for (; i + 2 <= n; i += 2) _mm_storeu_pd(out + i, lanes(_mm_loadu_pd(a + i)));
  for (; i < n; ++i) out[i] = scalar(a[i]);
}
#endif

}  // namespace

MagnitudePower::MagnitudePower(double e) : e_(e) {
  // The order of the tests is that of the scalar dispatch this replaces (docs/mirror.md s.2).
  if (e == 1.0) form_ = Form::Identity;
  else if (e == 0.5) form_ = Form::Sqrt;
  else if (e == -0.5) form_ = Form::InverseSqrt;
  else if (e == 1.5) form_ = Form::TimesSqrt;
  else if (e == 2.0) form_ = Form::Square;
  else if (near(e, 0.75)) form_ = Form::ThreeQuarters;
  else if (near(e, 4.0 / 3.0)) form_ = Form::FourThirds;
  else if (near(e, 1.0 / 3.0)) form_ = Form::OneThird;
  else if (near(e, 7.0 / 3.0)) form_ = Form::SevenThirds;
  else form_ = Form::Pow;
}

double MagnitudePower::operator()(double a) const {
  switch (form_) {
    case Form::Identity: return a;
    case Form::Sqrt: return std::sqrt(a);
    case Form::InverseSqrt: return 1.0 / std::sqrt(a);
    case Form::TimesSqrt: return a * std::sqrt(a);
    case Form::Square: return a * a;
    case Form::ThreeQuarters: return std::sqrt(a) * std::sqrt(std::sqrt(a));
    case Form::FourThirds: return a * cube_root(a);
    case Form::OneThird: return cube_root(a);
    case Form::SevenThirds: return a * a * cube_root(a);
    case Form::Pow: break;
  }
  return dmath::pow(a, e_);  // integer exponents are exact products there
}

void MagnitudePower::apply(const double* a, double* out, std::size_t n) const {
  const auto scalar = [this](double x) { return (*this)(x); };
#if defined(__SSE4_1__)
  const __m128d one = _mm_set1_pd(1.0);
  switch (form_) {
    case Form::Identity: return two_lanes(a, out, n, [](__m128d x) { return x; }, scalar);
    case Form::Sqrt: return two_lanes(a, out, n, [](__m128d x) { return _mm_sqrt_pd(x); }, scalar);
    case Form::InverseSqrt:
      return two_lanes(a, out, n, [one](__m128d x) { return _mm_div_pd(one, _mm_sqrt_pd(x)); }, scalar);
    case Form::TimesSqrt: return two_lanes(a, out, n, [](__m128d x) { return _mm_mul_pd(x, _mm_sqrt_pd(x)); }, scalar);
    case Form::Square: return two_lanes(a, out, n, [](__m128d x) { return _mm_mul_pd(x, x); }, scalar);
    case Form::ThreeQuarters:
      return two_lanes(
          a, out, n, [](__m128d x) { const __m128d r = _mm_sqrt_pd(x); return _mm_mul_pd(r, _mm_sqrt_pd(r)); }, scalar);
    case Form::FourThirds: return two_lanes(a, out, n, [](__m128d x) { return _mm_mul_pd(x, cube_root2(x)); }, scalar);
    case Form::OneThird: return two_lanes(a, out, n, [](__m128d x) { return cube_root2(x); }, scalar);
    case Form::SevenThirds:
      return two_lanes(a, out, n, [](__m128d x) { return _mm_mul_pd(_mm_mul_pd(x, x), cube_root2(x)); }, scalar);
    case Form::Pow: break;
  }
#endif
  for (std::size_t i = 0; i < n; ++i) out[i] = scalar(a[i]);
}

}  // namespace attnlab::mirror
