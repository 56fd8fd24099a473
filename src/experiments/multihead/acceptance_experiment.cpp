#include "experiments/multihead/acceptance_experiment.hpp"
#include "experiments/papers.hpp"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>

#include "core/statistics.hpp"
#include "experiments/multihead/certification.hpp"
#include "experiments/multihead/instance.hpp"
#include "experiments/multihead/multihead_inputs.hpp"
#include "lab/sweep.hpp"
#include "lab/text.hpp"

namespace attnlab::multihead {

namespace {

const char* const kSpec = "docs/multihead.md s.5";

Schema acceptance_schema() {
  std::vector<ParamSpec> s;
  auto add = [&](ParamSpec p) { s.push_back(std::move(p)); };
  add(ParamSpec::integer("d", "dimension d").range(2, 16).value("12").section(kSpec).help_text("Token dimension."));
  add(ParamSpec::integer("k", "tokens k").range(2, 6).value("3").section(kSpec).help_text("Tokens per input."));
  add(ParamSpec::integer("m", "heads m").range(1, 4).value("2").section(kSpec).can_sweep()
      .help_text("Heads of the hidden layer."));
  add(ParamSpec::real("eps", "certification eps").range(0.001, 1).value("0.1").section(kSpec).log_slider().can_sweep()
      .help_text("Residual threshold eps/2."));
  add(ParamSpec::real("norm", "||Theta_1||").range(0.1, 20).value("3").section(kSpec).can_sweep()
      .help_text("Attention norm."));
  add(ParamSpec::integer("samples", "samples per point").range(100, 100000000).value("200000").section(kSpec)
      .help_text("Examples certified at each point (with the true W_sum, so only the attention patterns matter)."));
  add(ParamSpec::sweep("sweep", "sweep").value("m=1,2,3").section(kSpec)
      .help_text("none, or m, eps or norm over values."));
  return Schema(std::move(s));
}

constexpr std::int64_t kBlock = 10000;  // samples per unit
constexpr std::int64_t kPiece = 256;    // samples per piece

// One sweep point's instance, read-only by its units. Every point uses the instance of the run's
// seed for its (d, k, m, norm), so points differ only in what the sweep changes.
struct Point {
  Layer truth;
  Eigen::MatrixXd w_sum;
  CertifySettings settings;
  int k = 3;
};

Point make_point(const Params& p, std::uint64_t seed) {
  InstanceSettings s;
  s.d = static_cast<int>(p.integer("d"));
  s.k = static_cast<int>(p.integer("k"));
  s.m = static_cast<int>(p.integer("m"));
  s.norm = p.real("norm");
  Point point;
  point.k = s.k;
  point.truth = random_instance(s, seed);
  point.w_sum = point.truth.W_sum();
  point.settings.eps = p.real("eps");
  return point;
}

// One unit: `samples` examples of one point certified with the true W_sum (docs/multihead.md s.5), from the
// unit's own stream (point + 1) * 2^32 + block of the seed (stream 0 is the instance's), so a
// block's count depends on nothing but (parameters, seed, point, block). A piece is kPiece samples.
class BlockTask final : public UnitTask {
 public:
  BlockTask(std::shared_ptr<const std::vector<Point>> points, std::size_t point, std::int64_t block,
            std::int64_t samples, std::uint64_t seed)
      : points_(std::move(points)),
        point_(&(*points_)[point]),
        samples_(samples),
        rng_(Rng::for_stream(seed, ((std::uint64_t(point) + 1) << 32) + std::uint64_t(block))) {}
  bool run_piece() override {
    std::vector<Constraint> unused;
    for (std::int64_t u = 0; u < kPiece && done_ < samples_; ++u, ++done_) {
      const Eigen::MatrixXd X = random_input(point_->k, point_->truth.d(), rng_);
      accepted_ += certify(X, apply(point_->truth, X), point_->w_sum, point_->settings, unused);
      unused.clear();
    }
    return done_ >= samples_;
  }
  Partial finish() override {
    Partial p;
    p.put("samples", double(done_));
    p.put("accepted", double(accepted_));
    return p;
  }
  double fraction() const override { return double(done_) / double(samples_); }

