#include "core/nelder_mead.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace attnlab {

NelderMeadResult nelder_mead(const std::function<double(const Eigen::VectorXd&)>& f, const Eigen::VectorXd& x0,
                             double step, int max_evaluations, double tolerance) {
  const int n = static_cast<int>(x0.size());
  std::vector<Eigen::VectorXd> x(static_cast<std::size_t>(n + 1), x0);
  std::vector<double> v(static_cast<std::size_t>(n + 1));
  int evaluations = 0;
  auto eval = [&](const Eigen::VectorXd& p) {
    ++evaluations;
    const double value = f(p);
    return std::isfinite(value) ? value : INFINITY;
  };
  for (int i = 0; i < n; ++i) x[static_cast<std::size_t>(i + 1)][i] += step;
  for (int i = 0; i <= n; ++i) v[static_cast<std::size_t>(i)] = eval(x[static_cast<std::size_t>(i)]);
  std::vector<int> order(static_cast<std::size_t>(n + 1));
  while (evaluations < max_evaluations) {
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](int a, int b) { return v[a] != v[b] ? v[a] < v[b] : a < b; });
    const int best = order.front(), worst = order.back(), second = order[static_cast<std::size_t>(n - 1)];
    if (std::fabs(v[worst] - v[best]) <= tolerance * (std::fabs(v[best]) + 1e-300)) break;
    Eigen::VectorXd centre = Eigen::VectorXd::Zero(n);
    for (int i = 0; i <= n; ++i)
      if (i != worst) centre += x[static_cast<std::size_t>(i)];
    centre /= n;
    const Eigen::VectorXd reflected = centre + (centre - x[worst]);
    const double vr = eval(reflected);
    if (vr < v[best]) {
      const Eigen::VectorXd expanded = centre + 2.0 * (centre - x[worst]);
      const double ve = eval(expanded);
      if (ve < vr) x[worst] = expanded, v[worst] = ve;
      else x[worst] = reflected, v[worst] = vr;
    } else if (vr < v[second]) {
      x[worst] = reflected, v[worst] = vr;
    } else {
      const Eigen::VectorXd contracted = centre + 0.5 * (x[worst] - centre);
      const double vc = eval(contracted);
      if (vc < v[worst]) {
        x[worst] = contracted, v[worst] = vc;
      } else {  // shrink towards the best point
        for (int i = 0; i <= n; ++i)
          if (i != best) {
            x[static_cast<std::size_t>(i)] = x[best] + 0.5 * (x[static_cast<std::size_t>(i)] - x[best]);
            v[static_cast<std::size_t>(i)] = eval(x[static_cast<std::size_t>(i)]);
          }
      }
    }
  }
  const int best = static_cast<int>(std::min_element(v.begin(), v.end()) - v.begin());
  return {x[static_cast<std::size_t>(best)], v[static_cast<std::size_t>(best)], evaluations};
}

}  // namespace attnlab
