// exp, log, pow, cosh and sinh written here, from IEEE arithmetic alone, so that the same seed
// gives the same numbers natively and in the browser (docs/design.md "Reproducibility rules"). The C
// libraries disagree in the last bit: measured over 2 million arguments, glibc (native, with its
// FMA code paths) and musl (emscripten) differ for 1380 values of exp, 22 of log and 1440 of pow.
// Accuracy: within 3 ulps of the C library (tested); sqrt, floor and frexp are exact everywhere and
// stay std::. None of them throws (noexcept: no exception landing pads around their calls, which
// under emscripten's JS-based exception handling would route every call through JavaScript).
#pragma once

namespace attnlab::dmath {

double exp(double x) noexcept;
double log(double x) noexcept;    // natural logarithm
double log10(double x) noexcept;
double pow(double base, double exponent) noexcept;  // integer exponents by repeated squaring
double cosh(double z) noexcept;
double sinh(double z) noexcept;

}  // namespace attnlab::dmath
