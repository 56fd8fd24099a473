// The build configuration behind Eigen: in wasm, Eigen must take its vectorised SSE path
// through emscripten's SSE emulation (docs/toolchain.md, "Pitfall 3"); natively, SSE2 at least.
#include <catch2/catch.hpp>
#include <Eigen/Dense>

#include "core/rng.hpp"

TEST_CASE("Eigen is vectorised on both targets", "[core][eigen]") {
#ifndef EIGEN_VECTORIZE
  FAIL("EIGEN_VECTORIZE is off: check -msimd128 -msse4.2 and the mmintrin.h shim");
#endif
#if defined(__EMSCRIPTEN__) && !defined(EIGEN_VECTORIZE_SSE4_2)
  FAIL("wasm build without Eigen's SSE4.2 path");
#endif
  CHECK(Eigen::internal::packet_traits<double>::size == 2);
}

TEST_CASE("Eigen products agree with a plain triple loop", "[core][eigen]") {
  attnlab::Rng rng(3);
  const int n = 37, k = 23, m = 19;
  Eigen::MatrixXd a(n, k), b(k, m);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < k; ++j) a(i, j) = rng.normal();
  for (int i = 0; i < k; ++i)
    for (int j = 0; j < m; ++j) b(i, j) = rng.normal();
  const Eigen::MatrixXd c = a * b;
  double worst = 0.0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) {
      double s = 0.0;
      for (int l = 0; l < k; ++l) s += a(i, l) * b(l, j);
      worst = std::max(worst, std::abs(c(i, j) - s));
    }
  CHECK(worst < 1e-12);
}
