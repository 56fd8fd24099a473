// `multihead`'s two units (docs/multihead.md s.2 and s.5; docs/design.md "The run: prepare, units,
// merge, results"): the pipeline (phase I, then the lab's version of the paper's learner) and the
// Adam baseline, each a UnitTask, and their partial codec: what each unit's Partial holds
// (written by the task's partial(), read back by decode_pipeline / decode_adam for results()).
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Dense>

#include "core/box_qp.hpp"
#include "experiments/multihead/certification.hpp"
#include "experiments/multihead/head_search.hpp"
#include "experiments/multihead/learners.hpp"
#include "experiments/multihead/multihead_run.hpp"
#include "lab/work_unit.hpp"

namespace attnlab::multihead {

// Unit 0: phase I, then (with `pipeline` on) the paper's pipeline, one stage after the other. A
// piece is one example of phase I, the pool or the held-out set; one refit round; 16 examples of
// certification; one head-search cell or Nelder-Mead start; the value regression.
class PipelineTask final : public UnitTask {
 public:
  explicit PipelineTask(std::shared_ptr<const RunSettings> run);

  bool run_piece() override;
  Partial finish() override { return partial(); }
  double fraction() const override;
  // The curves so far: phase I's error, the refit rounds, the certification stream.
  bool preview(Partial& out) const override {
    out = partial();
    return true;
  }

 private:
  enum class Stage { Crude, Pool, Refit, Certify, Span, Enclosure, Search, Values, Done };

  void draw(Eigen::MatrixXd& X, Eigen::MatrixXd& Y);
  // One piece of the current stage, and one per stage.
  void advance();
  void crude_piece();
  void pool_piece();
  void refit_piece();
  void certify_piece();
  void span_piece();
  void search_piece();
  void values_piece();
  bool enclosure_step();
  void count_violations(std::size_t from);
  void remember_certified(const Eigen::MatrixXd& X, const Eigen::MatrixXd& Y);
  void measure_span();
  Partial partial() const;

  std::shared_ptr<const RunSettings> run_;
  Stage stage_ = Stage::Crude;
  CrudeEstimate crude_;
  Rng data_rng_;
  long long next_checkpoint_ = 10, pool_drawn_ = 0, cert_done_ = 0, cert_rows_accepted_ = 0, violated_ = 0;
  Eigen::MatrixXd w_hat_;
  std::vector<Eigen::MatrixXd> pool_x_, pool_y_, heldout_x_, heldout_y_;
  std::vector<Constraint> constraints_;
  Span span_;
  std::optional<double> span_cos_;
  HeadSearch search_;
  // The enclosure (optional): the probe directions (kind 0 random, 1 the recovered direction, 2 the
  // hidden Theta_1 - Theta_2), the programme in progress, and per finished programme six numbers:
  // solved, then norm and relative distance to the hull's min-norm point (min-norm points) or kind
  // and <U, theta> (probes), then the gap, the worst violation and the iterations.
  struct Probe {
    double kind;
    Eigen::VectorXd direction;
  };
  std::vector<Probe> probes_;
  std::optional<BoxQp> programme_;
  std::vector<std::array<double, 6>> enclosure_results_;
  Eigen::VectorXd min_norm_point_;
  std::string enclosure_failure_;
  std::int64_t enclosure_iterations_ = 0;
  std::optional<std::array<double, 3>> pipeline_;  // test MSE, Theta error, W error
  std::string message_;
  std::vector<std::array<double, 2>> crude_curve_;  // (examples, relative error)
  std::vector<double> refit_curve_;
  std::vector<double> stream_alpha_, stream_heads_;  // the latest certified row; heads one after another
  double seconds_ = 0.0;
};

// Unit 1: the baseline (docs/multihead.md s.5), one Adam step per piece; the training and test sets are drawn
// with the first.
class AdamTask final : public UnitTask {
 public:
  explicit AdamTask(std::shared_ptr<const RunSettings> run) : run_(std::move(run)) {}

  bool run_piece() override;
  Partial finish() override { return partial(); }
  double fraction() const override {
    return run_->adam_total > 0 ? std::min(1.0, double(steps()) / double(run_->adam_total)) : 1.0;
  }
  bool preview(Partial& out) const override {
    out = partial();
    return true;
  }

 private:
  long long steps() const { return adam_ ? adam_->steps() : 0; }
  Partial partial() const;

  std::shared_ptr<const RunSettings> run_;
  std::optional<AdamBaseline> adam_;
  std::vector<std::array<double, 4>> curve_;  // (step, test MSE, Theta error, W error)
  double seconds_ = 0.0;
};

// Unit 0's partial as results() reads it; a field is empty when the unit has not reported it (yet).
struct PipelinePartial {
  double seconds = 0.0;                     // wall time of the unit so far
  std::vector<double> crude_examples;       // phase I checkpoints: examples N
  std::vector<double> crude_error;          // ... and ||W^ - W_sum|| / ||W_sum|| there
  std::vector<double> refit_error;          // W_sum error before the first refit round and after each
  std::vector<double> certification;        // 4: examples done, rows accepted, constraints, violated pairs
  std::vector<double> stream_alpha;         // k: the latest certified row's edge weights
  std::vector<double> stream_heads;         // m k: each hidden head's attention row there, one after another
  std::vector<double> singular_values;      // of the stacked constraints, descending
  std::vector<double> span_cos;             // 1: the smallest |cos| of the span (m >= 2)
  std::vector<double> search_grid;          // kGridSize^2: the m = 2 search's first-round losses
  std::vector<double> pipeline;             // 3: test MSE, Theta error, W error
  std::vector<double> enclosure;            // six numbers per programme over K
  std::vector<double> enclosure_reference;  // 2: ||hull point||, theta_p's relative distance to it
  std::string enclosure_failure;            // a programme's failure message, or ""
  std::string message;                      // why the pipeline stopped short
};
PipelinePartial decode_pipeline(const std::optional<Partial>& pipe);

// Unit 1's partial as results() reads it: the curve at step 1, every 50th step and the last.
struct AdamPartial {
  double seconds = 0.0;           // wall time of the unit so far
  std::vector<double> step;       // Adam step
  std::vector<double> mse;        // test MSE there
  std::vector<double> theta_error;  // relative Theta error, heads matched
  std::vector<double> w_error;    // relative W error, heads matched
};
AdamPartial decode_adam(const std::optional<Partial>& adam);

}  // namespace attnlab::multihead
