// Index of this file
// [SECTION] Glossary
// [SECTION] The steps
//
// The mirror-descent paper as a guided story (docs/mirror.md s.1-s.4). Every step asks for a
// prediction first; its answer is rendered from the student's run (lab/story_answer.hpp) and
// checked in tests/test_story_runs.cpp.
#include "experiments/mirror/mirror_story.hpp"

namespace attnlab::mirror {

// [SECTION] Glossary

namespace {
constexpr double kInf = 1e300;
StoryMeasure note(const char* name, const char* pattern) { return StoryMeasure::from_note(name, pattern); }

std::vector<GlossaryEntry> glossary() {
  return {
      {"mirror descent", "Gradient descent measured in another geometry: for p != 2 a step grows the large and "
                         "the small entries of W differently, as the potential (1/p) ||W||_p^p says.", "Section 3"},
      {"max-margin", "The smallest W (in the l_p norm) that scores each sequence's chosen token above all its "
                     "other tokens by at least 1: the problem l_p-AttSVM.", "Section 3"},
      {"Bregman divergence", "How far W is from W' as the potential psi sees it: psi(W) minus the tangent of psi "
                             "at W', taken at W, that is psi(W) - psi(W') - <grad psi(W'), W - W'>. Never negative, "
                             "0 only when W = W'; for p = 2 it is half the squared distance.", "Definition 1"},
      {"potential", "The function psi(W) = (1/p) ||W||_p^p that mirror descent is built on: its gradient, "
                    "sign(W_ij) |W_ij|^(p-1) entry by entry, is what each step moves, and its Bregman divergence "
                    "measures distances.", "Section 3"},
      {"D_k", "The Bregman divergence between the direction of W after k steps and the max-margin solution.",
       "Section 4", true},
      {"softmax", "Turns a sequence's scores into attention weights that are positive and add up to 1.",
       "Section 2"},
      {"sparse", "A matrix with most entries (nearly) zero.", "ours"},
      {"W_mm", "The solution of the max-margin problem l_p-AttSVM: the W of least l_p norm that scores each "
               "sequence's selected token above its others by at least 1.", "Section 3", true},
      {"D_psi", "The Bregman divergence of the potential psi = (1/p) ||W||_p^p; the plots write D_k as "
                "D_psi(W_mm/||W_mm||, W_k/||W_k||), with ||.|| the l_p norm.", "Section 4"},
      {"cone", "The W whose direction is close to that of W_mm and whose norm is large enough: the paper's local "
               "result (Lemmas 28-29 of its appendix) assumes training starts there.", "appendix, Lemma 28"},
      {"log-domain direction", "A switch of the lab (log_domain): on, the lab's update, which keeps the gradient's "
                               "size apart from its direction, as a logarithm (hence the name), so that even a tiny "
                               "gradient gives a step of full size (ours); off, the update of the authors' public "
                               "code, whose steps shrink once the gradient's norm falls below eps.", "ours"},
      {"l_p geometry", "Measuring the size of W by its entrywise l_p norm, ||W||_p = (sum of |W_ij|^p)^(1/p), "
                       "instead of the usual p = 2 (the Frobenius norm): mirror descent with the potential (1/p) "
                       "||W||_p^p measures its steps by that potential's Bregman divergence, so that ||W||_p is the "
                       "size its steps pay for, and the max-margin problem looks for the W of smallest l_p norm.",
       "Section 3; ours"},
      {"eps", "A tiny constant in the authors' update, grad / (||grad|| + eps), that keeps it from dividing by "
              "zero (the authors' code); once the gradient's norm falls below eps the steps shrink with it.", "ours",
       true},
      {"s_it", "The attention probability that sequence i gives its token t (softmax of the scores).", "Section 2",
       true},
      {"W0", "The W training starts from: 0 in steps 1, 2 and 5, random entries drawn from N(0, 1) in steps 3 "
             "and 4 (the authors' code's settings).", "ours"},
      {"z_i", "The query of sequence i: a fixed vector of the data (a random unit vector in steps 1 to 4; in step 5 "
              "the sequence's token 0). Token t of sequence i scores x_t . W z_i.", "ours", true},
      {"logistic loss", "The training loss: the mean over sequences of log(1 + e^(-Y f)), with f = v . (the "
                        "attention-weighted sum of the sequence's tokens) and Y = +1 or -1 the sequence's label; it "
                        "falls as Y f grows.", "ours"},
      {"marginal cost", "What one more unit of an entry x adds to ||W||_p^p: the derivative p |x|^(p-1).", "ours"},
      {"value vector", "The vector v that turns the attended token into the output, Y v . x; in step 5 it is "
                       "trained together with W.", "Section 2"},
      {"key-query matrix", "The matrix W that scores a token against a query: token x_t of sequence i scores "
                           "x_t . W z_i (in a transformer, W stands for the product of its key and query "
                           "weights).", "ours"},
      {"unit sphere", "All the matrices of norm 1 (here the l_p norm): dividing W by its norm puts it there, so "
                      "only its direction is left.", "ours"},
      {"q-norm", "The l_q norm with 1/p + 1/q = 1: ||G||_q = (sum of |G_ij|^q)^(1/q). The update divides the "
                 "gradient by its q-norm, so each step has a fixed size.", "ours"},
      {"MD", "Short for mirror descent in the plots' legends: 'MD p=2' is the run with p = 2.", "ours"},
      {"SVM", "Support vector machine: here the max-margin problem l_p-AttSVM, whose solution is the W of least "
              "l_p norm that puts each sequence's chosen token ahead of the others by a margin of at least 1.",
       "the paper's l_p-AttSVM, main text; cited in appendix Lemmas 19-21"},
      // Walk 14: the softmax maps ring them, and the term was nowhere.
      {"support tokens", "The tokens whose constraint carries a positive weight in the SVM's dual solution: each "
                         "has margin exactly 1 to its sequence's chosen token at W_mm, and W_mm is built from "
                         "their constraints alone. Trained "
                         "attention ends with almost all its weight on the chosen token, so a support token, like "
                         "every other token, ends with almost none.",
       "ours"},
  };
}
}  // namespace

// [SECTION] The steps

Story make_story() {
  Story s;
  s.id = "mirror";
  s.result = "An attention layer trained by mirror descent for an l_p norm: where does the direction of its "
             "weights go, and does it depend on p? The paper answers for starts near its answer (appendix, "
             "Lemmas 28-29).";
  s.figure = {"mirror", "single_run_zero", {}, 1};
  s.figure_caption = "What goes in: the attention a training sequence gives its tokens before any "
                     "training: even, since W starts at zero.";
  s.glossary = glossary();

  StoryStep one;
  one.title = "The direction of W";
  one.text =
      "n = 6 sequences of T = 8 tokens; an attention layer with key-query matrix W is trained from W = 0 by mirror "
      "descent on (1/p) ||W||_p^p, one run each for p = 1.75, 2 and 3. Each p runs as many steps as in the authors' "
      "code: 1500, 2000 and 20000. Each run is compared with W_mm, the l_p max-margin solution (l_p-AttSVM, the SVM "
      "of the plots) on the tokens it selects. The first plot is D_k (D_psi in its label): the Bregman divergence "
      "between the directions W_k/||W_k|| and W_mm/||W_mm|| after k steps, for one seed. The paper's result is local (Lemmas 28-29 of its "
      "appendix): it assumes a start in a cone around W_mm's direction, and W = 0 is not in it. Ours: with the "
      "switch log-domain direction on (the lab's update) steps keep their full size; off (the authors' update) "
      "they shrink once the gradient's norm falls below eps.";
  one.question = "How close does the direction of W come to the max-margin solution, and why does the paper "
                 "measure the direction of W, not W itself?";
  one.plot = "Directional Bregman divergence to the SVM of the run's own p";
  one.shown_plots = {"Norm growth ||W_k||_p"};
  one.settings = {"mirror", "single_run_zero", {}, 1};
  one.shows = {"eta", "log_domain"};
  one.prediction = StoryPrediction::asking(
          "Before you run: at the end of its run (1500 steps), how close is the direction of W for p = 1.75 to "
          "the max-margin solution (D_k)?")
      .options({{"still far (above 0.1)", 0.1, kInf}, {"close (0.001 to 0.1)", 0.001, 0.1},
                {"very close (below 0.001)", 0.0, 0.001}})
      .measures("d175", "D_k at the end for p = 1.75");
  one.measures = {note("d175", "p=1.75: {*}final D_k against the own-p SVM: mean {d175};"),
                  note("d2", "p=2: {*}final D_k against the own-p SVM: mean {d2};"),
                  note("d3", "p=3: {*}final D_k against the own-p SVM: mean {d3};"),
                  StoryMeasure::from_cell("norm2", {"norm_p=2", "", 0.0}, "sig3"),
                  note("half2", "p=2: {*}||W_k||_p mean {half2} at k = {half_k2} (the checkpoint"),
                  note("half_k2", "p=2: {*}||W_k||_p mean {half2} at k = {half_k2} (the checkpoint"),
                  note("grow2", "p=2: {*}(the checkpoint nearest half-way) and {*} at the end, {grow2} times"),
                  StoryMeasure::from_setting("eta", "eta"), StoryMeasure::from_setting("log_domain", "log_domain"),
                  StoryMeasure::from_cell("loss3", {"loss_p=3", "", 0.0}, "sig3")};
  one.answer = {
      say("At the end of training D_k is {d175} for p = 1.75, {d2} for p = 2 and {d3} for p = 3."),
      say("Why the direction (ours): W itself has no limit. The loss falls as long as each selected token's score "
          "pulls further ahead, so no finite W is best and the norm of W can grow without bound: for p = 2, ||W_k|| "
          "is {norm2} after 2000 steps of size eta = {eta} (the plot Norm growth ||W_k||_p, below the first)."),
      // Chosen by the growth over the run's last half, which the plot shows (walk 6: not "rising" when flat).
      say_if("grow2", 1.2, kInf, "It is still rising: {grow2} times what it was at k = {half_k2} ({half2}), about "
                                 "half-way."),
      say_if("grow2", 0, 1.1999, "It has almost stopped growing: it was already {half2} at k = {half_k2}, about "
                                 "half-way, and is only {grow2} times that at the end, as this update's steps shrink."),
      say("The dashed curves (ours) are (eta k)^(1/(p-1)), one per p: each step moves ||W||_p^(p-1) by at most "
          "eta (its steps are normalised), so from W = 0 the norm after k steps is never above its dashed curve, and "
          "runs along it while the steps keep pointing the same way."),
      say("Only the direction W_k/||W_k||, a point on the unit sphere, can settle, and D_k measures how far it is "
          "from W_mm's."),
      say_at_step("log_domain", "This was the lab's update (log-domain direction on). Then switch log-domain "
                                "direction off and run again: the authors' steps shrink once the gradient's norm "
                                "falls below eps, so expect D_k for p = 1.75 and 2 to end higher and ||W_k|| for "
                                "p = 2 to end lower."),
      say_if("log_domain", 0, 0, "This was the authors' update (log-domain direction off): near the end its steps "
                                 "shrink with the gradient, so D_k ends higher than with the lab's update for p = 1.75 "
                                 "and 2 ({d175} and {d2} here), and ||W_k|| for p = 2 ends lower. "
                                 // Walk 22: p = 3's D_k did not move, unexplained.
                                 "For p = 3 the norm grows only like the square root of eta k, so after its 20000 "
                                 "steps the loss is still {loss3}: its gradient stays far above eps, and the authors' "
                                 "update takes the lab's steps (D_k {d3} either way)."),
      say("D_k keeps shrinking as long as the update keeps moving.")};
  // The values measured at the step's settings (seed 1), as docs/mirror.md's claims table states them.
  one.expect = {"the lab's update", "D_k is 0.000255 for p = 1.75, 0.00092 for p = 2 and 0.00307 for p = 3",
                "||W_k|| is 198 after 2000", "It is still rising: 1.98 times what it was at k = 1021 (99.8), about half-way"};
  one.invited = {{{{"log_domain", "false"}},
                  {"the authors' update (log-domain direction off)", "D_k is 0.00367 for p = 1.75, 0.00253 for p = 2",
                   "(0.00367 and 0.00253 here), and ||W_k|| for p = 2 ends lower", "||W_k|| is 111 after 2000", "the loss is still 0.493: its gradient stays far above eps",
                   "It has almost stopped growing: it was already 98.5 at k = 1021"}}};
  // Settings, 1/p, the steps per p (the authors' code's), the choices.
  one.given = {"6", "8", "0", "1", "1.75", "2", "3", "2000", "1500", "20000", "0.1", "0.001"};
  s.steps.push_back(one);

  StoryStep two;
  two.title = "Where does attention go?";
  two.text =
      "The same training with p = 2 only, now watching where each sequence's attention goes as W grows. Token t of "
      "sequence i, x_t, scores x_t . W z_i, with z_i the sequence's query (a fixed random unit vector of the data); "
      "let s_it be the softmax of these scores, the attention probability sequence i gives its token t. The plot "
      "'Softmax concentration' shows the largest of them, max_t s_it, averaged over the sequences (its mean).";
  two.question = "How does the largest attention probability change as W grows, and why?";
  two.plot = "Softmax concentration";
  two.settings = {"mirror", "single_run_zero", {{"sweep", "p=2"}}, 1};
  two.shows = {"eta"};
  two.prediction = StoryPrediction::asking(
          "Before you run: after 2000 steps, how much attention does a sequence give to the token it attends to "
          "most?")
      .options({{"spread out (under 50%)", 0.0, 0.5},
                {"mostly one token (50% to 99%)", 0.5, 0.99},
                {"nearly all (over 99%)", 0.99, 1.0}})
      .measures("prob", "the largest attention probability at k = 2000")
      .in_percent()
      .hiding({"one token per sequence", "picks one"});
  // Two decimals: a value beside the choices' edge 99% reads on its side of it (walk 6: 0.9902 showed as 99.0%).
  two.measures = {StoryMeasure::from_cell("prob", {"max_prob_p=2", "k", 2000}, "0.00%"),
                  StoryMeasure::from_cell("p165", {"max_prob_p=2", "k", 165}, "0.0%"),
                  StoryMeasure::from_cell("p1470", {"max_prob_p=2", "k", 1470}, "0.0%"),
                  StoryMeasure::from_setting("eta", "eta")};
  two.answer = {
      say("After 2000 steps the token a sequence attends to most gets {prob} of its attention, on average."),
      say_if("prob", 0.99995, 1, "That is rounded to two decimals: the other tokens of a sequence share less than "
                                 "0.005% of its attention."),
      say_if("prob", 0.99, 1, "Attention ends on one token per sequence, the tokens the max-margin problem is then "
                              "solved on."),
      say("Why: the scores are x_t . W z_i, so they grow with W (step 1: its norm grows without bound), and the "
          "gaps between them grow too; softmax gives token t a weight proportional to e^score, so a gap of g "
          "between the top two scores makes the top one e^g times heavier: ever more weight on the largest."),
      // Walk 20: at a smaller eta the curve rose later and the answer did not say why.
      say("How soon it rises is set by eta k, the most the norm of W can have grown after k steps (step 1's dashed "
          "curve): with eta = {eta} the largest probability was {p165} at k = 165."),
      say_if("prob", 0, 0.99, "It was {p1470} at k = 1470 and is {prob} at k = 2000, still on its way: with a smaller "
                              "eta, W grows more slowly, the gaps between the scores open later, and one token takes "
                              "nearly all the attention only after more steps."),
      say_at_step("eta", "Then set eta to 0.005, 20 times smaller, and run again: expect the same rise about 20 times "
                         "later, so that after 2000 steps one token holds less of the attention.")};
  two.expect = {"gets 100.00% of its attention", "That is rounded to two decimals",
                "Attention ends on one token per sequence", "with eta = 0.1 the largest probability was 96.8% at k = 165"};
  two.invited = {{{{"eta", "0.005"}}, {"gets 76.77% of its attention", "with eta = 0.005 the largest probability was "
                                       "16.1% at k = 165", "It was 59.5% at k = 1470 and is 76.77% at k = 2000"}}};
  two.given = {"2", "2000", "1", "165", "1470", "0.005", "20", "0.005%"};  // settings: p, the steps; step 1; checkpoints
  s.steps.push_back(two);

  StoryStep three;
  three.title = "Which solution does each p find?";
  three.text =
      "The paper's synthetic-data figure (in its main text; the settings are the authors' code's) at 5 seeds "
      "instead of 100. Each run starts from a random W0 (entries drawn from N(0, 1)), not from 0 as in steps 1 "
      "and 2, so the picture of the inputs shows a start whose attention is already uneven. SVM p' is W_mm for "
      "the norm p' = 1.75, 2 or 3; the 3 x 3 plot compares the runs of each p with every SVM p', each curve the "
      "mean of D_k over the seeds. The legend's 'MD p=2 vs SVM p=3' is the p = 2 runs (MD: mirror descent) "
      "against SVM p' = 3. Each p against its own SVM is drawn strong, and so are the p = 1.75 runs' curves "
      "against the other two SVMs; the rest are faint. D_k always uses the "
      "potential of the run's own p. The count of runs asked below is in the run's notes (under Details, below the "
      "plots).";
  three.question = "Which max-margin solution does training with each p end closest to, and what would explain it?";
  three.plot = "Each p against every SVM p' (the paper's 3 x 3)";
  three.settings = {"mirror", "synthetic_figure", {{"seeds", "5"}}, 1};
  three.shows = {"seeds"};
  three.prediction = StoryPrediction::asking(
          "Before you run: in what share of the runs with p = 1.75 (5 runs here) does training end closest to the "
          "p = 1.75 solution, rather than to the p' = 2 or 3 one?")
      // A share, so that the choices hold at any number of seeds (walk 12: 3 of 3 was graded "most (3 or 4)").
      .options({{"few (under half)", 0.0, 0.4999}, {"most (half or more, not all)", 0.5, 0.9999}, {"all", 1.0, 1.0}})
      .measures("share175", "the share of p = 1.75 runs closest to their own solution")
      .in_percent();
  three.measures = {note("share175", "p=1.75: {*}own-p SVM the closest of p' = 1.75, 2, 3 in {*} of {*} runs ({share175})"),
                    note("c175", "p=1.75: {*}own-p SVM the closest of p' = 1.75, 2, 3 in {c175} of"),
                    note("c2", "p=2: {*}own-p SVM the closest of p' = 1.75, 2, 3 in {c2} of"),
                    note("c3", "p=3: {*}own-p SVM the closest of p' = 1.75, 2, 3 in {c3} of"),
                    StoryMeasure::from_cell("own175", {"D_p=1.75_svm_p=1.75", "", 0.0}, "sig3"),
                    StoryMeasure::from_cell("to2_175", {"D_p=1.75_svm_p=2", "", 0.0}, "sig3"),
                    StoryMeasure::from_cell("to3_175", {"D_p=1.75_svm_p=3", "", 0.0}, "sig3"),
                    StoryMeasure::from_setting("seeds", "seeds")};
  three.answer = {
      say("Training ended closest to the max-margin solution of its own p in {c175} of {seeds} runs for p = 1.75, "
          "{c2} for p = 2 and {c3} for p = 3 (the notes under Details). The plot's means agree: the p = 1.75 runs "
          "end at D_k = {own175} from their own solution, {to2_175} from the p' = 2 one and {to3_175} from the "
          "p' = 3 one."),
      // Walk 21: the why restated the result; now the mechanism, in a student's words.
      // Checked by a reviewer with the appendix beside it (the convergence theorem is in the main text).
      say("Why (ours, the idea behind the paper's result): mirror descent moves the signed powers "
          "sign(W_ij) |W_ij|^(p-1), not the entries of W, and these powers have q-norm ||W||_p^(p-1), so each step "
          "can grow ||W||_p^(p-1) by at most eta: the size a run pays for is the l_p norm. Once each sequence's "
          "selected token wins, the loss falls only as the margins grow, and a run that grows its smallest margin "
          "while paying in l_p norm heads for the direction with the largest smallest margin per unit of l_p norm: "
          "by definition the direction of W_mm of that p. Another p prices size otherwise (p near 1 makes a few "
          "large entries cheap, p = 3 many middling ones: the next step), so it heads elsewhere. The paper proves "
          "this convergence in its main text (the lab works from its appendix) for small un-normalised steps from a start in a "
          "cone, a direction close to W_mm's and a large enough norm; in its appendix Lemma 28 keeps such runs in "
          "a wider cone and Lemma 29 gives the rate. These runs take normalised steps from a random W0, not "
          "necessarily in that cone.")};
  three.expect = {"in 5 of 5 runs for p = 1.75, 5 for p = 2 and 5 for p = 3"};
  three.invited = {{{{"seeds", "3"}}, {"in 3 of 3 runs for p = 1.75"}}};  // a student's own change (walk 12)
  three.given = {"5", "100", "3", "1.75", "2", "0", "1"};  // settings: seeds, the paper's seeds, 3 x 3, the p's
  s.steps.push_back(three);

  StoryStep four;
  four.title = "Near p = 1";
  four.text =
      "One run each for p = 1.1, 2 and 3 (d = 10, 3000 steps), each from a random W0 (entries drawn from N(0, 1)) "
      "as in step 3. The plot 'Sparsity of W_k at the end, per p' "
      "counts, for each p, the entries of W_k / ||W_k|| (W_k scaled to l_p norm 1; the share does not depend on "
      "the scale) below 1% of the largest; the heatmaps of the results show W_k itself. A sparse W has most of "
      "its entries near zero. These settings and the 1% cut-off are ours, not the paper's.";
  four.question = "How does p change the share of entries of W that end up near zero, and why?";
  four.plot = "Sparsity of W_k at the end, per p";
  four.settings = {"mirror", "sparsity", {{"seeds", "1"}, {"d", "10"}}, 1};
  four.shows = {};
  four.prediction = StoryPrediction::asking(
          "Before you run: for p = 1.1, what share of the entries of W end up below 1% of the largest?")
      .options({{"few (under 20%)", 0.0, 0.2}, {"some (20% to 60%)", 0.2, 0.6}, {"most (over 60%)", 0.6, 1.0}})
      .measures("sparse11", "the share of entries of W below 1% of the largest, p = 1.1")
      .in_percent();
  four.measures = {note("sparse11", "p=1.1: {*}; {sparse11} of entries of W_k below 1% of the largest"),
                   note("sparse2", "p=2: {*}; {sparse2} of entries of W_k below 1% of the largest"),
                   note("sparse3", "p=3: {*}; {sparse3} of entries of W_k below 1% of the largest")};
  four.answer = {
      say("For p = 1.1, {sparse11} of the entries of W_k are below 1% of the largest; for p = 2, {sparse2}."),
      // This step shows no setting, so its run is the only one a student sees: p = 3 leaves no entry below.
      say_if("sparse3", 0, 0, "For p = 3, not one entry is: the nearer p is to 1, the sparser W."),
      say("Why (ours): the marginal cost of an entry x, what one more unit of it adds to ||W||_p^p, is p |x|^(p-1), "
          "the derivative of |x|^p. At p = 2 it is 2|x|: 0.02 at |x| = 0.01 and 2 at |x| = 1, a hundred times "
          "more, so a small entry is nearly free to grow and the cheapest W spreads its weight over many entries. "
          "At p = 1.1 it is 1.1 |x|^0.1: 0.69 at 0.01 and 1.10 at 1, only 1.6 times more, so a small entry costs "
          "almost as much per unit as a large one; spreading saves little, and the cheapest W that separates the "
          "tokens puts its weight on the few entries that add the most margin. At p = 3 it is 3 |x|^2: 0.0003 at 0.01 "
          "and 3 at 1, ten thousand times more, so spreading pays even more than at p = 2.")};
  four.expect = {"For p = 1.1, 69% of the entries", "for p = 2, 2%. For p = 3, not one entry is"};
  // Settings, the measure's 1%, p - 1 and p near 1, and the marginal cost p |x|^(p-1) at |x| = 0.01 and 1 (p = 2:
  // 0.02, 2; p = 1.1: 0.69, 1.10, a ratio of 1.6), from its formula.
  four.given = {"1", "1.1", "2", "3", "10", "3000", "1%", "0.69", "0.01", "1.10", "0.02", "0.1", "1.6", "0", "0.0003"};
  s.steps.push_back(four);

  StoryStep five;
  five.title = "Training W and v together";
  five.text =
      "The two-sequence toy of the authors' public code, trained by mirror descent jointly in W and the value "
      "vector v, both from zero, on the logistic loss. Sequence 0 (label Y = +1) has tokens 0, 1, 2 at (-2.7, 1.2), "
      "(1.4, 2.1) and (1.3, -0.1); sequence 1 (Y = -1) at (0.4, -2.2), (-1.1, -0.4) and (0.9, 0.1). Each "
      "sequence's query z is its token 0, so the picture of the inputs draws them on one point. The plot 'Selected "
      "token of each sequence at the end, per p (seed 1)' shows the token each sequence ends on, counted from 0. "
      "Ours: the lab's log-domain update (the switch log-domain direction).";
  five.question = "Why can the choice of p change which token a sequence selects?";
  five.plot = "Selected token of each sequence at the end, per p (seed 1)";
  five.settings = {"mirror", "joint_toy", {}, 1};
  five.shows = {"log_domain"};
  five.prediction = StoryPrediction::asking("Before you run: which token does sequence 0 end on for p = 3?")
      .options({{"token 0", 0, 0}, {"token 1", 1, 1}, {"token 2", 2, 2}})
      .measures("a3", "the token sequence 0 ends on, p = 3");
  five.measures = {note("a3", "p=3: selected tokens [{a3},"),
                   note("tok175", "p=1.75: selected tokens {tok175} (0-indexed)"),
                   note("tok2", "p=2: selected tokens {tok2} (0-indexed)"),
                   note("tok3", "p=3: selected tokens {tok3} (0-indexed)"),
                   note("v1", "p=1.75: selected tokens {*}v = ({v1}, {v2})"),
                   note("v2", "p=1.75: selected tokens {*}v = ({v1}, {v2})"),
                   note("w1", "p=3: selected tokens {*}v = ({w1}, {w2})"),
                   note("w2", "p=3: selected tokens {*}v = ({w1}, {w2})"),
                   note("u1", "p=2: selected tokens {*}v = ({u1}, {u2})"),
                   note("u2", "p=2: selected tokens {*}v = ({u1}, {u2})"),
                   StoryMeasure::from_setting("log_domain", "log_domain")};
  five.answer = {
      say("For p = 3 sequence 0 ends on token {a3}. The tokens of (sequence 0, sequence 1) are {tok175} for "
          "p = 1.75, {tok2} for p = 2 and {tok3} for p = 3."),
      say_at_step("log_domain", "This was the lab's log-domain update. Then switch log-domain direction off and run "
                                "again: its steps shrink near the end, so expect the same tokens but a v many times "
                                "shorter."),
      say_if("log_domain", 0, 0, "This was the authors' update (log-domain direction off): its steps shrink near the "
                                 "end, so v grows less, to ({v1}, {v2}) for p = 1.75, while the tokens are those of "
                                 "the lab's update."),
      say("Why (ours): W moves a sequence's attention towards the token that v scores highest, Y v . x_t (the "
          "token scores of the paper's Definition 3), and v is trained in the same l_p geometry. Sequence 1 (Y = -1) "
          "ends on its token 0 for every p: with v = (v0, v1) its token 0 scores -0.4 v0 + 2.2 v1, so a large second "
          "entry of v serves it. "
          "For sequence 0 token 1 is ahead on both entries while both are positive: per unit of the first entry "
          "token 1 gains 1.4 and token 0 loses 2.7, per unit of the second they gain 2.1 and 1.2. Only a first "
          "entry below zero, large enough beside the second, puts token 0 ahead. "
          "For p = 1.75 v ends at ({v1}, {v2}) and for p = 2 at ({u1}, {u2}): below p = 3 a large entry is cheap "
          "enough to put nearly all of v into one entry, the first stays small and positive, and token 1 scores 1.4 x ({v1}) + 2.1 x "
          "({v2}), more than token 0's -2.7 x ({v1}) + 1.2 x ({v2}). For p = 3 a large entry costs more (|x|^3), so "
          "v keeps its two entries comparable, ({w1}, {w2}): its first entry is negative, which favours token 0, "
          "-2.7 x ({w1}) + 1.2 x ({w2}), over token 1's 1.4 x ({w1}) + 2.1 x ({w2}); and once sequence 0 attends to "
          "token 0, raising its score pushes the first entry further below zero. Which token sequence 0 takes is "
          "settled in the first few steps, while v is still small (the run's notes, under Details, give when).")};
  five.expect = {"the lab's log-domain update", "For p = 3 sequence 0 ends on token 0. The tokens of (sequence 0, "
                 "sequence 1) are [1, 0] for p = 1.75, [1, 0] for p = 2 and [0, 0] for p = 3", "v ends at (19.3, 342)"};
  five.invited = {{{{"log_domain", "false"}}, {"This was the authors' update", "to (1.44, 20) for p = 1.75"}}};
  // The tokens' indices (0-indexed), the p's, the toy's labels and sequence 0's tokens (the authors' code's).
  five.given = {"0", "1", "2", "1.75", "3", "-1", "+1", "-2.7", "2.7", "1.2", "1.4", "2.1", "1.3", "-0.1", "0.1",
                "0.4", "-2.2", "2.2", "-1.1", "1.1", "-0.4", "0.9"};
  s.steps.push_back(five);
  s.summary = {
      say("Mirror descent for each p turned the direction of W towards the l_p max-margin solution of the tokens "
          "it selects, while attention concentrated on the selected tokens. Each p ended nearest its own "
          "solution and a p near 1 gave a sparse W."),
      say("With v trained too, the tokens {tok175} won for p = 1.75 and {tok3} for p = 3 in your last run.")};
  s.summary_given = {"1", "1.75", "3"};  // p near 1, the p's
  return s;
}

}  // namespace attnlab::mirror