 private:
  std::shared_ptr<const std::vector<Point>> points_;
  const Point* point_;
  std::int64_t samples_, done_ = 0, accepted_ = 0;
  Rng rng_;
};

class AcceptanceExperiment final : public Experiment {
 public:
  AcceptanceExperiment() : Experiment(acceptance_schema()) {
    info_ = {"multihead.acceptance", "Multi-head attention: certification acceptance",
             paper_citation("multihead"),
             "A row is certified (the lab's certification, ours: on simplex edges) when its output lies on an edge of "
             "the token simplex, which needs every head to attend alike, so the acceptance rate falls steeply with every extra head; the notes give each rate "
             "with its Wilson 95% interval and the fall from one m to the next (87.2 and 105 times at d = 12, k = 3, "
             "eps = 0.1 from 1e6 inputs per m, seed 1: the story's step 2). The paper's learner is proved to succeed "
             "with (kd)^Theta(m) examples and (kd)^O(m^3) time on layers that meet its assumptions (Theorem 1.2); "
             "the fall per head at kd = 36 is our measurement."};
    presets_ = {{"versus_m", "Acceptance vs m", "m = 1, 2, 3 at (12, 3), eps = 0.1.", {{"sweep", "m=1,2,3"}}},
                {"versus_eps", "Acceptance vs eps (m = 2)", "eps from 0.025 to 0.4 at m = 2.",
                 {{"m", "2"}, {"sweep", "eps=0.025,0.05,0.1,0.2,0.4"}}},
                {"versus_norm", "Acceptance vs attention norm (m = 2)", "||Theta|| from 1 to 15 at m = 2.",
                 {{"m", "2"}, {"sweep", "norm=1,3,5,8,15"}}}};
  }

  // A small sweep over the defaults: every point in two blocks.
  KeyValues smoke_settings() const override { return {{"samples", "12000"}}; }

  std::unique_ptr<UnitTask> start_unit(std::int64_t unit) const override {
    const std::size_t point = static_cast<std::size_t>(unit / blocks_);
    const std::int64_t block = unit % blocks_;
    return std::make_unique<BlockTask>(points_, point, block, block_samples(block), seed_);
  }

  // The picture before a run: the hidden heads' attention at the sweep's first point on the first
  // example its first block draws (docs/multihead.md s.5).
  Results inputs(const Params& p, std::uint64_t seed) const override {
    const Params first = first_sweep_point(schema_, p, "sweep");
    const Point point = make_point(first, seed);
    Rng rng = Rng::for_stream(seed, std::uint64_t(1) << 32);  // point 0, block 0 (BlockTask)
    const Eigen::MatrixXd X = random_input(point.k, point.truth.d(), rng);
    Results r;
    r.heatmaps = attention_heatmaps(point.truth, X, "the first example");
    r.notes.push_back("A row is certified only when every head's attention row is nearly the same mix of two "
                      "tokens.");
    return r;
  }

