// `mirror` (docs/mirror.md): l_p-AttGD runs for several p and seeds, each compared with the
// l_p-AttSVM solutions. Work units (docs/design.md "The run: prepare, units, merge, results"): one unit per seed, holding
// that seed's run of every p, so that the runs of a seed share their SVM solves.
// [SECTION] index
//   schema, checkpoints   the parameters; where curves are sampled
//   RunPlan, RunSetup     one run (seed x p) and what every run reads
//   RunRecord             a run's compact share of its unit's Partial: fields, encode, decode
//   SeedUnit              a unit: the runs of one seed, in pieces of about a millisecond
//   MirrorExperiment      prepare / start_unit / merge
//   results()             reduced over the merged runs in run order
#include "experiments/mirror/mirror_experiment.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <utility>

#include "core/det_math.hpp"
#include "core/rng.hpp"
#include "experiments/mirror/att_svm.hpp"
#include "experiments/mirror/mirror_map.hpp"
#include "experiments/mirror/trainer.hpp"
#include "lab/partial_fields.hpp"
#include "lab/sweep.hpp"
#include "lab/text.hpp"

namespace attnlab::mirror {

namespace {

const char* const kSpec = "docs/mirror.md";
// The SVM p's of the paper's 3 x 3 figure (docs/mirror.md s.4).
const double kComparePs[3] = {1.75, 2.0, 3.0};

// Whose tokens the SVM of p' in the 3 x 3 comparison is solved on: the same seed's p' run's (the
// authors' code: run-correlations-W.sh pairs the iterates of run p with the SVM saved by run p'), or
// this run's own (ours). One table from the parameter's text to the value.
enum class SvmTokens { Authors, ThisRun };
const std::pair<const char*, SvmTokens> kSvmTokens[] = {{"authors", SvmTokens::Authors}, {"this_run", SvmTokens::ThisRun}};
std::vector<std::string> svm_token_choices() {
  std::vector<std::string> out;
  for (const auto& [text, value] : kSvmTokens) out.push_back(text);
  return out;
}
SvmTokens svm_tokens_from(const std::string& text) {
  for (const auto& [name, value] : kSvmTokens)
    if (text == name) return value;
  return SvmTokens::Authors;  // unreachable: the schema admits only the table's texts
}

Schema mirror_schema() {
  std::vector<ParamSpec> s;
  auto add = [&](ParamSpec p) { s.push_back(std::move(p)); };
  add({"data", "data", ParamType::Choice, 0, 0, "synthetic", "",
       "synthetic: the paper's Gaussian tokens and queries of unit length, a new draw per seed. joint_toy: the "
       "lab's fixed 2-sequence example (ours). file: the loaded data file (X, Y, optional z and v).",
       kSpec, {"synthetic", "joint_toy", "file"}});
  add({"n", "sequences n", ParamType::Integer, 1, 100, "6", "", "Number of sequences (synthetic data).", kSpec});
  add({"T", "tokens T", ParamType::Integer, 2, 64, "8", "", "Tokens per sequence (synthetic data).", kSpec});
  add({"d", "dimension d", ParamType::Integer, 1, 32, "10", "", "Token dimension; W is d x d (synthetic data).",
       kSpec});
  add({"loss", "loss", ParamType::Choice, 0, 0, "logistic", "",
       "logistic log(1 + e^-u) (the paper's), exponential e^-u, or correlation -u.", kSpec,
       {"logistic", "exponential", "correlation"}});
  add({"train", "trained", ParamType::Choice, 0, 0, "W", "", "W only (v fixed), or joint: W and v.", kSpec,
       {"W", "joint"}});
  add({"p", "p", ParamType::Real, 1.05, 3, "2", "",
       "The potential psi = (1/p) ||W||_p^p: p = 2 is gradient descent; p near 1 gives sparse W.", kSpec, {}, false,
       true});
  add({"eta", "step size eta", ParamType::Real, 1e-4, 10, "0.1", "", "The mirror-descent step size.", kSpec, {},
       true});
  add({"normalised", "normalised steps", ParamType::Boolean, 0, 0, "true", "",
       "G = grad L / ||grad L||_q (the paper's experiments); off: the theory's un-normalised algorithm.", kSpec});
  add({"log_domain", "log-domain direction", ParamType::Boolean, 0, 0, "true", "",
       "[ours] Normalise exactly in the log domain, so training never freezes; off: the code's grad / (||grad||_q + "
       "eps), which stops once ||grad||_q drops below eps.",
       kSpec});
  add({"eps", "eps", ParamType::Real, 0, 1e-3, "2.22e-16", "", "The code's normalisation guard.", kSpec});
  add({"init", "initialisation", ParamType::Choice, 0, 0, "gaussian", "",
       "zero: W0 = 0. gaussian: W0 entries N(0, init_std^2) (the paper's N(0, 1)). cone: W0 = 5 W_mm / ||W_mm||_p "
       "plus N(0, init_std^2) noise, with W_mm the SVM of the run's p for the best-scoring tokens (inside the cone "
       "of the paper's local convergence result, Lemma 28 of its appendix; ours: the factor 5 and the noise).",
       kSpec, {"zero", "gaussian", "cone"}});
  add({"init_std", "init std", ParamType::Real, 0, 10, "1", "", "Standard deviation of a Gaussian W0.", kSpec});
  add({"iterations_rule", "iterations", ParamType::Choice, 0, 0, "paper", "",
       "paper: 1500 / 2000 / 20000 iterations for p = 1.75 / 2 / 3 (2000 for other p). fixed: the parameter "
       "'iterations'.",
       kSpec, {"paper", "fixed"}});
  add({"iterations", "iteration count", ParamType::Integer, 1, 1000000, "2000", "", "Iterations per run (fixed rule).",
       kSpec});
  add({"seeds", "seeds", ParamType::Integer, 1, 1000, "100", "",
       "Independent runs (data and W0 drawn from seed, seed + 1, ...); curves show the mean and the 10-90% range.",
       kSpec});
  add({"svm_tokens", "3 x 3 SVM tokens", ParamType::Choice, 0, 0, "authors", "",
       "The tokens each SVM of p' = 1.75, 2, 3 in the 3 x 3 comparison is solved on. authors: those the same seed's "
       "p' run selected (the authors' code; where the sweep has no p' run, this run's own). this_run (ours): those "
       "this run selected, so that every SVM of a run shares its alpha.",
       kSpec, svm_token_choices()});
  add({"sweep", "p values", ParamType::Sweep, 0, 0, "p=1.75,2,3", "",
       "Runs for several p side by side: none, or p=V1,V2,... (the paper: p=1.75,2,3).", kSpec});
  return Schema(std::move(s));
}

int paper_iterations(double p) { return p == 1.75 ? 1500 : p == 3.0 ? 20000 : 2000; }

// Log-spaced checkpoints 0, 1, 2, ..., up to `last` (about 12 per decade).
std::vector<int> checkpoints(int last) {
  std::vector<int> ks{0};
  for (double x = 1.0; x < last; x *= 1.2) {
    const int k = static_cast<int>(std::round(x));
    if (k > ks.back() && k < last) ks.push_back(k);
  }
  ks.push_back(last);
  return ks;
}

// Mean and 10% / 90% quantiles of the finite values.
struct Summary {
  double mean = NAN, low = NAN, high = NAN;
  int count = 0;
};
Summary summarise(std::vector<double> v) {
  v.erase(std::remove_if(v.begin(), v.end(), [](double x) { return !std::isfinite(x); }), v.end());
  Summary s;
  s.count = static_cast<int>(v.size());
  if (v.empty()) return s;
  double sum = 0.0;
  for (double x : v) sum += x;
  s.mean = sum / static_cast<double>(v.size());
  std::sort(v.begin(), v.end());
  const double last = static_cast<double>(v.size() - 1);
  s.low = v[static_cast<std::size_t>(0.1 * last)];
  s.high = v[static_cast<std::size_t>(std::ceil(0.9 * last))];
  return s;
}

std::string label_p(double p) { return "p=" + format_number(p); }

// ---- one run and what all runs read ----------------------------------------------------------

// One mirror-descent run. Every p of a seed starts from the same data and the same W0 (docs/mirror.md s.4).
struct RunPlan {
  double p = 2.0;
  int seed_index = 0;
  int iterations = 0;
  std::vector<int> checkpoints;
};

// What prepare() fixes for every run; each unit keeps its own copy.
struct RunSetup {
  TrainerSettings settings;  // settings.p is set per run
  std::string data_kind;     // synthetic, joint_toy or file
  std::shared_ptr<const Dataset> file_data;
  int n = 6, T = 8, d = 10;  // synthetic sizes
  std::uint64_t seed = 1;
  bool init_zero = false, init_cone = false;
  double init_std = 1.0;
  SvmTokens svm_tokens = SvmTokens::Authors;
};

Dataset dataset_for(const RunSetup& setup, int seed_index) {
  if (setup.data_kind == "joint_toy") return joint_toy_dataset();
  if (setup.data_kind == "file") return *setup.file_data;
  return synthetic_dataset(setup.n, setup.T, setup.d, setup.seed + static_cast<std::uint64_t>(seed_index));
}

// The SVMs a run is compared with: those of the figure's p' = 1.75, 2, 3, and of the run's own p
// when it is not one of them (its notes report the own-p SVM).
std::vector<double> compared_ps(double p) {
  std::vector<double> ps(std::begin(kComparePs), std::end(kComparePs));
  if (std::find(ps.begin(), ps.end(), p) == ps.end()) ps.push_back(p);
  return ps;
}

// The two entries of W the single-run path plot follows (0-indexed), as the authors' plotter.ipynb
// does (docs/mirror.md s.4): W[1,2] and W[3,4] when d >= 5 (its "Single Experiment" cell calls
// plot_directions(result['Ws'], result['att-svm'], (1, 2), (3, 4), ...) on numpy arrays, and Ws holds
// the paper's W: logits x_t^T W z); (W[0,0], W[0,1]) otherwise, as its joint-training cells do on
// the d = 2 toy. None for d = 1.
struct PathEntries {
  int ra, ca, rb, cb;
};
std::optional<PathEntries> path_entries(int d) {
  if (d >= 5) return PathEntries{1, 2, 3, 4};
  if (d >= 2) return PathEntries{0, 0, 0, 1};
  return std::nullopt;
}

// sigma(u) = 1 / (1 + e^-u) without overflow: e^-|u| <= 1 on both branches.
double logistic(double u) {
  const double e = dmath::exp(-std::fabs(u));
  return u >= 0.0 ? 1.0 / (1.0 + e) : e / (1.0 + e);
}

// ---- a run's share of its unit's partial ------------------------------------------------------

std::vector<double> flat(const Eigen::MatrixXd& M) { return std::vector<double>(M.data(), M.data() + M.size()); }

// What results() reads of one run, and nothing more. A unit's Partial holds it as fields
// "r<i>.<name>", i = the run's place in its unit. Curves have one entry per checkpoint reached, so
// the preview of a run in progress is the same record, shorter and not done. W is never kept per
// checkpoint: its norm is, and the two entries the path plot follows.
struct RunRecord {
  bool done = false;
  std::vector<double> loss, max_prob, norm;  // per checkpoint: L(W_k), mean_i max_t s_it, ||W_k||_p
  // Once done: the directional Bregman divergence to the SVM of each p' = 1.75, 2, 3 per checkpoint,
  // and what the notes count.
  std::vector<double> D[3];
  double own_final_D = NAN;                  // against the SVM of the run's own p, at the end
  double own_gap = 0.0, own_violation = 0.0;  // that SVM's duality gap and worst violation
  double sparsity = NAN;                      // share of the final W's entries below 1% of the largest
  bool saturated = false, locally_optimal = true;
  double alpha_changes = 0;                   // steps at which the selected tokens changed (docs/mirror.md s.5)
  // Joint training, per checkpoint: the mean logistic probability sigma(Y_i x_{i,alpha_i}^T v_k), with
  // alpha_i the current argmax of the softmax (as the authors' code records it).
  std::vector<double> logistic_prob;
  // Only for seed index 0, whose run of each p the heatmaps, path plots and token notes show.
  bool shown = false;
  std::vector<double> path_wa, path_wb;               // two entries of W_k per checkpoint (path_entries())
  std::vector<double> path_v0, path_v1, path_v_norm;  // v_k[0], v_k[1], ||v_k||_p (joint training)
  std::vector<double> alpha;                          // once done: the selected tokens,
  // per checkpoint: D_k against the own-p SVM of the final alpha and of the alpha current at k, and
  // the steps k at which alpha changed (docs/mirror.md s.6: "offer current alpha and final alpha")
  std::vector<double> D_final_alpha, D_current_alpha, change_ks;
  Eigen::MatrixXd final_W, svm_W;                     // W at the end and the own-p SVM,
  double svm_norm = 0.0;
  std::vector<double> support;  // the own-p SVM's support tokens, (i, t) pairs in a row
  std::vector<double> final_s;  // the softmax at the end, n x T row-major
  bool has_v_svm = false;       // joint training: v at the end and the v-SVM
  std::vector<double> v_final, v_svm_W;
  double v_svm_norm = 0.0;

