// The four evaluations of a toy-model trial with one shared readout, in one pass (docs/separation.md
// section 4): the hot loop of Fig. 3. Bit for bit what attention_vector() then readout_margins() give
// for each evaluation (tests/test_toy_model.cpp), only arranged so the independent work overlaps:
// - the four row sums (softmax and linear, D1 and D0) run as four chains in one loop, each still in
//   index order;
// - one look-up table serves the four evaluations: entry (group g, sign nibble s) holds the four
//   signed sums side by side, so a column's look-up reads one nibble and adds two lane pairs.
#pragma once
#include <vector>

namespace attnlab::separation {

class Readout;  // toy_model.hpp

class FourMargins {
 public:
  // margins[k] (resized to y.m()) = <f_k, y_j> - tau for every column j, with f_k evaluation k of
  // TrialOutcome's order: softmax(v1), linear(v1), softmax(v0), linear(v0).
  // v1, v0: n values each (n = y.n()); the D1 and the D0 input.
  void compute(const std::vector<double>& v1, const std::vector<double>& v0, const Readout& y, double tau,
               std::vector<double> (&margins)[4]);

 private:
  std::vector<double> e1_, e0_;  // exp(v - max v) of D1 and D0, n values each
  std::vector<double> table_;    // groups x 16 nibbles x 4 evaluations
};

}  // namespace attnlab::separation
