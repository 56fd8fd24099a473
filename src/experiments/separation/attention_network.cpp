#include "experiments/separation/attention_network.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "core/det_math.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace attnlab::separation {

void RowGroups::clear(int d) {
  const std::size_t width = static_cast<std::size_t>(d_);
  for (std::size_t g = 0; g < size(); ++g) {
    double* row = rows_.data() + g * width;
    if (negative_zero_[g]) {
      std::fill_n(row, width, 0.0);
    } else {
      for (const int* i = nonzeros_begin(g); i != nonzeros_end(g); ++i) row[*i] = 0.0;
    }
  }
  // A row appended but never sealed (an exception between the two) is cleared whole.
  std::fill(rows_.data() + size() * width, rows_.data() + used_, 0.0);
  d_ = d;
  used_ = 0;
  counts_.clear();
  sums_.clear();
  nonzeros_.clear();
  nonzero_start_.assign(1, 0);
  negative_zero_.clear();
}

void RowGroups::add(const std::vector<double>& row, double count) {
  std::copy(row.begin(), row.end(), append_zero_row());
  seal_row(count);
}

double* RowGroups::append_zero_row() {
  const std::size_t d = static_cast<std::size_t>(d_);
  if (rows_.size() < used_ + d) rows_.resize(used_ + d, 0.0);  // the vector grows its capacity geometrically
  double* row = rows_.data() + used_;
  used_ += d;
  return row;  // +0 throughout (see rows_)
}

// <row, 1> runs over the non-zero entries only, in column order. That is the same double as the sum
// over every entry: the running sum starts at +0 and is never -0 (round to nearest gives x + -x =
// +0), and adding +0 or -0 to such a sum leaves it unchanged.
void RowGroups::seal_row(double count) {
  const double* row = rows_.data() + (used_ - static_cast<std::size_t>(d_));
  const std::size_t at = nonzeros_.size();
  nonzeros_.resize(at + static_cast<std::size_t>(d_));
  int* nz = nonzeros_.data() + at;
  int k = 0;
  bool negative_zero = false;
  for (int i = 0; i < d_; ++i) {  // branch-free: every column is written, the non-zeros kept
    nz[k] = i;
    k += row[i] != 0.0;
    negative_zero |= row[i] == 0.0 && std::signbit(row[i]);
  }
  double sum = 0.0;
  for (int j = 0; j < k; ++j) sum += row[nz[j]];
  nonzeros_.resize(at + static_cast<std::size_t>(k));
  counts_.push_back(count);
  sums_.push_back(sum);
  nonzero_start_.push_back(nonzeros_.size());
  negative_zero_.push_back(negative_zero);
}

void RowGroups::seal_row(double count, const int* candidates, int k) {
  const double* row = rows_.data() + (used_ - static_cast<std::size_t>(d_));
  double sum = 0.0;
  bool negative_zero = false;
  for (int j = 0; j < k; ++j) {
    const int i = candidates[j];
    if (row[i] != 0.0) {
      nonzeros_.push_back(i);
      sum += row[i];
    } else {
      negative_zero |= std::signbit(row[i]);
    }
  }
  counts_.push_back(count);
  sums_.push_back(sum);
  nonzero_start_.push_back(nonzeros_.size());
  negative_zero_.push_back(negative_zero);
}

double RowGroups::tokens() const {
  double n = 0.0;
  for (double c : counts_) n += c;
  return n;
}

double score(const double* q, const RowGroups& keys, std::size_t g, ScoreMatrix x) {
  const double* k = keys.row(g);
  if (x == ScoreMatrix::Identity) {  // q^T k over the non-zeros of k (zeros add nothing)
    double s = 0.0;
    for (const int* i = keys.nonzeros_begin(g); i != keys.nonzeros_end(g); ++i) s += q[*i] * k[*i];
    return s;
  }
  double sq = 0.0;  // q^T 1 1^T k
  for (int i = 0; i < keys.d(); ++i) sq += q[i];
  return sq * keys.sum(g);
}

void attend(const RowGroups& queries, const RowGroups& keys, ScoreMatrix x, Normalisation norm, RowGroups& out,
            const AttentionRowSink& sink) {
  const int d = queries.d();
  const std::size_t groups = keys.size();
  out.clear(d);
  thread_local std::vector<double> weight;  // per-thread scratch: no allocation per call
  weight.resize(groups);
  for (std::size_t q = 0; q < queries.size(); ++q) {
    // Scores of this query row against one token of each key group (docs/separation.md s.2, row by row).
    double top = -INFINITY;
    for (std::size_t g = 0; g < groups; ++g) {
      weight[g] = score(queries.row(q), keys, g, x);
      if (weight[g] > top) top = weight[g];
    }
    double total = 0.0;
    if (norm == Normalisation::Softmax) {
      if (!std::isfinite(top)) throw std::domain_error("softmax attention: a score is not finite");
      // exp over the row first (dmath::exp_array: the scalar exp's bits), then the sum in order.
      for (std::size_t g = 0; g < groups; ++g) weight[g] -= top;
      dmath::exp_array(weight.data(), weight.data(), groups);
      for (std::size_t g = 0; g < groups; ++g) total += keys.count(g) * weight[g];
    } else {
      for (std::size_t g = 0; g < groups; ++g) total += keys.count(g) * weight[g];
      if (!(total > 0.0) || !std::isfinite(total))
        throw std::domain_error("linear attention needs positive row sums of the scores; a row sums to " +
                                std::to_string(total));
    }
    const double inv = 1.0 / total;
    for (double& w : weight) w *= inv;
    if (sink) sink(q, weight);
    double* c = out.append_zero_row();  // accumulated in place, from +0 as before
    for (std::size_t g = 0; g < groups; ++g) {
      const double w = keys.count(g) * weight[g];
      const double* k = keys.row(g);
      for (const int* i = keys.nonzeros_begin(g); i != keys.nonzeros_end(g); ++i) c[*i] += w * k[*i];
    }
    out.seal_row(queries.count(q));
  }
}

