// The lower-bound construction of Chen and Li (docs/multihead.md s.4): a layer of 8|S| + 8 heads on
// two tokens that computes a parity of 2|S| bits exactly, so statistical-query learners need
// d^Omega(m) queries, while Gaussian elimination over GF(2) (not an SQ algorithm) finds S at once.
#pragma once
#include <cstdint>
#include <vector>

#include "experiments/multihead/layer.hpp"

namespace attnlab::multihead {

// phi(z) = z tanh(z / 2): what a pair of opposite two-token heads computes.
double phi(double z);

struct Gadget {
  Layer layer;                 // 8|S| + 8 heads, d x d
  std::vector<double> knots;   // c_j: tau_j = rho c_j / 2
  std::vector<double> weights; // lambda_j, sum 0
};
// S = the first `s` coordinates after the sign coordinate (1..s). rho scales the knots.
Gadget build_gadget(int d, int s, double rho);

// The target on two tokens x_r = (a_r, z_r): output column 0 of row r is
// a_r [a_1 != a_2] prod_{j in S} z_1j z_2j, every other column 0.
Eigen::MatrixXd gadget_target(const Eigen::MatrixXd& X, int s);

// max over all 4^d inputs of |F(X) - target(X)| (d <= 8).
double verify_gadget(const Gadget& g, int s);

// Gaussian elimination over GF(2): recover S from examples of the parity. Returns the number of
// examples used until the solution was unique, or -1 if `max_examples` did not suffice; `found`
// gets the recovered indicator of S (over the d - 1 z-coordinates).
int recover_parity_gf2(int d, int s, std::uint64_t seed, int max_examples, std::vector<int>& found);

}  // namespace attnlab::multihead
