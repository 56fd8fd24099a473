#include "experiments/regression/regression_schema.hpp"

#include <string>
#include <utility>
#include <vector>

namespace attnlab::regression {

namespace {

const char* const kProblem = "docs/regression.md s.1";
const char* const kAlgorithm = "docs/regression.md s.3";
constexpr Method kAllMethods[kMethods] = {Method::Newton,  Method::ApproxDiag,   Method::ApproxW2,
                                          Method::Sampled, Method::SampledRank2, Method::GradientDescent};

// [SECTION] Choice tables
// The other choice parameters' tables (`function` is kHyperbolicTable, in problem.hpp; `target`
// and `source` are in regression_schema.hpp).
constexpr ChoiceTable<WeightRule> kWeightRuleTable{
    {"uniform", WeightRule::Uniform}, {"practical", WeightRule::Practical}, {"paper", WeightRule::PaperConstants}};
constexpr ChoiceTable<SamplingRule> kSamplingRuleTable{{"budget", SamplingRule::Budget},
                                                       {"paper", SamplingRule::Paper}};
constexpr ChoiceTable<LeverageScores> kLeverageTable{{"sketch", LeverageScores::Sketch},
                                                     {"exact", LeverageScores::Exact}};

// Whose each solver is (docs/regression.md s.3), for its switch's help.
const char* method_source(Method m) {
  switch (m) {
    case Method::ApproxDiag: return " (ours as a solver: the paper's Algorithm 1 samples this D = B_diag + W^2)";
    case Method::ApproxW2: return " (ours)";
    case Method::Sampled:
      return " (our implementation of the paper's Algorithm 1; the sampling rule and scores below are ours)";
    case Method::SampledRank2: return " (ours: the sampled H~ plus the exact rank-2 part)";
    default: return "";
  }
}

}  // namespace

// [SECTION] Schema
Schema regression_schema() {
  std::vector<ParamSpec> s;
  auto add = [&](ParamSpec p) { s.push_back(std::move(p)); };
  add(ParamSpec::choice("source", "problem", kSourceTable.names()).value("generate").section(kProblem)
      .help_text("generate: draw a problem from the settings below. data: the loaded problem file (A, b, w and "
                 "optionally x0; see the README)."));
  add(ParamSpec::choice("function", "function u", kHyperbolicTable.names()).value("exp").section(kProblem)
      .help_text("u(x) = exp(A x), cosh(A x) or sinh(A x), entrywise."));
  add(ParamSpec::integer("n", "rows n").range(1, 200000).value("200").section(kProblem)
      .help_text("Rows of A (n >= d)."));
  add(ParamSpec::integer("d", "columns d").range(1, 200).value("10").section(kProblem)
      .help_text("Columns of A: the dimension of x."));
  add(ParamSpec::real("norm_A", "||A||").range(0.01, 100).value("1").section(kProblem).log_slider()
      .help_text("Spectral norm of A (set exactly)."));
  add(ParamSpec::real("kappa", "condition number").range(1, 1e6).value("30").section(kProblem).log_slider()
      .help_text("Target condition number of A: the column scales spread geometrically over [1/kappa, 1] (the "
                 "measured kappa is reported)."));
  add(ParamSpec::real("density", "density of A").range(1e-5, 1).value("1").section(kProblem).log_slider()
      .help_text("Fraction of non-zero entries of A: nnz(A) sets the cost of an iteration."));
  add(ParamSpec::choice("target", "target b", kTargetTable.names()).value("planted").section(kProblem)
      .help_text("planted: b = u(x_true) / alpha(x_true), so c(x_true) = 0. simplex: random b >= 0 summing to 1. "
                 "unit: random b of norm 1."));
  add(ParamSpec::real("x_true_norm", "||x_true||").range(0, 50).value("1").section(kProblem)
      .help_text("Norm of the planted point x_true."));
  add(ParamSpec::choice("w_rule", "weights w", kWeightRuleTable.names()).value("uniform").section(kAlgorithm)
      .help_text("uniform: every w_i = w. practical: w^2 = 100 beta^ + l / sigma_min^2 with beta^ = ||B|| measured. "
                 "paper: the same with the paper's safe beta = 8 n e^{2 R^2}."));
  add(ParamSpec::real("w", "weight w").range(1e-4, 1e4).value("1").section(kProblem).log_slider()
      .help_text("The uniform weight of the regulariser 1/2 ||W A x||^2."));
  add(ParamSpec::real("l", "target l").range(1e-8, 1e3).value("0.001").section(kAlgorithm).log_slider()
      .help_text("The strong-convexity level H >= l I that the practical and paper weight rules aim at."));
  add(ParamSpec::real("r0", "start distance r0").range(0, 100).value("1").section(kAlgorithm)
      .help_text("The shared start x0 = x* + r0 u for a random unit u (x* first found by damped Newton from x_true)."));
  for (Method m : kAllMethods)
    add(ParamSpec::boolean(method_key(m), std::string("run ") + method_key(m)).value("true").section(kAlgorithm)
        .help_text(std::string("Run ") + method_label(m) + method_source(m) + "."));
  add(ParamSpec::boolean("damped", "damp exact Newton").value("false").section(kAlgorithm)
      .help_text("Armijo backtracking for exact Newton. Off by default: the paper's method takes full steps."));
  add(ParamSpec::choice("sampling", "sampling rule", kSamplingRuleTable.names())
      .value("budget").section(kAlgorithm)
      .help_text("How leverage-score sampling keeps row i. budget (ours): probability min(1, samples tau_i / d), "
                 "about 'samples' rows, one knob. paper: our reading of Lemma 6.4 (the paper gives no constant and "
                 "does not write p_i out): min(1, C tau_i log(d/delta) / eps1^2), at most C d log(d/delta) / eps1^2 "
                 "rows in expectation, and A^T D~ A within (1 +- eps1) of A^T D A with probability >= 1 - delta (the "
                 "notes count how often it was)."));
  add(ParamSpec::real("samples", "sample budget")
      .range(1, 1e7).value("100").in_units("rows").section(kAlgorithm).log_slider()
      .help_text("Ours (sampling = budget): expected rows kept by leverage-score sampling, row i with probability "
                 "min(1, samples tau_i / d)."));
  add(ParamSpec::real("C", "constant C").range(0.01, 100).value("4").section(kAlgorithm).log_slider()
      .help_text("sampling = paper: the constant C of p_i = min(1, C tau_i log(d/delta) / eps1^2). The paper leaves "
                 "it open; 4 is ours: with it the matrix Chernoff bound (Tropp 2012) gives a failure probability <= d "
                 "(delta/d)^(C/2) + d (delta/d)^(C/3) <= delta for d >= 2."));
  add(ParamSpec::real("delta", "failure probability delta")
      .range(1e-9, 0.5).value("0.1").section(kAlgorithm).log_slider()
      .help_text("sampling = paper: the failure probability of one SubSample call (Algorithm 1 calls it with delta/T, "
                 "so that all T iterations succeed together with probability >= 1 - delta)."));
  add(ParamSpec::real("eps1", "sampling accuracy eps1")
      .range(0.01, 0.99).value("0.5").section(kAlgorithm).log_slider()
      .help_text("sampling = paper: the spectral accuracy (1 - eps1) A^T D A <= A^T D~ A <= (1 + eps1) A^T D A that "
                 "one call promises."));
  add(ParamSpec::choice("leverage", "leverage scores", kLeverageTable.names())
      .value("sketch").section(kAlgorithm)
      .help_text("sketch (ours): approximate scores in O(nnz(A)) from a uniform-sample Gram matrix and a 16-column "
                 "Johnson-Lindenstrauss projection. exact: tau_i = D_i a_i^T (A^T D A)^-1 a_i from a Cholesky factor "
                 "(O(nnz(A) d + d^3) per step; a thin QR gives the same numbers)."));
  add(ParamSpec::integer("max_iterations", "iteration limit").range(1, 100000).value("3000").section(kAlgorithm)
      .help_text("Iterations per solver at most (gradient descent needs thousands)."));
  add(ParamSpec::real("tolerance", "stop at ||x - x*|| <=")
      .range(1e-15, 1).value("1e-13").section(kAlgorithm).log_slider()
      .help_text("A solver stops when its distance to x* is at most this."));
  return Schema(std::move(s));
}

// [SECTION] Presets
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
       "Newton doubles its correct digits each step; approximate Newton with the unsampled A^T (B_diag + W^2) A (the "
       "paper's Algorithm 1 without its sampling) has eps0 about 0.04 and contracts by about eps0 per step. Ours: "
       "near x* the error's linearised map has spectral radius at most eps0 / (1 - eps0), at most 2 eps0 while "
       "eps0 <= 1/2; that bounds the rate over many steps, not each step's ratio. The sampled ones, with eps0 "
       "about 0.5 at 100 samples, contract irregularly; gradient descent crawls, since kappa(H) ~ kappa(A)^2. "
       "The notes give each solver's median eps0 and contraction.",
       reference_settings()},
      {"far_start", "Far start: ||A|| = 2, r0 = 6",
       "A start far outside the certified radius 0.1 l / M (the theorem is local). The first full Newton step "
       "moves away from x* before the quadratic phase begins; the leverage-sampled and W^2 approximations may "
       "wander or overflow (reported as a state). Switch 'damp exact Newton' on to see backtracking keep every "
       "step a descent step.",
       with(reference_settings(), {{"norm_A", "2"}, {"r0", "6"}, {"max_iterations", "500"}})},
      {"w2_stall", "W^2 alone, weak w = 1: stalls, then diverges",
       "H~ = A^T W^2 A ignores the data term B, and with w = 1 B is not small beside W^2 (beta^ = 1.33 > w^2 = 1; "
       "the condition of Lemma C.4(2) is not met). At x* the smallest eigenvalue of H^-1 H~ is 0.498: along that direction the full "
       "step is twice too long and the error is multiplied by -(1 / 0.498 - 1) = -1.01 each step, right at the "
       "edge, since our local bound eps0 / (1 - eps0) promises contraction only for eps0 < 1/2. Along the iterates eps0 is 0.51 to 0.52 at first (median 0.52 "
       "over the run) and nears 1 as x leaves x*, so ||x - x*|| grows, by a few percent a step at first (about 2 "
       "after 10 steps), then faster, until exp overflows (iteration 77).",
       with(reference_settings(), {{"approx_diag", "false"}, {"sampled", "false"}, {"sampled_rank2", "false"},
                                   {"gd", "false"}, {"max_iterations", "300"}})},
      {"w2_converge", "W^2 alone, strong w = 12: converges",
       "With w = 12 the regulariser dominates, W^2 alone approximates the Hessian well (eps0 below 0.01) and the "
       "same method converges linearly. Lemma C.4(2)'s condition, w^2 >= 100 beta + l / sigma_min^2 for some l > 0, "
       "is met, just: w^2 = 144 against 100 beta^ = 141.",
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
       "sampled approximation about (max(8d, 4 samples) + samples) d^2 for the Gram sums plus 32 nnz(A) for the "
       "sketched scores (our count of flops, as in the notes). Compare the "
       "flops per step the notes count, the milliseconds per iteration and the time to 1e-10. Gradient descent is off (it would need "
       "thousands of passes over A).",
       with(reference_settings(), {{"n", "100000"}, {"d", "50"}, {"kappa", "10"}, {"samples", "2000"},
                                   {"gd", "false"}, {"max_iterations", "200"}})},
  };
}

