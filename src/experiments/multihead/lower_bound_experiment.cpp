#include "experiments/multihead/lower_bound_experiment.hpp"

#include <cstdio>
#include <optional>

#include "experiments/multihead/learners.hpp"
#include "experiments/multihead/lower_bound.hpp"
#include "lab/legacy_experiment.hpp"
#include "lab/clock.hpp"
#include "lab/text.hpp"

namespace attnlab::multihead {

namespace {

const char* const kSpec = "spec/multihead.md s.4";

Schema lower_bound_schema() {
  std::vector<ParamSpec> s;
  auto add = [&](ParamSpec p) { s.push_back(std::move(p)); };
  add({"max_S", "largest |S|", ParamType::Integer, 1, 4, "3", "", "Parities on |S| = 1 .. this (8|S| + 8 heads).",
       kSpec});
  add({"verify_d", "d for the exact check", ParamType::Integer, 3, 8, "6", "",
       "The gadget is checked on all 4^d inputs of two tokens.", kSpec});
  add({"rho", "knot scale rho", ParamType::Real, 1, 20, "12", "", "Knots tau = rho c / 2, v = rho 1_S / 2.", kSpec});
  add({"train_d", "d for learning", ParamType::Integer, 3, 16, "10", "",
       "Dimension for gradient descent and Gaussian elimination.", kSpec});
  add({"adam_samples", "Adam training set", ParamType::Integer, 100, 200000, "20000", "", "Training examples.", kSpec});
  add({"adam_steps", "Adam steps", ParamType::Integer, 0, 100000, "800", "", "Steps per |S|.", kSpec});
  add({"batch", "batch size", ParamType::Integer, 1, 4096, "128", "", "Examples per Adam step.", kSpec});
  add({"lr", "learning rate", ParamType::Real, 1e-5, 1, "0.01", "", "Adam's step size.", kSpec, {}, true});
  return Schema(std::move(s));
}

struct Row {
  int S = 0, heads = 0;
  double verify_error = NAN, sign_accuracy = NAN;
  int gf2_examples = -1;
  bool gf2_correct = false;
};

class LowerBoundExperiment final : public LegacyExperiment {
 public:
  LowerBoundExperiment() : schema_(lower_bound_schema()) {
    info_ = {"multihead.lower_bound", "Multi-head attention: the lower bound",
             "Chen, Li. Provably Learning a Multi-head Attention Layer (arXiv 2402.04084), Sections 2.3 and 11",
             "8|S| + 8 heads on two tokens compute a parity of 2|S| bits exactly, so any statistical-query learner "
             "(gradient descent included) needs d^Omega(m) queries. Gradient descent's sign accuracy falls as |S| "
             "grows; Gaussian elimination over GF(2), which is not a statistical-query algorithm, finds S from about "
             "d examples."};
    presets_ = {{"parities", "Lower bound, |S| = 1..3", "The gadget checked exactly, Adam and GF(2) for |S| = 1, 2, 3.",
                 {{"max_S", "3"}, {"verify_d", "6"}, {"train_d", "10"}}}};
  }
  const ExperimentInfo& info() const override { return info_; }
  const Schema& schema() const override { return schema_; }
  const std::vector<Preset>& presets() const override { return presets_; }

  void legacy_reset(const Params& p, std::uint64_t seed) override {
    max_S_ = static_cast<int>(p.integer("max_S"));
    verify_d_ = static_cast<int>(p.integer("verify_d"));
    train_d_ = static_cast<int>(p.integer("train_d"));
    if (max_S_ >= verify_d_ || max_S_ >= train_d_)
      throw ParamError("parameter 'max_S': " + std::to_string(max_S_) +
                       " needs |S| + 1 <= d for both verify_d and train_d; allowed: max_S < min(verify_d, train_d)");
    rho_ = p.real("rho");
    adam_.samples = static_cast<int>(p.integer("adam_samples"));
    adam_.batch = static_cast<int>(p.integer("batch"));
    adam_.lr = p.real("lr");
    adam_steps_ = static_cast<int>(p.integer("adam_steps"));
    seed_ = seed;
    rows_.clear();
    current_S_ = 1;
    trainer_.reset();
  }

