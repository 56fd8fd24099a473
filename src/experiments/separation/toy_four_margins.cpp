#include "experiments/separation/toy_four_margins.hpp"

#include <cstdint>

#include "core/attention.hpp"
#include "core/det_math.hpp"
#include "experiments/separation/toy_model.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace attnlab::separation {

#if defined(__SSE2__)
namespace {

// One group of four elements: p[k] holds element k of evaluations (a, b) in its two lanes; writes
// the 16 entries t[s] (s = sign nibble, bit k set: element k counts +1) of those two evaluations,
// 4 doubles apart. The same operations in the same order as readout_margins' table (toy_model.cpp).
inline void group_entries(const __m128d p[4], double* t) {
  const __m128d sign = _mm_set1_pd(-0.0), two = _mm_set1_pd(2.0);
  __m128d entry[16];
  entry[0] = _mm_xor_pd(_mm_add_pd(_mm_add_pd(_mm_add_pd(p[0], p[1]), p[2]), p[3]), sign);
  for (int k = 0; k < 4; ++k) {
    const int bit = 1 << k;
    const __m128d step = _mm_mul_pd(two, p[k]);
    for (int s = 0; s < bit; ++s) entry[s | bit] = _mm_add_pd(entry[s], step);
  }
  for (int s = 0; s < 16; ++s) _mm_storeu_pd(t + 4 * s, entry[s]);
}

// Group g's table entries for the four evaluations from four elements of e1, v1, e0, v0 (each
// pointer at element 4g), scaled by the normalisations: lanes (softmax D1, linear D1) and
// (softmax D0, linear D0).
inline void build_group(const double* e1, const double* v1, const double* e0, const double* v0,
                        __m128d scale_d1, __m128d scale_d0, double* t) {
  __m128d p[4];
  const __m128d e1a = _mm_loadu_pd(e1), e1b = _mm_loadu_pd(e1 + 2), v1a = _mm_loadu_pd(v1), v1b = _mm_loadu_pd(v1 + 2);
  p[0] = _mm_mul_pd(_mm_unpacklo_pd(e1a, v1a), scale_d1);
  p[1] = _mm_mul_pd(_mm_unpackhi_pd(e1a, v1a), scale_d1);
  p[2] = _mm_mul_pd(_mm_unpacklo_pd(e1b, v1b), scale_d1);
  p[3] = _mm_mul_pd(_mm_unpackhi_pd(e1b, v1b), scale_d1);
  group_entries(p, t);
  const __m128d e0a = _mm_loadu_pd(e0), e0b = _mm_loadu_pd(e0 + 2), v0a = _mm_loadu_pd(v0), v0b = _mm_loadu_pd(v0 + 2);
  p[0] = _mm_mul_pd(_mm_unpacklo_pd(e0a, v0a), scale_d0);
  p[1] = _mm_mul_pd(_mm_unpackhi_pd(e0a, v0a), scale_d0);
  p[2] = _mm_mul_pd(_mm_unpacklo_pd(e0b, v0b), scale_d0);
  p[3] = _mm_mul_pd(_mm_unpackhi_pd(e0b, v0b), scale_d0);
  group_entries(p, t + 2);
}

// Columns j0 .. j0 + W - 1 of the readout: W columns side by side (independent chains), each sum
// over the groups in the order g = 0, 1, ..., as readout_margins adds them.
template <int W>
void column_sums(const double* table, int groups, const Readout& y, int j0, double tau,
                 std::vector<double> (&margins)[4]) {
  const std::uint64_t* bits[W];
  __m128d d1[W], d0[W];
  for (int c = 0; c < W; ++c) {
    bits[c] = y.column_bits(j0 + c);
    d1[c] = _mm_setzero_pd();
    d0[c] = _mm_setzero_pd();
  }
  for (int g = 0; g < groups; ++g) {
    const int w = g >> 4, sh = (g & 15) * 4;
    const double* t = table + static_cast<std::size_t>(g) * 64;
    for (int c = 0; c < W; ++c) {
      const double* entry = t + 4 * ((bits[c][w] >> sh) & 15U);
      d1[c] = _mm_add_pd(d1[c], _mm_loadu_pd(entry));
      d0[c] = _mm_add_pd(d0[c], _mm_loadu_pd(entry + 2));
    }
  }
  for (int c = 0; c < W; ++c) {
    double lanes[4];
    _mm_storeu_pd(lanes, d1[c]);
    _mm_storeu_pd(lanes + 2, d0[c]);
    for (int k = 0; k < 4; ++k) margins[k][static_cast<std::size_t>(j0 + c)] = lanes[k] - tau;
  }
}

}  // namespace
#endif

