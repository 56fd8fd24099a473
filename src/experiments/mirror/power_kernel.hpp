// |x|^e for one fixed exponent e (docs/mirror.md s.2): the formula is chosen once, then applied to
// one value or to a whole array. The array form runs two lanes at a time with SSE2 (natively; in wasm
// the same source through emscripten's SSE-to-simd128 mapping) and gives for every element bit for
// bit what the scalar form gives: the same IEEE operations in the same order (tests/test_mirror_power.cpp).
#pragma once
#include <cstddef>

namespace attnlab::mirror {

class MagnitudePower {
 public:
  // Exact shortcuts for the exponents p = 1.75, 2 and 3 produce (docs/mirror.md s.2: 1/2, -1/2, 3/2,
  // 2, 3/4, 4/3, 1/3, 7/3 by square and cube roots), else the deterministic pow.
  explicit MagnitudePower(double e);
  double operator()(double a) const;                              // a^e for a >= 0
  void apply(const double* a, double* out, std::size_t n) const;  // out[i] = a[i]^e; out may equal a
  double exponent() const { return e_; }

 private:
  enum class Form { Identity, Sqrt, InverseSqrt, TimesSqrt, Square, ThreeQuarters, FourThirds, OneThird,
                    SevenThirds, Pow };
  Form form_;
  double e_;
};

}  // namespace attnlab::mirror
