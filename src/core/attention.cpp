#include "core/attention.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "core/det_math.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace attnlab {

double softmax_shift(const double* v, std::size_t n) {
  if (n == 0) throw std::domain_error("softmax of an empty vector");
  double vmax = v[0];
  std::size_t i = 1;
#if defined(__SSE2__)
  // Four running maxima (two lanes of two registers), each over a subsequence that starts at v[0],
  // each step v[i] > acc ? v[i] : acc as below: the maximum of finite values is the same in any
  // order (a tie of -0 and +0 may pick either, which v - max v cannot tell apart), and a NaN v[0]
  // still comes out as NaN and throws.
  if (n >= 8) {
    __m128d acc_a = _mm_set1_pd(v[0]), acc_b = acc_a;
    for (i = 0; i + 4 <= n; i += 4) {
      acc_a = _mm_max_pd(_mm_loadu_pd(v + i), acc_a);  // per lane: v > acc ? v : acc
      acc_b = _mm_max_pd(_mm_loadu_pd(v + i + 2), acc_b);
    }
    double lanes[4];
    _mm_storeu_pd(lanes, acc_a);
    _mm_storeu_pd(lanes + 2, acc_b);
    for (double lane : lanes) vmax = lane > vmax ? lane : vmax;
  }
#endif
  for (; i < n; ++i) vmax = v[i] > vmax ? v[i] : vmax;
  if (!std::isfinite(vmax)) throw std::domain_error("softmax: a logit is not finite");
  return vmax;
}

double linear_inverse_sum(double sum) {
  if (!(sum > 0.0) || !std::isfinite(sum)) {
    throw std::domain_error("linear attention needs a positive, finite row sum <v, 1>; got " +
                            std::to_string(sum));
  }
  return 1.0 / sum;
}

void softmax(const double* v, std::size_t n, double* out) {
  const double vmax = softmax_shift(v, n);
  // exp over the whole array first (dmath::exp_array: the vector kernel, the scalar exp's bits),
  // then the sum in index order as before.
  for (std::size_t i = 0; i < n; ++i) out[i] = v[i] - vmax;
  dmath::exp_array(out, out, n);
  double sum = 0.0;
  for (std::size_t i = 0; i < n; ++i) sum += out[i];
  const double inv = 1.0 / sum;  // sum >= 1: the maximum contributes exp(0)
  for (std::size_t i = 0; i < n; ++i) out[i] *= inv;
}

void linear_normalise(const double* v, std::size_t n, double* out) {
  double sum = 0.0;
  for (std::size_t i = 0; i < n; ++i) sum += v[i];
  const double inv = linear_inverse_sum(sum);
  for (std::size_t i = 0; i < n; ++i) out[i] = v[i] * inv;
}

}  // namespace attnlab
