// The toy "softmax regression" model of Deng et al. (docs/separation.md section 1):
// only v = A x matters; F(v; y) = phi( sum_j phi_tau(<f(v), y_j>) ) for f = softmax or linear.
#pragma once
#include <cstdint>
#include <vector>

#include "core/rng.hpp"
#include "experiments/separation/toy_four_margins.hpp"
#include "experiments/separation/trial_outcome.hpp"
#include "lab/choice_table.hpp"

namespace attnlab::separation {

// [OURS] samplers of the datasets D0 / D1 (the paper gives none), docs/separation.md section 1.
enum class ToySampler { Uniform, TwoPoint, Adversarial };
// [OURS] rounding of m = log n, docs/separation.md section 1.
enum class Rounding { Round, Floor, Ceil };
// Parameter `sampler` of separation.toy and `m_rounding` of every separation experiment.
inline constexpr ChoiceTable<ToySampler> kSamplerTable{
    {"uniform", ToySampler::Uniform}, {"two_point", ToySampler::TwoPoint}, {"adversarial", ToySampler::Adversarial}};
inline constexpr ChoiceTable<Rounding> kRoundingTable{
    {"round", Rounding::Round}, {"floor", Rounding::Floor}, {"ceil", Rounding::Ceil}};

int readout_width_for(double log_value, Rounding rounding);  // max(1, rounding(log_value))

// Fills v (size n) with a D0 draw: every v_i in [log n, 1.4 log n].
void sample_d0(ToySampler sampler, std::vector<double>& v, Rng& rng);
// D1: a D0 draw, then one uniformly chosen index gets 4 log n.
void sample_d1(ToySampler sampler, std::vector<double>& v, Rng& rng);

// A readout y in {+1,-1}^{n x m}: m Rademacher columns, stored as packed sign bits (bit 1 = +1).
class Readout {
 public:
  void draw(int n, int m, Rng& rng);
  int n() const { return n_; }
  int m() const { return m_; }
  double sign(int i, int j) const;  // y_{i j}
  const std::uint64_t* column_bits(int j) const { return bits_.data() + static_cast<std::size_t>(j) * words_; }

 private:
  int n_ = 0, m_ = 0;
  std::size_t words_ = 0;
  std::vector<std::uint64_t> bits_;
};

struct ReadoutValue {
  double value = 0.0;  // F = phi( sum_j phi_tau(<f, y_j>) )
  int near_ties = 0;   // columns with |<f, y_j> - tau| < 1e-9 tau (docs/separation.md section 6, "Ties")
  bool fires() const { return value > 0.0; }
};

// F for an attention vector f (size n) and readout y with threshold tau.
ReadoutValue evaluate_readout(const double* f, const Readout& y, double tau);
// The margins <f, y_j> - tau of every column j (y.m() values), and F from the first m of them.
void readout_margins(const double* f, const Readout& y, double tau, double* margins);
ReadoutValue readout_from_margins(const double* margins, int m, double tau);

// One trial's random inputs, drawn in this order from the trial's stream: the D0 input, the D1
// input, then the readout (one shared y, or four: for (softmax, D1), (linear, D1), (softmax, D0),
// (linear, D0), the order of TrialOutcome). The sweep and the inspector both draw through here.
struct ToyTrialInputs {
  std::vector<double> v0, v1;  // v = A x of the D0 and the D1 input
  Readout y[4];                // y[0] only with a shared readout
  const Readout& readout(int evaluation, bool shared) const { return y[shared ? 0 : evaluation]; }
};
struct ToySettings;
void draw_trial_inputs(const ToySettings& s, Rng& rng, ToyTrialInputs& in);

struct ToySettings {
  int n = 1000;
  int m = 7;
  double tau = 0.25;
  ToySampler sampler = ToySampler::Uniform;
  bool shared_readout = true;  // [OURS] one y for the four evaluations of a trial
};

// One trial (docs/separation.md section 4): one D0 draw, one D1 draw, readout(s), four evaluations.
// Holds scratch buffers so repeated trials do not allocate.
class ToyTrial {
 public:
  TrialOutcome run(const ToySettings& s, Rng& rng);

  // For an m-sweep with a shared readout: draws the trial at the widest width s.m and keeps the
  // margins of the four evaluations. The outcome at any width m <= s.m follows from the first m
  // columns, because a narrower readout draws a prefix of the same random words: outcome_at(m)
  // equals run() with width m, bit for bit, and a whole m-sweep costs one trial per trial.
  void run_widest(const ToySettings& s, Rng& rng);
  TrialOutcome outcome_at(int m, double tau) const;

 private:
  ToyTrialInputs in_;
  std::vector<double> f_;
  FourMargins four_;
  std::vector<double> margins_[4];  // with a shared readout: exp_d1, lin_d1, exp_d0, lin_d0
};

// f for evaluation k of a trial (0: softmax on D1, 1: linear on D1, 2: softmax on D0, 3: linear on
// D0) into `f` (resized to n).
void attention_vector(const ToyTrialInputs& in, int evaluation, std::vector<double>& f);

}  // namespace attnlab::separation
