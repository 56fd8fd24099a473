#include "experiments/mirror/dataset.hpp"

#include <cmath>
#include <nlohmann/json.hpp>

#include "core/rng.hpp"
#include "lab/experiment.hpp"
#include "lab/json_document.hpp"
#include "lab/param.hpp"

namespace attnlab::mirror {

namespace {
Eigen::VectorXd random_unit(int d, Rng& rng) {
  Eigen::VectorXd u(d);
  for (int k = 0; k < d; ++k) u[k] = rng.normal();
  return u / u.norm();
}
}  // namespace

namespace {
// One synthetic sequence and its query, in the order synthetic_dataset draws them.
void draw_sequence(int T, int d, Rng& rng, Dataset& data) {
  Eigen::MatrixXd X(T, d);
  for (int t = 0; t < T; ++t) X.row(t) = random_unit(d, rng).transpose();
  data.X.push_back(X);
  data.z.push_back(random_unit(d, rng));
}
}  // namespace

Dataset synthetic_dataset(int n, int T, int d, std::uint64_t seed) {
  Rng rng = Rng::for_stream(seed, 0);
  Dataset data;
  for (int i = 0; i < n; ++i) draw_sequence(T, d, rng, data);
  data.Y.resize(n);
  for (int i = 0; i < n; ++i) data.Y[i] = (rng.next_u64() >> 63) ? 1.0 : -1.0;
  data.v = random_unit(d, rng);
  return data;
}

Dataset synthetic_first_sequence(int T, int d, std::uint64_t seed) {
  Rng rng = Rng::for_stream(seed, 0);
  Dataset data;
  draw_sequence(T, d, rng, data);
  return data;
}

Dataset joint_toy_dataset() {
  Dataset data;
  Eigen::MatrixXd X1(3, 2), X2(3, 2);
  X1 << -2.7, 1.2, 1.4, 2.1, 1.3, -0.1;
  X2 << 0.4, -2.2, -1.1, -0.4, 0.9, 0.1;
  data.X = {X1, X2};
  data.z = {X1.row(0).transpose(), X2.row(0).transpose()};
  data.Y = Eigen::Vector2d(1.0, -1.0);
  data.v = Eigen::VectorXd::Zero(2);
  return data;
}

Dataset read_dataset_file(const std::string& text, std::uint64_t seed) {
  using nlohmann::json;
  auto fail = [](const std::string& what) -> void { throw ParamError("data file: " + what); };
  const json doc = parse_json_document<json>(text, "data file", Experiment::kMaxDataBytes);
  if (!doc.is_object() || !doc.contains("X") || !doc.contains("Y")) fail("it needs an object with \"X\" and \"Y\"");
  auto number = [&](const json& v, const std::string& where) {
    if (!v.is_number()) fail(where + " is not a number");
    const double x = v.get<double>();
    if (!std::isfinite(x)) fail(where + " is not finite");
    return x;
  };
  auto vector_of = [&](const json& v, int size, const std::string& where) {
    if (!v.is_array() || static_cast<int>(v.size()) != size)
      fail(where + " must be an array of " + std::to_string(size) + " numbers");
    Eigen::VectorXd out(size);
    for (int k = 0; k < size; ++k) out[k] = number(v[static_cast<std::size_t>(k)], where + "[" + std::to_string(k) + "]");
    return out;
  };
  const json& X = doc["X"];
  if (!X.is_array() || X.empty()) fail("X must be a non-empty array of sequences (n x T x d)");
  Dataset data;
  int T = -1, d = -1;
  for (std::size_t i = 0; i < X.size(); ++i) {
    const std::string name = "X[" + std::to_string(i) + "]";
    if (!X[i].is_array() || X[i].empty() || !X[i][0].is_array()) fail(name + " must be an array of tokens");
    const int Ti = static_cast<int>(X[i].size()), di = static_cast<int>(X[i][0].size());
    if (T < 0) T = Ti, d = di;
    if (Ti != T) fail(name + " has " + std::to_string(Ti) + " tokens; X[0] has " + std::to_string(T));
    if (T < 2) fail("sequences need T >= 2 tokens (attention selects among them); X[0] has " + std::to_string(T));
    if (d < 1 || d > 64) fail("the token dimension d must be in [1, 64]; got " + std::to_string(d));
    Eigen::MatrixXd M(T, d);
    for (int t = 0; t < T; ++t)
      M.row(t) = vector_of(X[i][static_cast<std::size_t>(t)], d, name + "[" + std::to_string(t) + "]").transpose();
    data.X.push_back(M);
  }
  const int n = static_cast<int>(data.X.size());
  if (n > 1000) fail("at most 1000 sequences are allowed; got " + std::to_string(n));
  data.Y = vector_of(doc["Y"], n, "Y");
  for (int i = 0; i < n; ++i)
    if (data.Y[i] != 1.0 && data.Y[i] != -1.0) fail("Y[" + std::to_string(i) + "] must be +1 or -1");
  if (doc.contains("z") && (!doc["z"].is_array() || static_cast<int>(doc["z"].size()) != n))
    fail("z must have one query per sequence (" + std::to_string(n) + ")");
  for (int i = 0; i < n; ++i)
    data.z.push_back(doc.contains("z") ? vector_of(doc["z"][static_cast<std::size_t>(i)], d, "z[" + std::to_string(i) + "]")
                                       : Eigen::VectorXd(data.X[static_cast<std::size_t>(i)].row(0).transpose()));
  if (doc.contains("v")) {
    data.v = vector_of(doc["v"], d, "v");
  } else {
    Rng rng = Rng::for_stream(seed, 1);
    data.v = random_unit(d, rng);
  }
  return data;
}

std::vector<int> best_scoring_tokens(const Dataset& data) {
  std::vector<int> alpha;
  for (int i = 0; i < data.n(); ++i) {
    Eigen::Index best = 0;
    (data.Y[i] * (data.X[static_cast<std::size_t>(i)] * data.v)).maxCoeff(&best);
    alpha.push_back(static_cast<int>(best));
  }
  return alpha;
}

}  // namespace attnlab::mirror
