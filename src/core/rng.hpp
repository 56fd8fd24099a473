// The project's random number generator: xoshiro256** seeded through splitmix64.
// Every distribution is written here (no std:: distributions) so that the same seed gives
// the same numbers natively (libstdc++) and in WebAssembly (libc++). docs/design.md "Reproducibility rules".
#pragma once
#include <cstdint>

namespace attnlab {

class Rng {
 public:
  explicit Rng(std::uint64_t seed);
  // A generator for one independent stream, e.g. (seed, trial index): the numbers of a trial
  // do not depend on how the work is sliced into steps or spread over threads.
  static Rng for_stream(std::uint64_t seed, std::uint64_t stream);

  std::uint64_t next_u64() noexcept {  // inline: the hot path of every distribution below
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  // Uniform on [0, 1) with 53 random bits.
  double uniform() noexcept { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }
  // Uniform on [lo, hi).
  double uniform(double lo, double hi) noexcept { return lo + (hi - lo) * uniform(); }
  // Uniform integer in [0, bound), bound >= 1 (Lemire's method with rejection, unbiased).
  std::uint64_t below(std::uint64_t bound) noexcept;
  // +1 or -1 with probability 1/2 each.
  double rademacher() noexcept { return (next_u64() >> 63) ? 1.0 : -1.0; }
  // Standard normal by the Marsaglia polar method (only sqrt and log: identical on both targets).
  double normal() noexcept;

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) noexcept { return (x << k) | (x >> (64 - k)); }
  std::uint64_t s_[4];
  double spare_normal_ = 0.0;
  bool has_spare_ = false;
};

// splitmix64 finaliser: a bijective mix of 64 bits, used for seeding and stream derivation.
std::uint64_t mix64(std::uint64_t x) noexcept;

}  // namespace attnlab
