// The mirror-descent paper as a guided story (docs/mirror.md s.1-s.4). Every step asks for a
// prediction first; its answer is rendered from the student's run (lab/story_answer.hpp) and
// checked in tests/test_story_runs.cpp.
#include "experiments/mirror/mirror_story.hpp"

namespace attnlab::mirror {

namespace {
constexpr double kInf = 1e300;
StoryMeasure note(const char* name, const char* pattern) { return StoryMeasure::from_note(name, pattern); }

std::vector<GlossaryEntry> glossary() {
  return {
      {"mirror descent", "Gradient descent measured in another geometry: for p != 2 a step grows the large and "
                         "the small entries of W differently, as the potential (1/p) ||W||_p^p says.", "Section 3"},
      {"max-margin", "The smallest W (in the l_p norm) that scores each sequence's chosen token above all its "
                     "other tokens by at least 1: the problem l_p-AttSVM.", "Section 3"},
      {"Bregman divergence", "A distance built from the potential (1/p) ||W||_p^p; for p = 2 it is half the "
                             "squared distance.", "Section 3"},
      {"D_k", "The Bregman divergence between the direction of W after k steps and the max-margin solution.",
       "Section 4", true},
      {"softmax", "Turns a sequence's scores into attention weights that are positive and add up to 1.",
       "Section 2"},
      {"sparse", "A matrix with most entries (nearly) zero.", "ours"},
      {"SVM", "Support vector machine: here the max-margin problem l_p-AttSVM, whose solution is the W of least "
              "l_p norm that puts each sequence's chosen token ahead of the others by a margin of at least 1.",
       "the paper's l_p-AttSVM, main text; cited in appendix Lemmas 19-21"},
  };
}
}  // namespace

Story make_story() {
  Story s;
  s.id = "mirror";
  s.result = "The paper's result: trained by mirror descent for an l_p norm, the weights of an attention layer "
             "turn towards that norm's max-margin solution, locally: from a start near that solution, with a "
             "small enough step (appendix, Lemmas 28-29). Each p finds its own.";
  s.figure = {"mirror", "single_run_zero", {{"sweep", "p=1.75,2"}, {"iterations_rule", "fixed"}, {"iterations", "300"}}, 1};
  s.figure_plot = 0;
  s.figure_caption = "How far W is, in direction (Bregman divergence), from its max-margin solution over 300 "
                     "steps, for p = 1.75 and 2: a quick run each.";
  s.glossary = glossary();

  StoryStep one;
  one.title = "Does training turn W towards a max-margin solution?";
  one.text =
      "n = 6 sequences of T = 8 tokens; one attention layer with key-query matrix W is trained from W = 0 (a start "
      "outside the cone that the paper's local result, Lemmas 28-29 of its appendix, assumes) by "
      "mirror descent on (1/p) ||W||_p^p, for p = 1.75, 2 and 3. Each run is compared with the l_p max-margin "
      "problem (l_p-AttSVM, the SVM of the plots) on the tokens it selects. Each p runs for as many steps as the "
      "authors' code runs it: 1500 for p = 1.75, 2000 for p = 2, 20000 for p = 3, so the curves end at different "
      "k. The first plot is D_k, the directional Bregman divergence "
      "between W after k steps and that solution. Ours: the lab's update works in the log domain (log_domain) "
      "and keeps steps of full size where the authors' update slows down: once its gradient's norm falls below "
      "its eps, its steps shrink with the gradient. After your run, switch log_domain off for the authors' "
      "update (their public code's) and run again.";
  one.question = "The norm of W keeps growing. Why does the paper measure the direction of W, not W itself?";
  one.plot = "Directional Bregman divergence to the SVM of the run's own p";
  one.settings = {"mirror", "single_run_zero", {}, 1};
  one.shows = {"eta", "log_domain"};
  one.prediction = StoryPrediction::asking(
          "Before you run: at the end of its run (1500 steps), how close is the direction of W for p = 1.75 to "
          "the max-margin solution (D_k)?")
      .options({{"still far (above 0.1)", 0.1, kInf}, {"close (0.001 to 0.1)", 0.001, 0.1},
                {"very close (below 0.001)", 0.0, 0.001}})
      .measures("d175", "D_k at the end for p = 1.75");
  one.measures = {note("d175", "p=1.75: {*}final D_k against the own-p SVM: mean {d175};"),
                  note("d3", "p=3: {*}final D_k against the own-p SVM: mean {d3};"),
                  StoryMeasure::from_setting("log_domain", "log_domain")};
  one.answer = {
      say("D_k falls for every p: to {d175} for p = 1.75 and {d3} for p = 3 at the end of training."),
      say_if("log_domain", 1, 1, "This was the lab's update (log_domain on); switch it off for the authors' update "
                                 "and compare."),
      say_if("log_domain", 0, 0, "This was the authors' update (log_domain off): near the end its steps shrink "
                                 "with the gradient; compare D_k with the lab's update (log_domain on)."),
      say("Why: the norm of W keeps growing while its direction settles, so the divergence of the direction keeps "
          "shrinking as long as the update keeps moving.")};
  // The values measured at the step's settings (seed 1), as docs/mirror.md's claims table states them.
  one.expect = {"the lab's update", "to 0.000255 for p = 1.75 and 0.00307 for p = 3"};
  one.invited = {{{{"log_domain", "false"}}, {"the authors' update (log_domain off)", "to 0.00367 for p = 1.75"}}};
  // Settings, 1/p, the steps per p (the authors' code's), the choices.
  one.given = {"6", "8", "0", "1", "1.75", "2", "3", "2000", "1500", "20000", "0.1", "0.001"};
  s.steps.push_back(one);

  StoryStep two;
  two.title = "Where does attention go?";
  two.text =
      "The same training with p = 2 only, now watching where each sequence's attention goes as W grows: the "
      "plot 'Softmax concentration' shows the largest attention probability of a sequence, averaged over the "
      "sequences.";
  two.question = "How does the largest attention probability change as W grows, and why?";
  two.plot = "Softmax concentration";
  two.settings = {"mirror", "single_run_zero", {{"sweep", "p=2"}}, 1};
  two.shows = {"eta"};
  two.prediction = StoryPrediction::asking(
          "Before you run: after 2000 steps, how much attention does a sequence give to its favourite token?")
      .options({{"spread out (under 50%)", 0.0, 0.5},
                {"mostly one token (50% to 99%)", 0.5, 0.99},
                {"nearly all (over 99%)", 0.99, 1.0}})
      .measures("prob", "the largest attention probability at k = 2000")
      .in_percent()
      .hiding({"one token per sequence", "picks one"});
  two.measures = {StoryMeasure::from_cell("prob", {"max_prob_p=2", "k", 2000}, "0.0%")};
  two.answer = {
      say("After 2000 steps the favourite token gets {prob} of a sequence's attention, on average."),
      say_if("prob", 0.99, 1, "Attention ends on one token per sequence, the tokens the max-margin problem is then "
                              "solved on."),
      say("Why: softmax of scores that keep growing apart puts ever more of its weight on the largest one.")};
  two.expect = {"Attention ends on one token per sequence"};
  two.given = {"2", "2000"};  // settings: p, the steps
  s.steps.push_back(two);

  StoryStep three;
  three.title = "Which solution does each p find?";
  three.text =
      "The paper's synthetic-data figure (in its main text; the settings are the authors' code's) at 5 seeds "
      "instead of 100 (random W0). The 3 x 3 plot compares the runs of each p with the max-margin solution of "
      "every p' = 1.75, 2, 3, each curve the mean over seeds; the curves with markers are each p against its own "
      "solution.";
  three.question = "Which max-margin solution does training with each p end closest to, and what would explain it?";
  three.plot = "Each p against every SVM p' (the paper's 3 x 3)";
  three.settings = {"mirror", "synthetic_figure", {{"seeds", "5"}}, 1};
  three.shows = {"seeds"};
  three.prediction = StoryPrediction::asking(
          "Before you run: in how many of the 5 runs with p = 1.75 does training end closest to the p = 1.75 "
          "solution, rather than to the p' = 2 or 3 one?")
      .options({{"few (0 to 2)", 0, 2}, {"most (3 or 4)", 3, 4}, {"all", 5, 5}})
      .measures("c175", "runs of p = 1.75 closest to their own solution");
  three.measures = {note("c175", "p=1.75: {*}own-p SVM the closest of p' = 1.75, 2, 3 in {c175} of"),
                    note("c2", "p=2: {*}own-p SVM the closest of p' = 1.75, 2, 3 in {c2} of"),
                    note("c3", "p=3: {*}own-p SVM the closest of p' = 1.75, 2, 3 in {c3} of"),
                    StoryMeasure::from_setting("seeds", "seeds")};
  three.answer = {
      say("Training ended closest to the max-margin solution of its own p in {c175} of {seeds} runs for p = 1.75, "
          "{c2} for p = 2 and {c3} for p = 3."),
      say("Why: the update measures the size of W in the l_p geometry, and the direction it settles on is the "
          "max-margin solution of that same norm, which the paper proves for starts near the solution (Lemmas "
          "28-29 of its appendix; these runs start from a random W0, not necessarily near it), and which differs from "
          "one p to another.")};
  three.expect = {"in 5 of 5 runs for p = 1.75, 5 for p = 2 and 5 for p = 3"};
  three.given = {"5", "100", "3", "1.75", "2"};  // settings: seeds, the paper's seeds, 3 x 3, the p's
  s.steps.push_back(three);

  StoryStep four;
  four.title = "Near p = 1";
  four.text =
      "One run each for p = 1.1, 2 and 3 (d = 10, 3000 steps). The plot 'Sparsity of W_k at the end, per p' "
      "counts, for each p, the entries of W_k / ||W_k|| below 1% of the largest; the heatmaps of the results "
      "show W_k itself. A sparse W has most of its entries near zero. Ours: this run and the 1% measure of sparsity.";
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
                   note("sparse2", "p=2: {*}; {sparse2} of entries of W_k below 1% of the largest")};
  four.answer = {
      say("For p = 1.1, {sparse11} of the entries of W_k are below 1% of the largest; for p = 2, {sparse2}."),
      say("Why (ours): in ||W||_p^p an entry x has the marginal cost p |x|^(p-1) (the derivative of |x|^p). At "
          "p = 2 that is 2|x|, so a small entry costs almost nothing to grow and the cheapest W spreads its "
          "weight over many entries; as p nears 1 it tends to 1 for every nonzero entry (at p = 1.1 it already "
          "varies little with |x|: 0.69 at 0.01, 1.10 at 1), so spreading saves nothing and the cheapest W that "
          "separates the tokens puts its weight on the few entries that add the most margin.")};
  four.expect = {"For p = 1.1, 69% of the entries", "for p = 2, 2%"};
  // Settings, the measure's 1%, p - 1 and p near 1, and the marginal cost 1.1 |x|^0.1 at |x| = 0.01 and 1 (0.69,
  // 1.10), from its formula.
  four.given = {"1", "1.1", "2", "3", "10", "3000", "1%", "0.69", "0.01", "1.10"};
  s.steps.push_back(four);

