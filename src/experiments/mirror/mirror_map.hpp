// The l_p mirror map of l_p-AttGD (docs/mirror.md s.2): potential psi(W) = (1/p) ||W||_p^p
// (entrywise), its gradient sign(W) |W|^{p-1} and inverse, the Bregman divergence and q-norms.
// Never pow() a negative base (docs/mirror.md s.6): every power goes through |x| with the sign restored.
#pragma once
#include <Eigen/Dense>
#include <cstddef>

#include "experiments/mirror/power_kernel.hpp"

namespace attnlab::mirror {

double psi(const Eigen::MatrixXd& W, double p);               // (1/p) sum |W_jk|^p
Eigen::MatrixXd grad_psi(const Eigen::MatrixXd& W, double p);  // sign(W) |W|^{p-1}
Eigen::MatrixXd grad_psi_inverse(const Eigen::MatrixXd& T, double p);  // sign(T) |T|^{1/(p-1)}
void grad_psi_inverse(const Eigen::MatrixXd& T, double p, Eigen::MatrixXd& W);  // the same into W
// D_psi(W, V) = psi(W) - psi(V) - <grad psi(V), W - V> >= 0.
double bregman(const Eigen::MatrixXd& W, const Eigen::MatrixXd& V, double p);
// Entrywise ||W||_r, scaled by max |W| first so that |w|^r neither underflows nor overflows
// (r = q = 11 at p = 1.1; docs/mirror.md s.6).
double entrywise_norm(const Eigen::MatrixXd& W, double r);
inline double dual_exponent(double p) { return p / (p - 1.0); }
// a^e for a > 0 through the deterministic pow, with exact shortcuts for the exponents p = 2 and
// p = 3 produce (1/2, -1/2, 3/2, 2).
double magnitude_power(double a, double e);
// sign(x) |x|^e: never pow() of a negative base (docs/mirror.md s.6).
double signed_power(double x, double e);
// out[k] = sign(x[k]) |x[k]|^e for k < n, each bit for bit signed_power(x[k], e); out != x.
void signed_power_array(const double* x, double* out, std::size_t n, const MagnitudePower& power);

}  // namespace attnlab::mirror
