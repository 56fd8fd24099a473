// The datasets of the attention models (docs/separation.md section 3): Def. D.1 (self-attention)
// and Def. F.1 (cross-attention), built as explicit matrices A1 (queries) and A2 = A3 (keys).
#pragma once
#include "experiments/separation/attention_network.hpp"

namespace attnlab::separation {

enum class AttentionModel { Self, Cross };

// Everything one sweep point of `separation.self` / `separation.cross` needs.
struct AttentionSettings {
  AttentionModel model = AttentionModel::Self;
  int n = 200, d = 12;
  int m = 15;  // readout columns
  double a0 = 0.01, a1 = 1.2;  // planted strength in D0 and D1
  double b = 0.2, c = 0.8;     // self-attention only
  ScoreMatrix x = ScoreMatrix::Identity;
  double tau = 0.9;
  bool shared_readout = true;  // [OURS] one y for the four evaluations of a trial (docs/separation.md s.4)
};

// The special tokens of one input (0-based): j3 carries the planted entry; for cross-attention the
// query token j2 carries it in A1. Both are drawn uniformly ([OURS], docs/separation.md s.3).
struct SpecialTokens {
  int planted = 0;  // j3
  int query = 0;    // j2 (cross-attention only)
};

// The number of one-hot classes of the stacked identity: d - 2 (self) or d - 1 (cross). When it
// does not divide n the stack is truncated with the same modulo rule ([OURS], docs/separation.md s.3).
int class_count(AttentionModel model, int d);
inline int token_class(int token, int classes) { return token % classes; }

// Grouped: distinct rows with counts (at most d + 1 groups, the fast path). Dense: one row per
// token in token order (the inspector and the tests).
enum class Layout { Grouped, Dense };

// A1 and A2 = A3 of one input with planted strength a (a0 for D0, a1 for D1). For self-attention
// queries == keys.
void build_input(const AttentionSettings& s, double a, const SpecialTokens& t, Layout layout, RowGroups& queries,
                 RowGroups& keys);
// The Dense rows of tokens [first, last) only, 0 <= first < last <= n: the same rows build_input
// gives them (the picture before a run shows a slice of a large input).
void build_input_slice(const AttentionSettings& s, double a, const SpecialTokens& t, int first, int last,
                       RowGroups& queries, RowGroups& keys);

}  // namespace attnlab::separation