  // Every field a unit's Partial holds of the run, in order, listed once (lab/partial_fields.hpp):
  // encode and decode walk it. Each tier is there only when the run has it.
  template <class Record, class Io>
  static void fields(Record& r, Io& io) {
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

  void encode(Partial& out, const std::string& prefix) const {
    PartialWriter io(out, prefix);
    fields(*this, io);
  }

  // `d`: the dimension of every dataset of the run. Throws std::runtime_error naming a missing field.
  static RunRecord decode(const Partial& in, const std::string& prefix, int d) {
    RunRecord r;
    PartialReader io(in, prefix, d);
    fields(r, io);
    return r;
  }
};

std::string run_prefix(std::size_t place) { return "r" + std::to_string(place) + "."; }

// ---- a unit: the runs of one seed ---------------------------------------------------------------

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
    Eigen::MatrixXd W0 = Eigen::MatrixXd::Zero(data_.d(), data_.d());
    if (!setup_.init_zero) {
      Rng rng = Rng::for_stream(setup_.seed + static_cast<std::uint64_t>(plan.seed_index), 99);  // same W0 for every p
      for (Eigen::Index k = 0; k < W0.size(); ++k) W0.data()[k] = setup_.init_std * rng.normal();
    }
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
    std::vector<int> alpha = selected_tokens(trainer_->last_forward());
    if (alpha == tracked_alpha_) return;
    RunRecord& rec = records_.back();
    rec.alpha_changes += 1.0;
    if (rec.shown) rec.change_ks.push_back(double(trainer_->iteration()));
    tracked_alpha_ = std::move(alpha);
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
  std::vector<TrainedRun> trained_;  // one per run started
  std::vector<SvmKey> compared_;     // the SVMs the run in comparison is compared with
  std::size_t next_svm_ = 0, next_alpha_ = 0;
  std::optional<SvmSolver> solver_;  // the solve in progress, if any
  std::optional<SvmSolution> value_svm_;
  std::map<SvmKey, SvmSolution> svms_;
  std::vector<RunRecord> records_;  // one per run started
};

// ---- the experiment -----------------------------------------------------------------------------

class MirrorExperiment final : public Experiment {
 public:
  MirrorExperiment() : schema_(mirror_schema()) {
    info_ = {"mirror", "Mirror descent for attention (l_p-AttGD)",
             "Julistiono, Tarzanagh, Azizan. Optimizing Attention with Mirror Descent: Generalized Max-Margin Token "
             "Selection (arXiv 2410.14581)",
             "Train W of one attention layer with mirror descent on the potential (1/p) ||W||_p^p. The softmax "
             "concentrates on one token per sequence, and the direction of W_k converges to the l_p max-margin "
             "solution (l_p-AttSVM) for the run's own p: sparse for p near 1, dense for p = 3."};
    presets_ = {
        {"synthetic_figure", "Paper: 3 x 100 seeds, p = 1.75 / 2 / 3",
         "The paper's synthetic figure: n = 6, T = 8, d = 10, normalised steps with eta = 0.1, W0 ~ N(0, 1), 100 "
         "seeds, 1500 / 2000 / 20000 iterations for p = 1.75 / 2 / 3. The directional Bregman divergence to the "
         "SVM falls for every run, and each run ends closest to the SVM of its own p (the 3 x 3 plot).",
         {{"data", "synthetic"}, {"n", "6"}, {"T", "8"}, {"d", "10"}, {"loss", "logistic"}, {"train", "W"},
          {"eta", "0.1"}, {"normalised", "true"}, {"init", "gaussian"}, {"init_std", "1"},
          {"iterations_rule", "paper"}, {"seeds", "100"}, {"sweep", "p=1.75,2,3"}}},
        {"single_run_zero", "Paper: one run from W0 = 0",
         "One seed, W0 = 0, p = 1.75 / 2 / 3: the same convergence without the spread of 100 seeds.",
         {{"data", "synthetic"}, {"init", "zero"}, {"seeds", "1"}, {"iterations_rule", "paper"},
          {"sweep", "p=1.75,2,3"}}},
        {"joint_toy", "Joint (W, v) toy: which tokens win",
         "The lab's 2-sequence toy (ours) trained jointly in W and v from zero. The selected tokens depend on p: "
         "[1, 0] for p = 1.75 and 2, [0, 0] for p = 3 (0-indexed); the notes list them with the W- and v-SVMs.",
         {{"data", "joint_toy"}, {"train", "joint"}, {"init", "zero"}, {"seeds", "1"}, {"iterations_rule", "paper"},
          {"sweep", "p=1.75,2,3"}}},
        {"sparsity", "Sparsity: p = 1.1 vs 2 vs 3 (d = 16)",
         "Near p = 1 the max-margin W is sparse: most entries of W_k / ||W_k|| fall below 1% of the largest. At p = 2 "
         "and 3 they do not. See the heatmaps and the sparsity counts in the notes. Ours: this preset (d = 16, "
         "p = 1.1) and the 1% measure of sparsity.",
         {{"data", "synthetic"}, {"d", "16"}, {"seeds", "10"}, {"iterations_rule", "fixed"}, {"iterations", "3000"},
          {"sweep", "p=1.1,2,3"}}},
    };
  }
  const ExperimentInfo& info() const override { return info_; }
  const Schema& schema() const override { return schema_; }
  const std::vector<Preset>& presets() const override { return presets_; }
  DataSelector data_selector() const override { return {"data", "file"}; }
  void read_data(const std::string& json) override {
    file_data_ = std::make_shared<const Dataset>(read_dataset_file(json, 1));
  }

