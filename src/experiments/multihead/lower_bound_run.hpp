// The `multihead.lower_bound` run (docs/multihead.md s.4; docs/design.md "The run: prepare, units,
// merge, results"): the settings every unit reads, fixed by prepare(), and one |S|'s row.
#pragma once
#include <cmath>
#include <cstdint>

#include "experiments/multihead/learners.hpp"

namespace attnlab::multihead {

struct ParitySettings {
  int max_S = 3, verify_d = 6, train_d = 10, adam_steps = 800;
  double rho = 12.0;
  AdamSettings adam;
  std::uint64_t seed = 1;
};

// Unit |S| - 1's result: the gadget's heads and exact error, Adam's sign accuracy (NaN until
// measured), and how many examples Gaussian elimination over GF(2) needed (-1: it did not finish).
struct ParityRow {
  int S = 0, heads = 0;
  double verify_error = NAN, sign_accuracy = NAN;
  int gf2_examples = -1;
  bool gf2_correct = false;
};

}  // namespace attnlab::multihead
