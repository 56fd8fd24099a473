// The attention networks of Deng et al. (docs/separation.md section 2):
//   c = Att(X, Y) = D(X)^-1 exp(A1 X A2^T) A3 Y,   Y = V = I_d,
// and the readout F = phi( sum_{j0} sum_l phi_tau(<c_{j0}, y_l>) ).
// Both paper models have A2 = A3 (self-attention: A1 = A2 = A3), so keys and values are one matrix.
//
// Matrices are stored as distinct rows with multiplicities (RowGroups). This is exact, not an
// approximation: attention is permutation-equivariant in the tokens and F sums over rows, so m
// identical rows contribute m times one row. The datasets of docs/separation.md section 3 have at most d + 1
// distinct rows, so a trial costs O(d^3) instead of O(n^2 d). With every count 1 the same code is
// the plain row-by-row computation of docs/separation.md s.2 (never forming the Kronecker product).
#pragma once
#include <cstddef>
#include <functional>
#include <vector>

#include "experiments/separation/toy_model.hpp"

namespace attnlab::separation {

// X = Q K^T: the identity ("X = vec(I_d)", Figs. 4 and 7) or the all-ones matrix ("X = 1", Fig. 5).
enum class ScoreMatrix { Identity, AllOnes };
// Softmax attention (exp) or linear attention (raw scores divided by their row sums).
enum class Normalisation { Softmax, Linear };

// An n x d matrix as distinct rows, each with the number of tokens that share it. The rows of the
// paper's datasets have two or three non-zeros, so each row also lists its non-zero columns.
class RowGroups {
 public:
  explicit RowGroups(int d = 0) : d_(d) {}
  void clear(int d);
  void add(const std::vector<double>& row, double count);  // row.size() == d; count >= 1
  // The same without a temporary row: append_zero_row() appends a row of d zeros and returns it;
  // fill it, then seal_row(count) records it as add() would (every entry scanned), or
  // seal_row(count, candidates, k) when only the k ascending columns `candidates` can have been
  // written (every other entry is still the +0 that append_zero_row gave).
  double* append_zero_row();
  void seal_row(double count);
  void seal_row(double count, const int* candidates, int k);
  int d() const { return d_; }
  std::size_t size() const { return counts_.size(); }
  const double* row(std::size_t g) const { return rows_.data() + g * static_cast<std::size_t>(d_); }
  double count(std::size_t g) const { return counts_[g]; }
  double sum(std::size_t g) const { return sums_[g]; }  // <row, 1>
  const int* nonzeros_begin(std::size_t g) const { return nonzeros_.data() + nonzero_start_[g]; }
  const int* nonzeros_end(std::size_t g) const { return nonzeros_.data() + nonzero_start_[g + 1]; }
  double tokens() const;  // n = sum of the counts

 private:
  int d_;
  // The first used_ entries hold the rows. Every entry past used_ is +0, so append_zero_row does
  // not fill: clear() puts back +0 where the rows it drops were written (their non-zeros, or the
  // whole row when it held a -0, which the non-zeros do not list).
  std::vector<double> rows_;
  std::size_t used_ = 0;
  std::vector<double> counts_;
  std::vector<double> sums_;
  std::vector<int> nonzeros_;
  std::vector<std::size_t> nonzero_start_{0};
  std::vector<char> negative_zero_;  // per row: it holds a -0
};

// Receives, for query group q, the attention weight of ONE token of each key group (size
// keys.size()): what a row of the n x n attention matrix holds at that group's tokens.
using AttentionRowSink = std::function<void(std::size_t q, const std::vector<double>& token_weights)>;

// The readout's columns as +-1.0 values, column after column (y.m() x y.n()): what
// readout_columns reads. A caller that evaluates one readout several times unpacks it once.
void unpack_signs(const Readout& y, std::vector<double>& signs);

// out (one row per query group, same counts) = Att for `queries` (A1) over `keys` (A2 = A3).
// Softmax is max-subtracted (docs/separation.md s.6 "Overflow"). Linear attention throws std::domain_error
// when a row sum of the scores is not positive (docs/separation.md s.6).
void attend(const RowGroups& queries, const RowGroups& keys, ScoreMatrix x, Normalisation norm, RowGroups& out,
            const AttentionRowSink& sink = nullptr);

// The score <q, k>_X = q^T X k of query row q and key row g.
double score(const double* q, const RowGroups& keys, std::size_t g, ScoreMatrix x);

// Per readout column l of a d x m readout y (y.n() == d): the sum over tokens of
// phi_tau(<c_j0, y_l>), and the near-ties (|<c_j0, y_l> - tau| < 1e-9 tau) counted per token.
struct ColumnTotals {
  std::vector<double> positive;
  std::vector<int> near_ties;
};
void readout_columns(const RowGroups& c, const Readout& y, double tau, ColumnTotals& out);
// The same from the readout's unpacked signs (unpack_signs), m columns of n.
void readout_columns(const RowGroups& c, const double* signs, int n, int m, double tau, ColumnTotals& out);
// F = phi( sum over the first m columns ) and their near-ties. A readout of width m draws a
// prefix of the words of a wider one, so one wide draw answers every narrower width.
ReadoutValue readout_from_columns(const ColumnTotals& totals, int m);
// F = phi( sum_{j0} sum_l phi_tau(<c_j0, y_l>) ) over all m columns.
ReadoutValue evaluate_rows_readout(const RowGroups& c, const Readout& y, double tau);

// max_l <c_row, y_l> - tau for each row group: positive where that row makes F fire.
std::vector<double> row_margins(const RowGroups& c, const Readout& y, double tau);

}  // namespace attnlab::separation