  // Units: the exact check and GF(2) of one |S|, then its Adam steps one by one, then the sign
  // accuracy of what Adam learned.
  void legacy_step(const Budget& budget) override {
    const double deadline = now_seconds() + budget.seconds;
    for (std::int64_t u = 0; u < budget.max_units && current_S_ <= max_S_; ++u) {
      if (u > 0 && now_seconds() >= deadline) return;  // the page keeps drawing between slices
      if (!trainer_) {
        Row row;
        row.S = current_S_;
        const Gadget check = build_gadget(verify_d_, current_S_, rho_);
        row.heads = check.layer.heads();
        row.verify_error = verify_gadget(check, current_S_);
        std::vector<int> found;
        row.gf2_examples = recover_parity_gf2(train_d_, current_S_, seed_, 10 * train_d_ + 100, found);
        row.gf2_correct = row.gf2_examples > 0;
        for (int j = 0; j < static_cast<int>(found.size()); ++j)
          row.gf2_correct = row.gf2_correct && found[static_cast<std::size_t>(j)] == (j < current_S_ ? 1 : 0);
        rows_.push_back(row);
        target_ = build_gadget(train_d_, current_S_, rho_).layer;
        trainer_.emplace(target_, 2, adam_, seed_ + static_cast<std::uint64_t>(current_S_));
        continue;
      }
      if (trainer_->steps() < adam_steps_) {
        trainer_->step();
        continue;
      }
      rows_.back().sign_accuracy = sign_accuracy(trainer_->learned());
      trainer_.reset();
      ++current_S_;
    }
  }

  // Per |S|: the gadget unit, the Adam steps, and the unit that measures the sign accuracy; the
  // run is finished only after that last one (a slice may end just before it).
  Progress legacy_progress() const override {
    const std::int64_t per = adam_steps_ + 2;
    std::int64_t done = static_cast<std::int64_t>(current_S_ - 1) * per + (trainer_ ? trainer_->steps() + 1 : 0);
    return {std::min<std::int64_t>(done, max_S_ * per), max_S_ * per};
  }

  Results results() const override {
    Results r;
    r.table.columns = {"S", "heads", "verify_max_error", "adam_sign_accuracy", "gf2_examples", "gf2_correct"};
    Series acc{"Adam sign accuracy", SeriesStyle::Bars, {}, {}, {}, {}}, chance{"chance", SeriesStyle::Reference, {}, {}, {}, {}};
    Series err{"max |F(X) - parity| over all inputs", SeriesStyle::LineMarkers, {}, {}, {}, {}};
    for (const Row& row : rows_) {
      r.table.rows.push_back({double(row.S), double(row.heads), row.verify_error, row.sign_accuracy,
                              double(row.gf2_examples), row.gf2_correct ? 1.0 : 0.0});
      acc.x.push_back(row.S), acc.y.push_back(row.sign_accuracy);
      chance.x.push_back(row.S), chance.y.push_back(0.5);
      err.x.push_back(row.S), err.y.push_back(std::max(row.verify_error, 1e-17));
    }
    Plot accuracy{"Gradient descent on the parity layer", "|S|", "sign accuracy (test)", false, false, true, 0, 1, {}};
    accuracy.series = {acc, chance};
    Plot exact{"The gadget reproduces the parity", "|S|", "max error over all 4^d inputs", false, true, false, 0, 1, {}};
    exact.series = {err};
    r.plots = {accuracy, exact};
    for (const Row& row : rows_) {
      std::string line = printf_text("|S| = %.0f: %.0f heads, max error %.2g over all inputs (d = %.0f)", row.S, row.heads,
                             row.verify_error, verify_d_);
      if (std::isfinite(row.sign_accuracy)) line += printf_text("; Adam sign accuracy %.3f", row.sign_accuracy);
      line += row.gf2_correct ? printf_text("; GF(2) elimination found S from %.0f examples", row.gf2_examples)
                              : std::string("; GF(2) elimination did not finish");
      r.notes.push_back(line + ".");
    }
    r.notes.push_back("Gaussian elimination over GF(2) is not a statistical-query algorithm: it uses the exact labels, "
                      "which is why it escapes the d^Omega(m) lower bound that gradient descent is subject to.");
    return r;
  }

 private:
  double sign_accuracy(const Layer& learned) const {
    Rng rng = Rng::for_stream(seed_, 31);
    int correct = 0, total = 0;
    for (int n = 0; n < 2000; ++n) {
      Eigen::MatrixXd X = random_input(2, train_d_, rng);
      if (X(0, 0) == X(1, 0)) X(1, 0) = -X(0, 0);
      const double want = gadget_target(X, current_S_)(0, 0), got = apply(learned, X)(0, 0);
      correct += (got > 0.0) == (want > 0.0);
      ++total;
    }
    return double(correct) / total;
  }

  ExperimentInfo info_;
  Schema schema_;
  std::vector<Preset> presets_;
  int max_S_ = 3, verify_d_ = 6, train_d_ = 10, adam_steps_ = 800, current_S_ = 1;
  double rho_ = 12.0;
  AdamSettings adam_;
  std::uint64_t seed_ = 1;
  std::vector<Row> rows_;
  Layer target_;
  std::optional<AdamBaseline> trainer_;
};

}  // namespace

std::unique_ptr<Experiment> make_lower_bound_experiment() { return std::make_unique<LowerBoundExperiment>(); }

}  // namespace attnlab::multihead
