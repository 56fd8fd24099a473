// The problem generator of the `regression` experiment (issue: problem generator; docs/regression.md s.1, s.5).
#pragma once
#include <cstdint>

#include "experiments/regression/problem.hpp"

namespace attnlab::regression {

enum class TargetKind { Planted, Simplex, Unit };
enum class WeightRule { Uniform, Practical, PaperConstants };

struct GeneratorSettings {
  Hyperbolic function = Hyperbolic::Exp;
  int n = 200, d = 10;
  double norm = 1.0;        // ||A||_2 exactly
  double condition = 30.0;  // target kappa(A): column scales spread geometrically over [1/kappa, 1]
  double density = 1.0;     // fraction of non-zero entries of A
  TargetKind target = TargetKind::Planted;
  double x_true_norm = 1.0;
  WeightRule weight_rule = WeightRule::Uniform;
  double w = 1.0;       // uniform rule
  double l = 1e-3;      // the practical and paper rules aim at H >= l I
  double r0 = 1.0;      // the start x0 lies at this distance from x* (set by the caller)
};

// A (n x d), x_true, b and w; x0 is left empty (it depends on x*). Throws ParamError naming the
// parameter when the draw is unusable (e.g. sinh with a planted b of norm above 1).
Problem generate(const GeneratorSettings& s, std::uint64_t seed);

// The weight rules of docs/regression.md s.3: w^2 = 100 beta + l / sigma_min^2, with beta measured (||B|| at
// x_true and at 0: "practical") or the paper's safe beta = 8 n e^{2 R^2} ("paper constants").
double weight_for(const Problem& p, WeightRule rule, double l, double R);

}  // namespace attnlab::regression
