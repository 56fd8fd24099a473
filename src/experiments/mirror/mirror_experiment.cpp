#include "experiments/mirror/mirror_experiment.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>

#include "core/det_math.hpp"
#include "core/rng.hpp"
#include "experiments/mirror/att_svm.hpp"
#include "experiments/mirror/mirror_map.hpp"
#include "experiments/mirror/trainer.hpp"
#include "lab/legacy_experiment.hpp"
#include "lab/clock.hpp"
#include "lab/sweep.hpp"
#include "lab/text.hpp"

namespace attnlab::mirror {

namespace {

const char* const kSpec = "spec/mirror_descent.md";
// The SVM p's of the paper's 3 x 3 figure (spec s.4).
const double kComparePs[3] = {1.75, 2.0, 3.0};

Schema mirror_schema() {
  std::vector<ParamSpec> s;
  auto add = [&](ParamSpec p) { s.push_back(std::move(p)); };
  add({"data", "data", ParamType::Choice, 0, 0, "synthetic", "",
       "synthetic: the paper's Gaussian tokens and queries of unit length, a new draw per seed. joint_toy: the "
       "spec's fixed 2-sequence example. file: the loaded data file (X, Y, optional z and v).",
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
       "of the local convergence theorem).",
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

struct Run {
  double p = 2.0;
  int seed_index = 0;
  int iterations = 0;
  std::vector<int> ks;                 // checkpoints
  std::vector<Eigen::MatrixXd> Ws;     // W at each checkpoint reached
  std::vector<Eigen::VectorXd> vs;     // v at each checkpoint (joint training)
  std::vector<Eigen::VectorXd> final_s;  // the softmax of every sequence at the end
  std::vector<double> loss, max_prob;  // at each checkpoint
  std::vector<int> alpha;              // final selected tokens
  std::vector<std::vector<double>> D;  // [compare p index][checkpoint]: D_psi(W_mm/||W_mm||, W_k/||W_k||)
  std::vector<SvmSolution> svm;        // per compare p
  std::optional<SvmSolution> v_svm;
  Eigen::VectorXd v_final;
  bool done = false, saturated = false;
  bool locally_optimal = true;  // of the own-p SVM's support, with the run's final v
};

class MirrorExperiment final : public LegacyExperiment {
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
         "The spec's 2-sequence toy trained jointly in W and v from zero. The selected tokens depend on p: "
         "[1, 0] for p = 1.75 and 2, [0, 0] for p = 3 (0-indexed); the notes list them with the W- and v-SVMs.",
         {{"data", "joint_toy"}, {"train", "joint"}, {"init", "zero"}, {"seeds", "1"}, {"iterations_rule", "paper"},
          {"sweep", "p=1.75,2,3"}}},
        {"sparsity", "Sparsity: p = 1.1 vs 2 vs 3 (d = 16)",
         "Near p = 1 the max-margin W is sparse: most entries of W_k / ||W_k|| fall below 1% of the largest. At p = 2 "
         "and 3 they do not. See the heatmaps and the sparsity counts in the notes.",
         {{"data", "synthetic"}, {"d", "16"}, {"seeds", "10"}, {"iterations_rule", "fixed"}, {"iterations", "3000"},
          {"sweep", "p=1.1,2,3"}}},
    };
  }
  const ExperimentInfo& info() const override { return info_; }
  const Schema& schema() const override { return schema_; }
  const std::vector<Preset>& presets() const override { return presets_; }
  bool accepts_data() const override { return true; }
  void set_data(const std::string& json) override {
    file_data_ = read_dataset_file(json, 1);
    file_text_ = json;
  }

  void legacy_reset(const Params& params, std::uint64_t seed) override {
    seed_ = seed;
    const Sweep sweep = parse_sweep(schema_, "sweep", params.text("sweep"));
    ps_ = sweep.active() ? sweep.values : std::vector<double>{params.real("p")};
    data_kind_ = params.text("data");
    if (data_kind_ == "file" && !file_data_)
      throw ParamError("parameter 'data': 'file' needs a data file (CLI --data FILE.json, the page's Load button, or "
                       "the JS API); allowed: synthetic, joint_toy, or load a file first");
    settings_.eta = params.real("eta");
    settings_.normalised = params.boolean("normalised");
    settings_.log_domain = params.boolean("log_domain");
    settings_.eps = params.real("eps");
    const std::string& loss = params.text("loss");
    settings_.loss = loss == "exponential" ? Loss::Exponential : loss == "correlation" ? Loss::Correlation : Loss::Logistic;
    settings_.joint = params.text("train") == "joint";
    n_ = static_cast<int>(params.integer("n"));
    T_ = static_cast<int>(params.integer("T"));
    d_ = static_cast<int>(params.integer("d"));
    init_zero_ = params.text("init") == "zero";
    init_cone_ = params.text("init") == "cone";
    init_std_ = params.real("init_std");
    const int seeds = static_cast<int>(params.integer("seeds"));
    const bool paper = params.text("iterations_rule") == "paper";
    runs_.clear();
    double work = 0.0;
    for (int s = 0; s < seeds; ++s)
      for (double p : ps_) {
        Run r;
        r.p = p;
        r.seed_index = s;
        r.iterations = paper ? paper_iterations(p) : static_cast<int>(params.integer("iterations"));
        r.ks = checkpoints(r.iterations);
        runs_.push_back(std::move(r));
        work += r.iterations;
      }
    const Dataset probe = dataset_for(0);
    const double per_step = double(probe.n()) * probe.T() * probe.T() * probe.d() + 4.0 * probe.d() * probe.d();
    if (work * per_step > 2e12)
      throw ParamError("parameter 'seeds': " + std::to_string(seeds) +
                       " seeds at these sizes would take hours; allowed: fewer seeds, iterations or a smaller d");
    current_ = 0;
    trainer_.reset();
    data_cache_.clear();
    svm_cache_.clear();
  }

  void legacy_step(const Budget& budget) override {
    const double deadline = now_seconds() + budget.seconds;
    std::int64_t units = 0;
    while (current_ < runs_.size() && units < budget.max_units) {
      Run& r = runs_[current_];
      if (!trainer_) start(r);
      // One unit = one mirror-descent step; checkpoints store W.
      while (trainer_->iteration() < r.iterations && units < budget.max_units) {
        trainer_->step();
        ++units;
        record_if_checkpoint(r);
        if ((units & 63) == 0 && now_seconds() >= deadline) return;
      }
      if (trainer_->iteration() >= r.iterations) {
        finish(r);
        trainer_.reset();
        ++current_;
      }
      if (now_seconds() >= deadline) return;
    }
  }

  Progress legacy_progress() const override {
    Progress p;
    for (std::size_t i = 0; i < runs_.size(); ++i) {
      p.total += runs_[i].iterations;
      p.done += runs_[i].done ? runs_[i].iterations : i == current_ && trainer_ ? trainer_->iteration() : 0;
    }
    return p;
  }

  Results results() const override;

 private:
  Dataset dataset_for(int seed_index) const {
    if (data_kind_ == "joint_toy") return joint_toy_dataset();
    if (data_kind_ == "file") return *file_data_;
    return synthetic_dataset(n_, T_, d_, seed_ + static_cast<std::uint64_t>(seed_index));
  }

  const Dataset& cached_dataset(int seed_index) {
    auto it = data_cache_.find(seed_index);
    if (it == data_cache_.end()) it = data_cache_.emplace(seed_index, dataset_for(seed_index)).first;
    return it->second;
  }

  void start(Run& r) {
    const Dataset& data = cached_dataset(r.seed_index);
    Eigen::MatrixXd W0 = Eigen::MatrixXd::Zero(data.d(), data.d());
    if (!init_zero_) {
      Rng rng = Rng::for_stream(seed_ + static_cast<std::uint64_t>(r.seed_index), 99);  // same W0 for every p
      for (Eigen::Index k = 0; k < W0.size(); ++k) W0.data()[k] = init_std_ * rng.normal();
    }
    if (init_cone_) {
      // The best-scoring tokens gamma_it = Y_i v^T x_it and their SVM for this p.
      std::vector<int> alpha;
      for (int i = 0; i < data.n(); ++i) {
        Eigen::Index best = 0;
        (data.Y[i] * (data.X[static_cast<std::size_t>(i)] * data.v)).maxCoeff(&best);
        alpha.push_back(static_cast<int>(best));
      }
      const SvmSolution& svm = svm_for(r.seed_index, alpha, data, r.p);
      if (svm.feasible && svm.norm_p > 0.0) W0 += 5.0 * svm.W / svm.norm_p;
    }
    TrainerSettings s = settings_;
    s.p = r.p;
    trainer_.emplace(data, W0, data.v, s);
    r.Ws.clear();
    r.vs.clear();
    r.loss.clear();
    r.max_prob.clear();
    record_if_checkpoint(r);
  }

  void record_if_checkpoint(Run& r) {
    const int k = trainer_->iteration();
    if (r.Ws.size() >= r.ks.size() || r.ks[r.Ws.size()] != k) return;
    r.Ws.push_back(trainer_->W());
    r.vs.push_back(trainer_->v());
    const Forward& fw = trainer_->last_forward();
    r.loss.push_back(fw.loss);
    double prob = 0.0;
    for (const auto& log_s : fw.log_s) prob += dmath::exp(log_s.maxCoeff());
    r.max_prob.push_back(prob / double(fw.log_s.size()));
  }

  void finish(Run& r) {
    const Dataset& data = cached_dataset(r.seed_index);
    r.alpha = selected_tokens(trainer_->last_forward());
    r.final_s = trainer_->last_forward().s;
    r.saturated = trainer_->saturated();
    r.v_final = trainer_->v();
    r.svm.clear();
    r.D.clear();
    std::vector<double> compare(std::begin(kComparePs), std::end(kComparePs));
    if (std::find(compare.begin(), compare.end(), r.p) == compare.end()) compare.push_back(r.p);
    for (double q : compare) {
      r.svm.push_back(svm_for(r.seed_index, r.alpha, data, q));
      const SvmSolution& svm = r.svm.back();
      std::vector<double> D;
      const double svm_norm = entrywise_norm(svm.W, r.p);
      for (const Eigen::MatrixXd& W : r.Ws) {
        const double norm = entrywise_norm(W, r.p);
        // D_psi(W_mm / ||W_mm||_p, W_k / ||W_k||_p) with psi of the run's p; skipped at W = 0 (spec s.6).
        D.push_back(norm > 0.0 && svm_norm > 0.0 && svm.feasible ? bregman(svm.W / svm_norm, W / norm, r.p) : NAN);
      }
      r.D.push_back(std::move(D));
    }
    if (settings_.joint) r.v_svm = solve_value_svm(data, r.alpha, r.p);
    r.locally_optimal = locally_optimal(data, r.alpha, r.v_final, r.svm[own_index(r)].support);
    r.done = true;
  }

  static std::size_t own_index(const Run& r) {
    for (std::size_t qi = 0; qi < 3; ++qi)
      if (kComparePs[qi] == r.p) return qi;
    return r.svm.size() - 1;
  }

  const SvmSolution& svm_for(int seed_index, const std::vector<int>& alpha, const Dataset& data, double p) {
    std::string key = std::to_string(seed_index) + ":" + format_number(p);
    for (int a : alpha) key += "," + std::to_string(a);
    auto it = svm_cache_.find(key);
    // Violation and duality gap below 1e-9 (spec s.5).
    if (it == svm_cache_.end()) it = svm_cache_.emplace(key, solve_att_svm(data, alpha, data.v, p, 3000, 1e-9)).first;
    return it->second;
  }

  ExperimentInfo info_;
  Schema schema_;
  std::vector<Preset> presets_;
  std::optional<Dataset> file_data_;
  std::string file_text_;
  std::uint64_t seed_ = 1;
  std::vector<double> ps_;
  std::string data_kind_;
  TrainerSettings settings_;
  int n_ = 6, T_ = 8, d_ = 10;
  bool init_zero_ = false, init_cone_ = false;
  double init_std_ = 1.0;
  std::vector<Run> runs_;
  std::size_t current_ = 0;
  std::optional<MirrorDescent> trainer_;
  std::map<int, Dataset> data_cache_;
  std::map<std::string, SvmSolution> svm_cache_;
};

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
  s.mean = sum / v.size();
  std::sort(v.begin(), v.end());
  s.low = v[static_cast<std::size_t>(0.1 * (v.size() - 1))];
  s.high = v[static_cast<std::size_t>(std::ceil(0.9 * (v.size() - 1)))];
  return s;
}

std::string label_p(double p) { return "p=" + format_number(p); }

Results MirrorExperiment::results() const {
  Results r;
  // One row per checkpoint of the longest run; columns per MD p: mean D against each SVM p', the
  // norm ||W_k||_p, the loss and the max softmax probability (means over finished seeds).
  std::vector<int> ks;
  for (const Run& run : runs_)
    if (run.ks.size() > ks.size()) ks = run.ks;
  Table& t = r.table;
  t.columns = {"k"};
  for (double p : ps_) {
    for (double q : kComparePs) {
      const std::string c = "D_" + label_p(p) + "_svm_" + label_p(q);
      t.columns.insert(t.columns.end(), {c, c + "_low", c + "_high"});
    }
    t.columns.insert(t.columns.end(), {"norm_" + label_p(p), "loss_" + label_p(p), "max_prob_" + label_p(p)});
  }
  for (std::size_t c = 0; c < ks.size(); ++c) {
    std::vector<double> row{double(ks[c])};
    for (double p : ps_) {
      for (std::size_t qi = 0; qi < 3; ++qi) {
        std::vector<double> values;
        for (const Run& run : runs_)
          if (run.done && run.p == p && c < run.D[qi].size() && run.ks[c] == ks[c]) values.push_back(run.D[qi][c]);
        const Summary s = summarise(values);
        row.insert(row.end(), {s.mean, s.low, s.high});
      }
      std::vector<double> norms, losses, probs;
      for (const Run& run : runs_)
        if (run.p == p && c < run.Ws.size() && run.ks[c] == ks[c]) {
          norms.push_back(entrywise_norm(run.Ws[c], p));
          losses.push_back(run.loss[c]);
          probs.push_back(run.max_prob[c]);
        }
      row.insert(row.end(), {summarise(norms).mean, summarise(losses).mean, summarise(probs).mean});
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
      if (q == p) own.series.push_back({"MD " + label_p(p), SeriesStyle::LineMarkers, kx, column(c), column(c + "_low"),
                                        column(c + "_high")});
      all.series.push_back({"MD " + label_p(p) + " vs SVM " + label_p(q), q == p ? SeriesStyle::LineMarkers : SeriesStyle::Line,
                            kx, column(c), {}, {}});
    }
    norm.series.push_back({label_p(p), SeriesStyle::LineMarkers, kx, column("norm_" + label_p(p)), {}, {}});
    std::vector<double> theory;
    for (double k : kx) theory.push_back(k > 0.0 ? dmath::pow(settings_.eta * k, 1.0 / (p - 1.0)) : NAN);
    norm.series.push_back({"(eta k)^(1/(p-1)), " + label_p(p), SeriesStyle::Reference, kx, theory, {}, {}});
    loss.series.push_back({label_p(p), SeriesStyle::LineMarkers, kx, column("loss_" + label_p(p)), {}, {}});
    prob.series.push_back({label_p(p), SeriesStyle::LineMarkers, kx, column("max_prob_" + label_p(p)), {}, {}});
  }
  r.plots = {own, all, norm, loss, prob};

  // Notes per p: how far the runs got, which SVM is closest, SVM quality, sparsity, tokens.
  for (double p : ps_) {
    int done = 0, own_closest = 0, saturated = 0, not_optimal = 0;
    double worst_gap = 0.0, worst_violation = 0.0;
    std::vector<double> final_D, sparsity;
    const Run* first = nullptr;
    for (const Run& run : runs_) {
      if (run.p != p || !run.done) continue;
      if (!first) first = &run;
      ++done;
      saturated += run.saturated;
      std::size_t best = 0;
      for (std::size_t qi = 0; qi < 3; ++qi)
        if (run.D[qi].back() < run.D[best].back()) best = qi;
      own_closest += kComparePs[best] == p;
      std::size_t own_index = run.svm.size() - 1;
      for (std::size_t qi = 0; qi < 3; ++qi)
        if (kComparePs[qi] == p) own_index = qi;
      final_D.push_back(run.D[own_index].back());
      worst_gap = std::max(worst_gap, run.svm[own_index].duality_gap);
      worst_violation = std::max(worst_violation, run.svm[own_index].max_violation);
      not_optimal += !run.locally_optimal;
      const Eigen::MatrixXd& W = run.Ws.back();
      const double top = W.cwiseAbs().maxCoeff();
      sparsity.push_back(top > 0.0 ? double((W.cwiseAbs().array() < 0.01 * top).count()) / double(W.size()) : NAN);
    }
    if (!done) continue;
    std::string line = label_p(p) + printf_text(": %.0f runs done; final D_k against the own-p SVM: mean %.3g", done,
                                        summarise(final_D).mean);
    line += printf_text("; own-p SVM the closest of p' = 1.75, 2, 3 in %.0f of %.0f runs", own_closest, done);
    line += printf_text("; SVM duality gap <= %.2g, violation <= %.2g", worst_gap, worst_violation);
    line += printf_text("; %.0f%% of entries of W_k below 1%% of the largest", 100.0 * summarise(sparsity).mean);
    if (not_optimal) line += printf_text("; %.0f runs select tokens that are not locally optimal", not_optimal);
    if (saturated) line += printf_text("; %.0f runs saturated (the gradient underflowed to 0)", saturated);
    r.notes.push_back(line + ".");
    if (first && (data_kind_ != "synthetic" || runs_.size() <= 3 * ps_.size())) {
      std::string tokens = label_p(p) + ": selected tokens [";
      for (std::size_t i = 0; i < first->alpha.size(); ++i) tokens += (i ? ", " : "") + std::to_string(first->alpha[i]);
      tokens += "] (0-indexed)";
      if (first->v_svm)
        tokens += printf_text("; v = (%.3g, %.3g), ||v_mm||_p = %.3g", first->v_final[0],
                      first->v_final.size() > 1 ? first->v_final[1] : 0.0, first->v_svm->norm_p);
      r.notes.push_back(tokens + ".");
    }
    // Heatmaps of the first seed's final direction against its SVM.
    if (first) {
      std::size_t own_index = first->svm.size() - 1;
      for (std::size_t qi = 0; qi < 3; ++qi)
        if (kComparePs[qi] == p) own_index = qi;
      const Eigen::MatrixXd& W = first->Ws.back();
      const Eigen::MatrixXd Wn = W / std::max(1e-300, entrywise_norm(W, p));
      const Eigen::MatrixXd Sn = first->svm[own_index].W / std::max(1e-300, first->svm[own_index].norm_p);
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
        const int n = static_cast<int>(first->final_s.size()), T = static_cast<int>(first->final_s[0].size());
        Heatmap soft{"softmax s_it at the end, " + label_p(p) + " (rows: sequences, columns: tokens)", "token t",
                     "sequence i", n, T, {}, 0.0, 1.0, "ringed: support tokens of the SVM", {}, {}};
        for (const auto& row : first->final_s)
          for (Eigen::Index t = 0; t < row.size(); ++t) soft.values.push_back(row[t]);
        for (const auto& [i, t] : first->svm[own_index].support) soft.marks.push_back({i, t, ""});
        r.heatmaps.push_back(soft);
      }
      // The path of two entries of W_k / ||W_k|| against the SVM's direction (spec s.4, single run).
      if (W.rows() >= 4) {
        Plot path{"Path of (W[0,1], W[2,3]) / ||W_k||_p, " + label_p(p) + " (seed 1)", "W[0,1] / ||W||_p",
                  "W[2,3] / ||W||_p", false, false, false, 0, 1, {}};
        Series walk{"W_k", SeriesStyle::LineMarkers, {}, {}, {}, {}};
        for (const Eigen::MatrixXd& Wc : first->Ws) {
          const double nrm = entrywise_norm(Wc, p);
          if (nrm > 0.0) walk.x.push_back(Wc(0, 1) / nrm), walk.y.push_back(Wc(2, 3) / nrm);
        }
        path.series.push_back(walk);
        path.series.push_back({"SVM direction", SeriesStyle::Reference, {0.0, Sn(0, 1)}, {0.0, Sn(2, 3)}, {}, {}});
        r.plots.push_back(path);
      }
      // Joint training: the (v0, v1) path against the v-SVM ray, and the logistic probabilities.
      if (first->v_svm && first->vs.size() > 1 && first->vs[0].size() >= 2) {
        Plot vpath{"Path of (v0, v1) / ||v||_p, " + label_p(p), "v0 / ||v||_p", "v1 / ||v||_p", false, false, false, 0, 1,
                   {}};
        Series walk{"v_k", SeriesStyle::LineMarkers, {}, {}, {}, {}};
        for (const Eigen::VectorXd& vc : first->vs) {
          const double nrm = entrywise_norm(vc, p);
          if (nrm > 0.0) walk.x.push_back(vc[0] / nrm), walk.y.push_back(vc[1] / nrm);
        }
        vpath.series.push_back(walk);
        const Eigen::MatrixXd& vm = first->v_svm->W;
        const double vn = std::max(1e-300, first->v_svm->norm_p);
        vpath.series.push_back({"v-SVM direction", SeriesStyle::Reference, {0.0, vm(0, 0) / vn}, {0.0, vm(1, 0) / vn}, {}, {}});
        r.plots.push_back(vpath);
      }
    }
  }
  return r;
}

}  // namespace

std::unique_ptr<Experiment> make_mirror_experiment() { return std::make_unique<MirrorExperiment>(); }

}  // namespace attnlab::mirror
