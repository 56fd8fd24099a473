// `mirror` (docs/mirror.md): the unit task and its partial codec. Work units (docs/design.md "The
// run: prepare, units, merge, results"): one unit per seed, holding that seed's run of every p, so
// that the runs of a seed share their SVM solves.
//
// Index of this file
// [SECTION] Helpers
// [SECTION] SeedUnit
// [SECTION] Partial codec
#include "experiments/mirror/mirror_unit.hpp"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <map>
#include <optional>
#include <utility>

#include "core/det_math.hpp"
#include "experiments/mirror/att_svm.hpp"
#include "experiments/mirror/mirror_map.hpp"
#include "lab/partial_fields.hpp"

namespace attnlab::mirror {

namespace {

// [SECTION] Helpers

// The SVMs a run is compared with: those of the figure's p' = 1.75, 2, 3, and of the run's own p
// when it is not one of them (its notes report the own-p SVM).
std::vector<double> compared_ps(double p) {
  std::vector<double> ps(std::begin(kComparePs), std::end(kComparePs));
  if (std::find(ps.begin(), ps.end(), p) == ps.end()) ps.push_back(p);
  return ps;
}

// sigma(u) = 1 / (1 + e^-u) without overflow: e^-|u| <= 1 on both branches.
double logistic(double u) {
  const double e = dmath::exp(-std::fabs(u));
  return u >= 0.0 ? 1.0 / (1.0 + e) : e / (1.0 + e);
}

std::vector<double> flat(const Eigen::MatrixXd& M) { return std::vector<double>(M.data(), M.data() + M.size()); }

// [SECTION] SeedUnit

// The work of one piece, in operations on entries (about 1 ns each natively): about a millisecond.
constexpr double kPieceWork = 1e6;
constexpr int kMaxStepsPerPiece = 64;

// The runs of one seed (every p of the sweep) in two phases. First each run trains, one after the
// other (after the SVM of a cone initialisation). Then each run is compared: the SVMs of p' = 1.75,
// 2, 3 (and of its own p), the own-p SVMs of the alphas its checkpoints held (the shown run), the
// v-SVM of joint training, and its record. The comparisons wait for every run of the seed, because
// with the authors' tokens (docs/mirror.md s.4: their run-correlations-W.sh pairs run p's iterates with the
// SVM of run p') the SVM of p' is solved on the tokens the seed's p' run selected. A piece is at most
// 64 mirror-descent steps or about a millisecond of one SVM solve. The unit owns everything it
// changes: the data, the trainer, each run's W at its checkpoints, the records and the SVMs solved
// so far. The seed's runs share those SVMs: they usually select the same tokens, and every run is
// compared with the SVMs of p' = 1.75, 2 and 3, so a seed needs about a third of the solves that
// separate runs would (the SVMs cost more than the training: with one unit per run the
// synthetic_figure preset took 22 s of CPU natively, with one unit per seed 13 s).
class SeedUnit final : public UnitTask {
 public:
  SeedUnit(const RunSetup& setup, std::vector<RunPlan> plans)
      : setup_(setup), plans_(std::move(plans)), data_(dataset_for(setup_, plans_.front().seed_index)) {
    const double step_work = double(data_.n()) * data_.T() * data_.T() * data_.d() + 4.0 * data_.d() * data_.d();
    steps_per_piece_ = static_cast<int>(std::clamp(kPieceWork / step_work, 1.0, double(kMaxStepsPerPiece)));
    for (const RunPlan& plan : plans_) total_steps_ += plan.iterations;
    if (setup_.init_cone) cone_alpha_ = best_scoring_tokens(data_);
    stage_ = first_stage();
  }

  bool run_piece() override {
    const RunPlan& plan = plans_[run_];
    switch (stage_) {
      case Stage::ConeSvm:
        if (solve_piece(plan.p, cone_alpha_)) stage_ = Stage::Train;
        break;
      case Stage::Train:
        train_piece(plan);
        break;
      case Stage::ComparedSvms:
        if (solve_piece(compared_[next_svm_].first, compared_[next_svm_].second) && ++next_svm_ == compared_.size())
          stage_ = !trained_[run_].checkpoint_alphas.empty() ? Stage::CurrentAlphaSvms
                   : setup_.settings.joint                    ? Stage::ValueSvm
                                                              : Stage::Record;
        break;
      case Stage::CurrentAlphaSvms: {
        // The shown run only: the own-p SVM of every alpha held at a checkpoint.
        const std::vector<std::vector<int>>& held = trained_[run_].checkpoint_alphas;
        if (solve_piece(plan.p, held[next_alpha_]) && ++next_alpha_ == held.size())
          stage_ = setup_.settings.joint ? Stage::ValueSvm : Stage::Record;
        break;
      }
      case Stage::ValueSvm:
        if (!solver_) solver_.emplace(SvmSolver::value(data_, trained_[run_].alpha, plan.p));
        if (solver_->advance(kPieceWork)) {
          value_svm_ = solver_->solution();
          solver_.reset();
          stage_ = Stage::Record;
        }
        break;
      case Stage::Record:
        record_run(plan);
        break;
    }
    return finished_;
  }

