#include "experiments/multihead/acceptance_experiment.hpp"

#include <cstdio>

#include "core/statistics.hpp"
#include "experiments/multihead/certification.hpp"
#include "experiments/multihead/instance.hpp"
#include "lab/legacy_experiment.hpp"
#include "lab/clock.hpp"
#include "lab/sweep.hpp"

namespace attnlab::multihead {

namespace {

const char* const kSpec = "spec/multihead.md s.5";

Schema acceptance_schema() {
  std::vector<ParamSpec> s;
  auto add = [&](ParamSpec p) { s.push_back(std::move(p)); };
  add({"d", "dimension d", ParamType::Integer, 2, 16, "12", "", "Token dimension.", kSpec});
  add({"k", "tokens k", ParamType::Integer, 2, 6, "3", "", "Tokens per input.", kSpec});
  add({"m", "heads m", ParamType::Integer, 1, 4, "2", "", "Heads of the hidden layer.", kSpec, {}, false, true});
  add({"eps", "certification eps", ParamType::Real, 0.001, 1, "0.1", "", "Residual threshold eps/2.", kSpec, {}, true,
       true});
  add({"norm", "||Theta_1||", ParamType::Real, 0.1, 20, "3", "", "Attention norm.", kSpec, {}, false, true});
  add({"samples", "samples per point", ParamType::Integer, 100, 100000000, "200000", "",
       "Examples certified at each point (with the true W_sum, so only the attention patterns matter).", kSpec});
  add({"sweep", "sweep", ParamType::Sweep, 0, 0, "m=1,2,3", "", "none, or m, eps or norm over values.", kSpec});
  return Schema(std::move(s));
}

class AcceptanceExperiment final : public LegacyExperiment {
 public:
  AcceptanceExperiment() : schema_(acceptance_schema()) {
    info_ = {"multihead.acceptance", "Multi-head attention: certification acceptance",
             "Chen, Li. Provably Learning a Multi-head Attention Layer (arXiv 2402.04084)",
             "A row is certified when its output lies on an edge of the token simplex, which needs every head to "
             "attend alike. The acceptance rate falls about 100 times per extra head (spec: 1.1e-1, 1.1e-3, 1.6e-5 "
             "for m = 1, 2, 3 at d = 12, k = 3, eps = 0.1): the paper's (kd)^Theta(m) sample cost, seen directly."};
    presets_ = {{"versus_m", "Acceptance vs m", "m = 1, 2, 3 at (12, 3), eps = 0.1.", {{"sweep", "m=1,2,3"}}},
                {"versus_eps", "Acceptance vs eps (m = 2)", "eps from 0.025 to 0.4 at m = 2.",
                 {{"m", "2"}, {"sweep", "eps=0.025,0.05,0.1,0.2,0.4"}}},
                {"versus_norm", "Acceptance vs attention norm (m = 2)", "||Theta|| from 1 to 15 at m = 2.",
                 {{"m", "2"}, {"sweep", "norm=1,3,5,8,15"}}}};
  }
  const ExperimentInfo& info() const override { return info_; }
  const Schema& schema() const override { return schema_; }
  const std::vector<Preset>& presets() const override { return presets_; }

  void legacy_reset(const Params& p, std::uint64_t seed) override {
    sweep_ = parse_sweep(schema_, "sweep", p.text("sweep"));
    points_.clear();
    if (sweep_.active())
      for (double v : sweep_.values) {
        Params q = p;
        schema_.set(q, sweep_.key, format_number(v));
        points_.push_back(q);
      }
    else
      points_.push_back(p);
    samples_ = p.integer("samples");
    if (double(samples_) * points_.size() * p.integer("d") * p.integer("d") * 4 > 2e12)
      throw ParamError("parameter 'samples': this sweep would take hours; allowed: fewer samples or points");
    seed_ = seed;
    point_ = 0;
    done_ = 0;
    accepted_.assign(points_.size(), 0);
    counted_.assign(points_.size(), 0);
    prepare();
  }

  void legacy_step(const Budget& budget) override {
    const double deadline = now_seconds() + budget.seconds;
    for (std::int64_t u = 0; u < budget.max_units && point_ < points_.size(); ++u) {
      const Eigen::MatrixXd X = random_input(k_, truth_.d(), rng_);
      std::vector<Constraint> unused;
      accepted_[point_] += certify(X, apply(truth_, X), w_sum_, settings_, unused);
      ++counted_[point_];
      ++done_;
      if (counted_[point_] >= samples_ && ++point_ < points_.size()) prepare();
      if ((u & 255) == 0 && now_seconds() >= deadline) return;
    }
  }

  Progress legacy_progress() const override { return {done_, samples_ * static_cast<std::int64_t>(points_.size())}; }

  Results results() const override {
    Results r;
    r.table.columns = {"m", "eps", "norm", "rows", "accepted", "rate", "rate_low", "rate_high"};
    Series s{"acceptance per (sample, row), Wilson 95%", SeriesStyle::LineMarkers, {}, {}, {}, {}};
    for (std::size_t i = 0; i < points_.size(); ++i) {
      if (counted_[i] == 0) continue;
      const std::int64_t rows = counted_[i] * points_[i].integer("k");
      const Interval ci = wilson_interval(accepted_[i], rows);
      const double rate = double(accepted_[i]) / double(rows);
      r.table.rows.push_back({double(points_[i].integer("m")), points_[i].real("eps"), points_[i].real("norm"),
                              double(rows), double(accepted_[i]), rate, ci.low, ci.high});
      s.x.push_back(sweep_.active() ? sweep_.values[i] : double(points_[i].integer("m")));
      s.y.push_back(rate);
      s.y_low.push_back(ci.low);
      s.y_high.push_back(ci.high);
      char buf[160];
      std::snprintf(buf, sizeof buf, "m = %lld, eps = %g, ||Theta|| = %g: %lld of %lld rows accepted (rate %.3g).",
                    points_[i].integer("m"), points_[i].real("eps"), points_[i].real("norm"),
                    static_cast<long long>(accepted_[i]), static_cast<long long>(rows), rate);
      r.notes.push_back(buf);
    }
    Plot p{"Certification acceptance", sweep_.active() ? sweep_.key : "m", "accepted rows / rows", false, true, false,
           0, 1, {}};
    p.series.push_back(s);
    r.plots.push_back(p);
    return r;
  }

 private:
  void prepare() {
    const Params& p = points_[point_];
    InstanceSettings s;
    s.d = static_cast<int>(p.integer("d"));
    s.k = static_cast<int>(p.integer("k"));
    s.m = static_cast<int>(p.integer("m"));
    s.norm = p.real("norm");
    k_ = s.k;
    truth_ = random_instance(s, seed_);
    w_sum_ = truth_.W_sum();
    settings_.eps = p.real("eps");
    rng_ = Rng::for_stream(seed_, 1 + point_);
  }

  ExperimentInfo info_;
  Schema schema_;
  std::vector<Preset> presets_;
  Sweep sweep_;
  std::vector<Params> points_;
  std::vector<std::int64_t> accepted_, counted_;
  std::int64_t samples_ = 0, done_ = 0;
  std::size_t point_ = 0;
  std::uint64_t seed_ = 1;
  int k_ = 3;
  Layer truth_;
  Eigen::MatrixXd w_sum_;
  CertifySettings settings_;
  Rng rng_{1};
};

}  // namespace

std::unique_ptr<Experiment> make_acceptance_experiment() { return std::make_unique<AcceptanceExperiment>(); }

}  // namespace attnlab::multihead