  std::unique_ptr<UnitTask> start_unit(std::int64_t unit) const override {
    const auto per_unit = static_cast<std::ptrdiff_t>(runs_per_unit_);
    const auto first = runs_.begin() + static_cast<std::ptrdiff_t>(unit) * per_unit;
    return std::make_unique<SeedUnit>(setup_, std::vector<RunPlan>(first, first + per_unit));
  }

  Results results() const override;

  // Three seeds of p = 1.75 and 2 over 100 steps: three units of two runs each, with their SVMs.
  KeyValues smoke_settings() const override {
    return {{"seeds", "3"}, {"sweep", "p=1.75,2"}, {"iterations_rule", "fixed"}, {"iterations", "100"}};
  }

 protected:
  std::vector<std::int64_t> prepare(const Params& params, std::uint64_t seed) override {
    RunSetup setup;
    setup.seed = seed;
    const Sweep sweep = parse_sweep(schema_, "sweep", params.text("sweep"));
    std::vector<double> ps = sweep.active() ? sweep.values : std::vector<double>{params.real("p")};
    setup.data_kind = params.text("data");
    if (setup.data_kind == "file" && !file_data_)
      throw ParamError("parameter 'data': 'file' needs a data file (CLI --data FILE.json, the page's Load button, or "
                       "the JS API); allowed: synthetic, joint_toy, or load a file first");
    setup.file_data = file_data_;
    TrainerSettings& s = setup.settings;
    s.eta = params.real("eta");
    s.normalised = params.boolean("normalised");
    s.log_domain = params.boolean("log_domain");
    s.eps = params.real("eps");
    const std::string& loss = params.text("loss");
    s.loss = loss == "exponential" ? Loss::Exponential : loss == "correlation" ? Loss::Correlation : Loss::Logistic;
    s.joint = params.text("train") == "joint";
    setup.n = static_cast<int>(params.integer("n"));
    setup.T = static_cast<int>(params.integer("T"));
    setup.d = static_cast<int>(params.integer("d"));
    setup.init_zero = params.text("init") == "zero";
    setup.init_cone = params.text("init") == "cone";
    setup.init_std = params.real("init_std");
    setup.svm_tokens = svm_tokens_from(params.text("svm_tokens"));
    const int seeds = static_cast<int>(params.integer("seeds"));
    const bool paper = params.text("iterations_rule") == "paper";
    // Runs seed-major (seed 0's p's, then seed 1's, ...): unit u is seed u's runs.
    std::vector<RunPlan> runs;
    std::vector<std::int64_t> costs;  // mirror-descent steps per unit
    double work = 0.0;
    for (int i = 0; i < seeds; ++i) {
      costs.push_back(0);
      for (double p : ps) {
        RunPlan r;
        r.p = p;
        r.seed_index = i;
        r.iterations = paper ? paper_iterations(p) : static_cast<int>(params.integer("iterations"));
        r.checkpoints = checkpoints(r.iterations);
        costs.back() += r.iterations;
        work += r.iterations;
        runs.push_back(std::move(r));
      }
    }
    const Dataset probe = dataset_for(setup, 0);
    const double per_step = double(probe.n()) * probe.T() * probe.T() * probe.d() + 4.0 * probe.d() * probe.d();
    if (work * per_step > 2e12)
      throw ParamError("parameter 'seeds': " + std::to_string(seeds) +
                       " seeds at these sizes would take hours; allowed: fewer seeds, iterations or a smaller d");
    setup_ = std::move(setup);
    ps_ = std::move(ps);
    runs_ = std::move(runs);
    runs_per_unit_ = ps_.size();
    data_d_ = probe.d();
    data_T_ = probe.T();
    records_.assign(runs_.size(), std::nullopt);
    return costs;
  }

