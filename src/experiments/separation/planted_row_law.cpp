// The planted-row law, ours: docs/separation.md s.3 ("Detection: the planted-row law" derives it,
// "Why q = 1/4 for self-attention" works it out at Fig. 4c's settings).
#include "experiments/separation/planted_row_law.hpp"

#include <cmath>
#include <vector>

#include "core/det_math.hpp"

namespace attnlab::separation {

// The planted row's logits, relative to an unrelated token's (another class, not j3), in the
// units of docs/separation.md s.3's scores:
//   self, X = I: log n (a^2 [both are j3] + b^2 [same class] + c^2), so j3 is ahead of an
//                unrelated token by (a1^2 + b^2) log n and a token of its class by b^2 log n;
//   self, X = 1: s_j0 s_j1 with s_j = sqrt(log n) (b + c + a [j = j3]): j3 ahead by
//                (a1 + b + c) a1 log n, every other token level;
//   cross:       the query row j2 scores j3 at (1 + a1) log n and every other key at log n.
// Its output is then, with t tokens per class,
//   self:  sqrt(log n) (a1 w e_1 + b (w + (t - 1) u) e_class + c e_d)   (the constant column is
//          c in every row, so it keeps its full weight),
//   cross: w e_1 + (w + (t - 1) u) e_class,
// and one readout column fires when its signs on those coordinates put the output above tau.
// Left out: the rest of the row, spread over the other classes, which is what lets near-uniform
// rows fire at small d (the false positives of s.5).
PlantedRow planted_row_law(const AttentionSettings& s) {
  const bool self = s.model == AttentionModel::Self;
  const double ln = dmath::log(double(s.n));
  const double t = double(s.n) / double(class_count(s.model, s.d));  // tokens per class
  double planted = 0.0, same = 0.0;  // logits over an unrelated token: j3, a token of j3's class
  if (!self) planted = s.a1 * ln;
  else if (s.x == ScoreMatrix::Identity) planted = (s.a1 * s.a1 + s.b * s.b) * ln, same = s.b * s.b * ln;
  else planted = (s.a1 + s.b + s.c) * s.a1 * ln;
  // Weights relative to the planted token's (divided by e^planted: no overflow).
  const double other = dmath::exp(-planted), near = dmath::exp(same - planted);
  const double z = 1.0 + (t - 1.0) * near + (double(s.n) - t) * other;
  PlantedRow row;
  row.w = 1.0 / z;
  row.u = near / z;
  std::vector<double> coords;  // the output's coordinates that a column's signs multiply
  double threshold = s.tau;
  if (self) {
    coords = {s.a1 * row.w, s.b * (row.w + (t - 1.0) * row.u), s.c};
    threshold = s.tau / std::sqrt(ln);
  } else {
    coords = {row.w, row.w + (t - 1.0) * row.u};
  }
  const int patterns = 1 << coords.size();
  int firing = 0;
  for (int bits = 0; bits < patterns; ++bits) {
    double value = 0.0;
    for (std::size_t k = 0; k < coords.size(); ++k) value += (bits >> k & 1) ? coords[k] : -coords[k];
    firing += value > threshold;
  }
  row.q = double(firing) / double(patterns);
  row.detection = 1.0 - dmath::pow(1.0 - row.q, double(s.m));
  return row;
}

}  // namespace attnlab::separation