  Partial finish() override { return encode(); }

  double fraction() const override {
    const std::int64_t running = trainer_ ? trainer_->iteration() : 0;
    return total_steps_ > 0 ? double(done_steps_ + running) / double(total_steps_) : 1.0;
  }

  bool preview(Partial& out) const override {
    if (records_.empty()) return false;
    out = encode();
    return true;
  }

 private:
  enum class Stage { ConeSvm, Train, ComparedSvms, CurrentAlphaSvms, ValueSvm, Record };
  Stage first_stage() const { return setup_.init_cone ? Stage::ConeSvm : Stage::Train; }

  // What a trained run leaves for its comparisons and its record.
  struct TrainedRun {
    std::vector<Eigen::MatrixXd> checkpoint_Ws;  // W at each checkpoint
    std::vector<int> alpha;                      // the selected tokens at the end
    // The shown run: the distinct alphas held at its checkpoints, and which one each checkpoint held.
    std::vector<std::vector<int>> checkpoint_alphas;
    std::vector<std::size_t> checkpoint_alpha_index;
    bool saturated = false;
    Eigen::VectorXd v;                        // v at the end
    std::vector<Eigen::VectorXd> final_s;     // the softmax at the end (the shown run)
  };

  Partial encode() const {
    Partial out;
    for (std::size_t i = 0; i < records_.size(); ++i) records_[i].encode(out, run_prefix(i));
    return out;
  }

  // One piece of the SVM for (p, alpha); true once it is solved (at once when a run of this seed
  // solved it before). Violation and duality gap below 1e-9 (docs/mirror.md s.5).
  bool solve_piece(double p, const std::vector<int>& alpha) {
    const SvmKey key{p, alpha};
    if (svms_.count(key)) return true;
    if (!solver_) solver_.emplace(SvmSolver::attention(data_, alpha, data_.v, p, 3000, 1e-9));
    if (!solver_->advance(kPieceWork)) return false;
    svms_.emplace(key, solver_->solution());
    solver_.reset();
    return true;
  }

  void start_training(const RunPlan& plan) {
    Eigen::MatrixXd W0 = random_start(setup_, plan.seed_index, data_.d());  // same W0 for every p
    if (setup_.init_cone) {
      const SvmSolution& svm = svms_.at({plan.p, cone_alpha_});
      if (svm.feasible && svm.norm_p > 0.0) W0 += 5.0 * svm.W / svm.norm_p;
    }
    TrainerSettings s = setup_.settings;
    s.p = plan.p;
    trainer_.emplace(data_, W0, data_.v, s);
    records_.emplace_back();
    records_.back().shown = plan.seed_index == 0;
    trained_.emplace_back();
    tracked_alpha_ = selected_tokens(trainer_->last_forward());
    record_if_checkpoint(plan);
  }

  void train_piece(const RunPlan& plan) {
    if (!trainer_) start_training(plan);
    for (int s = 0; s < steps_per_piece_ && trainer_->iteration() < plan.iterations; ++s) {
      trainer_->step();
      track_alpha();
      record_if_checkpoint(plan);
    }
    if (trainer_->iteration() < plan.iterations) return;
    TrainedRun& run = trained_.back();
    run.alpha = selected_tokens(trainer_->last_forward());
    run.saturated = trainer_->saturated();
    run.v = trainer_->v();
    if (records_.back().shown) run.final_s = trainer_->last_forward().s;
    done_steps_ += plan.iterations;
    trainer_.reset();
    if (++run_ < plans_.size()) {
      stage_ = first_stage();
    } else {
      run_ = 0;
      begin_comparisons();
    }
  }

  // The tokens the SVM of p' is solved on, for the run in comparison: the same seed's p' run's
  // (the authors'), or this run's own (ours, and the fallback when the sweep has no p' run).
  const std::vector<int>& tokens_for(double p_prime) const {
    if (setup_.svm_tokens == SvmTokens::Authors && p_prime != plans_[run_].p)
      for (std::size_t r = 0; r < plans_.size(); ++r)
        if (plans_[r].p == p_prime) return trained_[r].alpha;
    return trained_[run_].alpha;
  }

  void begin_comparisons() {
    compared_.clear();
    for (double q : compared_ps(plans_[run_].p)) compared_.push_back({q, tokens_for(q)});
    next_svm_ = 0;
    next_alpha_ = 0;
    stage_ = Stage::ComparedSvms;
  }

