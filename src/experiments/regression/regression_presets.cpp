#include "experiments/regression/regression_presets.hpp"

namespace attnlab::regression {

namespace {
// The lab's reference run (docs/regression.md s.5); presets change a few settings from it.
KeyValues reference_settings() {
  return {{"source", "generate"}, {"function", "exp"},     {"n", "200"},       {"d", "10"},
          {"norm_A", "1"},        {"kappa", "30"},         {"density", "1"},   {"target", "planted"},
          {"x_true_norm", "1"},   {"w_rule", "uniform"},   {"w", "1"},         {"r0", "1"},
          {"newton", "true"},     {"approx_diag", "true"}, {"approx_w2", "true"}, {"sampled", "true"},
          {"sampled_rank2", "true"}, {"gd", "true"},       {"damped", "false"}, {"samples", "100"},
          {"max_iterations", "3000"}, {"tolerance", "1e-13"}};
}
KeyValues with(KeyValues base, const KeyValues& changes) {
  for (const auto& c : changes) base.push_back(c);
  return base;
}
}  // namespace

std::vector<Preset> regression_presets() {
  return {
      {"reference", "Reference run: exp, n = 200, d = 10",
       "The lab's reference run (ours): ||A|| = 1, kappa(A) = 30, w = 1, planted b, start at distance 1 from x*. Exact "
       "Newton doubles its correct digits each step; the paper's approximate Newton (B_diag + W^2) has eps0 about "
       "0.04 and contracts by about eps0 per step (the local factor eps0 / (1 - eps0); 2 eps0 is the bound, valid "
       "for eps0 <= 1/2); the sampled ones, with eps0 about 0.5 at 100 samples, contract irregularly; gradient "
       "descent crawls, since kappa(H) ~ kappa(A)^2. The notes give each solver's median eps0 and contraction.",
       reference_settings()},
      {"far_start", "Far start: ||A|| = 2, r0 = 6",
       "A start far outside the certified radius 0.1 l / M (the theorem is local). The first full Newton step "
       "moves away from x* before the quadratic phase begins; the leverage-sampled and W^2 approximations may "
       "wander or overflow (reported as a state). Switch 'damp exact Newton' on to see backtracking keep every "
       "step a descent step.",
       with(reference_settings(), {{"norm_A", "2"}, {"r0", "6"}, {"max_iterations", "500"}})},
      {"w2_stall", "W^2 alone, weak w = 1: stalls, then diverges",
       "H~ = A^T W^2 A ignores the data term B, and with w = 1 B is not small beside W^2 (beta^ = 1.33 > w^2 = 1; "
       "Lemma C.4(2) fails). At x* the smallest eigenvalue of H^-1 H~ is 0.498: along that direction the full "
       "step is twice too long and the error is multiplied by -(1 / 0.498 - 1) = -1.01 each step, right at the "
       "edge, since contraction needs eps0 < 1/2. Along the iterates eps0 is 0.51 to 0.52 at first (median 0.52 "
       "over the run) and nears 1 as x leaves x*, so ||x - x*|| grows, by a few percent a step at first (about 2 "
       "after 10 steps), then faster, until exp overflows (iteration 77).",
       with(reference_settings(), {{"approx_diag", "false"}, {"sampled", "false"}, {"sampled_rank2", "false"},
                                   {"gd", "false"}, {"max_iterations", "300"}})},
      {"w2_converge", "W^2 alone, strong w = 12: converges",
       "With w = 12 the regulariser dominates, W^2 alone approximates the Hessian well (eps0 below 0.01) and the "
       "same method converges linearly. Lemma C.4(2)'s condition w^2 >= 100 beta + l / sigma_min^2 still fails: "
       "it is sufficient, not necessary, and conservative.",
       with(reference_settings(), {{"w", "12"}, {"approx_diag", "false"}, {"sampled", "false"},
                                   {"sampled_rank2", "false"}, {"gd", "false"}, {"max_iterations", "300"}})},
      {"cosh_two_minima", "cosh with weak w: two minima (d = 2)",
       "cosh is even, so L(x) = L(-x): with a planted b and a weak regulariser there are two minimisers, near "
       "x_true and near -x_true, and x = 0 is a critical point between them. The contour shows both basins and "
       "each solver's path.",
       with(reference_settings(), {{"function", "cosh"}, {"d", "2"}, {"norm_A", "10"}, {"kappa", "3"},
                                   {"x_true_norm", "1.5"}, {"w", "0.05"}, {"r0", "1"}, {"max_iterations", "2000"}})},
      {"large_sparse", "Large problem: n = 100000, d = 50",
       "A tall problem with dense rows (n = 100000, d = 50): forming A^T D A costs n d^2 per iteration, the "
       "sampled approximation about samples x d^2 plus O(nnz(A)) for the leverage scores. Compare the "
       "milliseconds per iteration and the time to 1e-10 in the notes. Gradient descent is off (it would need "
       "thousands of passes over A).",
       with(reference_settings(), {{"n", "100000"}, {"d", "50"}, {"kappa", "10"}, {"samples", "2000"},
                                   {"gd", "false"}, {"max_iterations", "200"}})},
  };
}

}  // namespace attnlab::regression
