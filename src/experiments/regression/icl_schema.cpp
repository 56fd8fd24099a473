// `regression.icl`'s schema and presets (docs/regression.md s.4) and the move sizes a run sweeps.
#include "experiments/regression/icl_schema.hpp"

#include "core/det_math.hpp"
#include "experiments/regression/regression_schema.hpp"

namespace attnlab::regression {

namespace {

const char* const kSpec = "docs/regression.md s.4";

}  // namespace

// The move sizes delta swept, from delta_min to delta_max at per_decade points per decade.
std::vector<double> sweep_deltas(const Params& params) {
  const double lo = params.real("delta_min"), hi = params.real("delta_max");
  if (!(lo < hi))
    throw ParamError("parameter 'delta_max': " + format_number(hi) + " is not above delta_min = " +
                     format_number(lo) + "; allowed: delta_max > delta_min");
  std::vector<double> deltas;
  const double step = 1.0 / double(params.integer("per_decade"));
  for (double e = dmath::log10(lo); e <= dmath::log10(hi) + 1e-9; e += step) deltas.push_back(dmath::pow(10.0, e));
  return deltas;
}

Schema icl_schema() {
  std::vector<ParamSpec> s;
  auto add = [&](ParamSpec p) { s.push_back(std::move(p)); };
  add(ParamSpec::choice("function", "function u", kHyperbolicTable.names()).value("exp").section(kSpec)
      .help_text("u(x) = exp(A x), cosh(A x) or sinh(A x)."));
  add(ParamSpec::integer("n", "rows n").range(1, 5000).value("200").section(kSpec)
      .help_text("Rows of A (n >= d)."));
  add(ParamSpec::integer("d", "columns d").range(1, 200).value("10").section(kSpec)
      .help_text("Columns of A."));
  add(ParamSpec::real("norm_A", "||A||").range(0.01, 100).value("1").section(kSpec).log_slider()
      .help_text("Spectral norm of A."));
  add(ParamSpec::real("kappa", "condition number").range(1, 1e6).value("30").section(kSpec).log_slider()
      .help_text("Target condition number of A."));
  add(ParamSpec::choice("target", "target b", kTargetTable.names()).value("simplex").section(kSpec)
      .help_text("planted, simplex or unit, as in the regression experiment."));
  add(ParamSpec::real("x_norm", "||x||").range(0, 50).value("1").section(kSpec)
      .help_text("The point x_t where the step starts (a random direction of this norm)."));
  add(ParamSpec::choice("perturb", "what moves", kPerturbTable.names()).value("x").section(kSpec)
      .help_text("x: x_{t+1} = x_t + dx with ||dx|| = delta. A: A_{t+1} = A_t + dA with ||dA||_2 = delta."));
  add(ParamSpec::real("delta_min", "smallest move").range(1e-14, 1).value("1e-10").section(kSpec).log_slider()
      .help_text("The sweep starts here."));
  add(ParamSpec::real("delta_max", "largest move").range(1e-14, 10).value("0.1").section(kSpec).log_slider()
      .help_text("The sweep ends here."));
  add(ParamSpec::integer("per_decade", "points per decade").range(1, 20).value("3").section(kSpec)
      .help_text("Sweep points per factor of 10."));
  return Schema(std::move(s));
}

std::vector<Preset> icl_presets() {
  return {
      {"move_x", "Move x (exp)", "Sweep ||dx|| from 1e-10 to 0.1: slope 1, identity at rounding level.",
       {{"function", "exp"}, {"perturb", "x"}}},
      {"move_A", "Move A (exp)", "Sweep ||dA|| from 1e-10 to 0.1: the same linear law for a change of the data.",
       {{"function", "exp"}, {"perturb", "A"}}},
      {"sinh_alpha_zero", "sinh at x = 0: alpha ~ 0",
       "For sinh, alpha(x) = <sinh(A x), 1> is 0 at x = 0 and changes sign nearby, so b~ divides by a number "
       "near 0: ||b~ - b|| does not follow a linear law and no bound holds. Shown honestly, not hidden.",
       {{"function", "sinh"}, {"perturb", "x"}, {"x_norm", "0"}, {"target", "unit"}}},
  };
}

}  // namespace attnlab::regression