  // The selected tokens after every step: count (and for the shown run, mark) each change.
  void track_alpha() {
    selected_tokens(trainer_->last_forward(), alpha_now_);
    if (alpha_now_ == tracked_alpha_) return;
    RunRecord& rec = records_.back();
    rec.alpha_changes += 1.0;
    if (rec.shown) rec.change_ks.push_back(double(trainer_->iteration()));
    std::swap(tracked_alpha_, alpha_now_);
  }

  void record_if_checkpoint(const RunPlan& plan) {
    TrainedRun& run = trained_.back();
    const std::size_t c = run.checkpoint_Ws.size();
    if (c >= plan.checkpoints.size() || plan.checkpoints[c] != trainer_->iteration()) return;
    const Eigen::MatrixXd& W = trainer_->W();
    run.checkpoint_Ws.push_back(W);
    RunRecord& rec = records_.back();
    const Forward& fw = trainer_->last_forward();
    rec.loss.push_back(fw.loss);
    double prob = 0.0;
    for (const auto& log_s : fw.log_s) prob += dmath::exp(log_s.maxCoeff());
    rec.max_prob.push_back(prob / double(fw.log_s.size()));
    rec.norm.push_back(entrywise_norm(W, plan.p));
    if (setup_.settings.joint) {
      const Eigen::VectorXd& v = trainer_->v();
      double logit = 0.0;
      for (int i = 0; i < data_.n(); ++i) {
        const int a = tracked_alpha_[static_cast<std::size_t>(i)];
        logit += logistic(data_.Y[i] * data_.X[static_cast<std::size_t>(i)].row(a).dot(v));
      }
      rec.logistic_prob.push_back(logit / double(data_.n()));
    }
    if (!rec.shown) return;
    const auto found = std::find(run.checkpoint_alphas.begin(), run.checkpoint_alphas.end(), tracked_alpha_);
    run.checkpoint_alpha_index.push_back(static_cast<std::size_t>(found - run.checkpoint_alphas.begin()));
    if (found == run.checkpoint_alphas.end()) run.checkpoint_alphas.push_back(tracked_alpha_);
    if (const auto e = path_entries(static_cast<int>(W.rows())))
      rec.path_wa.push_back(W(e->ra, e->ca)), rec.path_wb.push_back(W(e->rb, e->cb));
    const Eigen::VectorXd& v = trainer_->v();
    if (setup_.settings.joint && v.size() >= 2)
      rec.path_v0.push_back(v[0]), rec.path_v1.push_back(v[1]), rec.path_v_norm.push_back(entrywise_norm(v, plan.p));
  }

  // The compared run's record: D_k against each SVM, what the notes count, and for seed 0 what the
  // heatmaps show. Then the next run's comparisons, or the end.
  void record_run(const RunPlan& plan) {
    RunRecord& rec = records_[run_];
    TrainedRun& run = trained_[run_];
    const double p = plan.p;
    // D_psi(W_mm / ||W_mm||_p, W_k / ||W_k||_p) with psi of the run's p, from checkpoint `from` on;
    // NaN at W = 0 or without a feasible SVM (docs/mirror.md s.6).
    auto divergences = [&](const SvmSolution& svm, std::size_t from) {
      const double svm_norm = entrywise_norm(svm.W, p);
      std::vector<double> D;
      for (std::size_t c = from; c < run.checkpoint_Ws.size(); ++c) {
        const double norm = rec.norm[c];
        D.push_back(norm > 0.0 && svm_norm > 0.0 && svm.feasible ? bregman(svm.W / svm_norm, run.checkpoint_Ws[c] / norm, p)
                                                                 : NAN);
      }
      return D;
    };
    for (std::size_t qi = 0; qi < 3; ++qi)
      rec.D[qi] = divergences(svms_.at({kComparePs[qi], tokens_for(kComparePs[qi])}), 0);
    const SvmSolution& own = svms_.at({p, run.alpha});
    if (rec.shown) {
      rec.D_final_alpha = divergences(own, 0);
      for (std::size_t c = 0; c < run.checkpoint_Ws.size(); ++c) {
        const SvmSolution& current = svms_.at({p, run.checkpoint_alphas[run.checkpoint_alpha_index[c]]});
        rec.D_current_alpha.push_back(divergences(current, c).front());
      }
    }
    rec.own_final_D = divergences(own, run.checkpoint_Ws.size() - 1).back();
    rec.own_gap = own.duality_gap;
    rec.own_violation = own.max_violation;
    rec.saturated = run.saturated;
    rec.locally_optimal = locally_optimal(data_, run.alpha, run.v, own.support);
    const Eigen::MatrixXd& W = run.checkpoint_Ws.back();
    const double top = W.cwiseAbs().maxCoeff();
    rec.sparsity = top > 0.0 ? double((W.cwiseAbs().array() < 0.01 * top).count()) / double(W.size()) : NAN;
    if (rec.shown) {
      rec.alpha.assign(run.alpha.begin(), run.alpha.end());
      rec.final_W = W;
      rec.svm_W = own.W;
      rec.svm_norm = own.norm_p;
      for (const auto& [i, t] : own.support) rec.support.insert(rec.support.end(), {double(i), double(t)});
      for (const Eigen::VectorXd& row : run.final_s) rec.final_s.insert(rec.final_s.end(), row.data(), row.data() + row.size());
      if (value_svm_) {
        rec.has_v_svm = true;
        rec.v_final.assign(run.v.data(), run.v.data() + run.v.size());
        rec.v_svm_W = flat(value_svm_->W);
        rec.v_svm_norm = value_svm_->norm_p;
      }
    }
    rec.done = true;
    run.checkpoint_Ws.clear();  // no longer needed: its D_k are in the record
    value_svm_.reset();
    if (++run_ < plans_.size()) begin_comparisons();
    else finished_ = true;
  }

