#include "experiments/separation/toy_model.hpp"

#include <cmath>

#include "core/attention.hpp"
#include "core/det_math.hpp"

namespace attnlab::separation {

namespace {
// Per-thread scratch for the readout's look-up table (no allocation per evaluation).
std::vector<double>& scratch_table() {
  thread_local std::vector<double> table;
  return table;
}
}  // namespace

int readout_width_for(double log_value, Rounding rounding) {
  double m = rounding == Rounding::Round ? std::round(log_value)
             : rounding == Rounding::Floor ? std::floor(log_value)
                                           : std::ceil(log_value);
  return m < 1.0 ? 1 : static_cast<int>(m);
}

void sample_d0(ToySampler sampler, std::vector<double>& v, Rng& rng) {
  const std::size_t n = v.size();
  const double lo = dmath::log(static_cast<double>(n)), hi = 1.4 * lo;
  switch (sampler) {
    case ToySampler::Uniform:
      for (auto& x : v) x = rng.uniform(lo, hi);
      break;
    case ToySampler::TwoPoint:
      for (auto& x : v) x = (rng.next_u64() >> 63) ? hi : lo;
      break;
    case ToySampler::Adversarial: {
      // round(n^0.6) entries at 1.4 log n, at uniformly chosen places (partial Fisher-Yates).
      std::size_t high = static_cast<std::size_t>(std::round(dmath::pow(static_cast<double>(n), 0.6)));
      if (high > n) high = n;
      for (auto& x : v) x = lo;
      std::vector<std::size_t> index(n);
      for (std::size_t i = 0; i < n; ++i) index[i] = i;
      for (std::size_t k = 0; k < high; ++k) {
        const std::size_t r = k + static_cast<std::size_t>(rng.below(n - k));  // < n
        std::swap(index[k], index[r]);
        v[index[k]] = hi;
      }
      break;
    }
  }
}

void sample_d1(ToySampler sampler, std::vector<double>& v, Rng& rng) {
  sample_d0(sampler, v, rng);
  v[static_cast<std::size_t>(rng.below(v.size()))] = 4.0 * dmath::log(static_cast<double>(v.size()));
}

void Readout::draw(int n, int m, Rng& rng) {
  n_ = n;
  m_ = m;
  words_ = (static_cast<std::size_t>(n) + 63) / 64;
  bits_.resize(words_ * static_cast<std::size_t>(m));
  for (auto& w : bits_) w = rng.next_u64();
}

double Readout::sign(int i, int j) const {
  return (column_bits(j)[i >> 6] >> (i & 63)) & 1U ? 1.0 : -1.0;
}

ReadoutValue evaluate_readout(const double* f, const Readout& y, double tau) {
  thread_local std::vector<double> margins;
  margins.resize(static_cast<std::size_t>(y.m()));
  readout_margins(f, y, tau, margins.data());
  return readout_from_margins(margins.data(), y.m(), tau);
}

void readout_margins(const double* f, const Readout& y, double tau, double* margins) {
  // <f, y_j> for every column j. The signs come four at a time (a nibble of the packed bits),
  // so a table of the 16 signed sums of each group of four f_i turns four multiply-adds into
  // one look-up: building it costs 4 adds per element, then each column costs n/4 look-ups.
  // The summation order is fixed by this code, so native and wasm agree bit for bit.
  const int n = y.n(), groups = (n + 3) / 4;
  std::vector<double>& table = scratch_table();
  table.resize(static_cast<std::size_t>(groups) * 16);
  for (int g = 0; g < groups; ++g) {
    double part[4];
    for (int k = 0; k < 4; ++k) part[k] = 4 * g + k < n ? f[4 * g + k] : 0.0;
    double* t = &table[static_cast<std::size_t>(g) * 16];
    t[0] = -(((part[0] + part[1]) + part[2]) + part[3]);  // all four signs -1
    for (int k = 0; k < 4; ++k) {
      const int bit = 1 << k;
      for (int s = 0; s < bit; ++s) t[s | bit] = t[s] + 2.0 * part[k];  // flip sign k to +1
    }
  }
  // Four columns at a time: four independent sums, each still in the order g = 0, 1, ..., so the
  // additions overlap in the pipeline instead of waiting on one another, with the same bits.
  const double* tab = table.data();
  int j = 0;
  for (; j + 4 <= y.m(); j += 4) {
    const std::uint64_t *b0 = y.column_bits(j), *b1 = y.column_bits(j + 1), *b2 = y.column_bits(j + 2),
                        *b3 = y.column_bits(j + 3);
    double d0 = 0.0, d1 = 0.0, d2 = 0.0, d3 = 0.0;
    for (int g = 0; g < groups; ++g) {
      const int w = g >> 4, sh = (g & 15) * 4;
      const double* t = tab + static_cast<std::size_t>(g) * 16;
      d0 += t[(b0[w] >> sh) & 15U];
      d1 += t[(b1[w] >> sh) & 15U];
      d2 += t[(b2[w] >> sh) & 15U];
      d3 += t[(b3[w] >> sh) & 15U];
    }
    margins[j] = d0 - tau;
    margins[j + 1] = d1 - tau;
    margins[j + 2] = d2 - tau;
    margins[j + 3] = d3 - tau;
  }
  for (; j + 2 <= y.m(); j += 2) {
    const std::uint64_t *b0 = y.column_bits(j), *b1 = y.column_bits(j + 1);
    double d0 = 0.0, d1 = 0.0;
    for (int g = 0; g < groups; ++g) {
      const int w = g >> 4, sh = (g & 15) * 4;
      const double* t = tab + static_cast<std::size_t>(g) * 16;
      d0 += t[(b0[w] >> sh) & 15U];
      d1 += t[(b1[w] >> sh) & 15U];
    }
    margins[j] = d0 - tau;
    margins[j + 1] = d1 - tau;
  }
  for (; j < y.m(); ++j) {
    const std::uint64_t* bits = y.column_bits(j);
    double dot = 0.0;
    for (int g = 0; g < groups; ++g) dot += tab[static_cast<std::size_t>(g) * 16 + ((bits[g >> 4] >> ((g & 15) * 4)) & 15U)];
    margins[j] = dot - tau;
  }
}

ReadoutValue readout_from_margins(const double* margins, int m, double tau) {
  ReadoutValue out;
  double total = 0.0;
  for (int j = 0; j < m; ++j) {
    if (std::fabs(margins[j]) < 1e-9 * tau) ++out.near_ties;
    total += margins[j] > 0.0 ? margins[j] : 0.0;
  }
  out.value = total > 0.0 ? total : 0.0;
  return out;
}

void draw_trial_inputs(const ToySettings& s, Rng& rng, ToyTrialInputs& in) {
  const std::size_t n = static_cast<std::size_t>(s.n);
  in.v0.resize(n);
  in.v1.resize(n);
  sample_d0(s.sampler, in.v0, rng);
  sample_d1(s.sampler, in.v1, rng);
  for (int k = 0; k < (s.shared_readout ? 1 : 4); ++k) in.y[k].draw(s.n, s.m, rng);
}

void attention_vector(const ToyTrialInputs& in, int evaluation, std::vector<double>& f) {
  const std::vector<double>& v = evaluation < 2 ? in.v1 : in.v0;
  f.resize(v.size());
  if (evaluation % 2 == 0) softmax(v.data(), v.size(), f.data());
  else linear_normalise(v.data(), v.size(), f.data());
}

// The four evaluations in the order of TrialOutcome: (softmax, D1), (linear, D1), (softmax, D0), (linear, D0).
TrialOutcome ToyTrial::run(const ToySettings& s, Rng& rng) {
  draw_trial_inputs(s, rng, in_);
  if (s.shared_readout) {  // the four evaluations in one pass (toy_four_margins.hpp)
    four_.compute(in_.v1, in_.v0, in_.y[0], s.tau, margins_);
    return outcome_at(s.m, s.tau);
  }
  TrialOutcome out;
  bool* fired[4] = {&out.exp_d1, &out.lin_d1, &out.exp_d0, &out.lin_d0};
  for (int k = 0; k < 4; ++k) {
    attention_vector(in_, k, f_);
    const ReadoutValue r = evaluate_readout(f_.data(), in_.readout(k, s.shared_readout), s.tau);
    out.near_ties += r.near_ties;
    *fired[k] = r.fires();
  }
  return out;
}

void ToyTrial::run_widest(const ToySettings& s, Rng& rng) {
  ToySettings shared = s;
  shared.shared_readout = true;
  draw_trial_inputs(shared, rng, in_);
  four_.compute(in_.v1, in_.v0, in_.y[0], s.tau, margins_);
}

TrialOutcome ToyTrial::outcome_at(int m, double tau) const {
  TrialOutcome out;
  bool* fired[4] = {&out.exp_d1, &out.lin_d1, &out.exp_d0, &out.lin_d0};
  for (int k = 0; k < 4; ++k) {
    const ReadoutValue r = readout_from_margins(margins_[k].data(), m, tau);
    out.near_ties += r.near_ties;
    *fired[k] = r.fires();
  }
  return out;
}

}  // namespace attnlab::separation
