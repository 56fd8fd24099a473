#include "experiments/separation/attention_network.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace attnlab::separation {

void RowGroups::add(const std::vector<double>& row, double count) {
  rows_.insert(rows_.end(), row.begin(), row.end());
  counts_.push_back(count);
}

double RowGroups::tokens() const {
  double n = 0.0;
  for (double c : counts_) n += c;
  return n;
}

double score(const double* q, const double* k, int d, ScoreMatrix x) {
  if (x == ScoreMatrix::Identity) {
    double s = 0.0;
    for (int i = 0; i < d; ++i) s += q[i] * k[i];
    return s;
  }
  double sq = 0.0, sk = 0.0;  // q^T 1 1^T k
  for (int i = 0; i < d; ++i) {
    sq += q[i];
    sk += k[i];
  }
  return sq * sk;
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
      weight[g] = score(queries.row(q), keys.row(g), d, x);
      if (weight[g] > top) top = weight[g];
    }
    double total = 0.0;
    if (norm == Normalisation::Softmax) {
      if (!std::isfinite(top)) throw std::domain_error("softmax attention: a score is not finite");
      for (std::size_t g = 0; g < groups; ++g) {
        weight[g] = std::exp(weight[g] - top);
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
      for (int i = 0; i < d; ++i) c[i] += w * k[i];
    }
    out.add(c, queries.count(q));
  }
}

namespace {
// <c, y_l> for a readout column stored as packed sign bits (bit 1 = +1).
double signed_dot(const double* c, const Readout& y, int l) {
  const std::uint64_t* bits = y.column_bits(l);
  double dot = 0.0;
  for (int i = 0; i < y.n(); ++i) dot += ((bits[i >> 6] >> (i & 63)) & 1U) ? c[i] : -c[i];
  return dot;
}
}  // namespace

ReadoutValue evaluate_rows_readout(const RowGroups& c, const Readout& y, double tau) {
  ReadoutValue out;
  double total = 0.0;
  for (std::size_t r = 0; r < c.size(); ++r) {
    double row_total = 0.0;
    for (int l = 0; l < y.m(); ++l) {
      const double margin = signed_dot(c.row(r), y, l) - tau;
      if (std::fabs(margin) < 1e-9 * tau) out.near_ties += static_cast<int>(c.count(r));
      row_total += margin > 0.0 ? margin : 0.0;
    }
    total += c.count(r) * row_total;
  }
  out.value = total > 0.0 ? total : 0.0;
  return out;
}

std::vector<double> row_margins(const RowGroups& c, const Readout& y, double tau) {
  std::vector<double> margins;
  for (std::size_t r = 0; r < c.size(); ++r) {
    double best = -INFINITY;
    for (int l = 0; l < y.m(); ++l) best = std::max(best, signed_dot(c.row(r), y, l));
    margins.push_back(best - tau);
  }
  return margins;
}

}  // namespace attnlab::separation
