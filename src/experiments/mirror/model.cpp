#include "experiments/mirror/model.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/det_math.hpp"

namespace attnlab::mirror {

namespace {

// log(1 + e^u), stable for any u.
double softplus(double u) {
  if (u > 30.0) return u + dmath::exp(-u);
  const double e = dmath::exp(u);
  return e < 1e-5 ? e - 0.5 * e * e : dmath::log(1.0 + e);
}

// out[i] = softplus(u[i]) for i < n, bit for bit, with the exp and log of all n at once. `e` and
// `l` are scratch of n entries; out may equal u.
void softplus_array(const double* u, double* out, std::size_t n, double* e, double* l) {
  for (std::size_t i = 0; i < n; ++i) e[i] = u[i] > 30.0 ? -u[i] : u[i];
  dmath::exp_array(e, e, n);
  for (std::size_t i = 0; i < n; ++i) l[i] = 1.0 + e[i];
  dmath::log_array(l, l, n);
  for (std::size_t i = 0; i < n; ++i)
    out[i] = u[i] > 30.0 ? u[i] + e[i] : e[i] < 1e-5 ? e[i] - 0.5 * e[i] * e[i] : l[i];
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

bool same_bits(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), sizeof(double) * std::size_t(a.size())) == 0;
}

// fw.xv[i] = X_i v, computed again only when v changed (bit for bit the same product either way).
void token_values(const Dataset& data, const Eigen::VectorXd& v, Forward& fw) {
  const std::size_t n = std::size_t(data.n());
  if (fw.xv.size() == n && same_bits(fw.xv_of, v)) return;
  fw.xv.resize(n);
  fw.log_abs_diff.resize(n);
  fw.diff_sign.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const Eigen::VectorXd& xv = fw.xv[i].noalias() = data.X[i] * v;
    std::vector<double>&log_abs = fw.log_abs_diff[i], &sign = fw.diff_sign[i];
    log_abs.clear();
    sign.clear();
    for (Eigen::Index t = 0; t < xv.size(); ++t)
      for (Eigen::Index tau = t + 1; tau < xv.size(); ++tau) {
        const double diff = xv[t] - xv[tau];
        log_abs.push_back(std::fabs(diff));
        sign.push_back(diff > 0.0 ? 1.0 : -1.0);
      }
    dmath::log_array(log_abs.data(), log_abs.data(), log_abs.size());  // log 0 = -inf
  }
  fw.xv_of = v;
}

}  // namespace

Forward forward(const Dataset& data, const Eigen::MatrixXd& W, const Eigen::VectorXd& v, Loss loss) {
  Forward fw;
  forward(data, W, v, loss, fw);
  return fw;
}

// Three passes over the sequences, so that the exp and log of every sequence run as arrays: the
// logits and their exp, then the log of every softmax sum, then the normalised softmax, f and the loss.
void forward(const Dataset& data, const Eigen::MatrixXd& W, const Eigen::VectorXd& v, Loss loss, Forward& fw) {
  const int n = data.n(), T = data.T();
  const std::size_t un = static_cast<std::size_t>(n);
  fw.f.resize(n);
  fw.log_s.resize(un);
  fw.s.resize(un);
  for (auto* buffer : {&fw.top, &fw.sum, &fw.log_sum, &fw.u, &fw.terms}) buffer->resize(un);
  for (std::size_t i = 0; i < un; ++i) {
    Eigen::VectorXd& log_s = fw.log_s[i];
    Eigen::VectorXd& s = fw.s[i];
    fw.wz.noalias() = W * data.z[i];
    log_s.noalias() = data.X[i] * fw.wz;  // logits
    const double top = log_s.maxCoeff();
    s.resize(T);
    for (int t = 0; t < T; ++t) s[t] = log_s[t] - top;
    dmath::exp_array(s.data(), s.data(), std::size_t(T));
    double sum = 0.0;
    for (int t = 0; t < T; ++t) sum += s[t];
    fw.top[i] = top;
    fw.sum[i] = sum;
  }
  dmath::log_array(fw.sum.data(), fw.log_sum.data(), un);
  for (std::size_t i = 0; i < un; ++i) {
    Eigen::VectorXd& log_s = fw.log_s[i];
    Eigen::VectorXd& s = fw.s[i];
    const double top = fw.top[i], sum = fw.sum[i], log_sum = fw.log_sum[i];
    for (int t = 0; t < T; ++t) {
      log_s[t] = log_s[t] - top - log_sum;
      s[t] /= sum;
    }
    fw.xs.noalias() = data.X[i].transpose() * s;
    fw.f[Eigen::Index(i)] = v.dot(fw.xs);
    fw.u[i] = data.Y[int(i)] * fw.f[Eigen::Index(i)];
  }
  if (loss == Loss::Logistic) {
    for (std::size_t i = 0; i < un; ++i) fw.u[i] = -fw.u[i];  // l(u) = softplus(-u)
    softplus_array(fw.u.data(), fw.terms.data(), un, fw.top.data(), fw.log_sum.data());
  } else {
    for (std::size_t i = 0; i < un; ++i) fw.terms[i] = loss_value(loss, fw.u[i]);
  }
  fw.loss = 0.0;
  for (std::size_t i = 0; i < un; ++i) fw.loss += fw.terms[i];
  fw.loss /= n;
  token_values(data, v, fw);
}

Eigen::MatrixXd ScaledGradient::value() const { return direction * dmath::exp(log_scale); }

