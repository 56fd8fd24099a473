#include "experiments/separation/attention_datasets.hpp"

#include <cmath>

#include "core/det_math.hpp"

namespace attnlab::separation {

int class_count(AttentionModel model, int d) { return model == AttentionModel::Self ? d - 2 : d - 1; }

namespace {

// The rows are written straight into the RowGroups (no temporary row per token), and each row
// builder names the only columns that can be non-zero.

// Def. D.1: column 1 is e_{j3} a sqrt(log n); columns 2..d-1 stack I_{d-2} times b sqrt(log n);
// column d is 1_n c sqrt(log n). Row of a token of class k (planted or not); r = sqrt(log n).
void add_self_row(const AttentionSettings& s, double a, double r, int k, bool planted, double count, RowGroups& out) {
  double* row = out.append_zero_row();
  row[0] = planted ? a * r : 0.0;
  row[1 + k] = s.b * r;
  row[s.d - 1] = s.c * r;
  const int candidates[3] = {0, 1 + k, s.d - 1};
  if (1 + k < s.d - 1) out.seal_row(count, candidates, 3);
  else out.seal_row(count);
}

// Def. F.1, A1: column 1 is a log n at row j2 (log n, not sqrt), columns 2..d all log n.
void add_cross_query_row(const AttentionSettings& s, double a, double ln, bool query_token, double count,
                         RowGroups& out) {
  double* row = out.append_zero_row();
  for (int i = 0; i < s.d; ++i) row[i] = ln;
  row[0] = query_token ? a * ln : 0.0;
  out.seal_row(count);
}

// Def. F.1, A2 = A3: column 1 is e_{j3}, columns 2..d stack I_{d-1}.
void add_cross_key_row(const AttentionSettings& s, int k, bool planted, double count, RowGroups& out) {
  double* row = out.append_zero_row();
  row[0] = planted ? 1.0 : 0.0;
  row[1 + k] = 1.0;
  const int candidates[2] = {0, 1 + k};
  if (1 + k > 0 && 1 + k < s.d) out.seal_row(count, candidates, 2);
  else out.seal_row(count);
}

// Tokens of class k in [0, n) under the modulo rule.
double class_size(int n, int classes, int k) { return n / classes + (k < n % classes ? 1 : 0); }

// Dense: tokens [first, last) (all n for build_input, a slice for build_input_slice).
template <class AddRow>  // void(int k, bool planted, double count): appends one row to `out`
void build_classes(const AttentionSettings& s, int planted, Layout layout, RowGroups& out, AddRow add_row,
                   int first = 0, int last = -1) {
  const int classes = class_count(s.model, s.d);
  out.clear(s.d);
  if (layout == Layout::Dense) {
    if (last < 0) last = s.n;
    for (int j = first; j < last; ++j) add_row(token_class(j, classes), j == planted, 1.0);
    return;
  }
  // Canonical order (classes, then the planted token), independent of where j3 sits in its class.
  const int planted_class = token_class(planted, classes);
  for (int k = 0; k < classes; ++k) {
    const double count = class_size(s.n, classes, k) - (k == planted_class ? 1.0 : 0.0);
    if (count > 0.0) add_row(k, false, count);
  }
  add_row(planted_class, true, 1.0);
}

}  // namespace

void build_input(const AttentionSettings& s, double a, const SpecialTokens& t, Layout layout, RowGroups& queries,
                 RowGroups& keys) {
  const double ln = dmath::log(static_cast<double>(s.n));
  if (s.model == AttentionModel::Self) {
    const double r = std::sqrt(ln);
    build_classes(s, t.planted, layout, keys,
                  [&](int k, bool planted, double count) { add_self_row(s, a, r, k, planted, count, keys); });
    queries = keys;  // A1 = A2 = A3
    return;
  }
  build_classes(s, t.planted, layout, keys,
                [&](int k, bool planted, double count) { add_cross_key_row(s, k, planted, count, keys); });
  queries.clear(s.d);
  if (layout == Layout::Dense) {
    for (int j = 0; j < s.n; ++j) add_cross_query_row(s, a, ln, j == t.query, 1.0, queries);
  } else {
    add_cross_query_row(s, a, ln, false, s.n - 1.0, queries);
    add_cross_query_row(s, a, ln, true, 1.0, queries);
  }
}

void build_input_slice(const AttentionSettings& s, double a, const SpecialTokens& t, int first, int last,
                       RowGroups& queries, RowGroups& keys) {
  const double ln = dmath::log(static_cast<double>(s.n));
  if (s.model == AttentionModel::Self) {
    const double r = std::sqrt(ln);
    build_classes(
        s, t.planted, Layout::Dense, keys,
        [&](int k, bool planted, double count) { add_self_row(s, a, r, k, planted, count, keys); }, first, last);
    queries = keys;
    return;
  }
  build_classes(
      s, t.planted, Layout::Dense, keys,
      [&](int k, bool planted, double count) { add_cross_key_row(s, k, planted, count, keys); }, first, last);
  queries.clear(s.d);
  for (int j = first; j < last; ++j) add_cross_query_row(s, a, ln, j == t.query, 1.0, queries);
}

}  // namespace attnlab::separation
