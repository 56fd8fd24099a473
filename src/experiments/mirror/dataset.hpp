// Data of the mirror-descent experiments (docs/mirror.md s.1, s.4): n sequences X_i of T
// tokens in R^d, queries z_i, labels Y_i = +-1 and the value vector v.
#pragma once
#include <Eigen/Dense>
#include <cstdint>
#include <string>
#include <vector>

namespace attnlab::mirror {

struct Dataset {
  std::vector<Eigen::MatrixXd> X;  // n matrices, T x d (row t = token x_it)
  std::vector<Eigen::VectorXd> z;  // n queries in R^d
  Eigen::VectorXd Y;               // n labels, +1 or -1
  Eigen::VectorXd v;               // R^d: the fixed (or initial) value vector
  int n() const { return static_cast<int>(X.size()); }
  int T() const { return X.empty() ? 0 : static_cast<int>(X[0].rows()); }
  int d() const { return X.empty() ? 0 : static_cast<int>(X[0].cols()); }
};

// The paper's synthetic data [CODE]: X and z entries N(0, 1), each token and each z normalised to
// unit length, v a random unit vector, Y = +-1 with probability 1/2.
Dataset synthetic_dataset(int n, int T, int d, std::uint64_t seed);
// Its first sequence and query alone (X[0] and z[0] of synthetic_dataset(n, T, d, seed) for any n;
// Y and v are left empty): the picture before a run draws them without drawing the rest.
Dataset synthetic_first_sequence(int T, int d, std::uint64_t seed);
// The joint (W, v) toy of docs/mirror.md s.4: fixed X, Y = [1, -1], z_i = the first token of X_i, v = 0.
Dataset joint_toy_dataset();

// "Bring your own data": {"X": [[[...], ...], ...] (n x T x d), "Y": [+-1, ...], "z": [[...], ...]
// (optional: the first tokens), "v": [...] (optional: random unit)}. Throws ParamError naming the
// field ("data file: X[2] has 5 tokens; X[0] has 8").
Dataset read_dataset_file(const std::string& json, std::uint64_t seed);

// The best-scoring token of each sequence, by gamma_it = Y_i v^T x_it (the first on a tie): the
// cone initialisation's alpha (docs/mirror.md s.3).
std::vector<int> best_scoring_tokens(const Dataset& data);

}  // namespace attnlab::mirror