ScaledGradient gradient_W(const Dataset& data, const Eigen::MatrixXd& W, const Eigen::VectorXd& v, Loss loss,
                          const Forward& fw) {
  (void)W;
  (void)v;  // fw.xv = X_i v
  ScaledGradient g;
  gradient_W(data, loss, fw, g);
  return g;
}

namespace {

// The gradient's log-domain form, into g (g.log_l holds log |l'(u_i)|, g.h is d long): every
// weight as a sign and a log-magnitude, the largest factored out, so the direction stays
// representable when s is one-hot to within e^-1000 (docs/mirror.md s.6).
void log_domain_direction(const Dataset& data, const Forward& fw, ScaledGradient& g) {
  const int n = data.n(), T = data.T();
  const std::size_t un = static_cast<std::size_t>(n);
  const std::vector<double>& log_l = g.log_l;
  Eigen::VectorXd& h = g.h;
  std::vector<double>&log_weight = g.log_weight, &shifted = g.shifted;
  log_weight.clear();
  double top = -INFINITY;
  for (std::size_t i = 0; i < un; ++i) {
    const Eigen::VectorXd& log_s = fw.log_s[i];
    const double* log_abs = fw.log_abs_diff[i].data();
    for (int t = 0, k = 0; t < T; ++t)
      for (int tau = t + 1; tau < T; ++tau, ++k) {
        const double lw = log_abs[k] == -INFINITY ? -INFINITY : log_l[i] + log_s[t] + log_s[tau] + log_abs[k];
        log_weight.push_back(lw);
        if (lw > top) top = lw;
      }
  }
  if (!std::isfinite(top)) return;  // every term is 0: the gradient is exactly 0
  shifted.resize(log_weight.size());
  for (std::size_t k = 0; k < log_weight.size(); ++k) shifted[k] = log_weight[k] - top;
  dmath::exp_array(shifted.data(), shifted.data(), shifted.size());  // exp(-inf) = 0: skipped below
  std::size_t k = 0;
  for (std::size_t i = 0; i < un; ++i) {
    const Eigen::MatrixXd& X = data.X[i];
    const double* sign = fw.diff_sign[i].data();
    const double sign_l = -data.Y[int(i)];
    h.setZero();
    for (int t = 0, pair = 0; t < T; ++t)
      for (int tau = t + 1; tau < T; ++tau, ++k, ++pair)
        if (std::isfinite(log_weight[k]))
          h += ((sign[pair] * sign_l) * shifted[k]) * (X.row(t) - X.row(tau)).transpose();
    g.direction.noalias() += h * data.z[i].transpose();
  }
  g.log_scale = top - dmath::log(double(n));
}

}  // namespace

void gradient_W(const Dataset& data, Loss loss, const Forward& fw, ScaledGradient& g) {
  const int n = data.n(), T = data.T(), d = data.d();
  const std::size_t un = static_cast<std::size_t>(n);
  g.direction.setZero(d, d);
  g.log_scale = 0.0;
  std::vector<double>&log_l = g.log_l, &lprime_y = g.lprime_y;
  for (auto* buffer : {&log_l, &lprime_y, &g.work}) buffer->resize(un);
  for (std::size_t i = 0; i < un; ++i) log_l[i] = data.Y[int(i)] * fw.f[Eigen::Index(i)];
  if (loss == Loss::Logistic) {  // log |l'(u)| = -softplus(u): the exp and log of all sequences at once
    softplus_array(log_l.data(), log_l.data(), un, lprime_y.data(), g.work.data());
    for (std::size_t i = 0; i < un; ++i) log_l[i] = -log_l[i];
  } else {
    for (std::size_t i = 0; i < un; ++i) log_l[i] = log_abs_derivative(loss, log_l[i]);
  }
  double smallest = INFINITY;
  for (std::size_t i = 0; i < un; ++i) smallest = std::min(smallest, log_l[i] + 2.0 * fw.log_s[i].minCoeff());
  g.h.resize(d);
  g.coefficient.resize(T);
  Eigen::VectorXd &h = g.h, &coefficient = g.coefficient;
  if (smallest > -600.0) {
    // No weight can underflow: sum l'(u_i) Y_i s_it s_itau (x_it - x_itau)^T v (x_it - x_itau) directly.
    dmath::exp_array(log_l.data(), lprime_y.data(), un);
    for (std::size_t i = 0; i < un; ++i) {
      const Eigen::MatrixXd& X = data.X[i];
      const Eigen::VectorXd& xv = fw.xv[i];
      const Eigen::VectorXd& s = fw.s[i];
      const double l_y = -data.Y[int(i)] * lprime_y[i];  // l' < 0
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
      // direction += (l' Y_i h) z_i^T, entry by entry as the outer product adds it.
      const Eigen::VectorXd& z = data.z[i];
      for (int c = 0; c < d; ++c) {
        const double zc = z[c];
        double* column = g.direction.data() + Eigen::Index(c) * d;
        for (int r = 0; r < d; ++r) column[r] += zc * (l_y * h[r]);
      }
    }
    g.log_scale = -dmath::log(double(n));
    return;
  }
  log_domain_direction(data, fw, g);
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
  selected_tokens(fw, alpha);
  return alpha;
}

void selected_tokens(const Forward& fw, std::vector<int>& alpha) {
  alpha.clear();
  for (const auto& log_s : fw.log_s) {
    Eigen::Index best = 0;
    log_s.maxCoeff(&best);
    alpha.push_back(static_cast<int>(best));
  }
}

}  // namespace attnlab::mirror
