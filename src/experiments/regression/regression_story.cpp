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

std::vector<GlossaryEntry> glossary() {
  return {
      {"softmax", "Turns scores into positive weights that add up to 1; exp(A x) divided by its sum alpha(x) "
                  "is the softmax of A x, the core of attention.", "Section 1"},
      {"minimiser", "The point x* where the loss is smallest; the solvers try to reach it.", "Definition 6.1"},
      {"regulariser", "The extra term 0.5 ||W A x||^2 of the loss (W = w I here); a larger w pulls x* towards 0.",
       "Eq. (2)"},
      {"Hessian", "The matrix of second derivatives of the loss: how its slope changes in each direction. Here "
                  "H = A^T (B + W^2) A, with B from the data term and W^2 from the regulariser.", "Section 5"},
      {"Newton", "Newton's method: jump to the stationary point of the quadratic that matches the loss's slope "
                 "and curvature (its Hessian) at the current point; that point is the quadratic's minimum when the "
                 "Hessian is positive definite.", "Definition 6.3"},
      {"gradient descent", "Steps downhill along the slope; here each step's length is chosen by the Armijo "
                           "rule (halve it until the loss falls enough).", "ours"},
      {"Armijo", "A rule for a step's length: start long and halve it until the loss falls by enough.", "ours"},
      {"eps0", "How far the approximate Hessian is from the true one: 0 is exact; below 1/2, each step "
               "shrinks the error.", "Definition 6.2", true},
      {"flops", "Floating-point operations: the additions and multiplications a step costs.", "ours"},
      {"outer product", "a a^T for a row a of A: a d x d matrix; A^T D A is the sum of one per row, each weighted "
                        "by D's entry.", "ours"},
      {"leverage score", "How much one row of A matters to A^T A; rows with high scores are kept more often.",
       "ours"},
      {"tau_i", "Row i's leverage score (here tau is no threshold, unlike in the separation story).", "ours", true},
      {"B_diag", "The diagonal part of B, the data term's matrix in the Hessian A^T (B + W^2) A; B minus B_diag "
                 "is a matrix of rank 2 (two outer products).", "Section 4, Algorithm 1"},
      {"rank 2", "A matrix of rank 2 is a sum of two outer products; B - B_diag is one.", "ours"},
      {"beta", "A bound on the size of B, the data term's matrix in the Hessian: every eigenvalue of B lies "
               "between -beta and beta. The lab measures it (beta^) and lists it in the Details notes under the plots.", "Lemma C.4"},
      {"critical point", "A point where the slope (gradient) of the loss is zero: a minimiser, or another flat "
                         "point.", "ours"},
      {"sketch", "A small random summary of A (a sample of rows and a random projection) from which the leverage "
                 "scores are estimated without an exact solve.", "ours"},
      {"in-context learning", "A model adapting to the examples in its input, with no change to its weights; "
                              "here one step of the solver acts like a change of the target b.", "Corollary F.2"},
      {"rounding", "Doubles hold about 16 significant digits: a distance below about 1e-16 times the size of x* "
                   "cannot be measured.", "ours"},
  };
}
}  // namespace

