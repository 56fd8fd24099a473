#include "experiments/mirror/model.hpp"

#include <algorithm>
#include <cmath>

#include "core/det_math.hpp"

namespace attnlab::mirror {

namespace {

// log(1 + e^u), stable for any u.
double softplus(double u) {
  if (u > 30.0) return u + dmath::exp(-u);
  const double e = dmath::exp(u);
  return e < 1e-5 ? e - 0.5 * e * e : dmath::log(1.0 + e);
}

double loss_value(Loss loss, double u) {
  switch (loss) {
    case Loss::Logistic: return softplus(-u);
    case Loss::Exponential: return dmath::exp(-u);
    case Loss::Correlation: return -u;
  }
  return 0.0;
}

// log |l'(u)| (l' < 0 for all three losses): logistic l' = -1 / (1 + e^u), exponential -e^-u,
// correlation -1.
double log_abs_derivative(Loss loss, double u) {
  switch (loss) {
    case Loss::Logistic: return -softplus(u);
    case Loss::Exponential: return -u;
    case Loss::Correlation: return 0.0;
  }
  return 0.0;
}

}  // namespace

Forward forward(const Dataset& data, const Eigen::MatrixXd& W, const Eigen::VectorXd& v, Loss loss) {
  Forward fw;
  forward(data, W, v, loss, fw);
  return fw;
}

void forward(const Dataset& data, const Eigen::MatrixXd& W, const Eigen::VectorXd& v, Loss loss, Forward& fw) {
  const int n = data.n(), T = data.T();
  fw.f.resize(n);
  fw.log_s.resize(static_cast<std::size_t>(n));
  fw.s.resize(static_cast<std::size_t>(n));
  fw.loss = 0.0;
  for (int i = 0; i < n; ++i) {
    Eigen::VectorXd& log_s = fw.log_s[static_cast<std::size_t>(i)];
    Eigen::VectorXd& s = fw.s[static_cast<std::size_t>(i)];
    log_s.noalias() = data.X[static_cast<std::size_t>(i)] * (W * data.z[static_cast<std::size_t>(i)]);  // logits
    const double top = log_s.maxCoeff();
    s.resize(T);
    double sum = 0.0;
    for (int t = 0; t < T; ++t) sum += (s[t] = dmath::exp(log_s[t] - top));
    const double log_sum = dmath::log(sum);
    for (int t = 0; t < T; ++t) {
      log_s[t] = log_s[t] - top - log_sum;
      s[t] /= sum;
    }
    fw.f[i] = v.dot(data.X[static_cast<std::size_t>(i)].transpose() * s);
    fw.loss += loss_value(loss, data.Y[i] * fw.f[i]);
  }
  fw.loss /= n;
}

Eigen::MatrixXd ScaledGradient::value() const { return direction * dmath::exp(log_scale); }

ScaledGradient gradient_W(const Dataset& data, const Eigen::MatrixXd& W, const Eigen::VectorXd& v, Loss loss,
                          const Forward& fw) {
  (void)W;
  const int n = data.n(), T = data.T(), d = data.d();
  ScaledGradient g;
  g.direction = Eigen::MatrixXd::Zero(d, d);
  std::vector<double> log_l(static_cast<std::size_t>(n));
  double smallest = INFINITY;
  for (int i = 0; i < n; ++i) {
    log_l[static_cast<std::size_t>(i)] = log_abs_derivative(loss, data.Y[i] * fw.f[i]);
    smallest = std::min(smallest, log_l[static_cast<std::size_t>(i)] + 2.0 * fw.log_s[static_cast<std::size_t>(i)].minCoeff());
  }
  Eigen::VectorXd h(d), coefficient(T);
  if (smallest > -600.0) {
    // No weight can underflow: sum l'(u_i) Y_i s_it s_itau (x_it - x_itau)^T v (x_it - x_itau) directly.
    for (int i = 0; i < n; ++i) {
      const Eigen::MatrixXd& X = data.X[static_cast<std::size_t>(i)];
      const Eigen::VectorXd xv = X * v;
      const Eigen::VectorXd& s = fw.s[static_cast<std::size_t>(i)];
      const double lprime_y = -data.Y[i] * dmath::exp(log_l[static_cast<std::size_t>(i)]);  // l' < 0
      // h = sum_{t<tau} w_{t tau} (x_t - x_tau) = X^T c with c_t = sum_tau w_{t tau} (w antisymmetric):
      // O(T^2 + T d) instead of O(T^2 d).
      coefficient.setZero(T);
      for (int t = 0; t < T; ++t)
        for (int tau = t + 1; tau < T; ++tau) {
          const double w = s[t] * s[tau] * (xv[t] - xv[tau]);
          coefficient[t] += w;
          coefficient[tau] -= w;
        }
      h.noalias() = X.transpose() * coefficient;
      g.direction.noalias() += (lprime_y * h) * data.z[static_cast<std::size_t>(i)].transpose();
    }
    g.log_scale = -dmath::log(double(n));
    return g;
  }
  // Log domain: every weight as a sign and a log-magnitude, the largest factored out, so the
  // direction stays representable when s is one-hot to within e^-1000 (docs/mirror.md s.6).
  std::vector<double> log_weight, sign;
  double top = -INFINITY;
  for (int i = 0; i < n; ++i) {
    const Eigen::VectorXd xv = data.X[static_cast<std::size_t>(i)] * v;
    const double sign_l = -data.Y[i];
    const Eigen::VectorXd& log_s = fw.log_s[static_cast<std::size_t>(i)];
    for (int t = 0; t < T; ++t)
      for (int tau = t + 1; tau < T; ++tau) {
        const double diff = xv[t] - xv[tau];
        const double lw = diff == 0.0 ? -INFINITY
                                      : log_l[static_cast<std::size_t>(i)] + log_s[t] + log_s[tau] +
                                            dmath::log(std::fabs(diff));
        log_weight.push_back(lw);
        sign.push_back(diff > 0.0 ? sign_l : -sign_l);
        if (lw > top) top = lw;
      }
  }
  if (!std::isfinite(top)) return g;  // every term is 0: the gradient is exactly 0
  std::size_t k = 0;
  for (int i = 0; i < n; ++i) {
    const Eigen::MatrixXd& X = data.X[static_cast<std::size_t>(i)];
    h.setZero();
    for (int t = 0; t < T; ++t)
      for (int tau = t + 1; tau < T; ++tau, ++k)
        if (std::isfinite(log_weight[k]))
          h += (sign[k] * dmath::exp(log_weight[k] - top)) * (X.row(t) - X.row(tau)).transpose();
    g.direction.noalias() += h * data.z[static_cast<std::size_t>(i)].transpose();
  }
  g.log_scale = top - dmath::log(double(n));
  return g;
}

Eigen::VectorXd gradient_v(const Dataset& data, const Eigen::VectorXd& v, Loss loss, const Forward& fw) {
  (void)v;
  Eigen::VectorXd g = Eigen::VectorXd::Zero(data.d());
  for (int i = 0; i < data.n(); ++i) {
    const double u = data.Y[i] * fw.f[i];
    const double lprime = -dmath::exp(log_abs_derivative(loss, u));
    g += lprime * data.Y[i] * (data.X[static_cast<std::size_t>(i)].transpose() * fw.s[static_cast<std::size_t>(i)]);
  }
  return g / data.n();
}

std::vector<int> selected_tokens(const Forward& fw) {
  std::vector<int> alpha;
  for (const auto& log_s : fw.log_s) {
    Eigen::Index best = 0;
    log_s.maxCoeff(&best);
    alpha.push_back(static_cast<int>(best));
  }
  return alpha;
}

}  // namespace attnlab::mirror
