#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "core/det_math.hpp"
#include "core/rng.hpp"
#include "double_bits.hpp"

using namespace attnlab;

// The vector kernel gives the scalar function's bits on every argument (this file runs natively and,
// through the wasm ctest, in node): 10^7 arguments, the special values first, then blocks drawn
// around the edges (the fast path's [-708, 709.78), overflow at 709.78, underflow at -745.2), the
// subnormal-result range, the typical softmax range [-40, 0], and arbitrary bit patterns.
TEST_CASE("exp_array equals exp bit for bit on 10^7 arguments", "[core][det_math]") {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> x = {0.0, -0.0, 1.0, -1.0, inf, -inf, nan, -nan,
                           std::numeric_limits<double>::denorm_min(), -std::numeric_limits<double>::denorm_min(),
                           std::numeric_limits<double>::min(), -std::numeric_limits<double>::min(),
                           std::numeric_limits<double>::max(), -std::numeric_limits<double>::max(),
                           709.782712893384, std::nextafter(709.782712893384, 0.0), 709.7, 710.0,
                           -708.0, std::nextafter(-708.0, 0.0), std::nextafter(-708.0, -inf), -745.2,
                           std::nextafter(-745.2, 0.0), -745.1, -746.0, -1e-300, 1e-300, 0x1p-1074, 0x1p-1022};
  const std::size_t total = 10'000'000;
  Rng rng(2210);
  while (x.size() < total) {
    const std::uint64_t kind = x.size() % 8;
    const double u = rng.uniform();
    switch (kind) {
      case 0: x.push_back(from_bits(rng.next_u64())); break;                  // any double
      case 1: x.push_back(-40.0 + 40.0 * u); break;                           // softmax logits
      case 2: x.push_back(-750.0 + 1470.0 * u); break;                        // the whole finite range
      case 3: x.push_back(-708.0 + (u - 0.5) * 1e-9); break;                  // the fast path's edge
      case 4: x.push_back(709.782712893384 + (u - 0.5) * 1e-9); break;        // overflow
      case 5: x.push_back(-745.2 + (u - 0.5) * 2.0); break;                   // underflow, subnormals
      case 6: x.push_back(from_bits(rng.next_u64() & 0x800fffffffffffffULL)); break;  // subnormal args
      default: x.push_back((u - 0.5) * 1e-6); break;                          // near 0
    }
  }
  x.push_back(2.0);  // an odd length: the scalar tail
  std::vector<double> out(x.size());
  dmath::exp_array(x.data(), out.data(), x.size());
  std::size_t differ = 0, first = x.size();
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (bits_of(out[i]) != bits_of(dmath::exp(x[i]))) {
      if (differ++ == 0) first = i;
    }
  }
  INFO("first difference at x = " << (first < x.size() ? x[first] : 0.0));
  CHECK(differ == 0);
  // In place, on an odd length, equals the out-of-place result.
  std::vector<double> y(x.begin(), x.begin() + 1001);
  dmath::exp_array(y.data(), y.data(), y.size());
  for (std::size_t i = 0; i < y.size(); ++i) REQUIRE(bits_of(y[i]) == bits_of(out[i]));
}

// The same for log: the special values, the edges of the vector path (the smallest normal number,
// the largest finite one), mantissas on both sides of sqrt(1/2) (where the reduction doubles m),
// arguments near 1, softmax sums in [1, 8], subnormals, negative numbers and arbitrary bit patterns.
TEST_CASE("log_array equals log bit for bit on 10^7 arguments", "[core][det_math]") {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  const double tiny = std::numeric_limits<double>::min(), huge = std::numeric_limits<double>::max();
  std::vector<double> x = {0.0, -0.0, 1.0, -1.0, inf, -inf, nan, -nan, 2.0, 0.5,
                           std::numeric_limits<double>::denorm_min(), -std::numeric_limits<double>::denorm_min(),
                           tiny, std::nextafter(tiny, 0.0), std::nextafter(tiny, 1.0), -tiny, huge, -huge,
                           std::nextafter(huge, 0.0), 0.70710678118654752, std::nextafter(0.70710678118654752, 0.0),
                           std::nextafter(0.70710678118654752, 1.0), std::nextafter(1.0, 0.0), std::nextafter(1.0, 2.0)};
  const std::size_t total = 10'000'000;
  Rng rng(2211);
  while (x.size() < total) {
    const std::uint64_t kind = x.size() % 8;
    const double u = rng.uniform();
    switch (kind) {
      case 0: x.push_back(from_bits(rng.next_u64())); break;                                   // any double
      case 1: x.push_back(1.0 + 7.0 * u); break;                                               // softmax sums
      case 2: x.push_back(from_bits(rng.next_u64() & 0x7fefffffffffffffULL)); break;           // positive finite
      case 3: x.push_back(std::ldexp(0.70710678118654752 + (u - 0.5) * 1e-12, int(u * 200) - 100)); break;
      case 4: x.push_back(1.0 + (u - 0.5) * 1e-6); break;                                      // near 1
      case 5: x.push_back(tiny * (1.0 + (u - 0.5) * 1e-3)); break;                             // normal / subnormal edge
      case 6: x.push_back(from_bits(rng.next_u64() & 0x800fffffffffffffULL)); break;           // subnormals, both signs
      default: x.push_back(1e-300 + u * 1e300); break;                                         // wide range
    }
  }
  x.push_back(3.0);  // an odd length: the scalar tail
  std::vector<double> out(x.size());
  dmath::log_array(x.data(), out.data(), x.size());
  std::size_t differ = 0, first = x.size();
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (bits_of(out[i]) != bits_of(dmath::log(x[i])) && differ++ == 0) first = i;
  }
  INFO("first difference at x = " << (first < x.size() ? x[first] : 0.0));
  CHECK(differ == 0);
  std::vector<double> y(x.begin(), x.begin() + 1001);
  dmath::log_array(y.data(), y.data(), y.size());
  for (std::size_t i = 0; i < y.size(); ++i) REQUIRE(bits_of(y[i]) == bits_of(out[i]));
}