  StoryStep five;
  five.title = "Training W and v together";
  five.text =
      "The two-sequence toy of the authors' public code, trained by mirror descent jointly in W and the value "
      "vector v from zero. "
      "Which tokens win may now depend on p: the plot 'Selected token of each sequence at the end, per p (seed "
      "1)' shows the token each sequence ends on (0-indexed), and Details gives v. Ours: the lab's log-domain "
      "update; after your run, switch log_domain off for the authors' update and run again.";
  five.question = "Why can the choice of p change which token a sequence selects?";
  five.plot = "Selected token of each sequence at the end, per p (seed 1)";
  five.settings = {"mirror", "joint_toy", {}, 1};
  five.shows = {"log_domain"};
  five.prediction = StoryPrediction::asking(
          "Before you run: v starts at zero. How large does its second entry grow for p = 1.75?")
      .options({{"small (under 10)", -kInf, 10}, {"10 to 100", 10, 100}, {"over 100", 100, kInf}})
      .measures("v2", "v's second entry at the end, p = 1.75");
  five.measures = {note("tok175", "p=1.75: selected tokens {tok175} (0-indexed)"),
                   note("tok2", "p=2: selected tokens {tok2} (0-indexed)"),
                   note("tok3", "p=3: selected tokens {tok3} (0-indexed)"),
                   note("v1", "p=1.75: selected tokens {*}v = ({v1}, {v2})"),
                   note("v2", "p=1.75: selected tokens {*}v = ({v1}, {v2})"),
                   StoryMeasure::from_setting("log_domain", "log_domain")};
  five.answer = {
      say("The tokens {tok175} win for p = 1.75, {tok2} for p = 2 and {tok3} for p = 3; for p = 1.75 v ends at "
          "({v1}, {v2}): v is drawn in no plot, Details lists it in the line for p = 1.75."),
      say_if("log_domain", 1, 1, "This was the lab's log-domain update."),
      say_if("log_domain", 0, 0, "This was the authors' update (log_domain off): its steps shrink near the end, "
                                 "so v grows less; compare the tokens with the lab's update."),
      say("Why: how cheaply a token's margin can grow depends on the norm, so another p can prefer another "
          "token.")};
  five.expect = {"the lab's log-domain update", "The tokens [1, 0] win for p = 1.75, [1, 0] for p = 2 and [0, 0] for "
                 "p = 3; for p = 1.75 v ends at (19.3, 342)"};
  five.invited = {{{{"log_domain", "false"}}, {"This was the authors' update", "v ends at (1.44, 20)"}}};
  five.given = {"1", "0", "1.75", "2", "3"};  // the tokens' indices (0-indexed) and the p's
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
