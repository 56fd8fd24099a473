// A double's 64 bits and back, for the tests that compare results bit for bit.
#pragma once
#include <cstdint>
#include <cstring>

inline std::uint64_t bits_of(double x) {
  std::uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}
inline double from_bits(std::uint64_t b) {
  double x;
  std::memcpy(&x, &b, sizeof x);
  return x;
}
