// The mirror-descent paper as a guided story (docs/mirror.md s.1-s.4). Every number the
// texts state is measured by a run of the step's settings (seed 1) and checked in
// tests/test_stories.cpp.
#include "experiments/mirror/mirror_story.hpp"

namespace attnlab::mirror {

Story make_story() {
  Story s;
  s.id = "mirror";
  s.result = "The paper's result: trained by mirror descent for an l_p norm, an attention layer learns to pick one "
             "token per sequence, and its weights turn towards that norm's max-margin solution, locally: from a "
             "start near that solution, with a small enough step (appendix, Lemmas 28-29). Each p finds its own.";
  s.figure = {"mirror", "single_run_zero", {{"sweep", "p=1.75,2"}, {"iterations_rule", "fixed"}, {"iterations", "300"}}, 1};
  s.figure_plot = 0;
  s.figure_caption = "How far W is, in direction (Bregman divergence), from its max-margin solution over 300 "
                     "steps, for p = 1.75 and 2: a quick run each.";

  StoryStep one;
  one.title = "Training turns W towards a max-margin solution";
  one.text =
      "n = 6 sequences of T = 8 tokens; one attention layer with key-query matrix W is trained from W = 0 by "
      "mirror descent on (1/p) ||W||_p^p, for p = 1.75, 2 and 3. Each run is compared with the l_p max-margin "
      "problem (l_p-AttSVM) on the tokens it selects. Press Run: the first plot is the directional Bregman "
      "divergence D_k between W_k and that solution. Ours: the lab's update works in the log domain (log_domain) "
      "and keeps steps of full size where the authors' update slows down: once its gradient's norm falls below its "
      "eps, its steps shrink with the gradient. Switch log_domain off for the authors' update (their public code's).";
  one.answer =
      "D_k falls for every p: to 0.000255 for p = 1.75 and 0.00307 for p = 3 at the end of training; with the "
      "authors' update the same run ends at 0.00367 for p = 1.75, 14 times farther. Why: the norm of W keeps "
      "growing while its direction settles, so the divergence of the direction keeps shrinking as long as the "
      "update keeps moving.";
  one.question = "The norm of W keeps growing. Why does the paper measure the direction of W, not W itself?";
  one.plot = "Directional Bregman divergence to the SVM of the run's own p";
  one.settings = {"mirror", "single_run_zero", {}, 1};
  one.shows = {"eta", "log_domain"};
  one.run = true;
  one.numbers = {{"0.000255", {}, "p=1.75: 1 runs done; final D_k against the own-p SVM: mean 0.000255"},
                 {"0.00307", {}, "p=3: 1 runs done; final D_k against the own-p SVM: mean 0.00307"},
                 {"0.00367", {}, "p=1.75: 1 runs done; final D_k against the own-p SVM: mean 0.00367",
                  {{"log_domain", "false"}}}};
  // Settings (n, T, W = 0, p), the potential's 1/p, and 14 = 0.00367 / 0.000255 of the measured values.
  one.given = {"6", "8", "0", "1", "1.75", "2", "3", "14"};
  s.steps.push_back(one);

  StoryStep two;
  two.title = "Attention picks one token";
  two.text =
      "The same training with p = 2 only, now watching where each sequence's attention goes as W grows: the "
      "plot 'Softmax concentration' shows the largest attention probability, averaged over the sequences.";
  two.answer =
      "The largest attention probability grows with W (the measured value is beside your prediction): attention "
      "ends on one token per sequence, the tokens the max-margin problem is then solved on. Why: softmax of scores "
      "that keep growing apart puts ever more of its weight on the largest one.";
  two.question = "If attention ends on one token per sequence, what does the layer's output become?";
  two.plot = "Softmax concentration";
  two.settings = {"mirror", "single_run_zero", {{"sweep", "p=2"}}, 1};
  two.shows = {"eta"};
  two.prediction = StoryPrediction::asking(
          "Before you run: after 2000 steps, how much attention does a sequence give to its favourite token?")
      .options({{"spread out (under 50%)", 0.0, 0.5},
                {"mostly one token (50% to 99%)", 0.5, 0.99},
                {"nearly all (over 99%)", 0.99, 1.0}})
      .measures({"max_prob_p=2", "k", 2000}, "the largest attention probability at k = 2000")
      .in_percent();
  two.given = {"2", "2000"};  // settings: p, the steps
  s.steps.push_back(two);

  StoryStep three;
  three.title = "Each p its own solution";
  three.text =
      "The paper's synthetic-data figure (in its main text; the settings are the authors' code's) at 5 seeds "
      "instead of 100 (random W0). The 3 x 3 plot compares the runs of each p with the max-margin solution of "
      "every p' = 1.75, 2, 3, each curve the mean over seeds; the curves with markers are each p against its own "
      "solution.";
  three.answer =
      "Every run ends closest to the max-margin solution of its own p among p' = 1.75, 2, 3: in 5 of 5 runs for "
      "each p. Why: the update measures the size of W in the l_p geometry, and the direction it settles on is the "
      "max-margin solution of that same norm, which the paper proves for starts near the solution (Lemmas 28-29 "
      "of its appendix; these runs start outside that cone), and which differs from one p to another.";
  three.question = "Why would the geometry of the update (the choice of p) decide which solution training finds?";
  three.plot = "Each p against every SVM p' (the paper's 3 x 3)";
  three.settings = {"mirror", "synthetic_figure", {{"seeds", "5"}}, 1};
  three.shows = {"seeds"};
  three.run = true;
  three.numbers = {{"5 of 5", {}, "own-p SVM the closest of p' = 1.75, 2, 3 in 5 of 5 runs"}};
  three.given = {"5", "100", "3", "1.75", "2"};  // settings: seeds, the paper's seeds, 3 x 3, the p's
  s.steps.push_back(three);

  StoryStep four;
  four.title = "Near p = 1, a sparse W";
  four.text =
      "Near p = 1 the trained W is sparse (ours: the lab's runs show it). One run "
      "each for p = 1.1, 2 and 3 (d = 10, 3000 steps). The plot 'Sparsity of W_k at the end, per p' counts, for "
      "each p, the entries of W_k / ||W_k|| below 1% of the largest; the heatmaps below it show W_k itself. Ours: "
      "this run and the 1% measure of sparsity.";
  four.answer =
      "For p = 1.1, 69% of the entries of W_k are below 1% of the largest; for p = 2 only 2%. Why (ours): in "
      "||W||_p^p an entry x has the marginal cost p |x|^(p-1) (the derivative of |x|^p). At p = 2 that is 2|x|, so "
      "a small entry costs almost nothing to grow and the cheapest W spreads its weight over many entries; as p "
      "nears 1 it tends to 1 for every nonzero entry (at p = 1.1 it already varies little with |x|: 0.69 at 0.01, "
      "1.10 at 1), so spreading saves nothing and the cheapest W that separates the tokens puts its weight on "
      "the few entries that add the most margin.";
  four.question = "l_1-like penalties favour sparse solutions in regression too (the lasso). Is this the same effect?";
  four.plot = "Sparsity of W_k at the end, per p";
  four.settings = {"mirror", "sparsity", {{"seeds", "1"}, {"d", "10"}}, 1};
  four.shows = {};
  four.run = true;
  four.numbers = {{"69%", {}, "69% of entries of W_k below 1% of the largest"},
                  {"2%", {}, "2% of entries of W_k below 1% of the largest"}};
  // Settings, the measure's 1%, p - 1 and p near 1, and the marginal cost 1.1 |x|^0.1 at |x| = 0.01 and 1 (0.69,
  // 1.10), from its formula.
  four.given = {"1", "1.1", "2", "3", "10", "3000", "1%", "0.69", "0.01", "1.10"};
  s.steps.push_back(four);

  StoryStep five;
  five.title = "Training W and v together";
  five.text =
      "The two-sequence toy of the authors' public code, trained jointly in W and the value "
      "vector v from zero. Which tokens win "
      "may now depend on p: the plot 'Selected token of each sequence at the end, per p (seed 1)' shows the token "
      "each sequence ends on (0-indexed), and Details gives v. Ours: the lab's log-domain update; switch log_domain "
      "off for the authors' update.";
  five.answer =
      "The tokens [1, 0] win for p = 1.75 and 2, [0, 0] for p = 3. With the lab's log-domain update v ends at "
      "(19.3, 342) for p = 1.75; with the authors' update it ends at (1.44, 20), with the same tokens. "
      "Why: how cheaply a token's margin can grow depends on the norm, so another p can prefer another token.";
  five.question = "Why can the choice of p change which token a sequence selects?";
  five.plot = "Selected token of each sequence at the end, per p (seed 1)";
  five.settings = {"mirror", "joint_toy", {}, 1};
  five.shows = {"log_domain"};
  five.run = true;
  five.numbers = {{"[1, 0]", {}, "p=2: selected tokens [1, 0]"},
                  {"[0, 0]", {}, "p=3: selected tokens [0, 0]"},
                  {"19.3", {}, "p=1.75: selected tokens [1, 0] (0-indexed); alpha changed 1 times, at k = 2; "
                   "v = (19.3, 342)"},
                  {"342", {}, "p=1.75: selected tokens [1, 0] (0-indexed); alpha changed 1 times, at k = 2; "
                   "v = (19.3, 342)"},
                  {"1.44", {}, "p=1.75: selected tokens [1, 0] (0-indexed); alpha changed 1 times, at k = 2; "
                   "v = (1.44, 20)", {{"log_domain", "false"}}},
                  {"20", {}, "p=1.75: selected tokens [1, 0] (0-indexed); alpha changed 1 times, at k = 2; "
                   "v = (1.44, 20)", {{"log_domain", "false"}}}};
  five.given = {"1", "0", "1.75", "2", "3"};  // the tokens' indices (0-indexed) and the p's
  s.steps.push_back(five);
  s.summary =
      "Mirror descent for each p turned the direction of W towards the l_p max-margin solution of the tokens it "
      "selects, while attention concentrated on one token per sequence. Each p ended nearest its own solution, a p "
      "near 1 gave a sparse W, and with v trained too the choice of p changed which tokens won.";
  s.summary_given = {"1"};  // p near 1
  return s;
}

}  // namespace attnlab::mirror
