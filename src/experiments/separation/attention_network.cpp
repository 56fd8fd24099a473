#include "experiments/separation/attention_network.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "core/det_math.hpp"

namespace attnlab::separation {

void RowGroups::add(const std::vector<double>& row, double count) {
  rows_.insert(rows_.end(), row.begin(), row.end());
  counts_.push_back(count);
  double sum = 0.0;
  for (int i = 0; i < d_; ++i) {
    sum += row[static_cast<std::size_t>(i)];
    if (row[static_cast<std::size_t>(i)] != 0.0) nonzeros_.push_back(i);
  }
  sums_.push_back(sum);
  nonzero_start_.push_back(nonzeros_.size());
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
  std::vector<double> weight(groups), c(static_cast<std::size_t>(d));
  for (std::size_t q = 0; q < queries.size(); ++q) {
    // Scores of this query row against one token of each key group (spec s.2, row by row).
    double top = -INFINITY;
    for (std::size_t g = 0; g < groups; ++g) {
      weight[g] = score(queries.row(q), keys, g, x);
      if (weight[g] > top) top = weight[g];
    }
    double total = 0.0;
    if (norm == Normalisation::Softmax) {
      if (!std::isfinite(top)) throw std::domain_error("softmax attention: a score is not finite");
      for (std::size_t g = 0; g < groups; ++g) {
        weight[g] = dmath::exp(weight[g] - top);
        total += keys.count(g) * weight[g];
      }
    } else {
      for (std::size_t g = 0; g < groups; ++g) total += keys.count(g) * weight[g];
      if (!(total > 0.0) || !std::isfinite(total))
        throw std::domain_error("linear attention needs positive row sums of the scores; a row sums to " +
                                std::to_string(total));
    }
    const double inv = 1.0 / total;
    for (double& w : weight) w *= inv;
    if (sink) sink(q, weight);
    for (int i = 0; i < d; ++i) c[i] = 0.0;
    for (std::size_t g = 0; g < groups; ++g) {
      const double w = keys.count(g) * weight[g];
      const double* k = keys.row(g);
      for (const int* i = keys.nonzeros_begin(g); i != keys.nonzeros_end(g); ++i) c[*i] += w * k[*i];
    }
    out.add(c, queries.count(q));
  }
}

namespace {
// The readout's columns as +-1.0 values (m x d), so that <c, y_l> is a plain dot product.
const std::vector<double>& unpacked_signs(const Readout& y) {
  thread_local std::vector<double> signs;
  signs.resize(static_cast<std::size_t>(y.m()) * y.n());
  for (int l = 0; l < y.m(); ++l)
    for (int i = 0; i < y.n(); ++i) signs[static_cast<std::size_t>(l) * y.n() + i] = y.sign(i, l);
  return signs;
}

// Four partial sums in a fixed order: fast, and the same on every target.
double dot(const double* a, const double* b, int d) {
  double s[4] = {0.0, 0.0, 0.0, 0.0};
  int i = 0;
  for (; i + 4 <= d; i += 4)
    for (int k = 0; k < 4; ++k) s[k] += a[i + k] * b[i + k];
  for (; i < d; ++i) s[0] += a[i] * b[i];
  return (s[0] + s[1]) + (s[2] + s[3]);
}
}  // namespace

void readout_columns(const RowGroups& c, const Readout& y, double tau, ColumnTotals& out) {
  const std::vector<double>& signs = unpacked_signs(y);
  out.positive.assign(static_cast<std::size_t>(y.m()), 0.0);
  out.near_ties.assign(static_cast<std::size_t>(y.m()), 0);
  for (int l = 0; l < y.m(); ++l) {
    const double* column = &signs[static_cast<std::size_t>(l) * y.n()];
    double total = 0.0;
    for (std::size_t r = 0; r < c.size(); ++r) {
      const double margin = dot(c.row(r), column, y.n()) - tau;
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