void unpack_signs(const Readout& y, std::vector<double>& signs) {
  const int n = y.n();
  signs.resize(static_cast<std::size_t>(y.m()) * static_cast<std::size_t>(n));
  for (int l = 0; l < y.m(); ++l) {
    const std::uint64_t* bits = y.column_bits(l);
    double* out = signs.data() + static_cast<std::size_t>(l) * static_cast<std::size_t>(n);
    // y.sign(i, l), without a branch (the bits are random): 2 bit - 1 is exactly +1.0 or -1.0.
    for (int i = 0; i < n; ++i) out[i] = static_cast<double>(2 * static_cast<int>((bits[i >> 6] >> (i & 63)) & 1U) - 1);
  }
}

namespace {
// Per-thread scratch for the unpacked signs of a readout.
const std::vector<double>& unpacked_signs(const Readout& y) {
  thread_local std::vector<double> signs;
  unpack_signs(y, signs);
  return signs;
}

// Four partial sums in a fixed order: fast, and the same on every target. With SSE2 the sums s0, s1
// and s2, s3 are two lanes each: the same operations in the same order (so the same bits), written
// out because emscripten's compiler leaves this loop scalar in wasm (docs/toolchain.md "Pitfall 7").
double dot(const double* a, const double* b, int d) {
  double s[4] = {0.0, 0.0, 0.0, 0.0};
  int i = 0;
#if defined(__SSE2__)
  __m128d s01 = _mm_setzero_pd(), s23 = _mm_setzero_pd();
  for (; i + 4 <= d; i += 4) {
    s01 = _mm_add_pd(s01, _mm_mul_pd(_mm_loadu_pd(a + i), _mm_loadu_pd(b + i)));
    s23 = _mm_add_pd(s23, _mm_mul_pd(_mm_loadu_pd(a + i + 2), _mm_loadu_pd(b + i + 2)));
  }
  _mm_storeu_pd(s, s01);
  _mm_storeu_pd(s + 2, s23);
#else
  for (; i + 4 <= d; i += 4)
    for (int k = 0; k < 4; ++k) s[k] += a[i + k] * b[i + k];
#endif
  for (; i < d; ++i) s[0] += a[i] * b[i];
  return (s[0] + s[1]) + (s[2] + s[3]);
}
}  // namespace

void readout_columns(const RowGroups& c, const Readout& y, double tau, ColumnTotals& out) {
  readout_columns(c, unpacked_signs(y).data(), y.n(), y.m(), tau, out);
}

void readout_columns(const RowGroups& c, const double* signs, int n, int m, double tau, ColumnTotals& out) {
  out.positive.assign(static_cast<std::size_t>(m), 0.0);
  out.near_ties.assign(static_cast<std::size_t>(m), 0);
  for (int l = 0; l < m; ++l) {
    const double* column = signs + static_cast<std::size_t>(l) * static_cast<std::size_t>(n);
    double total = 0.0;
    for (std::size_t r = 0; r < c.size(); ++r) {
      const double margin = dot(c.row(r), column, n) - tau;
      if (std::fabs(margin) < 1e-9 * tau) out.near_ties[l] += static_cast<int>(c.count(r));
      if (margin > 0.0) total += c.count(r) * margin;
    }
    out.positive[l] = total;
  }
}

ReadoutValue readout_from_columns(const ColumnTotals& totals, int m) {
  ReadoutValue out;
  double total = 0.0;
  for (int l = 0; l < m; ++l) {
    total += totals.positive[l];
    out.near_ties += totals.near_ties[l];
  }
  out.value = total > 0.0 ? total : 0.0;
  return out;
}

ReadoutValue evaluate_rows_readout(const RowGroups& c, const Readout& y, double tau) {
  thread_local ColumnTotals totals;
  readout_columns(c, y, tau, totals);
  return readout_from_columns(totals, y.m());
}

std::vector<double> row_margins(const RowGroups& c, const Readout& y, double tau) {
  const std::vector<double>& signs = unpacked_signs(y);
  std::vector<double> margins;
  for (std::size_t r = 0; r < c.size(); ++r) {
    double best = -INFINITY;
    for (int l = 0; l < y.m(); ++l)
      best = std::max(best, dot(c.row(r), &signs[static_cast<std::size_t>(l) * y.n()], y.n()));
    margins.push_back(best - tau);
  }
  return margins;
}

}  // namespace attnlab::separation
