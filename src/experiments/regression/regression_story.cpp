// Index of this file
// [SECTION] Settings and glossary
// [SECTION] The steps
//
// The regression paper as a guided story (docs/regression.md s.2-s.5). Every step asks for a
// prediction first; its answer is rendered from the student's run (lab/story_answer.hpp) and
// checked in tests/test_story_runs.cpp.
#include "experiments/regression/regression_story.hpp"

namespace attnlab::regression {

// [SECTION] Settings and glossary

namespace {
constexpr double kInf = 1e300;
// Lemma C.4(2)'s condition w^2 > 100 beta is met "just" while w^2 / (100 beta) is at most kJust (ours); the
// note writes the ratio with 6 digits, so kJustAbove is the least value it writes above 1.
constexpr double kJust = 1.25, kJustAbove = 1.000001;
StoryMeasure ratio_measure() {
  return StoryMeasure::from_note("ratio", "Lemma C.4(2){*}min w^2 / (100 beta^) = {ratio}", "sig3");
}
// The reference run with three solvers: exact Newton, approximate Newton with A^T (B_diag + W^2) A
// (Algorithm 1 without its sampling, ours as a solver), gradient descent.
const KeyValues kThreeSolvers = {{"approx_w2", "false"}, {"sampled", "false"}, {"sampled_rank2", "false"}};
// Step 2: a tall problem with d = 50, where sampling rows saves work by our count
// (docs/regression.md s.3, "What a step costs"): the unsampled and the two sampled approximations.
const KeyValues kSampling = {{"n", "20000"},          {"d", "50"},     {"samples", "1000"}, {"newton", "false"},
                             {"approx_w2", "false"}, {"gd", "false"}};
// Step 5: the solvers whose paths the map draws (three, so each path stays visible).
const KeyValues kTwoMinima = {{"approx_w2", "false"}, {"sampled", "false"}, {"sampled_rank2", "false"}};
StoryMeasure note(const char* name, const char* pattern) { return StoryMeasure::from_note(name, pattern); }
const char* kW2 = "approx. Newton, A^T W^2 A: {*}median eps0 {eps0} ";

}  // namespace

// [SECTION] The steps

Story make_story() {
  Story s;
  s.id = "regression";
  s.result = "Regression with exp, cosh or sinh inside, the softmax-like core of attention, solved by a Newton "
             "method whose Hessian is replaced by a cheaper approximation: how fast does it still converge, and "
             "how good must the approximation be? The paper answers with Algorithm 1 and its Theorem F.1.";
  s.figure = {"regression", "reference", kThreeSolvers, 1};
  s.figure_caption = "What goes in: the function inside the regression (exp here) over the values (A x)_i take "
                     "between the start x0 and the minimiser x*.";
  s.glossary = story_glossary();

  StoryStep one;
  one.title = "Newton, exact and approximate";
  one.text =
      "Three solvers start at distance 1 from the minimiser x* of a loss L: exact Newton, gradient descent, and "
      "approximate Newton, which uses a cheaper matrix H~ in place of the Hessian H. A number eps0 says how far "
      "H~ is from H: 0 when they are equal; the run measures it after each step (the largest |lambda - 1| over the "
      "eigenvalues lambda of H^-1 H~) and uses its median. A has n = 200 rows and d = 10 columns of random "
      "Gaussian entries, column j scaled by 30^(-j/9) (ours), so A's condition number comes out near 30; "
      "b has n entries. The plot follows each solver's distance to x*, both axes "
      "on a log scale. The loss (Definition 1.2, with the regulariser of Eq. (2)): L(x) = 0.5 ||u(x) - alpha(x) b||^2 + "
      "0.5 ||W A x||^2, with u(x) = exp(A x), alpha(x) the sum of its entries and W = w I, a weight w on every "
      "row (the setting 'weight w'). H = A^T (B + W^2) A: B comes "
      "from the data term, W^2 from the regulariser; H~ = A^T (B_diag + W^2) A, B_diag the diagonal part of B "
      "(ours as a solver: Algorithm 1 without its sampling, step 2).";
  one.question = "Each approximate step multiplies the distance to x* by about eps0: how many steps from distance 1 "
                 "to 1e-13? And how does gradient descent compare, and why?";
  one.plot = "Distance to the minimiser over the whole run";
  one.settings = {"regression", "reference", kThreeSolvers, 1};
  one.shows = {"r0", "w"};
  one.prediction = StoryPrediction::asking(
          "Before you run: gradient descent takes 3000 steps. How close to x* does it get?")
      .options({{"as close as Newton (below 1e-10)", 0.0, 1e-10},
                {"closer than 0.01, but not there", 1e-10, 0.01},
                {"still farther than 0.01", 0.01, kInf}})
      .measures("gd", "gradient descent's distance to x* after 3000 steps");
  one.measures = {StoryMeasure::from_cell("gd", {"gd_distance", "", 0.0}, "sig3"),
                  note("newton_it", "exact Newton: converged after {newton_it} iterations"),
                  note("approx_it", "approx. Newton, A^T (B_diag + W^2) A: converged after {approx_it} iterations"),
                  note("eps0", "median eps0 {eps0} "),
                  note("count", "approx. Newton, A^T (B_diag + W^2) A: {*}/ log(eps0) = {count} steps"),
                  StoryMeasure::from_cell("newton1", {"newton_distance", "t", 1}, "sig3"),
                  StoryMeasure::from_cell("approx1", {"approx_diag_distance", "t", 1}, "sig3"),
                  StoryMeasure::from_cell("newton2", {"newton_distance", "t", 2}, "sig2"),
                  StoryMeasure::from_cell("approx2", {"approx_diag_distance", "t", 2}, "sig2"),
                  StoryMeasure::from_cell("gd_step", {"gd_ratio", "", 0.0}, "0.000"),
                  note("kappa", "Problem: {*}kappa(A) = {kappa},"), StoryMeasure::from_setting("r0", "r0"),
                  StoryMeasure::from_cell("approx_factor1", {"approx_diag_ratio", "t", 1}, "sig2")};
  one.answer = {
      say("The approximate Newton's measured eps0 is {eps0}, so the count is log(1e-13 / {r0}) / log({eps0}) = "
          "{count} steps; it converges after {approx_it} iterations. Exact Newton converges after {newton_it}, and "
          "gradient descent ends at distance {gd}."),
      // Walk 18: from r0 = 100 the first approximate step went to 704 and the count (11.5) was far from the
      // 30 iterations taken, while this sentence said "multiplies it by about eps0 from the start".
      say_if("approx_factor1", 0, 0.1,
             "Why: an exact Newton step leaves about a constant times the error squared, which wins only once the "
             "error is small; the approximate one multiplies it by about eps0 from the start. So after the first step "
             "exact Newton is at {newton1} and the approximate one at {approx1}, after the second {newton2} against "
             "{approx2}."),
      say_if("approx_factor1", 0.1, kInf,
             "From distance {r0} the first approximate step multiplied the distance by {approx_factor1}, not by about "
             "eps0: eps0 describes steps near x*, where the loss is nearly quadratic, and far from it a step can "
             "overshoot, so the count from eps0 is a guide only once the run gets close. After the first step exact "
             "Newton is at {newton1} and the approximate one at {approx1}, after the second {newton2} against "
             "{approx2}; near x* an exact Newton step leaves about a constant times the error squared."),
      say("Gradient descent's step must suit the loss's steepest direction, so along its flattest one it moves a small "
          "share of the way each step. A's condition number is kappa(A) = {kappa}, and the Hessian A^T (B + W^2) A "
          "roughly squares it (ours): its last step shrank the distance only by a factor {gd_step}.")};
  // The values measured at the step's settings (seed 1), as docs/regression.md's claims table states them.
  one.expect = {"eps0 is 0.0375, so the count is log(1e-13 / 1) / log(0.0375) = 9.12 steps; it converges after 9 "
                "iterations. Exact Newton converges after 4", "gradient descent ends at distance",
                "multiplies it by about eps0 from the start"};
  // The step shows r0 and invites no value of it; a student's own far start (walk 18) is a branch of its own.
  one.invited = {{{{"r0", "100"}}, {"From distance 100 the first approximate step multiplied the distance by"}}};
  // the loss, r0 = 1, the target, the choices, n = 200 and d = 10
  one.given = {"0.5", "2", "1", "1e-13", "3000", "0", "1e-10", "0.01", "200", "10", "30", "9"};
  s.steps.push_back(one);

  StoryStep two;
  two.title = "Sampling rows of A";
  two.text =
      "H~ = A^T D A (D = B_diag + W^2, diagonal) sums n outer products, one per row: d (d + 2) flops a row, "
      "d + 2 per entry. Here A has n = 20000 rows and d = 50 columns. The paper's Algorithm 1 sums only some rows, "
      "reweighted (Lemma 6.4); ours picks them by leverage scores, tau_i for row i, estimated every step (they "
      "depend on D, which changes with x) from a sketch: 4000 rows drawn uniformly with replacement (4 times the "
      "budget of 1000 rows, so some are drawn twice or more) give a rough A^T D A, and a 16-column random "
      "projection then gives every row's score in one pass over A, at 32 flops per entry. Row i is "
      "kept with probability min(1, 1000 tau_i / d), so the sum stays close to A^T D A. A second sampled solver "
      "(ours) adds back B - B_diag, of rank 2. As in step 1, eps0 says how far each H~ is from the Hessian. The plot "
      "counts each step's work in flops: building H~ and solving with it.";
  two.question = "How does a sampled run compare with an unsampled one, per step and in all, and why?";
  two.plot = "Work per iteration";
  two.shown_plots = {"Contraction ratio"};
  two.settings = {"regression", "reference", kSampling, 1};
  two.shows = {"samples", "d"};
  two.prediction = StoryPrediction::asking(
          "Before you run: how much work does a sampled step cost, compared with an unsampled one?")
      .options({{"far less (under half)", 0.0, 0.5}, {"somewhat less (half to all of it)", 0.5, 1.0},
                {"as much or more", 1.0, kInf}})
      .measures("ratio", "a sampled step's flops over an unsampled one's");
  two.measures = {note("ratio", "leverage-sampled: a step costs {ratio} times the flops"),
                  note("whole_ratio", "leverage-sampled: {*}its whole run, {whole_ratio} times the flops"),
                  note("sampled_work", "leverage-sampled: work per step {sampled_work} million flops, {kept} of"),
                  note("kept", "leverage-sampled: work per step {sampled_work} million flops, {kept} of"),
                  note("lev_rows", "leverage-sampled: work per step {*}: {lev_rows} kept by the leverage sample"),
                  note("sketch_rows", "leverage-sampled: work per step {*}, {sketch_rows} summed by the sketch"),
                  StoryMeasure::from_setting("samples", "samples"),
                  note("full_work", "A^T (B_diag + W^2) A: work per step {full_work} million flops"),
                  note("sampled_it", "leverage-sampled: converged after {sampled_it} iterations"),
                  note("full_it", "A^T (B_diag + W^2) A: converged after {full_it} iterations"),
                  note("sampled_eps0", "leverage-sampled: {*}median eps0 {sampled_eps0} "),
                  note("sampled_rate", "leverage-sampled: {*}eps0 / (1 - eps0) = {sampled_rate} "),
                  note("sampled_contraction", "leverage-sampled: {*}median contraction {sampled_contraction} per step"),
                  note("full_eps0", "A^T (B_diag + W^2) A: {*}median eps0 {full_eps0} "),
                  note("rank2_eps0", "sampled + rank 2: {*}median eps0 {rank2_eps0} "),
                  note("rank2_it", "sampled + rank 2: converged after {rank2_it} iterations"),
                  note("rank2_work", "sampled + rank 2: work per step {rank2_work} million flops"),
                  note("sampled_ms", "leverage-sampled: converged after {*}<= 1e-10 after {sampled_ms} ms"),
                  note("full_ms", "A^T (B_diag + W^2) A: converged after {*}<= 1e-10 after {full_ms} ms"),
                  StoryMeasure::from_setting("d", "d"),
                  StoryMeasure::from_cell("first_ratio", {"sampled_ratio", "t", 1}, "sig3")};
  two.answer = {
      say("A sampled step costs {ratio} times the flops of an unsampled one: {sampled_work} million against "
          "{full_work} million. It adds up the outer products of {kept} rows: {lev_rows} kept by the leverage sample "
          "(budget {samples}) and {sketch_rows} of a uniform sample that the sketch uses to estimate the scores."),
      say_if("ratio", 0, 1, "The saving is small: estimating the leverage scores from the sketch reads every row "
                            "of A, at 32 flops per entry, and a skipped row's outer product saves only about "
                            "d + 2 flops per entry (d (d + 2) for its d entries; d = {d})."),
      say_if("ratio", 1, kInf, "Here sampling costs more: estimating the leverage scores from the sketch reads "
                               "every row of A at 32 flops per entry, while only a skipped row saves, d + 2 flops per "
                               "entry (d = {d}); sampling pays off only when the share of rows skipped times d + 2 is "
                               "above 32."),
      say("The sampled approximation's eps0 is {sampled_eps0} (unsampled: {full_eps0}). Near x* the error, measured "
          "in the Hessian's own norm ||H^(1/2) (x - x*)||, shrinks by a factor of at most eps0 / (1 - eps0) per step "
          "(ours), here {sampled_rate}. That is a bound: the run's (ordinary) "
          "distance to x* shrank by a median factor of {sampled_contraction} per step (the plot Contraction ratio, which "
          "also draws each approximation's 2 eps0, a looser and simpler form of that bound, and the rate 0.4 per step "
          "that the paper's convergence proof uses near x*, Lemma 6.6 in our reading), and the sampled run takes "
          "{sampled_it} iterations instead of {full_it}; adding back the rank-2 part gives eps0 {rank2_eps0} and "
          "{rank2_it} iterations of {rank2_work} million flops. Why: "
          "a sample of rows estimates the Hessian only roughly, so each step corrects less of the error."),
      // Walk 22: at d = 10 a sampled step's ratio (0.465) lay above the drawn line, unexplained.
      say("The plot's lines come from the median eps0: each sampled step draws a new sample, so its own eps0, and "
          "the factor its bound allows, change from step to step, and a step with a rougher sample can lie above "
          "its line; so can the last steps of a run, where the distance nears rounding."),
      // Walk 17: the plot's first sampled point (about 2) went uncommented beside "a median factor".
      say_if("first_ratio", 1, kInf, "Its first step, taken from x0, far from x*, even moved away (the plot's "
                                     "first point, {first_ratio}): the rate holds only near x*, which the later "
                                     "steps reach."),
      say("In all, the sampled run cost {whole_ratio} times the flops of the unsampled one ({sampled_it} steps of "
          "{sampled_work} million flops against {full_it} steps of {full_work} million, with the work before the "
          "first step); on this machine's clock the sampled run reached ||x - x*|| <= 1e-10 after {sampled_ms} ms, the "
          "unsampled one after {full_ms} ms."),
      say_at_step("d", "Then try d = 10: a row's outer product then costs d + 2 = 12 flops per entry, so expect "
                       "a skipped row to save less than the sketch spends on it.")};
  two.expect = {"The saving is small", "costs 0.86 times the flops of an unsampled one: 44.8 million against 52 "
                "million. It adds up the outer products of 4629 rows: 1000 kept by the leverage sample (budget 1000) and 3629 "
                "of a uniform sample that the sketch uses", "eps0 is 0.474 (unsampled: ",
                "here 0.902. That is a bound: the run's (ordinary) distance to x* shrank by a median factor of 0.261 per step (the "
                "plot Contraction ratio, which also draws", "and the sampled run takes 24 iterations instead of 5; adding back the rank-2 part gives "
                "eps0 0.471", "even moved away (the plot's first point, 1.97)", "In all, the sampled run cost 4.13 times the flops of the unsampled one (24 steps"};
  two.invited = {{{{"d", "10"}}, {"Here sampling costs more", "costs 3.16 times the flops"}}};
  // settings (n, d, the budget, the invited d), the sketch's 32 flops, the choices, the stop
  two.given = {"2", "20000", "50", "1", "1000", "4", "4000", "16", "1/2", "32", "0.5", "1e-10", "10", "12", "0.4", "6.6"};  // and the proof's rate, its lemma
  s.steps.push_back(two);

  StoryStep three;
  three.title = "A Hessian from the regulariser alone";
  three.text =
      "This solver (ours) replaces the Hessian H = A^T (B + W^2) A by its regulariser's part alone, "
      "H~ = A^T W^2 A, computed once: what Algorithm 1's D becomes without B_diag. Here W = w I with w = 1. "
      "Lemma C.4(2) makes W^2 alone a good (10%) approximation when w^2 is at least 100 beta plus some positive "
      "number of one's choosing divided by sigma_min(A)^2, that is, when w^2 > 100 beta. There beta bounds the size "
      "of B (every eigenvalue of B lies between -beta and beta) and sigma_min(A) is A's smallest singular value; "
      "the run measures beta, and eps0, how far H~ is from H (step 1). Before Run, "
      "the picture shows the loss and its two parts, the data term and the regulariser, from the start to x*. The "
      "plot follows the distance to x*.";
  three.question = "What happens to the distance to x* from one step to the next, and why?";
  three.plot = "Distance to the minimiser";
  three.settings = {"regression", "w2_stall", {}, 1};
  three.shows = {"w"};
  three.prediction = StoryPrediction::asking("Before you run: will this method converge from distance 1?")
      .options({{"yes, to below 1e-10", 0.0, 1e-10}, {"it stalls near the start", 1e-10, 10.0},
                {"it runs away", 10.0, kInf}})
      .measures("last", "its distance to x* at its last iteration")
      .hiding({"diverge", "runs away", "overflow", "weak", "not met"});
  three.measures = {StoryMeasure::from_cell("last", {"approx_w2_distance", "", 0.0}, "sig3"), note("eps0", kW2),
                    // Three decimals: "1.09" is also a value of the picture before Run (the page's tables).
                    StoryMeasure::from_note("rate", "approx. Newton, A^T W^2 A: {*}eps0 / (1 - eps0) = {rate} ", "0.000"),
                    note("overflow", "diverged at iteration {overflow}:"), StoryMeasure::from_setting("w", "w"),
                    StoryMeasure::from_cell("d50", {"approx_w2_distance", "t", 50}, "sig3"),
                    StoryMeasure::from_cell("d70", {"approx_w2_distance", "t", 70}, "sig3"),
                    note("beta", "Lemma C.4(1){*}beta^ = max ||B|| = {beta} measured"),
                    note("need", "Lemma C.4(2){*}100 beta^ = {need})"), ratio_measure(),
                    note("its", "approx. Newton, A^T W^2 A: {*} after {its} iterations")};
  three.answer = {
      say("Its measured eps0 is {eps0}, so the bound eps0 / (1 - eps0) on its rate near x* is {rate} (ours, step "
          "2); only a bound below 1 promises that the distance shrinks."),
      say_if("its", 70, kInf, "Its distance to x* is {d50} after 50 iterations, {d70} after 70, from 1 at the "
                              "start: for a long time it creeps outward."),
      say_if("last", 10, kInf, "It runs away and the method diverges: exp overflows at iteration {overflow}. "
                               "Why: the part it leaves out, A^T B A, is not small beside A^T W^2 A at w = {w}, so a "
                               "step moves by the wrong amount and can leave a larger error than it started with; "
                               "exp grows so fast that a growing x soon overflows it."),
      say("Lemma C.4(2)'s condition: the run measures beta = {beta}, so it asks for w^2 > 100 beta = {need}, and "
          "w^2 = {w}^2 here."),
      say_if("ratio", -kInf, 1, "So the condition is not met, and the lemma promises nothing here."),
      // Walk 8: the invitation stays below w = 1 (from w = 1.1 on the run converges, which is step 4's question).
      say_at_step("w", "Then try w = 0.8, a weaker regulariser: how do eps0 and the curve change?"),
      // Walk 22: the invited w = 0.8's answer did not compare with w = 1.
      say_if("w", 0, 0.9999, "Compare with the step's w = 1, where eps0 was 0.522 and exp overflowed at iteration "
                             "77: a weaker regulariser leaves out a data term that is larger beside w^2, so eps0 is "
                             "larger ({eps0}) and the run leaves sooner (at iteration {overflow}).")
          .and_if("last", 10, kInf)};
  three.expect = {"the method diverges", "eps0 is 0.522, so the bound eps0 / (1 - eps0) on its rate near x* is 1.090",
                  "exp overflows at iteration 77", "4.85 after 50 iterations, 10.8 after 70",
                  "asks for w^2 > 100 beta = 133, and w^2 = 1^2 here. So the condition is not met"};
  // w = 1, Lemma C.4's 100 beta and 10%, the choices, the iterations of the creep
  three.invited = {{{{"w", "0.8"}}, {"Its measured eps0 is 0.703", "It runs away and the method diverges: exp overflows "
                                      "at iteration", "and w^2 = 0.8^2 here. So the condition is not met",
                                      "so eps0 is larger (0.703) and the run leaves sooner (at iteration 7)"}}};
  three.given = {"2", "1", "100", "1e-10", "10", "10%", "50", "70", "0.8", "0.522", "77"};  // and step's eps0, overflow
  s.steps.push_back(three);

  StoryStep four;
  four.title = "A stronger regulariser";
  four.text =
      "The same solver, H~ = A^T W^2 A, now with w = 12: the regulariser's part of the Hessian is 144 times what it "
      "was at w = 1, so eps0, how far H~ is from H, changes too. The picture before Run shows the loss's two parts.";
  four.question = "What does w change for this solver, and why?";
  four.plot = "Distance to the minimiser";
  four.settings = {"regression", "w2_converge", {}, 1};
  four.shows = {"w"};
  four.prediction = StoryPrediction::asking("Before you run: will this method converge from distance 1 now?")
      .options({{"yes, to below 1e-10", 0.0, 1e-10}, {"it stalls near the start", 1e-10, 10.0},
                {"it runs away", 10.0, kInf}})
      .measures("last", "its distance to x* at its last iteration");
  four.measures = {StoryMeasure::from_cell("last", {"approx_w2_distance", "", 0.0}, "sig3"), note("eps0", kW2),
                   note("rate", "approx. Newton, A^T W^2 A: {*}eps0 / (1 - eps0) = {rate} "),
                   note("it", "approx. Newton, A^T W^2 A: converged after {it} iterations"),
                   StoryMeasure::from_cell("newton_last", {"newton_distance", "", 0.0}, "sig2"),
                   StoryMeasure::from_setting("w", "w"), StoryMeasure::from_setting("tol", "tolerance"),
                   note("need", "Lemma C.4(2){*}100 beta^ = {need})"), ratio_measure()};
  four.answer = {
      // Walk 23: the plotted ratios (0.0074 to 0.0079) sat above 0.00702 at every step, unexplained.
      say("With w = {w}, eps0 is {eps0} and the bound eps0 / (1 - eps0) on the rate is {rate}: a bound in the "
          "Hessian's own norm near x*, with eps0 the median over the steps (step 2), so the plot Contraction ratio's "
          "ordinary distances can shrink a little more slowly than it says."),
      say_if("last", 0, 1e-10, "It converges after {it} iterations."),
      say_if("last", 1e-10, kInf, "It does not converge: its distance to x* ends at {last}."),
      say_if("w", 0, 11.99, "Compare with the step's w = 12: a smaller w leaves out a data term that is larger "
                            "beside w^2, so eps0 is larger."),
      say("Why: the larger w is, the smaller the part it leaves out, A^T B A, is beside A^T W^2 A."),
      // Walk 11: at w = 1.5 (eps0 0.309) "so H~ is nearly the Hessian" did not fit.
      say_if("eps0", 0, 0.05, "Here that part is small (eps0 = {eps0}), so H~ is nearly the Hessian."),
      say_if("eps0", 0.05, kInf, "Here that part is not small (eps0 = {eps0}): H~ is a rougher stand-in for the "
                                 "Hessian, and each step corrects less of the error.").and_if("last", 0, 1e-10),
      // Walk 21: at the invited w = 1 the run diverges, and "corrects less" contradicted it.
      say_if("eps0", 0.05, kInf, "Here that part is not small (eps0 = {eps0}): H~ is so rough a stand-in for the "
                                 "Hessian that a step can leave a larger error than it started with (step 3), and "
                                 "the distance grows.").and_if("last", 1e-10, kInf),
      say("Lemma C.4(2)'s condition (step 3) asks for w^2 > 100 beta = {need} here, and w^2 = {w}^2."),
      // Walk 20: 141 here against step 3's 133 went unexplained; walk 21: not at w = 1, which is step 3's.
      say_if("w", 1.0001, kInf, "(beta is not step 3's, at w = 1: the run measures it at x* and at the start, and "
                                "x* moves with w, as the regulariser is part of the loss.)"),
      say_if("ratio", kJustAbove, kJust, "So the condition is met, just (w^2 is {ratio} times 100 beta): the lemma "
                                         "promises that W^2 alone is within 10% of B + W^2 (our reading)."),
      say_if("ratio", kJust + 1e-6, kInf, "So the condition is met with room to spare (w^2 is {ratio} times 100 "
                                          "beta): the lemma promises that W^2 alone is within 10% of B + W^2 (our "
                                          "reading)."),
      say_if("ratio", -kInf, 1, "So the condition is not met here and the lemma promises nothing, whatever the run "
                                "does: its condition is sufficient, not necessary."),
      say("Exact Newton, also drawn, stops once its distance to x* is at most {tol}, the solvers' tolerance (a "
          "setting), and ends at {newton_last}."),
      // Rounding only at rounding level (the glossary's "about 1e-15"); above it, the tolerance stopped it.
      say_if("newton_last", 0, 3e-15, "Its last step went far below the tolerance, down to rounding (about 1e-15 "
                                      "and less): that value is rounding, not a further gain."),
      say_if("newton_last", 3e-15, kInf, "The tolerance stopped it there, not rounding: its last step landed below "
                                         "{tol}, still far above rounding (about 1e-15)."),
      say_at_step("w", "Then try w = 30, far above the condition's edge. Then try w = 3, 1.5 and 1: each smaller w "
                       "leaves out a data term that is larger beside w^2, so expect a larger eps0 each time and a "
                       "flatter curve, until at w = 1, step 3's case, the method no longer converges.")};
  four.expect = {"With w = 12, eps0 is 0.00697", "It converges after 7 iterations",
                 "Here that part is small (eps0 = 0.00697), so H~ is nearly the Hessian", "asks for w^2 > 100 beta = 141",
                 "So the condition is met, just", "at most 1e-13, the solvers' tolerance (a setting), and ends at "
                 "2.1e-17. Its last step went far below the tolerance, down to rounding"};
  four.invited = {{{{"w", "30"}}, {"So the condition is met with room to spare"}},
                  {{{"w", "3"}}, {"With w = 3, eps0 is 0.101", "It converges after 15 iterations",
                                  "Compare with the step's w = 12", "So the condition is not met here"}},
                  {{{"w", "1.5"}}, {"With w = 1.5, eps0 is 0.309", "It converges after 39 iterations",
                                    "Here that part is not small (eps0 = 0.309): H~ is a rougher stand-in",
                                    "ends at 9.5e-14. The tolerance stopped it there, not rounding"}},
                  {{{"w", "1"}}, {"With w = 1, eps0 is 0.522", "It does not converge",
                                  "H~ is so rough a stand-in for the Hessian that a step can leave a larger error"}}};
  four.given = {"12", "144", "1", "2", "30", "3", "1.5", "1e-10", "10", "1e-15", "16", "10%"};  // w; the invited w; the choices; the lemma's 10%
  s.steps.push_back(four);

  StoryStep five;
  five.title = "cosh in place of exp";
  five.text =
      "Now u(x) = cosh(A x) instead of exp(A x), and d = 2, so the lab draws the loss as a map (log10 of L - L*, "
      "L* the smallest loss) with each solver's path. All three solvers start at distance r0 = 1 from the "
      "minimiser x* found by the lab. Theorem F.1 promises x* only from a start within a radius 0.1 lambda_min / M "
      "of it (Definition 6.1: lambda_min the Hessian's smallest eigenvalue at x*, M how fast the Hessian changes). "
      "The run measures both, M over points around x* out to the start's distance r0 (ours), so M and the radius "
      "change with r0.";
  five.question = "Where does each solver end, and why?";
  five.plot = "log10(L(x) - L*) around x* (d = 2), with each solver's iterates";
  // Gradient descent runs far longer than the Newton-type solvers: the whole run's plot shows its end.
  five.shown_plots = {"Distance to the minimiser over the whole run"};
  five.settings = {"regression", "cosh_two_minima", kTwoMinima, 1};
  five.shows = {"r0"};
  five.prediction = StoryPrediction::asking("Before you run: where does exact Newton end?")
      .options({{"at x* (closer than 0.01)", 0.0, 0.01}, {"somewhere else (farther than 0.01)", 0.01, kInf}})
      .measures("newton_end", "exact Newton's final distance to x*")
      .hiding({"two minim", "-x*", "local", "basin", "even"});
  five.measures = {StoryMeasure::from_cell("newton_end", {"newton_distance", "", 0.0}, "sig3"),
                   StoryMeasure::from_cell("newton_gap", {"newton_loss_gap", "", 0.0}, "sig2"),
                   StoryMeasure::from_cell("diag_end", {"approx_diag_distance", "", 0.0}, "sig3"),
                   StoryMeasure::from_cell("diag_gap", {"approx_diag_loss_gap", "", 0.0}, "sig2"),
                   StoryMeasure::from_cell("gd_end", {"gd_distance", "", 0.0}, "sig3"),
                   note("gd_it", "gradient descent (Armijo): {*}after {gd_it} iterations"),
                   note("xstar", "x*: {*}||x*|| = {xstar},"),
                   StoryMeasure::from_setting("r0", "r0"),
                   note("newton_minus", "exact Newton: its last iterate lies {*} and {newton_minus} from -x*"),
                   note("diag_minus", "W^2) A: its last iterate lies {*} and {diag_minus} from -x*"),
                   note("diag_off", "W^2) A: its last iterate lies {*}; {diag_off} of its"),
                   note("newton_off", "exact Newton: its last iterate lies {*}; {newton_off} of its"),
                   note("gd_off", "gradient descent (Armijo): its last iterate lies {*}; {gd_off} of its"),
                   note("all_off", "Off the map: {all_off} iterates"),
                   note("radius", "Not met: a start inside the certified radius 0.1 l / M^ (here {*} radius {radius}, M^ = {*} measured)")};
  five.answer = {
      say("From r0 = {r0}, exact Newton ends at distance {newton_end} from x*, the approximate Newton at "
          "{diag_end} and gradient descent at {gd_end} after {gd_it} iterations (the plot Distance to the minimiser "
          "over the whole run shows each solver to its end)."),
      say_if("newton_gap", -1e-9, 1e-9, "Exact Newton's final loss equals L* to within 1e-9 (L - L* = {newton_gap} "
                                        "to the digits shown)."),
      say_if("diag_gap", -1e-9, 1e-9, "So does the approximate Newton's (L - L* = {diag_gap})."),
      say("With cosh, L(-x) = L(x): -x* is a minimiser exactly as good as x*, at distance 2 ||x*|| = 2 x {xstar} "
          "from it."),
      say_if("newton_minus", 0, 0.01, "A solver at that distance whose loss is within 1e-9 of L* has found -x*, not "
                                      "failed. Exact Newton ends at -x* ({newton_minus} from it). Why: a Newton step jumps "
                                      "to the stationary point of the local quadratic model (its minimum when the "
                                      "Hessian is positive definite), and from this start that point lay in the "
                                      "valley of -x*."),
      say_if("newton_end", 0, 0.01, "Exact Newton ends at x*: its jumps stayed in x*'s valley."),
      say_if("diag_minus", 0, 0.01, "The approximate Newton ends at -x* ({diag_minus} from it): its long early "
                                    "steps landed in the valley of -x*."),
      say_if("diag_end", 0, 0.01, "The approximate Newton ends at x*."),
      // Only while the two Newton-type solvers part (walk 12: at r0 = 0.1 both end at x*).
      say_if("diag_end", 0, 0.01, "Its H~ is not the Hessian, so its steps differ from exact Newton's in length and "
                                  "direction: which valley a Newton-type solver ends in depends on where its long early "
                                  "steps land, not only on how close the start is.").and_if("newton_minus", 0, 0.01),
      say_if("all_off", 1, kInf, "Paths leave the drawn map on the way, and the map cuts them at its edge: the map does not show {newton_off} of exact Newton's iterates, {diag_off} "
                                 "of the approximate Newton's and {gd_off} of gradient descent's."),
      say_if("all_off", 0, 0, "Every solver's path stays on the drawn map."),
      say_if("gd_end", 0, 0.01, "Gradient descent only walks downhill in short steps, so it stays in the valley it "
                                "starts in and ends at x*."),
      say_if("radius", 0, kInf, "The radius 0.1 lambda_min / M where Theorem F.1 promises x* measures {radius} here "
                                "(M measured out to distance {r0} from x*), so r0 = {r0} is outside it: the theorem "
                                "promises nothing for this start."),
      say_at_step("r0", "Then try r0 = 0.3, then 0.1: expect that radius to stay far below each, so the theorem "
                        "still promises nothing.")};
  five.expect = {"exact Newton ends at distance 2.98 from x*", "Exact Newton ends at -x*",
                 "The approximate Newton ends at -x*", "Gradient descent only walks downhill", "equals L* to within 1e-9 (L - L* = 0",
                  "2 ||x*|| = 2 x 1.49", "measures 3.71e-05 here (M measured out to distance 1 from x*), so r0 = 1 is outside it",
                  "gradient descent at 6.48e-09 after 182 iterations (the plot Distance to the minimiser over the whole run",
                  "Every solver's path stays on the drawn map."};
  five.invited = {{{{"r0", "0.1"}}, {"Exact Newton ends at x*: its jumps stayed in x*'s valley",
                                     "The approximate Newton ends at x*"}},
                  {{{"r0", "0.3"}}, {"exact Newton ends at distance 2.98 from x*", "the approximate Newton at 4.58e-14",
                                     "Exact Newton ends at -x*", "The approximate Newton ends at x*.",
                                     "Its H~ is not the Hessian, so its steps differ",
                                     "the map does not show 6 of exact Newton's iterates, 1 of the approximate "
                                     "Newton's and 0 of gradient descent's",
                                     "measures 0.000317 here (M measured out to distance 0.3 from x*), so r0 = 0.3 is outside it"}}};
  // d = 2, r0, the invited r0, the choices, the gap's bound 1e-9 and Definition 6.1's 0.1.
  five.given = {"2", "1", "0.3", "0.01", "0", "1e-9", "0.1"};
  s.steps.push_back(five);

  StoryStep six;
  six.title = "One step as in-context learning";
  six.text =
      "Corollary F.2: moving x by one step is the same as keeping x and shifting the target b to a new b~, as if "
      "the model had learned from a changed input (in-context learning). Here b~ is the target that makes the "
      "residual u - alpha b~ at the new x equal to the residual u - alpha b at the old one, so b~ - b = (change of u "
      "- change of alpha times b) / alpha (ours, from the corollary). The x-axis is how far x moves; the plot shows "
      "the shift ||b~ - b|| on log-log axes, beside a bound of ours: ||b~ - b|| <= max|u| ||A|| m (1 + sqrt(n) "
      "||b||) / |alpha|, with m = ||x_{t+1} - x_t|| the move, max|u| the largest entry of u at either end of it, "
      "alpha at the new x and n the rows of A.";
  six.question = "How does the shift of the target grow with the size of the move, and why?";
  six.plot = "Target shift of one step (Corollary F.2)";
  six.settings = {"regression.icl", "move_x", {}, 1};
  six.prediction = StoryPrediction::asking(
          "Before you run: make the move 10 times larger. How much larger does the shift of the target get?")
      .options({{"less than 10 times", -kInf, 0.9}, {"about 10 times", 0.9, 1.1}, {"far more", 1.1, kInf}})
      .measures("slope", "the log-log slope of the shift against the move");
  six.measures = {note("slope", "slope of ||b~ - b|| against the move: {slope} ")};
  six.answer = {
      say("The log-log slope measured is {slope}: ten times the move gives about ten times the shift."),
      say("Why: b~ - b = (change of u - change of alpha times b) / alpha. u = exp(A x) and its sum alpha change "
          "smoothly with x, so over a small move each change is its derivative times the move, plus a part in the "
          "move squared that is tiny for moves of 0.1 and less: the shift is proportional to the move.")};
  six.expect = {"The log-log slope measured is 1.0000"};
  six.given = {"10", "0.1", "1"};  // the bound's 1 + sqrt(n) ||b|| and x_{t+1}
  s.steps.push_back(six);
  s.summary = {
      say("Exact Newton converged in a handful of iterations, and approximate Newton with A^T (B_diag + W^2) A "
          "in a few more while its error eps0 stayed far below 1/2. In step 2, at that step's settings, our "
          "implementation of the paper's sampling made each step cheaper by the flops counted but needed several "
          "times as many steps, so the whole run did more work. Leaving "
          "out the data term broke the method unless a strong regulariser made up for it, and with cosh the "
          "guarantee is local: from a start outside its small ball (Definition 6.1) exact Newton can end at the "
          "other minimiser, -x*."),
      say_if("slope", 0.9, 1.1, "One step of the method equals a shift of the target, in proportion to the move "
                                "(slope {slope}): the in-context learning view.")};
  s.summary_given = {"2", "1/2"};  // W^2, the bound
  return s;
}

}  // namespace attnlab::regression