// [SECTION] Decoding: validated params -> the run's settings
GeneratorSettings shared_generator_settings(const Params& p) {
  GeneratorSettings s;
  s.function = kHyperbolicTable.decode(p, "function");
  s.n = static_cast<int>(p.integer("n"));
  s.d = static_cast<int>(p.integer("d"));
  if (s.n < s.d)
    throw ParamError("parameter 'n': " + std::to_string(s.n) + " is less than d = " + std::to_string(s.d) +
                     "; allowed: n >= d");
  s.norm = p.real("norm_A");
  s.condition = p.real("kappa");
  s.target = kTargetTable.decode(p, "target");
  return s;
}

GeneratorSettings generator_settings(const Params& p) {
  GeneratorSettings s = shared_generator_settings(p);
  s.density = p.real("density");
  s.x_true_norm = p.real("x_true_norm");
  s.weight_rule = kWeightRuleTable.decode(p, "w_rule");
  s.w = p.real("w");
  s.l = p.real("l");
  return s;
}

SamplingSettings sampling_settings(const Params& p) {
  SamplingSettings s;
  s.rule = kSamplingRuleTable.decode(p, "sampling");
  s.scores = kLeverageTable.decode(p, "leverage");
  s.samples = p.real("samples");
  s.C = p.real("C");
  s.delta = p.real("delta");
  s.eps1 = p.real("eps1");
  return s;
}

SolverOptions solver_options(const Params& p, std::uint64_t seed) {
  SolverOptions options;
  options.damped = p.boolean("damped");
  options.sampling = sampling_settings(p);
  options.max_iterations = static_cast<int>(p.integer("max_iterations"));
  options.tolerance = p.real("tolerance");
  options.seed = seed;
  return options;
}

std::vector<Method> selected_methods(const Params& p) {
  std::vector<Method> methods;
  for (Method m : kAllMethods)
    if (p.boolean(method_key(m))) methods.push_back(m);
  if (methods.empty()) throw ParamError("parameter 'newton': no solver is switched on; allowed: at least one solver");
  return methods;
}

}  // namespace attnlab::regression
