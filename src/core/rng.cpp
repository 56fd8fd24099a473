#include "core/rng.hpp"

#include <cmath>

#include "core/det_math.hpp"

namespace attnlab {

std::uint64_t mix64(std::uint64_t x) noexcept {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

Rng::Rng(std::uint64_t seed) {
  std::uint64_t x = seed;
  for (auto& s : s_) {
    x += 0x9e3779b97f4a7c15ULL;
    s = mix64(x);
  }
}

Rng Rng::for_stream(std::uint64_t seed, std::uint64_t stream) {
  return Rng(mix64(seed) ^ mix64(stream + 0x632be59bd9b4e019ULL));
}

std::uint64_t Rng::below(std::uint64_t bound) noexcept {
  // Rejection on the top bits: portable (no 128-bit multiply needed in wasm).
  std::uint64_t mask = ~0ULL;
  std::uint64_t b = bound - 1;
  if (b == 0) return 0;
  int lz = 0;
  while (!(b & (1ULL << 63))) { b <<= 1; ++lz; }
  mask >>= lz;
  for (;;) {
    const std::uint64_t x = next_u64() & mask;
    if (x < bound) return x;
  }
}

double Rng::normal() noexcept {
  if (has_spare_) {
    has_spare_ = false;
    return spare_normal_;
  }
  double u, v, s;
  do {
    u = 2.0 * uniform() - 1.0;
    v = 2.0 * uniform() - 1.0;
    s = u * u + v * v;
  } while (s >= 1.0 || s == 0.0);
  const double f = std::sqrt(-2.0 * dmath::log(s) / s);
  spare_normal_ = v * f;
  has_spare_ = true;
  return u * f;
}

}  // namespace attnlab
