// l_p-AttGD, one run (docs/mirror.md s.2): W+ = grad psi^-1( grad psi(W) - eta G ) with
// G = grad L (the theory's algorithm) or the normalised G = grad L / (||grad L||_q + eps) of the
// paper's experiments. Joint training updates v the same way.
#pragma once
#include <Eigen/Dense>

#include "experiments/mirror/model.hpp"

namespace attnlab::mirror {

struct TrainerSettings {
  double p = 2.0;
  double eta = 0.1;
  bool normalised = true;
  // [OURS] normalise in the log domain (exact direction, every step of q-norm 1); off: the authors' code's
  // grad / (||grad||_q + eps), whose steps shrink with ||grad||_q once it falls below eps (docs/mirror.md s.6).
  bool log_domain = true;
  double eps = 2.22e-16;
  Loss loss = Loss::Logistic;
  bool joint = false;  // also train v
};

class MirrorDescent {
 public:
  MirrorDescent(const Dataset& data, Eigen::MatrixXd W0, Eigen::VectorXd v0, const TrainerSettings& s);
  void step();
  const Eigen::MatrixXd& W() const { return W_; }
  const Eigen::VectorXd& v() const { return v_; }
  int iteration() const { return k_; }
  // The gradient underflowed to exactly 0 (un-normalised mode, saturated softmax): W stops moving.
  bool saturated() const { return saturated_; }
  const Forward& last_forward() const { return fw_; }

 private:
  const Dataset& data_;
  Eigen::MatrixXd W_, theta_;  // theta = grad psi(W): the mirror (dual) variable, updated additively
  Eigen::VectorXd v_, theta_v_;
  TrainerSettings s_;
  int k_ = 0;
  bool saturated_ = false;
  Forward fw_;
  ScaledGradient g_;  // the gradient and the step G of the latest step (buffers reused every step)
  Eigen::MatrixXd G_;
};

}  // namespace attnlab::mirror
