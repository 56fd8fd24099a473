// One attention layer trained by l_p-AttGD (docs/mirror.md s.1): token logits
// a_it = x_it^T W z_i, s_i = softmax, f_i = v^T X_i^T s_i, L = (1/n) sum_i l(Y_i f_i).
#pragma once
#include <Eigen/Dense>
#include <vector>

#include "experiments/mirror/dataset.hpp"

namespace attnlab::mirror {

enum class Loss { Logistic, Exponential, Correlation };

struct Forward {
  std::vector<Eigen::VectorXd> log_s;  // log-softmax of each sequence (exact even when s underflows)
  std::vector<Eigen::VectorXd> s;      // the softmax itself
  Eigen::VectorXd f;                   // outputs f_i
  double loss = 0.0;
  std::vector<Eigen::VectorXd> xv;     // X_i v of each sequence (for the gradient in W)
  // Per sequence, per pair t < tau in row order: log |x_it^T v - x_itau^T v| (-inf where they are
  // equal) and the sign of the difference (+1, or -1 where it is not positive). They depend on v
  // only, so they are formed when xv is.
  std::vector<std::vector<double>> log_abs_diff, diff_sign;
  // Kept between calls so that the training loop allocates nothing per step: the v that xv belongs
  // to, and scratch (per sequence the largest logit, the softmax's sum, its log; W z_i; X_i^T s_i).
  Eigen::VectorXd xv_of;
  std::vector<double> top, sum, log_sum, u, terms;
  Eigen::VectorXd wz, xs;
};
Forward forward(const Dataset& data, const Eigen::MatrixXd& W, const Eigen::VectorXd& v, Loss loss);
// The same into `out`, reusing its buffers (the training loop calls this every step).
void forward(const Dataset& data, const Eigen::MatrixXd& W, const Eigen::VectorXd& v, Loss loss, Forward& out);

// grad L(W) = (1/n) sum_i l'(Y_i f_i) Y_i h_i z_i^T with the stable pairwise form
// h_i = sum_{t<tau} s_it s_itau (x_it^T v - x_itau^T v)(x_it - x_itau) (docs/mirror.md s.1), returned scaled:
// grad = direction * exp(log_scale). Every weight is formed in the log domain and the largest is
// factored out, so the direction stays representable when s is one-hot to within e^-1000 and the
// gradient itself underflows (docs/mirror.md s.6). `direction` is zero only when the gradient is exactly 0.
struct ScaledGradient {
  Eigen::MatrixXd direction;
  double log_scale = 0.0;
  Eigen::MatrixXd value() const;  // direction * exp(log_scale): may underflow to 0 ("saturated")
  // Scratch kept between calls: per sequence log |l'(u_i)| and l'(u_i) Y_i; h_i and the pair coefficients.
  std::vector<double> log_l, lprime_y, work;
  std::vector<double> log_weight, shifted;  // the log domain's weights, and their exp after the shift
  Eigen::VectorXd h, coefficient;
};
// `fw` is forward(data, W, v, loss) (its xv are X_i v).
ScaledGradient gradient_W(const Dataset& data, const Eigen::MatrixXd& W, const Eigen::VectorXd& v, Loss loss,
                          const Forward& fw);
// The same into `g`, reusing its buffers (the training loop calls this every step).
void gradient_W(const Dataset& data, Loss loss, const Forward& fw, ScaledGradient& g);
// grad_v L = (1/n) sum_i l'(Y_i f_i) Y_i X_i^T s_i (joint training).
Eigen::VectorXd gradient_v(const Dataset& data, const Eigen::VectorXd& v, Loss loss, const Forward& fw);

// The selected token of each sequence: argmax of its softmax.
std::vector<int> selected_tokens(const Forward& fw);
void selected_tokens(const Forward& fw, std::vector<int>& alpha);  // the same into `alpha`

}  // namespace attnlab::mirror