void FourMargins::compute(const std::vector<double>& v1, const std::vector<double>& v0, const Readout& y,
                          double tau, std::vector<double> (&margins)[4]) {
  for (auto& m : margins) m.resize(static_cast<std::size_t>(y.m()));
#if defined(__SSE2__)
  const std::size_t n = v1.size();
  // softmax (core/attention.cpp): v - max v, exp, the sum in index order, 1 / sum.
  const double max1 = softmax_shift(v1.data(), n), max0 = softmax_shift(v0.data(), n);
  e1_.resize(n);
  e0_.resize(n);
  for (std::size_t i = 0; i < n; ++i) e1_[i] = v1[i] - max1;
  for (std::size_t i = 0; i < n; ++i) e0_[i] = v0[i] - max0;
  dmath::exp_array(e1_.data(), e1_.data(), n);
  dmath::exp_array(e0_.data(), e0_.data(), n);
  double sum_e1 = 0.0, sum_v1 = 0.0, sum_e0 = 0.0, sum_v0 = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    sum_e1 += e1_[i];
    sum_v1 += v1[i];
    sum_e0 += e0_[i];
    sum_v0 += v0[i];
  }
  const __m128d scale_d1 = _mm_set_pd(linear_inverse_sum(sum_v1), 1.0 / sum_e1);
  const __m128d scale_d0 = _mm_set_pd(linear_inverse_sum(sum_v0), 1.0 / sum_e0);

  const int groups = static_cast<int>((n + 3) / 4), full = static_cast<int>(n / 4);
  table_.resize(static_cast<std::size_t>(groups) * 64);
  for (int g = 0; g < full; ++g) {
    const std::size_t i = 4 * static_cast<std::size_t>(g);
    build_group(&e1_[i], &v1[i], &e0_[i], &v0[i], scale_d1, scale_d0, &table_[static_cast<std::size_t>(g) * 64]);
  }
  if (full < groups) {  // the last, partial group: the missing elements count as 0 (0 x scale = +0)
    double tail[4][4] = {};
    for (std::size_t i = 4 * static_cast<std::size_t>(full), k = 0; i < n; ++i, ++k) {
      tail[0][k] = e1_[i];
      tail[1][k] = v1[i];
      tail[2][k] = e0_[i];
      tail[3][k] = v0[i];
    }
    build_group(tail[0], tail[1], tail[2], tail[3], scale_d1, scale_d0, &table_[static_cast<std::size_t>(full) * 64]);
  }
  int j = 0;
  for (; j + 4 <= y.m(); j += 4) column_sums<4>(table_.data(), groups, y, j, tau, margins);
  for (; j + 2 <= y.m(); j += 2) column_sums<2>(table_.data(), groups, y, j, tau, margins);
  for (; j < y.m(); ++j) column_sums<1>(table_.data(), groups, y, j, tau, margins);
#else
  ToyTrialInputs in;  // without SSE2: one evaluation at a time (the same bits)
  in.v1 = v1;
  in.v0 = v0;
  std::vector<double> f;
  for (int k = 0; k < 4; ++k) {
    attention_vector(in, k, f);
    readout_margins(f.data(), y, tau, margins[k].data());
  }
#endif
}

}  // namespace attnlab::separation
