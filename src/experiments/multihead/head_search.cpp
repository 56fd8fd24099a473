#include "experiments/multihead/head_search.hpp"

#include <algorithm>

#include "core/nelder_mead.hpp"
#include "core/rng.hpp"

namespace attnlab::multihead {

void HeadSearch::reset(int heads, const Span& span, std::uint64_t run_seed) {
  *this = HeadSearch{};
  m = heads;
  seed = run_seed;
  half = std::max(1.0, 2.0 * span.theta_p.norm());
}

std::vector<Eigen::MatrixXd> HeadSearch::general_thetas(const Span& span, int d, int m, const Eigen::VectorXd& c) {
  std::vector<Eigen::MatrixXd> out;
  for (int i = 0; i < m; ++i) {
    const Eigen::VectorXd t = span.theta_p + span.directions * c.segment(i * (m - 1), m - 1);
    out.emplace_back(Eigen::Map<const Eigen::MatrixXd>(t.data(), d, d));
  }
  return out;
}

void HeadSearch::restart(const Span& span, int d, const std::vector<Eigen::MatrixXd>& X,
                         const std::vector<Eigen::MatrixXd>& Y) {
  Rng rng = Rng::for_stream(seed, 40 + static_cast<std::uint64_t>(restarts_done));
  Eigen::VectorXd c0(m * (m - 1));
  for (Eigen::Index j = 0; j < c0.size(); ++j) c0[j] = rng.uniform(-half, half);
  const auto loss = [&](const Eigen::VectorXd& c) {
    std::vector<Eigen::MatrixXd> W;
    return fit_values(general_thetas(span, d, m, c), X, Y, W);
  };
  const NelderMeadResult r = nelder_mead(loss, c0, 0.25 * half, 400);
  if (r.value < best_loss) best_loss = r.value, best_c = r.x;
  ++restarts_done;
}

std::vector<Eigen::MatrixXd> HeadSearch::thetas(const Span& span, int d, double c1, double c2) {
  const Eigen::VectorXd t1 = span.theta_p + c1 * span.directions.col(0);
  const Eigen::VectorXd t2 = span.theta_p + c2 * span.directions.col(0);
  return {Eigen::Map<const Eigen::MatrixXd>(t1.data(), d, d), Eigen::Map<const Eigen::MatrixXd>(t2.data(), d, d)};
}

void HeadSearch::evaluate_next(const Span& span, int d, const std::vector<Eigen::MatrixXd>& X,
                               const std::vector<Eigen::MatrixXd>& Y) {
  const int i = next / kGridSize, j = next % kGridSize;
  const double c1 = centre1 + half * (2.0 * i / (kGridSize - 1) - 1.0);
  const double c2 = centre2 + half * (2.0 * j / (kGridSize - 1) - 1.0);
  std::vector<Eigen::MatrixXd> W;
  const double loss = fit_values(thetas(span, d, c1, c2), X, Y, W);
  if (round == 0) grid.push_back(loss);
  if (loss < best_loss) best_loss = loss, best1 = c1, best2 = c2;
  if (++next == kGridSize * kGridSize) {
    next = 0;
    ++round;
    centre1 = best1, centre2 = best2;
    half *= 4.0 / (kGridSize - 1);
  }
}

std::vector<Eigen::MatrixXd> HeadSearch::best_thetas(const Span& span, int d) const {
  if (m == 1) return {Eigen::Map<const Eigen::MatrixXd>(span.theta_p.data(), d, d)};
  if (m == 2) return thetas(span, d, best1, best2);
  if (best_c.size()) return general_thetas(span, d, m, best_c);
  return {};
}

}  // namespace attnlab::multihead
