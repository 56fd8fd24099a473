// The separation paper as a guided story (docs/separation.md s.1-s.4; each claim's source is in its
// section "Claims the lab states"). Every step asks for a prediction first; its answer is rendered
// from the student's run (lab/story_answer.hpp) and checked in tests/test_story_runs.cpp.
//
// Index of this file
// [SECTION] Glossary
// [SECTION] Steps
#include "experiments/separation/separation_story.hpp"

namespace attnlab::separation {

// [SECTION] Glossary

namespace {
constexpr double kInf = 1e300;

StoryMeasure cell(const char* name, const char* column, const char* at, double value, const char* format = "0.0%") {
  return StoryMeasure::from_cell(name, {column, at, value}, format);
}

std::vector<GlossaryEntry> glossary() {
  return {
      {"softmax", "Turns a row of scores into weights that are positive and add up to 1; a score far above "
                  "the others takes almost all the weight.", "Section 2"},
      {"linear attention", "Weights proportional to the scores themselves: one large score moves the weights "
                           "only a little.", "Section 2"},
      {"sign pattern", "A random list of +1 and -1, one per position; the network compares its attention "
                       "weights with a few of them.", "Definition 3.5"},
      {"fires", "A network fires when its output F is above 0: it says 'this input hides a strong token'. In the "
                "toy model (steps 1 and 2) that is when one sign pattern's agreement with the attention weights "
                "passes the threshold tau; in the layers (steps 3 to 5) when one readout column's signed sum of an "
                "output row passes tau.", "Definitions 3.5, C.2 and C.6"},
      {"tau", "The threshold a network's agreement must pass to fire.", "Definition 3.5", true},
      {"delta", "The chance of failure a theorem allows: the network answers right with probability at least "
                "1 - delta. The readout's width m grows with log(n / delta), so a smaller delta needs more columns.",
       "Theorem F.5, Section F.6", true},
      {"readout", "The m sign patterns the network reads its attention with (in the layers: m columns of d random "
                  "signs, one sign per entry of an output row); m is its width.", "Definitions 3.5 and C.6"},
      {"D0 and D1", "The two datasets: in D1 one token, at a random place, has a much larger score; in the toy "
                    "model D0 has none, in the layers (steps 3 to 5) D0's planted token is weak (strength a0 < 0.1).",
       "Definitions 3.8, D.1 and F.1"},
      {"success", "A trial succeeds when softmax fires on its D1 input and linear attention does not, and neither "
                  "fires on its D0 input: softmax tells the two apart and linear attention does not.",
       "the event E_success, Sections 7.1, 7.2 and F.6"},
      {"Wilson 95%", "The bars around each point: a range that holds the true rate in 95 of 100 such experiments; "
                     "it is wider when fewer trials were run.", "ours"},
      {"F > 0", "F is the network's output: 0 when no sign pattern (in the layers: no readout column) passes tau, "
                "above 0 when one does, so F > 0 means it fires.", "Definitions 3.5 and C.6"},
      {"agreement", "In the toy model: the sum over all positions of attention weight times the pattern's sign, "
                    "near +1 or -1 when one weight is nearly all, near 0 when the weights are spread. The layers "
                    "compare a signed sum of an output row instead (see 'signed sum').", "Definition 3.5"},
      {"signed sum", "In the layers (steps 3 to 5): an output row's entries, each multiplied by the readout column's "
                     "sign (+1 or -1) for that entry, added up.", "Definitions C.2 and C.6"},
      {"output row", "In the layers: a token's output, the attention-weighted sum of the value rows (here the rows "
                     "of A, or the key rows in cross-attention).", "Definitions C.1 and C.4"},
      {"class column", "In the layers, each token belongs to one class and has a positive entry in that class's "
                       "column, 0 in the others: in self-attention one of d - 2 classes, entry b sqrt(log n) "
                       "(Definition D.1); in cross-attention a key is in one of d - 1 classes, entry 1 "
                       "(Definition F.1).", "Definitions D.1 and F.1"},
      {"X = I", "The tokens' features are the rows of the identity matrix: token i is the i-th unit vector.",
       "Section 7.2.1"},
      {"planted row", "The row of the attention matrix that belongs to the planted (strong) token.", "Definition D.1"},
      {"cross-attention", "Attention where the queries come from one sequence and the keys from another.",
       "Definition F.1"},
      {"X = 1", "Every entry of the key-query matrix X is 1 (Section 7.2.2, Fig. 5; Theorem D.5). Ours: the "
                "score of two tokens is then the product of their row sums, so on D1 every row puts most weight "
                "on the planted token; on D0 rows are near-uniform.", "Section 7.2.2, Theorem D.5; ours"},
      {"a1", "The planted token's strength in D1 (a0, below 0.1, in D0). In self-attention (steps 3 and 5) its "
             "entry in the planted column is a1 sqrt(log n); in cross-attention (step 4) the planted key's score is "
             "(1 + a1) log n against log n for the other keys. The larger a1, the larger the planted token's score "
             "and the more weight softmax gives it.",
       "Definitions D.1 and F.1, Section 7.2.1", true},
      {"j3", "The place of the planted token (strong in D1, weak in D0); the pictures of the inputs mark its row.",
       "Definitions D.1 and F.1"},
      {"j2", "In cross-attention, the one query row that sees the planted key j3; the pictures mark it.",
       "Definition F.1"},
      {"planted-row law", "Ours: q, the chance that one readout column fires on the planted row (counted from "
                          "that row's softmax weights); over m columns 1 - (1 - q)^m, the dashed curve.", "ours"},
      {"tokens left out", "The pictures of the inputs show only some of the n rows; a line marks where rows "
                          "between the shown slices are left out.", "ours"},
  };
}
}  // namespace

// [SECTION] Steps

Story make_story() {
  Story s;
  s.id = "separation";
  s.result = "A tiny attention network reads inputs that hide one strong token and inputs that do not. Can "
             "it tell them apart with softmax attention, and with linear attention? The paper proves an answer "
             "for each (Sections 3 to 5).";
  s.figure = {"separation.toy", "fig3b", {{"sweep", "m=1:12:1"}}, 1};
  s.figure_caption = "What goes in: the scores of one D1 input, with one planted token, and of one D0 input, "
                     "with none. The first step asks what each network makes of them.";
  s.glossary = glossary();

  StoryStep one;
  one.title = "Two datasets, two networks";
  one.text =
      "The paper's toy model (Definition 3.8; n = 1000 as in its Fig. 3b). In dataset D0 every score v_i (i = 1 "
      "to n) lies between log n and 1.4 log n; D1 is the same, except that one score, at a random place, is 4 log n. A "
      "network turns the scores into attention weights (softmax or linear), compares them with m random sign "
      "patterns and fires (its output F > 0) when the agreement of one pattern with the weights passes a threshold tau (Definition "
      "3.5; ours: tau = 0.25, the paper fixes none for this model). A trial succeeds when softmax fires on D1 "
      "and no other case fires. The x-axis is m, from 1 to 12; the dashed curve is 1 - 2^-m (the proof of "
      "Lemma 5.2); the bars are Wilson 95% ranges. In the second plot, a legend note 'identical to ...' says where "
      "one curve lies on another and hides it.";
  one.question = "Why does one more sign pattern halve softmax's chance of missing the strong score, and what decides "
                 "whether linear attention fires?";
  one.plot = "Success rate";
  one.settings = {"separation.toy", "fig3b", {{"sweep", "m=1:12:1"}, {"trials", "1000"}}, 1};
  one.shows = {"n", "tau"};
  one.prediction = StoryPrediction::asking(
          "Before you run: as the number m of sign patterns grows from 1 to 12, will the linear network ever fire "
          "on a D1 input?")
      // The bounds said in the labels (walk 15: 88.9% graded "some" with no bound on screen).
      .options({{"never", 0.0, 0.0}, {"on some D1 inputs (90% or less)", 1e-12, 0.9},
                {"on almost all of them (over 90%)", 0.9, 1.0}})
      .measures("lin12", "the linear network fired on D1 inputs at m = 12")
      .in_percent()
      .hiding({"neither", "cannot tell"});
  one.measures = {cell("exp1", "exp_d1", "m", 1), cell("exp8", "exp_d1", "m", 8), cell("theory8", "theory", "m", 8),
                  cell("lin12", "lin_d1", "m", 12), cell("lin_d0_12", "lin_d0", "m", 12),
                  cell("success12", "success_rate", "m", 12), cell("theory12", "theory", "m", 12),
                  cell("exp_d0_12", "exp_d0", "m", 12), StoryMeasure::from_setting("n", "n"),
                  StoryMeasure::from_setting("tau", "tau")};
  one.answer = {
      say("Softmax fired on {exp1} of D1 inputs at m = 1 and on {exp8} at m = 8 (the curve 1 - 2^-m: {theory8})."),
      say("Why: softmax puts nearly all its weight on the strong score, so a pattern's agreement is about its sign "
          "there, +1 or -1: each pattern fires with probability 1/2, and m patterns all miss with probability "
          "1/2 x ... x 1/2 = 2^-m."),
      say_if("lin12", 0, 0, "Linear attention fired on no D1 input, even at m = 12: it cannot tell D1 from D0. It "
                            "spreads its weight over all n = {n} scores, about 1/n each, and n random signs "
                            "weighted 1/n add up to about 1/sqrt(n), far below tau = {tau}. Then set n to 100 and "
                            "run again: 1/sqrt(100) = 0.1 is nearer tau, so expect linear attention to fire on a few "
                            "percent of D1 inputs at m = 12, and success to end below the curve."),
      say_if("lin12", 1e-12, 1, "Linear attention fired on {lin12} of D1 inputs at m = 12 (and on {lin_d0_12} of D0): "
                                "its weights are about 1/n each, and n random signs weighted 1/n add up to about "
                                "1/sqrt(n), which at n = {n} is close enough to tau = {tau} that on those inputs "
                                "(the shares above) the largest of the m patterns' sums passes it, on D0 as on D1. Softmax fires on {exp_d0_12} of D0 "
                                "inputs at m = 12 too, so success there is {success12}, below the curve's {theory12}.")};
  // The values measured at the step's settings (seed 1), as docs/separation.md's claims table states them.
  one.expect = {"fired on no D1 input", "on 47.2% of D1 inputs at m = 1 and on 99.5% at m = 8 (the curve 1 - 2^-m: 99.6%)"};
  one.invited = {{{{"n", "100"}}, {"Linear attention fired on 8.2% of D1 inputs at m = 12", "at n = 100 is close enough to tau = 0.25",
                                    "so success there is 83.3%, below the curve's 100.0%"}}};
  one.given = {"1000", "1.4", "4", "0.25", "1", "12", "2", "8", "1/2", "100", "95%", "0", "0.1", "90%"};  // 90%: the choices' bound  // 1/sqrt(100) = 0.1  // settings; 1 - 2^-m; m = 1, 8, 12
  s.steps.push_back(one);

  StoryStep two;
  two.title = "How low can the threshold go?";
  two.text =
      "Now the x-axis is the threshold tau, from 0.02 to 0.3 (n = 1000, m = log n = 7); the plot's F > 0 means the "
      "network fires. The paper fixes no tau for the toy model; that its argument needs tau <= 1/4 is ours, read from "
      "Lemmas 4.2 and 5.2 (Lemma 4.2 proves softmax's agreement on D1 is at least 1/4 in size). On D0 the weights "
      "are spread, so an agreement is a sum of many small signed weights. The plot shows how often each network fires "
      "on D0 and on D1; a legend note 'on top of ...' or 'identical to ...' says where one curve lies on another and "
      "hides it.";
  two.question = "What happens to success as tau falls from 0.3 to 0.02, and why?";
  two.plot = "How often each network fires";
  two.settings = {"separation.toy", "tau_sweep", {{"sweep", "tau=0.02:0.3:0.02"}, {"trials", "300"}}, 1};
  two.shows = {"n", "trials"};
  two.prediction = StoryPrediction::asking("Before you run: at tau = 0.04, how often does softmax fire on a D0 input?")
      .options({{"rarely (under 10%)", 0.0, 0.1}, {"sometimes (10% to 50%)", 0.1, 0.5}, {"mostly (over 50%)", 0.5, 1.0}})
      .measures("exp_d0_04", "softmax fired on D0 inputs at tau = 0.04")
      .in_percent();
  two.measures = {cell("exp_d0_04", "exp_d0", "tau", 0.04), cell("lin_d0_04", "lin_d0", "tau", 0.04),
                  cell("lin_d1_04", "lin_d1", "tau", 0.04), cell("success_04", "success_rate", "tau", 0.04),
                  cell("success_08", "success_rate", "tau", 0.08), cell("success_12", "success_rate", "tau", 0.12),
                  cell("success_16", "success_rate", "tau", 0.16), cell("success_30", "success_rate", "tau", 0.3),
                  cell("d0_08", "exp_d0", "tau", 0.08), cell("d0_12", "exp_d0", "tau", 0.12),
                  cell("d0_16", "exp_d0", "tau", 0.16), cell("d1_30", "exp_d1", "tau", 0.3),
                  cell("d0_30", "exp_d0", "tau", 0.3), cell("m", "m", "tau", 0.04, "12"),
                  StoryMeasure::from_setting("n", "n")};
  two.answer = {
      say("With n = {n}, m = log n = {m} sign patterns. A low threshold hurts: at tau = 0.04 softmax fires on {exp_d0_04} of D0 inputs, linear on {lin_d0_04} "
          "of D0 and {lin_d1_04} of D1, and success is only {success_04}. Going up, success is {success_08} at "
          "tau = 0.08, {success_12} at 0.12 and {success_16} at 0.16, while softmax fires on {d0_08}, {d0_12} and "
          "{d0_16} of D0 inputs there."),
      // Walk 12: at n = 100 D0 fires at every tau, so "where D0 first fires" only fits a run where it falls silent.
      say_if("d0_16", 0, 0, "It starts to hurt at the tau where D0 first fires: here softmax is silent on D0 from "
                            "tau = 0.16 up, so the hurt starts below 0.16 and grows fast below 0.1."),
      say_if("d0_16", 1e-12, 1, "Even at tau = 0.16 softmax fires on {d0_16} of D0 inputs, and at tau = 0.3 on "
                                "{d0_30}; success is {success_16} at 0.16 and {success_30} at 0.3: with n = {n} "
                                "scores the weights are larger, so are D0's agreements (about 1/sqrt(n)), and it "
                                "hurts from a higher tau."),
      say("Why: on D0 both networks spread their weight, so their agreement with a sign pattern is small but not "
          "zero, and a low threshold lets it through. At tau = 0.3, above 1/4, softmax still fires on {d1_30} of "
          "D1 (success {success_30}): 1/4 is only what Lemma 4.2 proves; in fact (ours, from Definition 3.8) the "
          "strong score takes all but about n^-1.6 of the weight (each of the other n - 1 weights is at most "
          "e^(1.4 log n) / e^(4 log n) = n^-2.6 times the strong score's), so the agreement is nearly +1 or -1, and "
          "softmax misses a D1 input only when all m = {m} patterns have a minus at the strong score: 2^-m, as in "
          "step 1. Linear attention's two "
          "curves nearly coincide ({lin_d0_04} on D0 and {lin_d1_04} on D1 at tau = 0.04): it treats D0 and D1 alike."),
      say_at_step("n", "Then set n to 100 and run again: D0's agreement is about 1/sqrt(n), 0.1 instead of "
                       "0.03, so expect softmax to keep firing on D0 up to a tau about 3 times higher, and "
                            "success to stay lower at every tau.")};
  two.expect = {"softmax is silent on D0 from tau = 0.16 up", "softmax fires on 69.0% of D0 inputs, linear on 50.7% "
                "of D0 and 51.0% of D1, and success is only 24.7%", "99.0% at 0.16", "softmax still fires on 99.0% of D1"};
  two.invited = {{{{"n", "100"}}, {"With n = 100, m = log n = 5 sign patterns", "Even at tau = 0.16 softmax fires on 34.0% of D0 inputs, and at tau = 0.3 on "
                                    "2.3%; success is 55.3% at 0.16 and 94.0% at 0.3"}}};
  // The swept tau and the ones read, Lemma 4.2's bound, m = log n, the invited n, n^4 / ((n - 1) n^1.4).
  // e^(1.4 log n) / e^(4 log n) = n^-2.6; 1/sqrt(n) = 0.1 and 0.03 at n = 100 and 1000, 3 times apart.
  two.given = {"0.02", "0.3", "1/4", "0.04", "0.16", "7", "0.08", "0.12", "0.1", "100", "1.6", "1", "0", "2",
               "1000", "1.4", "4", "2.6", "0.03", "3"};
  s.steps.push_back(two);

  StoryStep three;
  three.title = "A real self-attention layer (Fig. 4c)";
  three.text =
      "The paper then builds a full self-attention layer (Definition D.1; its Fig. 4c: X = I, the identity, 100 "
      "trials per point as in Section 7.2.1). It has n = 200 tokens of d = 22 dimensions, one matrix A serving "
      "as queries, keys and values. A token's row has b sqrt(log n) in its class column (one of d - 2 = 20 "
      "classes), c sqrt(log n) in a constant column and, for the planted token j3 only, a sqrt(log n) in the "
      "planted column: a = a1 = 1.2 in D1, a = a0 = 0.01 in D0; b = 0.2, c = 0.8 (Section 7.2.1). A row's output "
      "is the attention-weighted sum of the rows of A; a readout column of d random signs fires on it when the "
      "signed sum of the output row passes tau = (c + 0.1) sqrt(log n) (Theorem E.4). The x-axis is the readout "
      "width m, from 1 to 80; the bars are Wilson 95% ranges. Ours: on D1 row j3 attends to itself, and 2 of the 8 "
      "sign patterns on its (planted, class, constant) entries pass tau, so a column detects D1 with probability "
      "1/4: detection follows 1 - (3/4)^m (dashed: the planted-row law; the paper's Lemma E.3 proves a bound of "
      "1/10). On D0 no row stands out: each output row is about the average token, c sqrt(log n) on the constant "
      "column and about b/20 sqrt(log n) on each class column, so a column with + on the constant passes tau only "
      "when 15 or more of its 20 class signs are +; linear attention's rows "
      "are as even on D1 (it barely favours j3). A trial succeeds only when softmax fires on D1 and three alarms "
      "stay silent at once: softmax on D0, linear on D1 and linear on D0. The pictures of the inputs show 100 of the 200 "
      "tokens, each a slice around its j3.";  // the alarms named before Run (walk 13: the rough count alone misled)
  three.question = "What does each extra readout column add, on D1 and on D0?";
  three.plot = "Success rate";
  three.settings = {"separation.self", "fig4c", {{"trials", "100"}}, 1};
  three.shows = {"n", "d", "shared_readout", "trials"};
  three.prediction = StoryPrediction::asking("Before you run: at m = 80, the widest readout, what share of trials are a success?")
      .options({{"over 70%", 0.7, 1.0}, {"40% to 70%", 0.4, 0.7}, {"under 40%", 0.0, 0.4}})
      .measures("success_80", "success at m = 80")
      .in_percent();
  three.measures = {cell("exp_d1_10", "exp_d1", "m", 10), cell("law_10", "theory_exp_d1", "m", 10),
                    cell("success_10", "success_rate", "m", 10), cell("success_80", "success_rate", "m", 80),
                    cell("low_80", "ci_low", "m", 80), cell("high_80", "ci_high", "m", 80),
                    cell("d0_80", "exp_d0", "m", 80), cell("lin_d1_80", "lin_d1", "m", 80),
                    cell("d0_low_80", "exp_d0_low", "m", 80), cell("d0_high_80", "exp_d0_high", "m", 80),
                    StoryMeasure::from_setting("trials", "trials"),
                    cell("lin_d0_80", "lin_d0", "m", 80),
                    StoryMeasure::from_note("indep_80", "fired in independent trials, success would be {indep_80} ", "0.0%"),
                    StoryMeasure::from_note("ratio", "other silences); measured {*}, {ratio} times that"),
                    StoryMeasure::from_setting("shared", "shared_readout"), StoryMeasure::from_setting("d_set", "d")};
  three.answer = {
      say("Softmax detects D1 on {exp_d1_10} of inputs at m = 10, against {law_10} from the planted-row law; success is "
          "{success_10} there and {success_80} at m = 80 (Wilson 95% [{low_80}, {high_80}]). At m = 80 softmax fires "
          "on {d0_80} of D0 inputs, and linear attention on {lin_d1_80} of D1 inputs."),
      say("Why: every extra column is one more chance for a near-uniform row to cross tau by luck. Softmax's D0 rows "
          "are near-uniform, and so are linear attention's rows on D1 (it barely favours the planted token), so "
          "both false alarms grow with m while detection is already near 1; success needs every alarm silent."),
      // Walk 8: at 1000 and 2000 trials softmax on D0 measures 54.5% and 55.6% (the count's 1.03% per
      // column is exact at these settings); linear attention on D1 66.1% and 66.8%, from the planted row.
      say_at_step("d", "Ours, roughly, at the step's d = 22: at about 1 column in 100, m = 80 columns all stay "
                       "silent with probability (99/100)^80, about 45%, so a false alarm comes in about 55% of "
                       "trials. The run knows each rate only to within its Wilson 95% range: softmax on D0 fired "
                       "in {d0_80} of {trials} trials, range [{d0_low_80}, {d0_high_80}]."),
      say_at_step("d", "Linear attention on D1 ({lin_d1_80}) has one more way to fire than the count: the planted "
                       "token's own row keeps a1 sqrt(log n) times its weight on the planted column, so a column "
                       "with + there can pass with one class sign fewer."),
      say("Multiplying the four rates at m = 80, as if each network fired on each input in trials of its own, gives "
          "a success of {indep_80}; the run measured {success_80}."),
      say_if("ratio", 2, kInf, "That is {ratio} times the product: the alarms come in the same trials. With one "
                               "readout shared by the four evaluations (ours), a readout with a column that a "
                               "near-uniform row passes fires on softmax's D0 row and on linear attention's D1 row "
                               "alike, so the two alarms mostly come together."),
      say_if("ratio", 0, 2, "That is {ratio} times the product, the same order as if the alarms came in unrelated "
                            "trials."),
      say_if("shared", 1, 1, "Linear attention on D0 ({lin_d0_80} at m = 80) is drawn as identical to softmax on D0: on "
                             "D0 both spread their weight nearly evenly, so their output rows nearly agree, and with "
                             "the same readout columns they fired in the same trials."),
      say_if("shared", 0, 0, "With a readout of its own for each evaluation, linear attention on D0 ({lin_d0_80} at "
                             "m = 80) no longer fires in exactly the trials where softmax on D0 ({d0_80}) does: with "
                             "readouts drawn apart, the two alarms come together only by chance."),
      // The invitations together at the end (walk 11: the first was lost in the middle of a long answer).
      say_at_step("shared_readout", "Then switch the shared readout off, so that each of the four evaluations draws "
                                    "its own readout columns, and run again: expect success near the product."),
      // The count's 55% is d = 22's (walk 12: at d = 42 the run showed 9%).
      say_at_step("trials", "Another try: set trials per point to 1000 and run again: the ranges narrow; expect softmax on D0 "
                            "near the count's 55% and linear attention on D1 higher.").and_if("d_set", 22, 22)};
  three.expect = {"on 95.0% of inputs at m = 10, against 94.4% from the planted-row law; success is 80.0% there and 24.0% at "
                  "m = 80 (Wilson 95% [16.7%, 33.2%])", "linear attention on 68.0% of D1 inputs",
                  "gives a success of 4.4%; the run measured 24.0%", "That is 5.48 times the product",
                  "is drawn as identical to softmax on D0", "softmax on D0 fired in 63.0% of 100 trials, range [53.2%, "
                  "71.8%]", "Linear attention on D1 (68.0%) has one more way to fire", "set trials per point to 1000"};
  three.invited = {{{{"shared_readout", "false"}}, {"gives a success of 5.7%; the run measured 3.0%",
                                                    "That is 0.53 times the product, the same order",
                                                    "no longer fires in exactly the trials where softmax on D0 (58.0%) does"}},
                   {{{"trials", "1000"}}, {"softmax on D0 fired in 54.5% of 1000 trials",
                                           "Linear attention on D1 (66.1%) has one more way to fire",
                                           "That is 3.53 times the product"}}};
  // Settings (Fig. 4c's a1, a0, b, c; tau = (c + 0.1) sqrt(log n)); the law; D0's columns: 15 or more of 20 signs +
  // (2.1%) with + on the constant (1/2), about 1 in 100; (99/100)^80 = 45%, 55% its complement; the product's
  // ratio thresholds (2).
  three.given = {"200", "22", "100", "2", "8", "1/4", "1", "3/4", "1/10", "20", "0.1", "10", "80", "95%", "70%", "40%",
                 "1.2", "0.01", "0.2", "0.8", "15", "99/100", "99", "45%", "55%", "1/8", "1000"};
  s.steps.push_back(three);

  StoryStep four;
  four.title = "Cross-attention: how strong must the planted key be? (Fig. 7d)";
  four.text =
      "In cross-attention (Definition F.1) only one query row, j2, sees the planted key j3. Its score is "
      "(1 + a1) log n against log n for the other n - 1 keys, so softmax gives j3 the weight w = n^a1 / (n^a1 + n - "
      "1) in row j2; every other row is uniform. A key row has a 1 in its class column (one of d - 1 = 11 classes), "
      "and j3 also a 1 in the planted column; a row's output is the weighted sum of the key rows, and a readout "
      "column of random signs fires on it when the signed sum of the output row passes tau = 0.9 (Theorem F.5). So "
      "row j2's output has w on the planted column, and w plus the small weights of j3's classmates on j3's class "
      "column. The x-axis is the strength a1 (n = 200, d = 12, 100 trials per point, as in the paper's Section F.6; "
      "m = log(n / delta) = 10 columns, rounded, where delta = 0.01 bounds the chance that the network fails: "
      "Theorem F.5). As in step 3, the answer compares detection with "
      "the planted-row law (here as a number: this plot does not draw it). The pictures of the inputs mark j2 and j3 (in D0 the planted key is weak).";
  four.question = "How does success change as a1 grows, and why?";
  four.plot = "Success rate";
  four.settings = {"separation.cross", "fig7d", {{"trials", "100"}}, 1};
  four.shows = {"n"};
  four.prediction = StoryPrediction::asking(
          "Before you run: at a1 = 1 the planted key's score is twice the others'. What share of trials succeed there?")
      .options({{"under 10%", 0.0, 0.1}, {"10% to 60%", 0.1, 0.6}, {"over 60%", 0.6, 1.0}})
      .measures("success_1", "success at a1 = 1")
      .in_percent();
  four.measures = {cell("success_712", "success_rate", "a1", 0.712), cell("low_712", "ci_low", "a1", 0.712),
                   cell("high_712", "ci_high", "a1", 0.712), cell("success_1", "success_rate", "a1", 1),
                   cell("success_top", "success_rate", "a1", 2.98), cell("d1_top", "exp_d1", "a1", 2.98),
                   cell("law_top", "theory_exp_d1", "a1", 2.98), cell("m", "m", "a1", 2.98, "12"),
                   cell("lin_top", "lin_d1", "a1", 2.98), cell("lin_d0_top", "lin_d0", "a1", 2.98),
                   StoryMeasure::from_setting("n", "n")};
  four.answer = {
      // The value the prediction asked for first (walk 18: "Success is 2.0% at a1 = 0.712" came before it).
      say("Success is {success_1} at a1 = 1, and {success_712} at a1 = 0.712 (Wilson 95% [{low_712}, {high_712}])."),
      say("The jump: row j2's output is w on the planted column and w + (t - 1) u on j3's class column (w on j3, "
          "u on each other key, t = about n / (d - 1) keys per class; ours, the planted-row law, after the proof of "
          "Lemma F.4). A readout column with + on both adds them, about 2w plus a little: at a1 = 1, w = n / (2n - 1) "
          "is about one half and the sum about 1, above tau = 0.9, though the other classes' small entries, added or "
          "taken away by the column's signs, leave some of these columns short of tau; at smaller a1, where n^a1 is "
          "small next to n - 1, w shrinks and few columns reach 0.9. The curve climbs in flat steps because the same "
          "100 trials (the same readouts and token places) are run at every a1, and the other classes' signs add up "
          "to only a few values, so a trial's outcome changes only at the few a1 where one of those sums reaches tau "
          "(ours)."),
      say_at_step("n", "In numbers, at the step's n = 200 (t = 18 or 19): at a1 = 1 the sum is about 0.501 + 0.544 "
                       "= 1.045, and the ten other classes' entries (about 0.045 each) leave 17% of these columns short "
                       "of tau; at a1 = 0.712, where n^a1 is about 43 against n - 1 = 199, the sum is only 0.18 + 0.25 "
                       "= 0.43, and about 1% of these columns reach 0.9."),
      say("The level: at a1 = 2.98 success is {success_top}, as softmax detects D1 on {d1_top}, against "
          "{law_top} = 1 - (3/4)^m with m = {m} from the planted-row law: each column sees a pattern that passes "
          "tau with probability 1/4 (the proof of Lemma F.4), and all m miss with probability (3/4)^m."),
      say("Linear attention fired on {lin_top} of D1 inputs even there, and on {lin_d0_top} of D0 inputs (ours, from "
          "Definition F.1): its weight on the planted key, (1 + a1) / (n + a1), passes one half only for a1 > n - 2, "
          "so its rows are near-uniform in both. Such a row fires only on a readout column with + on all 11 class "
          "columns (its signed sum is then 1, give or take the planted weight, above tau = 0.9): a chance of 1 in "
          "2048 per column, about 0.5% per input with m = {m} columns."),
      say_at_step("n", "At n = 200 that weight is 2 / 201 at a1 = 1."),
      say_if("n", 5, kInf, "With n = {n}, a1 > n - 2 lies beyond this plot, whose a1 ends at 2.98.")};
  four.expect = {"Success is 88.0% at a1 = 1, and 2.0% at a1 = 0.712 (Wilson 95% [0.6%, 7.0%]).",
                 "at a1 = 2.98 success is 95.0%, as softmax detects D1 on 96.0%, against 94.4% = 1 - (3/4)^m with m = 10",
                 "Linear attention fired on 1.0% of D1 inputs even there, and on 1.0% of D0 inputs", "In numbers, at the step's n = 200",
                 "With n = 200, a1 > n - 2 lies beyond this plot", "2 / 201 at a1 = 1"};
  four.invited = {{{{"n", "400"}}, {"success is 96.0%", "t = about n / (d - 1) keys per class",
                                    "With n = 400, a1 > n - 2 lies beyond this plot"}}};
  // Settings; tau of Theorem F.5 and m = log(n / delta) = 10 of Section F.6; n^a1 = 200^0.712; the largest a1 of the
  // sweep; linear's closed form at n = 200; n - 2 > 2.98 from n = 5 on; 400: an n of the student's (walk 7).
  four.given = {"3", "11", "12", "0.01", "0.501", "0.544", "1.045", "0.045", "17%", "1%", "0.18", "0.25", "0.43", "18", "19", "1", "2", "200", "100", "0.712", "95%", "43", "199", "10%", "60%", "2.98", "201", "0.9", "10", "400",
                "3/4", "1/4", "100%", "2048", "0.5%"};  // and 2^11 columns of signs, 1 - (1 - 2^-11)^10
  s.steps.push_back(four);

  StoryStep five;
  five.title = "The dimension d (Fig. 5b)";
  five.text =
      "With X = 1 (every entry of the key-query matrix X is 1; Theorem D.5) every row of self-attention on D1 "
      "puts most weight on the planted token. The x-axis is the dimension d (n = 256, 100 trials per point, as in "
      "the paper's Section 7.2; m = 15), so the tokens fall into d - 2 classes; the bars are Wilson 95% ranges. "
      "A readout column fires on a row when the signed sum of the row's output passes tau = (c + 0.1) sqrt(log n) "
      "(Theorem D.5), with the constant column's entries c sqrt(log n) and the class columns' b sqrt(log n), c = 0.8, "
      "b = 0.2 (Section 7.2.1). A legend note 'on top of ...' or 'identical to ...' says where one curve lies on "
      "another and hides it.";
  five.question = "Averaging k random signs gives a value of size about 1 / sqrt(k). How does that explain the "
                  "curve?";
  five.plot = "How often each network fires";
  five.settings = {"separation.self", "fig5b", {{"trials", "100"}}, 1};
  five.shows = {"n"};
  five.prediction = StoryPrediction::asking(
          "Before you run: at the smallest dimension, d = 4, how often does softmax fire on a D0 input?")
      .options({{"rarely (under 10%)", 0.0, 0.1}, {"sometimes (10% to 50%)", 0.1, 0.5}, {"mostly (over 50%)", 0.5, 1.0}})
      .measures("d0_4", "softmax fired on D0 inputs at d = 4")
      .in_percent();
  five.measures = {cell("success_4", "success_rate", "d", 4), cell("low_4", "ci_low", "d", 4),
                   cell("high_4", "ci_high", "d", 4), cell("success_66", "success_rate", "d", 66),
                   cell("d0_4", "exp_d0", "d", 4), cell("lin_d1_4", "lin_d1", "d", 4),
                   cell("d0_66", "exp_d0", "d", 66), cell("m", "m", "d", 4, "12"), StoryMeasure::from_setting("n", "n"),
                   StoryMeasure::from_note("lin_apart", "rates on D1 and on D0 have Wilson 95% ranges apart at {lin_apart} of"),
                   StoryMeasure::from_note("gap_at", "the widest gap at d = {gap_at}: {gap_d1} on D1, {gap_d0} on D0"),
                   StoryMeasure::from_note("gap_d1", "the widest gap at d = {gap_at}: {gap_d1} on D1, {gap_d0} on D0",
                                           "0.0%"),
                   StoryMeasure::from_note("gap_d0", "the widest gap at d = {gap_at}: {gap_d1} on D1, {gap_d0} on D0",
                                           "0.0%")};
  five.answer = {
      say("Success is {success_4} at d = 4 (Wilson 95% [{low_4}, {high_4}]) and {success_66} at d = 66. At d = 4 "
          "softmax fires on {d0_4} of D0 inputs, and linear attention on {lin_d1_4} of D1 inputs."),
      say("Why (ours, from Definition D.1): a D0 row is near-uniform, about the average of all tokens: in units of "
          "sqrt(log n), c = 0.8 on the constant column and b / k on each of the k = d - 2 class columns (b = 0.2). A "
          "column with + on the constant fires when b times the average of its k class signs passes 0.1, that is "
          "when the average "
          "passes 1/2. At d = 4, k = 2: both signs + (one pattern in eight, with the constant), and one of the "
          "m = {m} columns does it in most trials; at d = 66, k = 64, and an average of 64 signs (size about 1/8) "
          "above 1/2 is very rare, so D0 stays silent."),
      say_if("lin_apart", 0, 0, "Linear attention is near-uniform on D1 too, hence the same alarms on D1: its rates on "
                                "D1 and on D0 agree within their Wilson ranges at every d."),
      say_if("lin_apart", 1, kInf, "Linear attention, though, fired more often on D1 than on D0, with Wilson 95% ranges "
                                   "apart, at {lin_apart} of the d values, most at d = {gap_at}: {gap_d1} on D1 against {gap_d0} on D0. With X = 1 "
                                   "it gives the planted token about (1 + a1) / (n + a1) of each row's weight (ours, "
                                   "from Definition D.1), more with only n = {n} tokens, so its D1 rows lean towards "
                                   "the planted column, pass tau more often than D0's, and pull success down there."),
      say_at_step("n", "Then set n to 64 and run again: linear attention's weight on the planted token, about "
                       "(1 + a1) / (n + a1), grows as n shrinks, so watch whether its D1 curve leaves the D0 curves. The D0 rates "
                       "should not move: in units of sqrt(log n) a near-uniform D0 row is c = 0.8 on the constant column and "
                       "b / (d - 2) on each class column whenever d - 2 divides n, as it does at every d here for n = "
                       "64 and 256, and tau is c + 0.1 at every n."),
      say("'Reproduce the paper' runs all 19 panels of Figs. 3, 4, 5 and 7; 'Free lab' opens every parameter.")};
  five.expect = {"Success is 10.0% at d = 4 (Wilson 95% [5.5%, 17.4%]) and 99.0% at d = 66. At d = 4 softmax fires "
                 "on 90.0% of D0 inputs, and linear attention on 90.0% of D1 inputs.", "hence the same alarms on D1"};
  five.invited = {{{{"n", "64"}}, {"fired more often on D1 than on D0, with Wilson 95% ranges apart, at 2 of the d values, most at d = 18: 38.0% on D1 "
                                  "against 17.0% on D0", "more with only n = 64 tokens"}}};
  // Settings, 19 panels; the paper's tau rule (c = 0.8, b = 0.2: 0.1 = c + 0.1 - c, 1/2 = 0.1 / b), k = d - 2,
  // 1 / sqrt(64) = 1/8.
  five.given = {"1", "256", "100", "4", "95%", "66", "19", "15", "10%", "50%", "2", "0.1", "0.8", "0.2", "1/2", "64",
                "1/8", "8"};  // 64: also the invited n
  s.steps.push_back(five);

  s.summary = {
      say("A softmax readout fired on inputs that hide one strong score and stayed silent on the others."),
      say_if("lin_apart", 0, 0, "Linear attention, which spreads its weight, could not tell the datasets apart."),
      say_if("lin_apart", 1, kInf, "Linear attention, which spreads its weight, told them apart only in part: in your "
                                   "last run it fired more often on D1 than on D0, with Wilson 95% ranges apart, at {lin_apart} of the d values "
                                   "({gap_d1} against {gap_d0} at d = {gap_at})."),
      say("In the toy model "
          "success followed 1 - 2^-m, the chance that softmax fires on D1 in the proof of the paper's Lemma 5.2; "
          "in the layers softmax detected D1 as often as the lab's own planted-row law predicts, but false alarms "
          "on D0 grew with the readout."),
      say_if("d0_66", 0, 0.1, "In your last run, a larger dimension silenced D0 again ({d0_66} at d = 66)."),
      say_if("d0_66", 0.1, 1, "In your last run D0 still fired on {d0_66} at d = 66: small dimensions need care."),
      say("Where it needs care: the threshold tau, a wider readout that raises false alarms, and small dimensions.")};
  s.summary_given = {"1", "2", "66"};  // 1 - 2^-m; d = 66
  return s;
}

}  // namespace attnlab::separation
