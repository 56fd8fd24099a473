// exp, log, pow, cosh and sinh written here, from IEEE arithmetic alone, so that the same seed
// gives the same numbers natively and in the browser (docs/design.md "Reproducibility rules"). The C
// libraries disagree in the last bit: measured over 2 million arguments, glibc (native, with its
// FMA code paths) and musl (emscripten) differ for 1380 values of exp, 22 of log and 1440 of pow.
// Accuracy against long double references over the whole domain (tests/test_kernel_reference.cpp):
// exp within 1.5 ulps, log 2, cosh and sinh 3; pow with an integer exponent |n| <= 1024 (repeated
// squaring) within 1 + |n| ulps, else (exp of y log x) within 2 + 5 |y log x| ulps. pow departs
// from C's pow where the test pins it: a zero base's sign is dropped, pow(1, NaN) and pow(-1, +-inf)
// are NaN, and x^-n is 0 once x^n overflows. sqrt, floor and frexp are exact everywhere and stay
// std::. None of them throws (noexcept: no exception landing pads around their calls, which under
// emscripten's JS-based exception handling would route every call through JavaScript).
#pragma once
#include <cstddef>

namespace attnlab::dmath {

double exp(double x) noexcept;
double log(double x) noexcept;    // natural logarithm
double log10(double x) noexcept;
double pow(double base, double exponent) noexcept;  // integer exponents by repeated squaring
double cosh(double z) noexcept;
double sinh(double z) noexcept;

// out[i] = exp(x[i]) for i < n, bit for bit what exp() gives (tests/test_det_math.cpp), two lanes at a
// time with SSE2 (natively; in wasm the same source through emscripten's SSE-to-simd128 mapping).
// out may equal x (in place). A pair with a lane outside [-708, 709.7773) or NaN takes the scalar exp.
// Returns the number of pairs computed on the vector path (0 without SSE2), for the tests.
std::size_t exp_array(const double* x, double* out, std::size_t n) noexcept;

// out[i] = log(x[i]) for i < n, bit for bit what log() gives (tests/test_det_math.cpp), two lanes at a
// time as exp_array. out may equal x. Lanes that are not a positive normal finite number (0, negative,
// subnormal, inf, NaN) take the scalar log (both lanes of that pair). Returns the number of pairs
// computed on the vector path, as exp_array.
std::size_t log_array(const double* x, double* out, std::size_t n) noexcept;

}  // namespace attnlab::dmath
