#include "experiments/separation/attention_datasets.hpp"

#include <cmath>

#include "core/det_math.hpp"

namespace attnlab::separation {

int class_count(AttentionModel model, int d) { return model == AttentionModel::Self ? d - 2 : d - 1; }

namespace {

// Def. D.1: column 1 is e_{j3} a sqrt(log n); columns 2..d-1 stack I_{d-2} times b sqrt(log n);
// column d is 1_n c sqrt(log n). Row of a token of class k (planted or not):
std::vector<double> self_row(const AttentionSettings& s, double a, int k, bool planted) {
  const double r = std::sqrt(dmath::log(static_cast<double>(s.n)));
  std::vector<double> row(static_cast<std::size_t>(s.d), 0.0);
  row[0] = planted ? a * r : 0.0;
  row[1 + k] = s.b * r;
  row[s.d - 1] = s.c * r;
  return row;
}

// Def. F.1, A1: column 1 is a log n at row j2 (log n, not sqrt), columns 2..d all log n.
std::vector<double> cross_query_row(const AttentionSettings& s, double a, bool query_token) {
  const double ln = dmath::log(static_cast<double>(s.n));
  std::vector<double> row(static_cast<std::size_t>(s.d), ln);
  row[0] = query_token ? a * ln : 0.0;
  return row;
}

// Def. F.1, A2 = A3: column 1 is e_{j3}, columns 2..d stack I_{d-1}.
std::vector<double> cross_key_row(const AttentionSettings& s, int k, bool planted) {
  std::vector<double> row(static_cast<std::size_t>(s.d), 0.0);
  row[0] = planted ? 1.0 : 0.0;
  row[1 + k] = 1.0;
  return row;
}

// Tokens of class k in [0, n) under the modulo rule.
double class_size(int n, int classes, int k) { return n / classes + (k < n % classes ? 1 : 0); }

template <class RowOf>  // std::vector<double>(int k, bool planted)
void build_classes(const AttentionSettings& s, int planted, Layout layout, RowGroups& out, RowOf row_of) {
  const int classes = class_count(s.model, s.d);
  out.clear(s.d);
  if (layout == Layout::Dense) {
    for (int j = 0; j < s.n; ++j) out.add(row_of(token_class(j, classes), j == planted), 1.0);
    return;
  }
  // Canonical order (classes, then the planted token), independent of where j3 sits in its class.
  const int planted_class = token_class(planted, classes);
  for (int k = 0; k < classes; ++k) {
    const double count = class_size(s.n, classes, k) - (k == planted_class ? 1.0 : 0.0);
    if (count > 0.0) out.add(row_of(k, false), count);
  }
  out.add(row_of(planted_class, true), 1.0);
}

}  // namespace

void build_input(const AttentionSettings& s, double a, const SpecialTokens& t, Layout layout, RowGroups& queries,
                 RowGroups& keys) {
  if (s.model == AttentionModel::Self) {
    build_classes(s, t.planted, layout, keys, [&](int k, bool planted) { return self_row(s, a, k, planted); });
    queries = keys;  // A1 = A2 = A3
    return;
  }
  build_classes(s, t.planted, layout, keys, [&](int k, bool planted) { return cross_key_row(s, k, planted); });
  queries.clear(s.d);
  if (layout == Layout::Dense) {
    for (int j = 0; j < s.n; ++j) queries.add(cross_query_row(s, a, j == t.query), 1.0);
  } else {
    queries.add(cross_query_row(s, a, false), s.n - 1.0);
    queries.add(cross_query_row(s, a, true), 1.0);
  }
}

}  // namespace attnlab::separation