// [SECTION] The steps

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
  s.glossary = glossary();

  StoryStep one;
  one.title = "Newton, exact and approximate";
  one.text =
      "Three solvers start at distance 1 from the minimiser x* of a loss L: exact Newton, gradient descent, and "
      "approximate Newton, which uses a cheaper matrix H~ in place of the Hessian H. A number eps0 says how far "
      "H~ is from H: 0 when they are equal. The plot follows each solver's distance to x*, both axes on a log "
      "scale. The loss (Definition 1.2, with the regulariser of Eq. (2)): L(x) = 0.5 ||u(x) - alpha(x) b||^2 + "
      "0.5 ||W A x||^2, with u(x) = exp(A x) and alpha(x) the sum of its entries. H = A^T (B + W^2) A: B comes "
      "from the data term, W^2 from the regulariser; H~ = A^T (B_diag + W^2) A, B_diag the diagonal part of B "
      "(ours as a solver: Algorithm 1 without its sampling, step 2).";
  one.question = "Each approximate step multiplies the distance to x* by about eps0. How many steps from distance 1 "
                 "to 1e-13?";
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
                  StoryMeasure::from_setting("r0", "r0")};
  one.answer = {
      say("The approximate Newton's measured eps0 is {eps0}, so the count is log(1e-13 / {r0}) / log({eps0}) = "
          "{count} steps; it converges after {approx_it} iterations. Exact Newton converges after {newton_it}, and "
          "gradient descent ends at distance {gd}."),
      say("Why: an exact Newton step squares the error once it is small (so few steps), the approximate one "
          "multiplies it by about eps0, and gradient descent only follows the slope, one small step at a time.")};
  // The values measured at the step's settings (seed 1), as docs/regression.md's claims table states them.
  one.expect = {"eps0 is 0.0375, so the count is log(1e-13 / 1) / log(0.0375) = 9.12 steps; it converges after 9 "
                "iterations. Exact Newton converges after 4", "gradient descent ends at distance"};
  one.given = {"0.5", "2", "1", "1e-13", "3000", "0", "1e-10", "0.01"};  // the loss, r0 = 1, the target, the choices
  s.steps.push_back(one);

  StoryStep two;
  two.title = "Sampling rows of A";
  two.text =
      "H~ = A^T D A (D = B_diag + W^2, diagonal) is a sum of n outer products, one per row of A, each about "
      "d (d + 2) flops. The paper's Algorithm 1 sums only some rows, reweighted so that the sum stays close to "
      "A^T D A (Lemma 6.4). Which rows is ours: by leverage scores, tau_i for row i, how much that row matters; "
      "row i is kept with probability min(1, 1000 tau_i / d). The scores depend on D, which changes with x, so "
      "every step estimates them again from a sketch of A, which reads every row of A at 32 flops per entry. A "
      "second sampled solver (ours) adds back B - B_diag, of rank 2. Here A has n = 20000 rows and d = 50 "
      "columns. The plot counts each step's work in flops: building H~ and solving with it. Then try d = 10.";
  two.question = "How does a sampled run compare with an unsampled one, per step and in all, and why?";
  two.plot = "Work per iteration";
  two.settings = {"regression", "reference", kSampling, 1};
  two.shows = {"samples", "d"};
  two.prediction = StoryPrediction::asking(
          "Before you run: how much work does a sampled step cost, compared with an unsampled one?")
      .options({{"far less (under half)", 0.0, 0.5}, {"somewhat less (half to all of it)", 0.5, 1.0},
                {"as much or more", 1.0, kInf}})
      .measures("ratio", "a sampled step's flops over an unsampled one's");
  two.measures = {note("ratio", "leverage-sampled: a step costs {ratio} times the flops"),
                  note("sampled_work", "leverage-sampled: work per step {sampled_work} million flops, {kept} of"),
                  note("kept", "leverage-sampled: work per step {sampled_work} million flops, {kept} of"),
                  note("full_work", "A^T (B_diag + W^2) A: work per step {full_work} million flops"),
                  note("sampled_it", "leverage-sampled: converged after {sampled_it} iterations"),
                  note("full_it", "A^T (B_diag + W^2) A: converged after {full_it} iterations"),
                  note("sampled_eps0", "leverage-sampled: {*}median eps0 {sampled_eps0} "),
                  note("sampled_rate", "leverage-sampled: {*}eps0 / (1 - eps0) = {sampled_rate} "),
                  note("full_eps0", "A^T (B_diag + W^2) A: {*}median eps0 {full_eps0} "),
                  note("rank2_eps0", "sampled + rank 2: {*}median eps0 {rank2_eps0} "),
                  note("sampled_ms", "leverage-sampled: converged after {*}<= 1e-10 after {sampled_ms} ms"),
                  note("full_ms", "A^T (B_diag + W^2) A: converged after {*}<= 1e-10 after {full_ms} ms"),
                  StoryMeasure::from_setting("d", "d")};
  two.answer = {
      say("A sampled step costs {ratio} times the flops of an unsampled one: {sampled_work} million against "
          "{full_work} million, with {kept} rows summed (the sketch's sample included)."),
      say_if("ratio", 0, 1, "The saving is small: estimating the leverage scores from the sketch reads every row "
                            "of A, at 32 flops per entry, and a skipped row's outer product saves only about "
                            "d + 2 flops per entry (d (d + 2) for its d entries; d = {d})."),
      say_if("ratio", 1, kInf, "Here sampling costs more: estimating the leverage scores from the sketch reads every "
                               "row of A at 32 flops per entry, more than the d + 2 flops per entry (d = {d}) that a "
                               "skipped row's outer product saves; it pays off only with many columns."),
      say("The sampled approximation's eps0 is {sampled_eps0} (unsampled: {full_eps0}). Near x* the error shrinks "
          "at a rate of at most eps0 / (1 - eps0) per step (ours), here {sampled_rate}, so the sampled run takes "
          "{sampled_it} iterations instead of {full_it}; adding back the rank-2 part gives eps0 {rank2_eps0}. Why: "
          "a sample of rows estimates the Hessian only roughly, so each step corrects less of the error."),
      say("In all: {sampled_it} steps of {sampled_work} million flops against {full_it} steps of {full_work} "
          "million; on this machine's clock the sampled run reached ||x - x*|| <= 1e-10 after {sampled_ms} ms, the "
          "unsampled one after {full_ms} ms.")};
  two.expect = {"The saving is small", "costs 0.86 times the flops of an unsampled one: 44.8 million against 52 "
                "million, with 4629 rows summed (the sketch's sample included)", "eps0 is 0.474 (unsampled: ",
                "here 0.902, so the sampled run takes 24 iterations instead of 5; adding back the rank-2 part gives "
                "eps0 0.471"};
  two.invited = {{{{"d", "10"}}, {"Here sampling costs more", "costs 3.16 times the flops"}}};
  // settings (n, d, the budget, the invited d), the sketch's 32 flops, the choices, the stop
  two.given = {"2", "20000", "50", "1", "1000", "32", "0.5", "1e-10", "10"};
  s.steps.push_back(two);

  StoryStep three;
  three.title = "A Hessian from the regulariser alone";
  three.text =
      "This solver (ours) replaces the Hessian H = A^T (B + W^2) A by its regulariser's part alone, "
      "H~ = A^T W^2 A, computed once: what Algorithm 1's D becomes without B_diag. Here W = w I with w = 1. "
      "Before Run, the picture shows the loss and its two parts, the data term and the regulariser, from the start "
      "to x*. The plot follows the distance to x*.";
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
                    note("overflow", "diverged at iteration {overflow}:"), StoryMeasure::from_setting("w", "w")};
  three.answer = {
      say("Its measured eps0 is {eps0}, so the bound eps0 / (1 - eps0) on its rate near x* is {rate} (ours, step "
          "2); only a bound below 1 promises that the distance shrinks."),
      say_if("last", 10, kInf, "Here the distance grows and the method diverges: exp overflows at iteration "
                               "{overflow}. Why: the part it leaves out, A^T B A, is not small beside A^T W^2 A at "
                               "w = {w}, so a step moves by the wrong amount and can leave a larger error than it "
                               "started with; exp turns a growing x into an overflow."),
      say("Lemma C.4(2), as we read it, makes W^2 alone a good approximation when "
          "w^2 >= 100 beta + l / sigma_min(A)^2 (beta bounds the size of B, l is the Hessian's smallest eigenvalue "
          "at x*, sigma_min(A) is A's smallest singular value); the Details notes under the plots say whether it holds here.")};
  three.expect = {"the method diverges", "eps0 is 0.522, so the bound eps0 / (1 - eps0) on its rate near x* is 1.090",
                  "exp overflows at iteration 77"};
  three.given = {"2", "1", "100", "1e-10", "10"};  // w = 1, Lemma C.4's 100 beta, the choices
  s.steps.push_back(three);

  StoryStep four;
  four.title = "A stronger regulariser";
  four.text =
      "The same solver, H~ = A^T W^2 A, now with w = 12: the regulariser's part of the Hessian is 144 times what it "
      "was at w = 1. The picture before Run shows the loss's two parts. Then try w between 1 and 12 (say 1, 3 or "
      "1.5) and run again.";
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
                   StoryMeasure::from_setting("w", "w")};
  four.answer = {
      say("With w = {w}, eps0 is {eps0} and the bound eps0 / (1 - eps0) on the rate is {rate}."),
      say_if("last", 0, 1e-10, "It converges after {it} iterations."),
      say_if("last", 1e-10, kInf, "It does not converge: its distance to x* ends at {last}."),
      say_if("w", 0, 11.99, "Compare with the step's w = 12: a smaller w leaves out a data term that is larger "
                            "beside w^2, so eps0 is larger and each step corrects less."),
      say("Why: the larger w is, the smaller the part it leaves out, A^T B A, is beside A^T W^2 A, so H~ is nearly "
          "the Hessian. Lemma C.4(2)'s condition (step 3) is still 'Not met' in the Details notes: it is sufficient, not "
          "necessary. Exact Newton, also drawn, ends at {newton_last}: below about 1e-15 a distance is rounding "
          "(doubles hold about 16 digits of x*), not a further gain.")};
  four.expect = {"With w = 12, eps0 is 0.00697", "It converges after 7 iterations"};
  four.invited = {{{{"w", "3"}}, {"It converges after 15 iterations", "Compare with the step's w = 12"}},
                  {{{"w", "1.5"}}, {"It converges after 39 iterations"}},
                  {{{"w", "1"}}, {"It does not converge"}}};
  four.given = {"12", "144", "1", "2", "3", "1.5", "1e-10", "10", "1e-15", "16"};  // w; the invited w; the choices
  s.steps.push_back(four);

  StoryStep five;
  five.title = "cosh in place of exp";
  five.text =
      "Now u(x) = cosh(A x) instead of exp(A x), and d = 2, so the lab draws the loss as a map (log10 of L - L*, "
      "L* the smallest loss) with each solver's path. All three solvers start at distance r0 = 1 from the "
      "minimiser x* found by the lab. Then try r0 = 0.3.";
  five.question = "Where does each solver end, and why?";
  five.plot = "log10(L(x) - L*) around x* (d = 2), with each solver's iterates";
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
                   note("xstar", "x*: {*}||x*|| = {xstar},"),
                   StoryMeasure::from_setting("r0", "r0")};
  five.answer = {
      say("From r0 = {r0}, exact Newton ends at distance {newton_end} from x*, the approximate Newton at "
          "{diag_end} and gradient descent at {gd_end}. Their final losses minus L* are "
          "{newton_gap} (exact Newton) and {diag_gap} (approximate Newton)."),
      say("With cosh, L(-x) = L(x): -x* is a minimiser exactly as good as x*, at distance 2 ||x*|| = 2 x {xstar} "
          "from it. A solver at that distance whose loss is within 1e-9 of L* has found -x*, not failed."),
      say("Why: a Newton step jumps to the stationary point of the local quadratic model (its minimum when the "
          "Hessian is positive definite), and that point can lie in the valley of the other minimiser; gradient "
          "descent only walks downhill, so it stays in the valley it starts in. Theorem F.1 promises x* only from a "
          "good initialisation point (Definition 6.1; as we read it, within 0.1 l / M of x*, l the Hessian's "
          "smallest eigenvalue at x* and M how fast the Hessian changes); the Details notes under the plots give that radius."),
      say_if("newton_end", 0.01, kInf, "So r0 = {r0} is outside the radius where Theorem F.1 promises x*.")};
  five.expect = {"exact Newton ends at distance 2.98 from x*", "minus L* are 0 (exact Newton) and 0 (approximate Newton)", "2 ||x*|| = 2 x 1.49"};
  five.invited = {{{{"r0", "0.3"}}, {"exact Newton ends at distance 2.98 from x*", "the approximate Newton at 4.58e-14",
                                     "So r0 = 0.3 is outside the radius"}}};
  // d = 2, r0, the invited r0, the choices, the gap's bound 1e-9 and Definition 6.1's 0.1.
  five.given = {"2", "1", "0.3", "0.01", "0", "1e-9", "0.1"};
  s.steps.push_back(five);

  StoryStep six;
  six.title = "One step as in-context learning";
  six.text =
      "Corollary F.2: moving x by one step is the same as keeping x and shifting the target b to a new b~, as if "
      "the model had learned from a changed input (in-context learning). The x-axis is how far x moves; "
      "the plot shows the shift ||b~ - b|| on log-log axes, beside a bound of ours.";
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
      say("Why: b~ changes smoothly with x, so for a small move b~ - b is about the rate of change of b~ (its "
          "derivative in x) times the move: proportional to the move.")};
  six.expect = {"The log-log slope measured is 1.0000"};
  six.given = {"10"};
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
