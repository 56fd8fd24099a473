#include "core/attention.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "core/det_math.hpp"

namespace attnlab {

void softmax(const double* v, std::size_t n, double* out) {
  if (n == 0) throw std::domain_error("softmax of an empty vector");
  double vmax = v[0];
  for (std::size_t i = 1; i < n; ++i) vmax = v[i] > vmax ? v[i] : vmax;
  if (!std::isfinite(vmax)) throw std::domain_error("softmax: a logit is not finite");
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
  if (!(sum > 0.0) || !std::isfinite(sum)) {
    throw std::domain_error("linear attention needs a positive, finite row sum <v, 1>; got " +
                            std::to_string(sum));
  }
  const double inv = 1.0 / sum;
  for (std::size_t i = 0; i < n; ++i) out[i] = v[i] * inv;
}

}  // namespace attnlab
