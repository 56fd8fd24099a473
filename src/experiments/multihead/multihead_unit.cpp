// Index of this file
// [SECTION] The pipeline's test error
// [SECTION] Unit 0: the pipeline (phase I, then phases II-VI)
// [SECTION] The pipeline's enclosure of K (optional)
// [SECTION] The pipeline's measurements (against the hidden heads)
// [SECTION] Unit 1: Adam
// (the partial codec is in multihead_codec.cpp)
#include "experiments/multihead/multihead_unit.hpp"

#include <algorithm>
#include <cmath>

#include "experiments/multihead/enclosure.hpp"
#include "lab/clock.hpp"
#include "lab/schema.hpp"
#include "lab/text.hpp"

namespace attnlab::multihead {

// [SECTION] The pipeline's test error

namespace {


// E ||F(X) - F^(X)||_F^2 over 1000 inputs of stream 5 (the pipeline's test set).
double test_mse(const RunSettings& run, const Layer& layer) {
  Rng rng = Rng::for_stream(run.seed, 5);
  double total = 0.0;
  for (int n = 0; n < 1000; ++n) {
    const Eigen::MatrixXd X = random_input(run.k, run.d(), rng, run.gaussian);
    total += (apply(layer, X) - apply(run.truth, X)).squaredNorm();
  }
  return total / 1000.0;
}

}  // namespace

// [SECTION] Unit 0: the pipeline (phase I, then phases II-VI)

PipelineTask::PipelineTask(std::shared_ptr<const RunSettings> run)
    : run_(std::move(run)), crude_(run_->d()), data_rng_(Rng::for_stream(run_->seed, 1)) {}

bool PipelineTask::run_piece() {
  const double t0 = now_seconds();
  advance();
  seconds_ += now_seconds() - t0;
  return stage_ == Stage::Done;
}

double PipelineTask::fraction() const {
  if (stage_ == Stage::Done) return 1.0;
  std::int64_t done = crude_.count();
  if (run_->pipeline)
    done += pool_drawn_ + (stage_ > Stage::Certify ? run_->cert_total : cert_done_) +
            static_cast<std::int64_t>(heldout_x_.size()) +
            std::min(search_.searched(), HeadSearch::cells(run_->m)) * run_->heldout_total / 10 +
            RunSettings::kEnclosureIterationCost *
                std::min<std::int64_t>(enclosure_iterations_,
                                       RunSettings::kEnclosureIterations * run_->enclosure_programmes());
  return std::min(1.0, double(done) / double(std::max<std::int64_t>(1, run_->pipeline_cost())));
}

void PipelineTask::draw(Eigen::MatrixXd& X, Eigen::MatrixXd& Y) {
  X = random_input(run_->k, run_->d(), data_rng_, run_->gaussian);
  Y = apply(run_->truth, X);
}

// One piece of the current stage.
void PipelineTask::advance() {
  switch (stage_) {
    case Stage::Crude: return crude_piece();  // phase I (docs/multihead.md s.2)
    case Stage::Pool: return pool_piece();
    case Stage::Refit: return refit_piece();
    case Stage::Certify: return certify_piece();  // phase IV
    case Stage::Span: return span_piece();        // phase V
    case Stage::Enclosure:  // the optional parts of s.2: one interior-point iteration per piece
      if (enclosure_step()) stage_ = Stage::Search;
      return;
    case Stage::Search: return search_piece();
    case Stage::Values: return values_piece();  // phase VI (Alg. 5)
    case Stage::Done: return;
  }
}

void PipelineTask::crude_piece() {
  const RunSettings& run = *run_;
  Eigen::MatrixXd X, Y;
  if (crude_.count() < run.crude_total) {
    draw(X, Y);
    crude_.add(X, Y);
    if (crude_.count() >= next_checkpoint_ || crude_.count() == run.crude_total) {
      crude_curve_.push_back({double(crude_.count()), run.relative(crude_.estimate())});
      next_checkpoint_ = static_cast<long long>(std::ceil(static_cast<double>(next_checkpoint_) * 1.5));
    }
  }
  if (crude_.count() >= run.crude_total) {
    w_hat_ = crude_.estimate();
    stage_ = run.pipeline ? Stage::Pool : Stage::Done;
  }
}

void PipelineTask::pool_piece() {
  const RunSettings& run = *run_;
  Eigen::MatrixXd X, Y;
  if (pool_drawn_ < run.pool_total) {
    draw(X, Y);
    pool_x_.push_back(X);
    pool_y_.push_back(Y);
    ++pool_drawn_;
  } else {
    refit_curve_.push_back(run.relative(w_hat_));
    stage_ = Stage::Refit;
  }
}

// One round per piece ("certify, then refit", ours), or the paper's phase III once.
void PipelineTask::refit_piece() {
  const RunSettings& run = *run_;
  if (run.paper_phase3) {
    // Phase II runs against the crude W^ (tens of percent off), so it needs a wider eps: 10x (ours).
    CertifySettings wide = run.certify;
    wide.eps = std::min(1.0, 10.0 * run.certify.eps);
    w_hat_ = paper_phase3(pool_x_, pool_y_, w_hat_, wide, 2.0);
    refit_curve_.push_back(run.relative(w_hat_));
  } else if (static_cast<int>(refit_curve_.size()) <= run.refit_rounds) {
    w_hat_ = refit_w_sum(pool_x_, pool_y_, w_hat_, run.keep);
    refit_curve_.push_back(run.relative(w_hat_));
  }
  if (run.paper_phase3 || static_cast<int>(refit_curve_.size()) > run.refit_rounds) {
    pool_x_.clear(), pool_y_.clear();
    pool_x_.shrink_to_fit(), pool_y_.shrink_to_fit();
    stage_ = Stage::Certify;
  }
}

void PipelineTask::certify_piece() {
  const RunSettings& run = *run_;
  Eigen::MatrixXd X, Y;
  const std::size_t most = run.most_constraints();
  for (int u = 0; u < 16 && cert_done_ < run.cert_total && constraints_.size() < most; ++u, ++cert_done_) {
    draw(X, Y);
    const std::size_t before = constraints_.size();
    const int accepted = certify(X, Y, w_hat_, run.certify, constraints_);
    cert_rows_accepted_ += accepted;
    count_violations(before);
    if (accepted) remember_certified(X, Y);
  }
  if (cert_done_ >= run.cert_total || constraints_.size() >= most) stage_ = Stage::Span;
}

void PipelineTask::span_piece() {
  const RunSettings& run = *run_;
  Eigen::MatrixXd X, Y;
  if (static_cast<int>(heldout_x_.size()) < run.heldout_total) {
    draw(X, Y);
    heldout_x_.push_back(X);
    heldout_y_.push_back(Y);
    return;
  }
  span_ = extract_span(constraints_, run.d(), run.m);
  measure_span();
  stage_ = run.enclosure && !constraints_.empty() ? Stage::Enclosure : Stage::Search;
  search_.reset(run.m, span_, run.seed);
}

void PipelineTask::search_piece() {
  const RunSettings& run = *run_;
  if (search_.done()) {
    stage_ = Stage::Values;
    return;
  }
  if (run.m == 2) search_.evaluate_next(span_, run.d(), heldout_x_, heldout_y_);
  else search_.restart(span_, run.d(), heldout_x_, heldout_y_);
}

void PipelineTask::values_piece() {
  const RunSettings& run = *run_;
  Layer learned;
  learned.Theta = search_.best_thetas(span_, run.d());
  if (constraints_.size() < static_cast<std::size_t>(run.d())) {
    message_ = "too few rows were certified (" + std::to_string(constraints_.size()) +
               "): W^ is still " + format_number(std::round(100.0 * run.relative(w_hat_))) +
               "% off W_sum at this eps, so Theta is not determined; use the refit refinement, more samples or a "
               "larger eps";
    learned.Theta.clear();
  }
  if (!learned.Theta.empty()) {
    fit_values(learned.Theta, heldout_x_, heldout_y_, learned.W);
    const ParameterError e = parameter_error(run.truth, learned);
    pipeline_ = {test_mse(run, learned), e.theta, e.w};
  } else {
    if (message_.empty()) message_ = "the head search found no candidate";
  }
  stage_ = Stage::Done;
}

// [SECTION] The pipeline's enclosure of K (optional)

// The programmes over K, one after the other: the minimum-norm point with half-width 2 eps (the
// lab's slab) and 7 eps (the paper's), then for each probe direction U the max and the min of
// <U, theta>. Directions: `width_probes` random unit ones (stream 50), the recovered span
// direction, and (measured with the hidden heads) Theta_1 - Theta_2, for m >= 2. True once done.
bool PipelineTask::enclosure_step() {
  const RunSettings& run = *run_;
  const double eps = run.certify.eps;
  if (probes_.empty()) {
    Rng rng = Rng::for_stream(run.seed, 50);
    const Eigen::Index n = static_cast<Eigen::Index>(run.d()) * run.d();
    for (int k = 0; k < run.width_probes; ++k) {
      Eigen::VectorXd U(n);
      for (Eigen::Index i = 0; i < n; ++i) U[i] = rng.normal();
      probes_.push_back({0.0, U / U.norm()});
    }
    if (run.m >= 2) {
      if (span_.directions.cols() >= 1) probes_.push_back({1.0, span_.directions.col(0).normalized()});
      const Eigen::MatrixXd diff = run.truth.Theta[0] - run.truth.Theta[1];
      probes_.push_back({2.0, Eigen::Map<const Eigen::VectorXd>(diff.data(), diff.size()).normalized()});
    }
  }
  const std::size_t programmes = 2 + 2 * probes_.size();
  if (!programme_) {
    const std::size_t k = enclosure_results_.size();
    if (k == 0) programme_.emplace(min_norm_programme(constraints_, 2.0 * eps));
    else if (k == 1) programme_.emplace(min_norm_programme(constraints_, 7.0 * eps));
    else programme_.emplace(width_programme(constraints_, 2.0 * eps, probes_[(k - 2) / 2].direction, k % 2 == 0));
  }
  ++enclosure_iterations_;
  if (!programme_->step()) return false;
  const BoxQp& done = *programme_;
  const bool solved = done.status() == BoxQp::Status::Solved;
  const std::size_t k = enclosure_results_.size();
  if (k < 2) {
    // Minimum-norm point: its norm and its distance to the heads' affine hull's min-norm point (the
    // hidden heads: a measurement), with the duality gap and the worst violation.
    const Eigen::VectorXd hull = affine_hull_min_norm(run.truth.Theta);
    enclosure_results_.push_back({solved ? 1.0 : 0.0, done.x().norm(), (done.x() - hull).norm() / hull.norm(),
                                  done.gap(), done.violation(), double(done.iterations())});
    if (k == 0) min_norm_point_ = done.x();
  } else {
    const Probe& probe = probes_[(k - 2) / 2];
    enclosure_results_.push_back({solved ? 1.0 : 0.0, probe.kind, probe.direction.dot(done.x()), done.gap(),
                                  done.violation(), double(done.iterations())});
  }
  if (!solved) enclosure_failure_ = done.message();
  programme_.reset();
  return enclosure_results_.size() == programmes;
}

// [SECTION] The pipeline's measurements (against the hidden heads)

// Soundness, measured against the hidden heads (the learner never sees them): (head, constraint)
// pairs outside the 2 eps slab, for the constraints from index `from` on.
void PipelineTask::count_violations(std::size_t from) {
  for (std::size_t c = from; c < constraints_.size(); ++c)
    for (const auto& T : run_->truth.Theta)
      violated_ += std::fabs(constraints_[c].a.dot(Eigen::Map<const Eigen::VectorXd>(T.data(), T.size())) -
                             constraints_[c].rhs) > 2.0 * run_->certify.eps;
}

// The latest certified row, for the "certification stream" plot: its edge weights next to each
// hidden head's true attention row.
void PipelineTask::remember_certified(const Eigen::MatrixXd& X, const Eigen::MatrixXd& Y) {
  const Eigen::MatrixXd Z = X * w_hat_;
  const CertifySettings& cs = run_->certify;
  for (Eigen::Index r = 0; r < X.rows(); ++r) {
    const EdgeFit fit = best_edge(Z, Y.row(r));
    if (fit.residual < 0.5 * cs.eps && fit.t >= cs.min_weight && 1.0 - fit.t >= cs.min_weight) {
      stream_alpha_.assign(static_cast<std::size_t>(X.rows()), 0.0);
      stream_alpha_[static_cast<std::size_t>(fit.a)] = fit.t;
      stream_alpha_[static_cast<std::size_t>(fit.b)] = 1.0 - fit.t;
      stream_heads_.clear();
      for (const auto& T : run_->truth.Theta) {
        const Eigen::RowVectorXd a = row_softmax(X.row(r) * T * X.transpose());
        stream_heads_.insert(stream_heads_.end(), a.data(), a.data() + a.size());
      }
      return;
    }
  }
}

// How well the recovered directions span the true head differences Theta_1 - Theta_i: the
// smallest |cos| (m >= 2 and a full span only).
void PipelineTask::measure_span() {
  const int m = run_->m;
  if (m < 2 || span_.directions.cols() != m - 1 || !span_.singular_values.size()) return;
  double worst = 1.0;
  for (int i = 1; i < m; ++i) {
    const Eigen::MatrixXd diff = run_->truth.Theta[0] - run_->truth.Theta[i];
    const Eigen::Map<const Eigen::VectorXd> v(diff.data(), diff.size());
    worst = std::min(worst, (span_.directions.transpose() * v).norm() / v.norm());
  }
  span_cos_ = worst;
}

// [SECTION] Unit 1: Adam

bool AdamTask::run_piece() {
  const RunSettings& run = *run_;
  if (steps() >= run.adam_total) return true;
  const double t0 = now_seconds();
  if (!adam_) adam_.emplace(run.truth, run.k, run.adam, run.seed);
  adam_->step();
  const int t = adam_->steps();
  if (t == 1 || t % 50 == 0 || t == run.adam_total) {
    const ParameterError e = parameter_error(run.truth, adam_->learned());
    curve_.push_back({double(t), adam_->test_mse(), e.theta, e.w});
  }
  seconds_ += now_seconds() - t0;
  return steps() >= run.adam_total;
}

}  // namespace attnlab::multihead
