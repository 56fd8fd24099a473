// The conditions of the paper's theorem and its constants next to measured ones (docs/regression.md s.3):
// l = lambda_min(H(x*)), beta^ = max ||B||, M^ from Hessian differences, the certified radius
// 0.1 l / M, and the weight conditions of Lemma C.4.
#pragma once
#include <string>
#include <vector>

#include "experiments/regression/solvers.hpp"

namespace attnlab::regression {

struct TheoryReport {
  double l = 0.0;             // lambda_min(H(x*))
  double beta_measured = 0.0; // max ||B(x)|| at x0 and x*
  double M_measured = 0.0;    // Hessian Lipschitz constant estimated around x*
  double R = 4.0, beta_theory = 0.0, M_theory = 0.0;
  double radius_theory = 0.0, radius_measured = 0.0;  // 0.1 l / M
  double r0 = 0.0;            // ||x0 - x*||
  std::vector<std::string> lines;  // "OK: ...", "Not met: ..." (a sufficient condition), or plain facts
};

TheoryReport check_theory(const Problem& p, const Reference& ref, const MatrixFacts& facts);

}  // namespace attnlab::regression
