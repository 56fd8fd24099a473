// One trial of `separation.self` / `separation.cross` (docs/separation.md s.4): one D0 input, one
// D1 input, the readout(s), and the four evaluations F_exp(D1), F_lin(D1), F_exp(D0), F_lin(D0).
#pragma once
#include "core/rng.hpp"
#include "experiments/separation/attention_datasets.hpp"
#include "experiments/separation/trial_outcome.hpp"

namespace attnlab::separation {

// The random part of a trial, drawn in this order from the trial's stream: D0's special tokens,
// D1's, then one readout (shared) or four (exp_d1, lin_d1, exp_d0, lin_d0).
struct AttentionTrialDraw {
  SpecialTokens d0, d1;
  Readout readouts[4];
  const Readout& readout(int evaluation, bool shared) const { return readouts[shared ? 0 : evaluation]; }
};
void draw_trial(const AttentionSettings& s, Rng& rng, AttentionTrialDraw& draw);

// The four evaluations in the order of TrialOutcome: (softmax, D1), (linear, D1), (softmax, D0), (linear, D0).
struct Evaluation {
  Normalisation norm;
  bool d1;
};
extern const Evaluation kEvaluations[4];

// Runs trials on the grouped rows (O(d^3) each); holds scratch so repeated trials do not allocate.
class AttentionTrial {
 public:
  TrialOutcome run(const AttentionSettings& s, Rng& rng);

  // For an m-sweep with a shared readout: evaluates the trial once at the widest width s.m;
  // outcome_at(m) then equals run() at width m exactly (see readout_from_columns).
  void run_widest(const AttentionSettings& s, Rng& rng);
  TrialOutcome outcome_at(int m) const;

 private:
  void evaluate(const AttentionSettings& s, int k);  // evaluation k of the current draw into columns_[k]

  AttentionTrialDraw draw_;
  std::vector<double> signs_[4];  // the readouts of the draw, unpacked once (unpack_signs)
  RowGroups queries_, keys_, c_;
  ColumnTotals columns_[4];
};

}  // namespace attnlab::separation
