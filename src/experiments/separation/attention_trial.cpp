#include "experiments/separation/attention_trial.hpp"

namespace attnlab::separation {

const Evaluation kEvaluations[4] = {
    {Normalisation::Softmax, true}, {Normalisation::Linear, true}, {Normalisation::Softmax, false},
    {Normalisation::Linear, false}};

namespace {
SpecialTokens draw_tokens(const AttentionSettings& s, Rng& rng) {
  SpecialTokens t;
  t.planted = static_cast<int>(rng.below(static_cast<std::uint64_t>(s.n)));
  t.query = s.model == AttentionModel::Cross ? static_cast<int>(rng.below(static_cast<std::uint64_t>(s.n)))
                                             : t.planted;
  return t;
}
}  // namespace

void draw_trial(const AttentionSettings& s, Rng& rng, AttentionTrialDraw& draw) {
  draw.d0 = draw_tokens(s, rng);
  draw.d1 = draw_tokens(s, rng);
  for (int k = 0; k < (s.shared_readout ? 1 : 4); ++k) draw.readouts[k].draw(s.d, s.m, rng);
}

void AttentionTrial::evaluate(const AttentionSettings& s, int k) {
  const Evaluation& e = kEvaluations[k];
  if (k == 0 || k == 2)  // the input changes before the softmax evaluation of each dataset
    build_input(s, e.d1 ? s.a1 : s.a0, e.d1 ? draw_.d1 : draw_.d0, Layout::Grouped, queries_, keys_);
  attend(queries_, keys_, s.x, e.norm, c_);
  const Readout& y = draw_.readout(k, s.shared_readout);
  readout_columns(c_, signs_[s.shared_readout ? 0 : k].data(), y.n(), y.m(), s.tau, columns_[k]);
}

TrialOutcome AttentionTrial::run(const AttentionSettings& s, Rng& rng) {
  run_widest(s, rng);
  return outcome_at(s.m);
}

void AttentionTrial::run_widest(const AttentionSettings& s, Rng& rng) {
  draw_trial(s, rng, draw_);
  for (int k = 0; k < (s.shared_readout ? 1 : 4); ++k) unpack_signs(draw_.readouts[k], signs_[k]);
  for (int k = 0; k < 4; ++k) evaluate(s, k);
}

TrialOutcome AttentionTrial::outcome_at(int m) const {
  TrialOutcome out;
  bool* fired[4] = {&out.exp_d1, &out.lin_d1, &out.exp_d0, &out.lin_d0};
  for (int k = 0; k < 4; ++k) {
    const ReadoutValue r = readout_from_columns(columns_[k], m);
    *fired[k] = r.fires();
    out.near_ties += r.near_ties;
  }
  return out;
}

}  // namespace attnlab::separation