  // Per point, the blocks' counts added in unit order (exact integers, so any split agrees).
  Results results() const override {
    Results r;
    r.table.columns = {"m", "eps", "norm", "rows", "accepted", "rate", "rate_low", "rate_high"};
    Series s{"acceptance per (sample, row), Wilson 95%", SeriesStyle::LineMarkers, {}, {}, {}, {}};
    for (std::size_t i = 0; i < params_.size(); ++i) {
      std::int64_t accepted = 0, counted = 0;
      for (std::int64_t b = 0; b < blocks_; ++b)
        if (const auto& slot = slots_[i * static_cast<std::size_t>(blocks_) + static_cast<std::size_t>(b)]) {
          accepted += static_cast<std::int64_t>(slot->value("accepted"));
          counted += static_cast<std::int64_t>(slot->value("samples"));
        }
      if (counted == 0) continue;
      const std::int64_t rows = counted * params_[i].integer("k");
      const Interval ci = wilson_interval(accepted, rows);
      const double rate = double(accepted) / double(rows);
      r.table.rows.push_back({double(params_[i].integer("m")), params_[i].real("eps"), params_[i].real("norm"),
                              double(rows), double(accepted), rate, ci.low, ci.high});
      s.x.push_back(sweep_.active() ? sweep_.values[i] : double(params_[i].integer("m")));
      s.y.push_back(rate);
      s.y_low.push_back(ci.low);
      s.y_high.push_back(ci.high);
      char buf[200];
      std::snprintf(buf, sizeof buf,
                    "m = %lld, eps = %g, ||Theta|| = %g: %lld of %lld rows accepted (rate %.3g, Wilson 95%% "
                    "[%.3g, %.3g]).",
                    params_[i].integer("m"), params_[i].real("eps"), params_[i].real("norm"),
                    static_cast<long long>(accepted), static_cast<long long>(rows), rate, ci.low, ci.high);
      r.notes.push_back(buf);
    }
    // The fall per head, between consecutive m of an m sweep (docs/multihead.md s.5).
    const std::size_t points = r.table.rows.size();
    if (sweep_.sweeps("m"))
      for (std::size_t i = 1; i < points; ++i) {
        const std::vector<double>& a = r.table.rows[i - 1];
        const std::vector<double>& b = r.table.rows[i];
        if (a[4] > 0 && b[4] > 0)
          r.notes.push_back(printf_text("From m = %.0f to m = %.0f the rate falls %.3g times", a[0], b[0], a[5] / b[5]) +
                            printf_text(" (%.0f and %.0f accepted rows).", a[4], b[4]));
      }
    Plot p = Plot::titled("Certification acceptance").x(sweep_.active() ? sweep_.key : "m").y("accepted rows / rows")
                 .log_y_axis();
    p.series.push_back(s);
    r.plots.push_back(p);
    return r;
  }

 protected:
  // Units: sweep point x block of kBlock samples (the last block of a point may be shorter), in
  // that order; each costs its samples.
  std::vector<std::int64_t> prepare(const Params& p, std::uint64_t seed) override {
    sweep_ = parse_sweep(schema_, "sweep", p.text("sweep"));
    params_.clear();
    if (sweep_.active())
      for (double v : sweep_.values) {
        Params q = p;
        schema_.set(q, sweep_.key, format_number(v));
        params_.push_back(q);
      }
    else
      params_.push_back(p);
    samples_ = p.integer("samples");
    const double d = static_cast<double>(p.integer("d"));
    if (static_cast<double>(samples_) * static_cast<double>(params_.size()) * d * d * 4 > 2e12)
      throw ParamError("parameter 'samples': this sweep would take hours; allowed: fewer samples or points");
    seed_ = seed;
    auto points = std::make_shared<std::vector<Point>>();
    for (const Params& q : params_) points->push_back(make_point(q, seed));
    points_ = std::move(points);
    blocks_ = (samples_ + kBlock - 1) / kBlock;
    slots_.assign(params_.size() * static_cast<std::size_t>(blocks_), std::nullopt);
    std::vector<std::int64_t> costs;
    for (std::size_t i = 0; i < params_.size(); ++i)
      for (std::int64_t b = 0; b < blocks_; ++b) costs.push_back(block_samples(b));
    return costs;
  }

  void merge(std::int64_t unit, const Partial& partial) override { slots_[static_cast<std::size_t>(unit)] = partial; }

 private:
  std::int64_t block_samples(std::int64_t block) const { return std::min(kBlock, samples_ - block * kBlock); }

  Sweep sweep_;
  std::vector<Params> params_;                        // one per sweep point
  std::shared_ptr<const std::vector<Point>> points_;  // the same, read by the tasks
  std::int64_t samples_ = 0, blocks_ = 1;
  std::uint64_t seed_ = 1;
  std::vector<std::optional<Partial>> slots_;  // per unit: (samples, accepted)
};

}  // namespace

std::unique_ptr<Experiment> make_acceptance_experiment() { return std::make_unique<AcceptanceExperiment>(); }

}  // namespace attnlab::multihead
