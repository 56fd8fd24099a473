// The regression paper as a guided story (docs/regression.md s.2-s.5). Every number the texts
// state is measured by a run of the step's settings (seed 1) and checked in tests/test_stories.cpp.
#include "experiments/regression/regression_story.hpp"

namespace attnlab::regression {

namespace {
// The reference run with three solvers: exact Newton, approximate Newton with A^T (B_diag + W^2) A
// (Algorithm 1 without its sampling, ours as a solver), gradient descent.
const KeyValues kThreeSolvers = {{"approx_w2", "false"}, {"sampled", "false"}, {"sampled_rank2", "false"}};
// Step 2: a tall problem with d = 50, where sampling rows saves work by our count
// (docs/regression.md s.3, "What a step costs"): the unsampled and the two sampled approximations.
const KeyValues kSampling = {{"n", "20000"},          {"d", "50"},     {"samples", "1000"}, {"newton", "false"},
                             {"approx_w2", "false"}, {"gd", "false"}};
}  // namespace

Story make_story() {
  Story s;
  s.id = "regression";
  s.result = "A Newton method with a cheap approximate Hessian still converges fast on regression with exp, cosh "
             "or sinh inside, the softmax-like core of attention, as long as the approximation is good enough.";
  s.figure = {"regression", "reference", kThreeSolvers, 1};
  s.figure_plot = 0;
  s.figure_caption = "Distance to the minimiser per iteration (log scale) for exact Newton, approximate Newton with "
                     "A^T (B_diag + W^2) A (the paper's Algorithm 1 without its sampling) and gradient descent: a quick "
                     "run.";

  StoryStep one;
  one.title = "Newton, exact and approximate";
  one.text =
      "The loss is the paper's rescaled one (Definition 1.2, with the regulariser of its Eq. (2)): "
      "L(x) = 0.5 ||u(x) - alpha(x) b||^2 + 0.5 ||W A x||^2, with u(x) = exp(A x) and alpha(x) the sum of its "
      "entries. Classical "
      "softmax regression would be 0.5 ||u(x) / alpha(x) - b||^2; the paper (Section 1) names the place of the "
      "normalisation factor as the difference. Three solvers start from the same point, at distance 1 from the "
      "minimiser x*: exact Newton, gradient descent, and approximate Newton with H~ = A^T D A, D = B_diag + W^2, in "
      "place of the Hessian. The paper's Algorithm 1 (Appendix F.1) samples the entries of D; here all are kept "
      "(ours as a solver; the next step samples them). Press Run: the plot follows each solver's distance "
      "to x* over its whole run, with both axes on a log scale.";
  one.answer =
      "Exact Newton converges after 4 iterations, the unsampled approximate Newton after 9, with the measured quality eps0 = "
      "0.0375 of its approximation. Why: an exact Newton step squares the error once it is small, the approximate "
      "one multiplies it by about eps0, and gradient descent only follows the slope, one small step at a time.";
  one.question = "Each approximate step shrinks the error by about eps0. How many steps from distance 1 to 1e-13?";
  one.plot = "Distance to the minimiser over the whole run";
  one.settings = {"regression", "reference", kThreeSolvers, 1};
  one.shows = {"r0", "w"};
  one.prediction = StoryPrediction::asking(
          "Before you run: gradient descent takes 3000 steps. How close to x* does it get?")
      .options({{"as close as Newton (below 1e-10)", 0.0, 1e-10},
                {"closer than 0.01, but not there", 1e-10, 0.01},
                {"still farther than 0.01", 0.01, 1e300}})
      .measures({"gd_distance", "", 0.0}, "gradient descent's distance to x* after 3000 steps");
  one.numbers = {{"4", {}, "exact Newton: converged after 4 iterations"},
                 {"9", {}, "approx. Newton, A^T (B_diag + W^2) A: converged after 9 iterations"},
                 {"0.0375", {}, "median eps0 0.0375"}};
  one.given = {"0.5", "2", "1", "1e-13", "3000"};  // the loss's 0.5 and W^2, r0 = 1, the target, GD's steps
  s.steps.push_back(one);

  StoryStep two;
  two.title = "Cheaper steps by sampling rows";
  two.text =
      "The paper's Algorithm 1 samples: it replaces the diagonal D = B_diag + W^2 by a sparse reweighted D~ "
      "(Lemma 6.4), so that H~ = A^T D~ A sums fewer outer products of the rows of A; we choose its rows by "
      "leverage scores (ours). Ours: with our sketched scores, sampling pays only when n is much larger than the "
      "sample and d is above about 30 (by our count of flops), so this step solves a new one with n = 20000 rows "
      "and d = 50 columns. The budget rule, also ours, keeps row i with probability min(1, 1000 tau_i / d). A "
      "second sampled solver, also ours, adds back the exact rank-2 part of the Hessian. The plot "
      "counts each step's work in floating-point operations (flops): building H~ and solving with it.";
  two.answer =
      "A sampled step costs 0.86 times the flops of an unsampled one: 44.8 million against 52 million, with 4629 "
      "of the 20000 rows summed into Gram matrices (the sketch's uniform sample and the rows kept). The saving is "
      "small because the sketched scores still read every row, at 32 flops per entry of A against about d + 2 for "
      "a row's outer product: at step 1's d = 10 a sampled step costs more than an unsampled one. The sampled "
      "approximation's eps0 is 0.474 and it converges after 24 iterations instead of 5; adding back the exact "
      "rank-2 part gives eps0 0.471. Why: a sample of rows estimates the Hessian only roughly, so each step is "
      "cheaper but corrects less of the error.";
  two.question =
      "Ours: near x*, with quality eps0, the error's linearised map shrinks it by a factor of at most "
      "eps0 / (1 - eps0) per step, over many steps. For which eps0 is that factor below 1, and for which is it at "
      "most the rate 0.4 that the contraction plot draws?";
  two.plot = "Work per iteration";
  two.settings = {"regression", "reference", kSampling, 1};
  two.shows = {"samples", "d"};
  two.run = true;
  two.numbers = {{"0.86", {}, "leverage-sampled: a step costs 0.86 times the flops"},
                 {"44.8", {}, "leverage-sampled: work per step 44.8 million flops"},
                 {"52", {}, "A^T (B_diag + W^2) A: work per step 52 million flops"},
                 {"4629", {}, "leverage-sampled: work per step 44.8 million flops, 4629 of the n = 20000 rows"},
                 {"24", {}, "leverage-sampled: converged after 24 iterations"},
                 {"5", {}, "A^T (B_diag + W^2) A: converged after 5 iterations"},
                 {"0.474", {}, "median eps0 0.474"},
                 {"0.471", {}, "median eps0 0.471"}};
  // settings, the sketch's 2 x 16 columns, step 1's d, the d above which sampling pays (our count)
  two.given = {"2", "20000", "50", "1", "1000", "0.4", "32", "10", "30"};
  s.steps.push_back(two);

  StoryStep three;
  three.title = "Leave out the data term";
  three.text =
      "H~ = A^T W^2 A (a solver of ours, to show what happens when Algorithm 1's D drops the data term B_diag) "
      "keeps only the regulariser's part "
      "of the Hessian, here with a weak regulariser (w = 1). "
      "Press Run and follow its curve.";
  three.answer =
      "The part it drops is not small: its measured eps0 is 0.522, just above 1/2, so each step overshoots, and the "
      "method diverges: exp overflows at iteration 77. Why: a step that overshoots by more than it corrects makes "
      "the error grow at every step, and exp turns a growing x into an overflow.";
  three.question =
      "Lemma C.4 asks for w^2 >= 100 beta + ... . Which line of the details says its condition is not met here?";
  three.plot = "Distance to the minimiser";
  three.settings = {"regression", "w2_stall", {}, 1};
  three.shows = {"w"};
  three.prediction = StoryPrediction::asking(
          "Before you run: will this method converge from distance 1?")
      .options({{"yes, to below 1e-10", 0.0, 1e-10},
                {"it stalls near the start", 1e-10, 10.0},
                {"it runs away", 10.0, 1e300}})
      .measures({"approx_w2_distance", "t", 76}, "its distance to x* at iteration 76");
  three.numbers = {{"0.522", {}, "median eps0 0.522"}, {"77", {}, "diverged at iteration 77"}};
  three.given = {"2", "1", "100", "1/2"};  // w = 1, Lemma C.4's 100 beta, the bound 1/2
  s.steps.push_back(three);

  StoryStep four;
  four.title = "A strong regulariser rescues it";
  four.text =
      "The same method with w = 12: now the regulariser dominates the Hessian. Try w between 1 and 12 and find "
      "where it starts to converge.";
  four.answer =
      "eps0 is 0.00697 and it converges after 7 iterations. The lemma's condition is still not met (see the line "
      "'Not met' in the details): it is sufficient, not necessary. Why: with w = 12 the data term it drops is "
      "small beside w^2, so the approximate Hessian is nearly the exact one.";
  four.question = "What does a large w do to the minimiser x* itself? (Compare ||x*|| in the notes with step 3.)";
  four.plot = "Distance to the minimiser";
  four.settings = {"regression", "w2_converge", {}, 1};
  four.shows = {"w"};
  four.run = true;
  four.numbers = {{"0.00697", {}, "median eps0 0.00697"},
                  {"7", {}, "approx. Newton, A^T W^2 A: converged after 7 iterations"}};
  four.given = {"12", "1", "2"};  // w = 12, the invited range
  s.steps.push_back(four);

  StoryStep five;
  five.title = "Two minima: the theorem is local";
  five.text =
      "With cosh, L(x) = L(-x): there are two minimisers, near x_true and near -x_true (d = 2, so the lab draws "
      "the loss as a map with every solver's path). The convergence result is local: Theorem F.1 assumes a start "
      "near x*, the good initialisation point of Definition 6.1.";
  five.answer =
      "Exact Newton reaches the other minimiser, at distance 2.98 from x*. Why: a Newton step jumps to the minimum "
      "of the local quadratic model, and from this start that model points into the other minimiser's basin.";
  five.question = "Which start points lead each solver to which minimum? Change r0 and watch the paths.";
  five.plot = "log10(L(x) - L*) around x* (d = 2), with each solver's iterates";
  five.settings = {"regression", "cosh_two_minima", {}, 1};
  five.shows = {"r0"};
  five.run = true;
  five.numbers = {{"2.98", {}, "||x - x*|| = 2.98"}};
  five.given = {"2"};  // d = 2
  s.steps.push_back(five);

  StoryStep six;
  six.title = "One step as in-context learning";
  six.text =
      "Corollary F.2: moving x by one step is the same as keeping x and shifting the target b to a b~. The x-axis is "
      "the size of the move; the plot shows ||b~ - b|| on log-log axes.";
  six.answer =
      "||b~ - b|| grows linearly with the move: the log-log slope measured is 1.0000. Why: for a small move the "
      "shift is the model's derivative times the move, so it is proportional to the move.";
  six.question = "Why is the slope 1, and when does it break down? (Try the preset 'sinh_alpha_zero' in the free lab.)";
  six.plot = "Target shift of one step (Corollary F.2)";
  six.settings = {"regression.icl", "move_x", {}, 1};
  six.run = true;
  six.numbers = {{"1.0000", {}, "slope of ||b~ - b|| against the move: 1.0000"}};
  six.given = {"1"};  // the slope a small move gives
  s.steps.push_back(six);
  s.summary =
      "Exact Newton converged in a handful of iterations, and approximate Newton with A^T (B_diag + W^2) A in a few "
      "more while its error eps0 stayed far below 1/2. Our implementation of the paper's sampling made each step "
      "cheaper, by the flops counted, on a tall problem with d = 50 (not at d = 10), at the price of more steps. "
      "Leaving out the data term broke the method unless a strong regulariser made up for it, and with cosh the guarantee "
      "held only near the minimiser the start was near. One step of the method equals a shift of the target: the "
      "in-context learning view.";
  s.summary_given = {"2", "1/2", "50", "10"};  // W^2, the bound, step 2's d, step 1's d
  return s;
}

}  // namespace attnlab::regression
