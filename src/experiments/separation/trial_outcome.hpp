// The outcome of one trial of a separation experiment and its tally (docs/separation.md s.4).
#pragma once
#include <cstdint>

namespace attnlab::separation {

struct TrialOutcome {
  bool exp_d1 = false, lin_d1 = false, exp_d0 = false, lin_d0 = false;  // F > 0 for each
  int near_ties = 0;
  // E_success: softmax fires on D1, and neither network fires on D0, nor linear on D1.
  bool success() const { return exp_d1 && !lin_d1 && !exp_d0 && !lin_d0; }
};

struct OutcomeTally {
  std::int64_t trials = 0, successes = 0;
  std::int64_t exp_d1 = 0, lin_d1 = 0, exp_d0 = 0, lin_d0 = 0, near_ties = 0;
  void add(const TrialOutcome& o) {
    ++trials;
    successes += o.success();
    exp_d1 += o.exp_d1;
    lin_d1 += o.lin_d1;
    exp_d0 += o.exp_d0;
    lin_d0 += o.lin_d0;
    near_ties += o.near_ties;
  }
  OutcomeTally& operator+=(const OutcomeTally& o) {
    trials += o.trials, successes += o.successes, near_ties += o.near_ties;
    exp_d1 += o.exp_d1, lin_d1 += o.lin_d1, exp_d0 += o.exp_d0, lin_d0 += o.lin_d0;
    return *this;
  }
};

}  // namespace attnlab::separation
