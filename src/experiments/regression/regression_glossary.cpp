// The regression story's glossary (regression_story.cpp): its terms in a student's words, each with
// the paper's place or "ours".
#include "experiments/regression/regression_story.hpp"

namespace attnlab::regression {

std::vector<GlossaryEntry> story_glossary() {
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
      {"alpha", "alpha(x), the sum of the entries of u(x): the rescaling factor. The data term compares u(x) "
                "with alpha(x) b, where classical softmax regression compares u(x) / alpha(x) with b.",
       "Definition 1.2 and Section 1"},
      {"Armijo", "A rule for a step's length: start long and halve it until the loss falls by enough.", "ours"},
      {"eps0", "How far the approximate Hessian is from the true one: 0 is exact; below 1/2, each step "
               "shrinks the error.", "Definition 6.2", true},
      {"flops", "Floating-point operations: the additions and multiplications a step costs.", "ours"},
      {"outer product", "a a^T for a row a of A: a d x d matrix; A^T D A is the sum of one per row, each weighted "
                        "by D's entry.", "ours"},
      {"leverage score", "How much one row of A matters to A^T A; rows with high scores are kept more often.",
       "ours"},
      {"tau_i", "Row i's leverage score, a number between 0 and 1: the larger it is, the more likely the sample "
                 "keeps row i.", "ours", true},
      {"B_diag", "The diagonal part of B, the data term's matrix in the Hessian A^T (B + W^2) A; B minus B_diag "
                 "is a matrix of rank 2 (two outer products).", "Section 4, Algorithm 1"},
      {"rank 2", "A matrix of rank 2 is a sum of two outer products; B - B_diag is one. The Hessian is "
                 "A^T (B_diag + W^2) A plus A^T (B - B_diag) A, of rank 2: the solver 'sampled + rank 2' (ours) adds "
                 "that part back exactly to its sampled H~, for two products with A.", "ours"},
      {"beta", "A bound on the size of B, the data term's matrix in the Hessian: every eigenvalue of B lies "
               "between -beta and beta. The lab measures it on its run and writes that value beta^ (a hat marks a "
               "value measured, not assumed).", "Lemma C.4"},
      {"lambda_min", "The Hessian's smallest eigenvalue at x*: how curved the loss is in its flattest direction.",
       "Definition 6.1", true},
      {"critical point", "A point where the slope (gradient) of the loss is zero: a minimiser, or another flat "
                         "point.", "ours"},
      {"sketch", "A small random summary of A (a sample of rows and a random projection) from which the leverage "
                 "scores are estimated without an exact solve.", "ours"},
      {"in-context learning", "A model adapting to the examples in its input, with no change to its weights; "
                              "here one step of the solver acts like a change of the target b.", "Corollary F.2"},
      {"rounding", "Doubles hold about 16 significant digits, so here a distance below about 1e-15 is rounding "
                   "error, not a measurement.", "ours"},
      {"condition number", "kappa(A): how many times more A stretches the direction it stretches most than the "
                           "one it stretches least (its largest singular value over its smallest).", "ours"},
      {"eigenvalue", "A number lambda with M v = lambda v for some direction v: along v the matrix M only "
                     "stretches, by lambda. A symmetric d x d matrix has d of them.", "ours"},
      {"singular value", "How much A stretches a direction: A's largest singular value is its largest stretch, "
                         "sigma_min(A) its smallest (the square roots of the eigenvalues of A^T A).", "ours"},
      {"residual", "What is left over: u - alpha b, the difference the loss's data term squares.", "ours"},
  };
}

}  // namespace attnlab::regression
