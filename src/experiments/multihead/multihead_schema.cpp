// Index of this file
// [SECTION] Schema
// [SECTION] Presets
// [SECTION] Decoding the parameters
#include "experiments/multihead/multihead_schema.hpp"

namespace attnlab::multihead {

namespace {

const char* const kSpec = "docs/multihead.md";

}  // namespace

// [SECTION] Schema

Schema multihead_schema() {
  std::vector<ParamSpec> s;
  auto add = [&](ParamSpec p) { s.push_back(std::move(p)); };
  add({"d", "dimension d", ParamType::Integer, 2, 16, "12", "", "Token dimension; Theta_i and W_i are d x d.", kSpec});
  add({"k", "tokens k", ParamType::Integer, 2, 6, "3", "", "Tokens per input X in {+-1}^{k x d}.", kSpec});
  add({"m", "heads m", ParamType::Integer, 1, 4, "2", "", "Heads of the hidden layer.", kSpec});
  add({"inputs", "input distribution", ParamType::Choice, 0, 0, "boolean", "",
       "boolean: X uniform in {+-1}^{k x d} (the paper's). gaussian: N(0, 1) entries (duplicate tokens never occur).",
       kSpec, {"boolean", "gaussian"}});
  add({"norm", "||Theta_1||", ParamType::Real, 0.1, 20, "3", "",
       "Frobenius norm of the largest Theta_i (3 to 8 on the lab's instances; 15 makes attention hard).", kSpec});
  add({"lambda", "norm spread lambda", ParamType::Real, 0.05, 1, "0.5", "",
       "Head norms spread over [sqrt(lambda) a, a]: comparable norms (the paper's lambda).", kSpec});
  add({"crude_samples", "phase I samples", ParamType::Integer, 10, 10000000, "100000", "",
       "Examples for the crude estimate of W_sum (phase I).", kSpec, {}, true});
  add({"pipeline", "run the lab's version of the paper's learner", ParamType::Boolean, 0, 0, "true", "",
       "Certification (phases II/IV), refit of W_sum, span extraction, head search and value regression: the lab's "
       "version of the paper's learner (ours: simplex edges, 2 eps slab, certify-then-refit, SVD span).", kSpec});
  add({"eps", "certification eps", ParamType::Real, 0.001, 1, "0.05", "",
       "Accept a row when its best simplex-edge fit has residual < eps/2; slab width 2 eps.", kSpec, {}, true});
  add({"pool_samples", "refit pool", ParamType::Integer, 100, 1000000, "20000", "",
       "Examples kept for the 'certify, then refit' refinement of W_sum (ours, not the paper's).", kSpec, {}, true});
  add({"keep", "refit keep fraction q", ParamType::Real, 0.0005, 0.5, "0.01", "",
       "Fraction of rows (best edge fits) each refit round keeps.", kSpec, {}, true});
  add({"refit_rounds", "refit rounds", ParamType::Integer, 0, 50, "8", "", "Rounds of certify-then-refit.", kSpec});
  add({"refine", "refinement of W_sum", ParamType::Choice, 0, 0, "refit", "",
       "refit: certify, then refit (ours, the default). paper_phase3: the paper's Alg. 2 (proxy Theta~ from phase II, "
       "keep examples with a clear proxy winner, regress Y_1 on it); weak at small d (independent simulation: 0.22 -> 0.12-0.20).",
       kSpec, {"refit", "paper_phase3"}});
  add({"cert_samples", "certification samples", ParamType::Integer, 100, 100000000, "100000", "",
       "Examples streamed through certification (phase IV) to collect constraints on Theta.", kSpec, {}, true});
  add({"enclosure", "min-norm + widths of K", ParamType::Boolean, 0, 0, "false", "",
       "Optional (ours): the exact minimum-norm point of the set K the certified constraints carve out "
       "(slabs of half-width 2 eps, and the paper's 7 eps), and LP width probes max - min <U, Theta> over K, by an "
       "interior-point method (seconds at d = 12).",
       kSpec});
  add({"width_probes", "random width probes", ParamType::Integer, 0, 8, "3", "",
       "Random unit directions U for the width probes (with enclosure on); the recovered direction and, measured with "
       "the hidden heads, Theta_1 - Theta_2 are probed too when m >= 2.",
       kSpec});
  add({"heldout", "held-out examples", ParamType::Integer, 20, 100000, "300", "",
       "Examples for the head search and the value regression (Alg. 5).", kSpec});
  add({"adam_samples", "Adam training set", ParamType::Integer, 10, 1000000, "5000", "",
       "Training examples for the gradient-descent baseline (test set: 1000 more).", kSpec, {}, true});
  add({"adam_steps", "Adam steps", ParamType::Integer, 0, 100000, "3000", "", "Minibatch steps of Adam.", kSpec});
  add({"batch", "batch size", ParamType::Integer, 1, 4096, "256", "", "Examples per Adam step.", kSpec});
  add({"lr", "learning rate", ParamType::Real, 1e-5, 1, "0.01", "", "Adam's step size.", kSpec, {}, true});
  return Schema(std::move(s));
}

// [SECTION] Presets

std::vector<Preset> multihead_presets() {
  return {
      {"one_head", "(d, k, m) = (12, 3, 1)",
       "One head. The pipeline certifies rows whose output lies on a simplex edge, reads Theta off the "
       "constraints and regresses W (an independent simulation measured Theta 1.4%, W 0.2% from 1e5 examples). Adam recovers it "
       "too, from far fewer examples.",
       {{"d", "12"}, {"k", "3"}, {"m", "1"}, {"norm", "3"}, {"eps", "0.05"}, {"cert_samples", "100000"}}},
      {"two_heads", "(d, k, m) = (12, 3, 2), eps 0.05",
       "Two heads: a row is certified only when both heads attend alike, far more rarely than with one head (the "
       "notes give the rate), so the pipeline needs 6e5 examples (independent simulation: Theta ~2%, W ~0.4%). The "
       "head search is a 2-D grid along the recovered direction, with two symmetric minima (the heads can be "
       "swapped).",
       {{"d", "12"}, {"k", "3"}, {"m", "2"}, {"norm", "3"}, {"eps", "0.05"}, {"cert_samples", "600000"}}},
      {"large", "(16, 4, 2): long", "d = 16, k = 4, m = 2 from 3e6 certification examples (independent simulation: ~1.3%). A long "
       "run: about a minute natively.",
       {{"d", "16"}, {"k", "4"}, {"m", "2"}, {"norm", "3"}, {"eps", "0.05"}, {"cert_samples", "3000000"}}},
      {"three_heads", "(12, 3, 3), eps 0.2: long",
       "Three heads: certified rows are rare (acceptance ~1e-5 per row at eps 0.1) and eps must grow to 0.2, so "
       "Theta comes out only to 12-15% in an independent simulation. The head search is Nelder-Mead over 6 coefficients.",
       {{"d", "12"}, {"k", "3"}, {"m", "3"}, {"norm", "3"}, {"eps", "0.2"}, {"cert_samples", "2000000"}}},
      {"hard_attention", "Hard attention: (12, 3, 2), ||Theta|| = 15",
       "Near one-hot attention slows Adam (an independent simulation measured test MSE ~4e-4 after 3000 steps) while "
       "certified rows become rare.",
       {{"d", "12"}, {"k", "3"}, {"m", "2"}, {"norm", "15"}, {"cert_samples", "600000"}}},
  };
}

// [SECTION] Decoding the parameters

void decode_params(const Params& p, std::uint64_t seed, InstanceSettings& s, RunSettings& run) {
  s.d = static_cast<int>(p.integer("d"));
  s.k = static_cast<int>(p.integer("k"));
  s.m = static_cast<int>(p.integer("m"));
  s.norm = p.real("norm");
  s.lambda = p.real("lambda");
  run.k = s.k;
  run.m = s.m;
  run.gaussian = p.text("inputs") == "gaussian";
  run.seed = seed;
  run.crude_total = p.integer("crude_samples");
  run.adam_total = p.integer("adam_steps");
  run.pipeline = p.boolean("pipeline");
  run.certify.eps = p.real("eps");
  run.pool_total = p.integer("pool_samples");
  run.keep = p.real("keep");
  run.refit_rounds = static_cast<int>(p.integer("refit_rounds"));
  run.paper_phase3 = p.text("refine") == "paper_phase3";
  run.cert_total = p.integer("cert_samples");
  run.heldout_total = static_cast<int>(p.integer("heldout"));
  run.enclosure = p.boolean("enclosure");
  run.width_probes = static_cast<int>(p.integer("width_probes"));
  run.adam.samples = static_cast<int>(p.integer("adam_samples"));
  run.adam.batch = static_cast<int>(p.integer("batch"));
  run.adam.lr = p.real("lr");
  run.adam.gaussian_inputs = run.gaussian;
  const double work = double(run.crude_total) + double(run.adam_total) * run.adam.batch + run.adam.samples +
                      (run.pipeline ? double(run.cert_total) + double(run.pool_total) * (run.refit_rounds + 1)
                                    : 0.0);
  if (work * s.m * s.k * s.d * s.d > 5e12)
    throw ParamError("parameter 'cert_samples': this run would take hours; allowed: fewer samples or steps, or a "
                     "smaller d");
}

}  // namespace attnlab::multihead