  using SvmKey = std::pair<double, std::vector<int>>;  // (p, selected tokens)

  const RunSetup setup_;
  const std::vector<RunPlan> plans_;
  const Dataset data_;  // the seed's data (the trainer keeps a reference)
  int steps_per_piece_ = kMaxStepsPerPiece;
  std::int64_t total_steps_ = 0, done_steps_ = 0;
  std::vector<int> cone_alpha_;

  std::size_t run_ = 0;  // the run in training (first phase) or in comparison (second phase)
  Stage stage_ = Stage::Train;
  bool finished_ = false;
  std::optional<MirrorDescent> trainer_;
  std::vector<int> tracked_alpha_;   // the selected tokens after the latest step
  std::vector<int> alpha_now_;       // scratch of track_alpha()
  std::vector<TrainedRun> trained_;  // one per run started
  std::vector<SvmKey> compared_;     // the SVMs the run in comparison is compared with
  std::size_t next_svm_ = 0, next_alpha_ = 0;
  std::optional<SvmSolver> solver_;  // the solve in progress, if any
  std::optional<SvmSolution> value_svm_;
  std::map<SvmKey, SvmSolution> svms_;
  std::vector<RunRecord> records_;  // one per run started
};

}  // namespace

std::unique_ptr<UnitTask> make_seed_unit(const RunSetup& setup, std::vector<RunPlan> plans) {
  return std::make_unique<SeedUnit>(setup, std::move(plans));
}

// [SECTION] Partial codec

template <class Record, class Io>
void RunRecord::fields(Record& r, Io& io) {
  io.flag("done", r.done);
  io.flag("shown", r.shown);
  io.numbers("loss", r.loss);
  io.numbers("max_prob", r.max_prob);
  io.numbers("norm", r.norm);
  io.optional_numbers("path_wa", r.path_wa);
  io.optional_numbers("path_wb", r.path_wb);
  io.optional_numbers("logistic_prob", r.logistic_prob);
  io.optional_numbers("path_v0", r.path_v0);
  io.optional_numbers("path_v1", r.path_v1);
  io.optional_numbers("path_v_norm", r.path_v_norm);
  if (!r.done) return;
  for (std::size_t qi = 0; qi < 3; ++qi) io.numbers("D_svm_" + label_p(kComparePs[qi]), r.D[qi]);
  io.pack("own", r.own_final_D, r.own_gap, r.own_violation, r.sparsity, r.saturated, r.locally_optimal,
          r.alpha_changes);
  if (!r.shown) return;
  io.numbers("alpha", r.alpha);
  io.numbers("D_final_alpha", r.D_final_alpha);
  io.numbers("D_current_alpha", r.D_current_alpha);
  io.numbers("change_ks", r.change_ks);
  io.matrix("final_W", r.final_W);
  io.matrix("svm_W", r.svm_W);
  io.number("svm_norm", r.svm_norm);
  io.numbers("support", r.support);
  io.numbers("final_s", r.final_s);
  if (!io.present("v_final", r.has_v_svm)) return;
  io.numbers("v_final", r.v_final);
  io.numbers("v_svm_W", r.v_svm_W);
  io.number("v_svm_norm", r.v_svm_norm);
}

void RunRecord::encode(Partial& out, const std::string& prefix) const {
  PartialWriter io(out, prefix);
  fields(*this, io);
}

RunRecord RunRecord::decode(const Partial& in, const std::string& prefix, int d) {
  RunRecord r;
  PartialReader io(in, prefix, d);
  fields(r, io);
  return r;
}

}  // namespace attnlab::mirror