  // A unit's partial replaces every record of its runs (a preview holds the runs started so far).
  void merge(std::int64_t unit, const Partial& partial) override {
    const std::size_t first = static_cast<std::size_t>(unit) * runs_per_unit_;
    for (std::size_t place = 0; place < runs_per_unit_; ++place) {
      const std::string prefix = run_prefix(place);
      std::optional<RunRecord>& slot = records_[first + place];
      if (partial.has(prefix + "done")) slot = RunRecord::decode(partial, prefix, data_d_);
      else slot.reset();
    }
  }

 private:
  ExperimentInfo info_;
  Schema schema_;
  std::vector<Preset> presets_;
  std::shared_ptr<const Dataset> file_data_;
  // The prepared run.
  RunSetup setup_;
  std::vector<double> ps_;
  std::vector<RunPlan> runs_;
  std::size_t runs_per_unit_ = 1;  // every p of one seed

  // Whose tokens the 3 x 3's SVMs were solved on; a note beginning "Ours: " where not the authors'.
  std::vector<std::string> svm_tokens_notes() const {
    if (setup_.svm_tokens == SvmTokens::ThisRun)
      return {"Ours: the 3 x 3 comparison solves each p' SVM on this run's selected tokens; the authors' code takes the "
              "same seed's p' run's tokens (svm_tokens = authors)."};
    std::vector<std::string> notes{"The 3 x 3 comparison solves each p' SVM on the tokens the same seed's p' run selected, "
                                   "as the authors' code does; the diagonal is each run against its own SVM."};
    std::string missing;
    for (double q : kComparePs)
      if (std::find(ps_.begin(), ps_.end(), q) == ps_.end()) missing += (missing.empty() ? "" : ", ") + format_number(q);
    if (!missing.empty())
      notes.push_back("Ours: the sweep has no run of p' = " + missing +
                      ", so the SVM of that p' is solved on each run's own tokens.");
    return notes;
  }
  int data_d_ = 10, data_T_ = 8;  // the sizes of every seed's data
  std::vector<std::optional<RunRecord>> records_;  // per run, as merged so far
};

// Reduced over the merged runs in run order (unit order, then p), so any order of arrival and any
// split of the units give the same numbers. Runs still running contribute their curves so far.
Results MirrorExperiment::results() const {
  Results r;
  // One row per checkpoint of any run (the union: a shorter run's last iterate, k = 1500 for p =
  // 1.75, is a row of its own; columns of runs without that checkpoint are blank there); columns per
  // MD p: mean D against each SVM p', the norm ||W_k||_p, the loss, the max softmax probability and,
  // for joint training, the logistic probability (means over finished seeds).
  std::vector<int> ks;
  for (const RunPlan& run : runs_) ks.insert(ks.end(), run.checkpoints.begin(), run.checkpoints.end());
  std::sort(ks.begin(), ks.end());
  ks.erase(std::unique(ks.begin(), ks.end()), ks.end());
  const bool joint = setup_.settings.joint;
  Table& t = r.table;
  t.columns = {"k"};
  for (double p : ps_) {
    for (double q : kComparePs) {
      const std::string c = "D_" + label_p(p) + "_svm_" + label_p(q);
      t.columns.insert(t.columns.end(), {c, c + "_low", c + "_high"});
    }
    t.columns.insert(t.columns.end(), {"norm_" + label_p(p), "loss_" + label_p(p), "max_prob_" + label_p(p)});
    if (joint) t.columns.push_back("logistic_prob_" + label_p(p));
  }
  for (int k : ks) {
    std::vector<double> row{double(k)};
    for (double p : ps_) {
      // The runs of this p that reached their checkpoint at iteration k, with its index c.
      std::vector<std::pair<const RunRecord*, std::size_t>> reached;
      for (std::size_t i = 0; i < runs_.size(); ++i) {
        if (!records_[i] || runs_[i].p != p) continue;
        const std::vector<int>& own = runs_[i].checkpoints;
        const auto at = std::lower_bound(own.begin(), own.end(), k);
        const auto c = static_cast<std::size_t>(at - own.begin());
        if (at != own.end() && *at == k && c < records_[i]->norm.size()) reached.emplace_back(&*records_[i], c);
      }
      for (std::size_t qi = 0; qi < 3; ++qi) {
        std::vector<double> values;
        for (const auto& [run, c] : reached)
          if (run->done) values.push_back(run->D[qi][c]);
        const Summary s = summarise(values);
        row.insert(row.end(), {s.mean, s.low, s.high});
      }
      std::vector<double> norms, losses, probs, logits;
      for (const auto& [run, c] : reached) {
        norms.push_back(run->norm[c]);
        losses.push_back(run->loss[c]);
        probs.push_back(run->max_prob[c]);
        if (c < run->logistic_prob.size()) logits.push_back(run->logistic_prob[c]);
      }
      row.insert(row.end(), {summarise(norms).mean, summarise(losses).mean, summarise(probs).mean});
      if (joint) row.push_back(summarise(logits).mean);
    }
    t.rows.push_back(std::move(row));
  }
  auto column = [&](const std::string& name) {
    std::vector<double> v;
    const int k = t.column(name);
    for (const auto& row : t.rows) v.push_back(row[static_cast<std::size_t>(k)]);
    return v;
  };
  const std::vector<double> kx = column("k");
  // A curve over the rows where it has a value: a run's curve passes over the rows of other runs'
  // checkpoints (e.g. p = 3's over k = 1500 and 2000) instead of breaking there.
  auto curve = [&](const std::string& name, SeriesStyle style, const std::string& y_name, bool band) {
    const std::vector<double> y = column(y_name);
    const std::vector<double> low = band ? column(y_name + "_low") : std::vector<double>{};
    const std::vector<double> high = band ? column(y_name + "_high") : std::vector<double>{};
    Series out{name, style, {}, {}, {}, {}};
    for (std::size_t i = 0; i < y.size(); ++i) {
      if (std::isnan(y[i])) continue;
      out.x.push_back(kx[i]);
      out.y.push_back(y[i]);
      if (band) out.y_low.push_back(low[i]), out.y_high.push_back(high[i]);
    }
    return out;
  };
  Plot own{"Directional Bregman divergence to the SVM of the run's own p", "iteration k",
           "D_psi(W_mm/||W_mm||, W_k/||W_k||), mean and 10-90%", true, true, false, 0, 1, {}};
  Plot all{"Each p against every SVM p' (the paper's 3 x 3)", "iteration k", "mean D_k", true, true, false, 0, 1, {}};
  Plot norm{"Norm growth ||W_k||_p", "iteration k", "mean ||W_k||_p; dashed: (eta k)^(1/(p-1))", true, true, false, 0,
            1, {}};
  Plot loss{"Training loss", "iteration k", "mean L(W_k)", true, true, false, 0, 1, {}};
  Plot prob{"Softmax concentration", "iteration k", "mean max_t s_it", true, false, true, 0, 1, {}};
  for (double p : ps_) {
    for (double q : kComparePs) {
      const std::string c = "D_" + label_p(p) + "_svm_" + label_p(q);
      if (q == p) own.series.push_back(curve("MD " + label_p(p), SeriesStyle::LineMarkers, c, true));
      all.series.push_back(
          curve("MD " + label_p(p) + " vs SVM " + label_p(q), q == p ? SeriesStyle::LineMarkers : SeriesStyle::Line, c, false));
    }
    Series grown = curve(label_p(p), SeriesStyle::LineMarkers, "norm_" + label_p(p), false);
    std::vector<double> theory;
    for (double k : grown.x) theory.push_back(k > 0.0 ? dmath::pow(setup_.settings.eta * k, 1.0 / (p - 1.0)) : NAN);
    norm.series.push_back({"(eta k)^(1/(p-1)), " + label_p(p), SeriesStyle::Reference, grown.x, theory, {}, {}});
    norm.series.insert(norm.series.end() - 1, std::move(grown));
    loss.series.push_back(curve(label_p(p), SeriesStyle::LineMarkers, "loss_" + label_p(p), false));
    prob.series.push_back(curve(label_p(p), SeriesStyle::LineMarkers, "max_prob_" + label_p(p), false));
  }
  r.plots = {own, all, norm, loss, prob};
  if (joint) {
    // The joint toy's plot (docs/mirror.md s.4): the mean logistic probability sigma(Y_i x_{i,alpha_i}^T v_k).
    Plot logit{"Logistic probability (joint training)", "iteration k",
               "mean_i sigma(Y_i x_{i,alpha_i}^T v_k), alpha_i the current argmax", true, false, true, 0, 1, {}};
    for (double p : ps_)
      logit.series.push_back(curve(label_p(p), SeriesStyle::LineMarkers, "logistic_prob_" + label_p(p), false));
    r.plots.push_back(logit);
  }

  // Notes per p: how far the runs got, which SVM is closest, SVM quality, sparsity, tokens.
  for (double p : ps_) {
    int done = 0, own_closest = 0, saturated = 0, not_optimal = 0;
    double changes = 0.0;
    double worst_gap = 0.0, worst_violation = 0.0;
    std::vector<double> final_D, sparsity;
    const RunRecord* first = nullptr;  // seed 1's run (seed index 0), which the heatmaps show
    for (std::size_t i = 0; i < runs_.size(); ++i) {
      const std::optional<RunRecord>& run = records_[i];
      if (runs_[i].p != p || !run || !run->done) continue;
      if (run->shown) first = &*run;
      ++done;
      saturated += run->saturated;
      std::size_t best = 0;
      for (std::size_t qi = 0; qi < 3; ++qi)
        if (run->D[qi].back() < run->D[best].back()) best = qi;
      own_closest += kComparePs[best] == p;
      final_D.push_back(run->own_final_D);
      worst_gap = std::max(worst_gap, run->own_gap);
      worst_violation = std::max(worst_violation, run->own_violation);
      not_optimal += !run->locally_optimal;
      changes += run->alpha_changes;
      sparsity.push_back(run->sparsity);
    }
    if (!done) continue;
    std::string line = label_p(p) + printf_text(": %.0f runs done; final D_k against the own-p SVM: mean %.3g", done,
                                        summarise(final_D).mean);
    line += printf_text("; own-p SVM the closest of p' = 1.75, 2, 3 in %.0f of %.0f runs", own_closest, done);
    line += printf_text("; SVM duality gap <= %.2g, violation <= %.2g", worst_gap, worst_violation);
    line += printf_text("; %.0f%% of entries of W_k below 1%% of the largest", 100.0 * summarise(sparsity).mean);
    if (done > 1)
      line += printf_text(" (per run %.0f%% to %.0f%%)", 100.0 * *std::min_element(sparsity.begin(), sparsity.end()),
                          100.0 * *std::max_element(sparsity.begin(), sparsity.end()));
    if (not_optimal) line += printf_text("; %.0f runs select tokens that are not locally optimal", not_optimal);
    if (saturated) line += printf_text("; %.0f runs saturated (the gradient underflowed to 0)", saturated);
    line += printf_text("; the selected tokens alpha changed %.3g times per run on average", changes / done);
    r.notes.push_back(line + ".");
    if (p == ps_.front())
      for (std::string& note : svm_tokens_notes()) r.notes.push_back(std::move(note));
    if (first && (setup_.data_kind != "synthetic" || runs_.size() <= 3 * ps_.size())) {
      std::string tokens = label_p(p) + ": selected tokens [";
      for (std::size_t i = 0; i < first->alpha.size(); ++i)
        tokens += (i ? ", " : "") + std::to_string(static_cast<int>(first->alpha[i]));
      tokens += "] (0-indexed)";
      if (first->change_ks.empty()) {
        tokens += "; alpha never changed during training";
      } else {
        tokens += printf_text("; alpha changed %.0f times, at k = ", double(first->change_ks.size()));
        for (std::size_t i = 0; i < first->change_ks.size() && i < 8; ++i)
          tokens += (i ? ", " : "") + format_number(first->change_ks[i]);
        if (first->change_ks.size() > 8) tokens += ", ...";
      }
      if (first->has_v_svm)
        tokens += printf_text("; v = (%.3g, %.3g), ||v_mm||_p = %.3g", first->v_final[0],
                              first->v_final.size() > 1 ? first->v_final[1] : 0.0, first->v_svm_norm);
      r.notes.push_back(tokens + ".");
    }
    // Heatmaps of the first seed's final direction against its SVM.
    if (first) {
      const Eigen::MatrixXd& W = first->final_W;
      const Eigen::MatrixXd Wn = W / std::max(1e-300, entrywise_norm(W, p));
      const Eigen::MatrixXd Sn = first->svm_W / std::max(1e-300, first->svm_norm);
      auto heat = [&](const std::string& title, const Eigen::MatrixXd& M) {
        Heatmap h{title, "column", "row", static_cast<int>(M.rows()), static_cast<int>(M.cols()), {}, 0.0, 1.0, "", {}, {}};
        for (Eigen::Index i = 0; i < M.rows(); ++i)
          for (Eigen::Index j = 0; j < M.cols(); ++j) h.values.push_back(std::fabs(M(i, j)));
        h.high = std::max(1e-300, M.cwiseAbs().maxCoeff());
        h.note = "|entries|; colour scale 0 to the largest";
        return h;
      };
      Heatmap wk = heat("|W_k| / ||W_k||_p at the end, " + label_p(p) + " (seed 1)", Wn);
      const double top = Wn.cwiseAbs().maxCoeff();
      wk.note = printf_text("%.0f of %.0f entries below 1%% of the largest", double((Wn.cwiseAbs().array() < 0.01 * top).count()),
                    double(Wn.size()));
      r.heatmaps.push_back(wk);
      r.heatmaps.push_back(heat("|W_mm| / ||W_mm||_p, " + label_p(p), Sn));
      r.heatmaps.push_back(heat("|W_k / ||W_k|| - W_mm / ||W_mm|||, " + label_p(p), Wn - Sn));
      // The softmax of every sequence at the end (rows: sequences, columns: tokens); the selected
      // token and the SVM's support tokens are marked.
      if (!first->final_s.empty()) {
        const int T = data_T_, n = static_cast<int>(first->final_s.size()) / T;
        Heatmap soft{"softmax s_it at the end, " + label_p(p) + " (rows: sequences, columns: tokens)", "token t",
                     "sequence i", n, T, first->final_s, 0.0, 1.0, "ringed: support tokens of the SVM", {}, {}};
        for (std::size_t k = 0; k + 1 < first->support.size(); k += 2)
          soft.marks.push_back({static_cast<int>(first->support[k]), static_cast<int>(first->support[k + 1]), ""});
        r.heatmaps.push_back(soft);
      }
      // The path of two entries of W_k / ||W_k|| against the SVM's direction (docs/mirror.md s.4: W[1,2] and
      // W[3,4] of a single run, read 1-indexed; (W00, W01) for the d = 2 joint toy).
      const auto e = path_entries(data_d_);
      if (e && !first->path_wa.empty()) {
        const std::string a = printf_text("W[%.0f,%.0f]", double(e->ra), double(e->ca));
        const std::string b = printf_text("W[%.0f,%.0f]", double(e->rb), double(e->cb));
        Plot path{"Path of (" + a + ", " + b + ") / ||W_k||_p, " + label_p(p) + " (seed 1, 0-indexed)", a + " / ||W||_p",
                  b + " / ||W||_p", false, false, false, 0, 1, {}};
        Series walk{"W_k", SeriesStyle::LineMarkers, {}, {}, {}, {}};
        for (std::size_t c = 0; c < first->path_wa.size(); ++c) {
          const double nrm = first->norm[c];
          if (nrm > 0.0) walk.x.push_back(first->path_wa[c] / nrm), walk.y.push_back(first->path_wb[c] / nrm);
        }
        path.series.push_back(walk);
        path.series.push_back({"SVM direction (final alpha)", SeriesStyle::Reference, {0.0, Sn(e->ra, e->ca)},
                               {0.0, Sn(e->rb, e->cb)}, {}, {}});
        r.plots.push_back(path);
      }
      // D_k of the shown run against the own-p SVM of the final alpha and of the alpha current at
      // each checkpoint; the checkpoints after which alpha had changed are marked (docs/mirror.md s.5, s.6).
      if (!first->D_current_alpha.empty()) {
        Plot current{"Seed 1, " + label_p(p) + ": D_k against the SVM of the current and of the final alpha",
                     "iteration k", "D_psi(W_mm/||W_mm||, W_k/||W_k||)", true, true, false, 0, 1, {}};
        std::vector<int> own_ks;  // the shown run's checkpoints
        for (std::size_t i = 0; i < runs_.size(); ++i)
          if (records_[i] && &*records_[i] == first) own_ks = runs_[i].checkpoints;
        Series final_alpha{"SVM of the final alpha", SeriesStyle::Line, {}, {}, {}, {}};
        Series current_alpha{"SVM of the current alpha", SeriesStyle::LineMarkers, {}, {}, {}, {}};
        double low = INFINITY, high = -INFINITY;
        for (std::size_t c = 0; c < first->D_current_alpha.size() && c < own_ks.size(); ++c) {
          final_alpha.x.push_back(own_ks[c]), final_alpha.y.push_back(first->D_final_alpha[c]);
          current_alpha.x.push_back(own_ks[c]), current_alpha.y.push_back(first->D_current_alpha[c]);
          for (double v : {first->D_final_alpha[c], first->D_current_alpha[c]})
            if (std::isfinite(v) && v > 0.0) low = std::min(low, v), high = std::max(high, v);
        }
        current.series = {final_alpha, current_alpha};
        // A vertical mark at each step where alpha changed (segments apart, split by NaN).
        if (std::isfinite(low) && !first->change_ks.empty()) {
          Series changed{"alpha changed", SeriesStyle::Reference, {}, {}, {}, {}};
          for (double k : first->change_ks) {
            if (k <= 0.0) continue;
            changed.x.insert(changed.x.end(), {k, k, NAN});
            changed.y.insert(changed.y.end(), {low, high, NAN});
          }
          current.series.push_back(changed);
        }
        r.plots.push_back(current);
      }
      // Joint training: the (v0, v1) path against the v-SVM ray, and the logistic probabilities.
      if (first->has_v_svm && first->path_v0.size() > 1) {
        Plot vpath{"Path of (v0, v1) / ||v||_p, " + label_p(p), "v0 / ||v||_p", "v1 / ||v||_p", false, false, false, 0, 1,
                   {}};
        Series walk{"v_k", SeriesStyle::LineMarkers, {}, {}, {}, {}};
        for (std::size_t c = 0; c < first->path_v0.size(); ++c) {
          const double nrm = first->path_v_norm[c];
          if (nrm > 0.0) walk.x.push_back(first->path_v0[c] / nrm), walk.y.push_back(first->path_v1[c] / nrm);
        }
        vpath.series.push_back(walk);
        const double vn = std::max(1e-300, first->v_svm_norm);
        vpath.series.push_back({"v-SVM direction", SeriesStyle::Reference, {0.0, first->v_svm_W[0] / vn},
                                {0.0, first->v_svm_W[1] / vn}, {}, {}});
        r.plots.push_back(vpath);
      }
    }
  }
  return r;
}

}  // namespace

std::unique_ptr<Experiment> make_mirror_experiment() { return std::make_unique<MirrorExperiment>(); }

}  // namespace attnlab::mirror
