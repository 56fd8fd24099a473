#include "experiments/multihead/lower_bound_unit.hpp"

#include <algorithm>
#include <optional>

#include "experiments/multihead/learners.hpp"
#include "experiments/multihead/lower_bound.hpp"

namespace attnlab::multihead {

namespace {

// Unit |S| - 1 (docs/multihead.md s.4): the first piece checks the gadget exactly and runs GF(2) elimination,
// then one Adam step per piece, then a last piece measures Adam's sign accuracy: the unit, and so
// its row, is finished only once that is measured (a slice may end anywhere before it).
class ParityTask final : public UnitTask {
 public:
  ParityTask(const ParitySettings& run, int S) : run_(run) { row_.S = S; }

  bool run_piece() override {
    if (finished_) return true;
    ++pieces_;
    if (!trainer_) {
      check();
      return false;
    }
    if (trainer_->steps() < run_.adam_steps) {
      trainer_->step();
      return false;
    }
    row_.sign_accuracy = sign_accuracy(trainer_->learned());
    finished_ = true;
    return true;
  }
  Partial finish() override { return partial(); }
  double fraction() const override { return std::min(1.0, double(pieces_) / double(run_.adam_steps + 2)); }
  // The row as soon as the gadget is checked (its sign accuracy still blank).
  bool preview(Partial& out) const override {
    if (!trainer_) return false;
    out = partial();
    return true;
  }

 private:
  void check() {
    const int S = row_.S;
    const Gadget gadget = build_gadget(run_.verify_d, S, run_.rho);
    row_.heads = gadget.layer.heads();
    row_.verify_error = verify_gadget(gadget, S);
    std::vector<int> found;
    row_.gf2_examples = recover_parity_gf2(run_.train_d, S, run_.seed, 10 * run_.train_d + 100, found);
    row_.gf2_correct = row_.gf2_examples > 0;
    for (int j = 0; j < static_cast<int>(found.size()); ++j)
      row_.gf2_correct = row_.gf2_correct && found[static_cast<std::size_t>(j)] == (j < S ? 1 : 0);
    target_ = build_gadget(run_.train_d, S, run_.rho).layer;
    trainer_.emplace(target_, 2, run_.adam, run_.seed + static_cast<std::uint64_t>(S));
  }

  double sign_accuracy(const Layer& learned) const {
    Rng rng = Rng::for_stream(run_.seed, 31);
    int correct = 0, total = 0;
    for (int n = 0; n < 2000; ++n) {
      Eigen::MatrixXd X = random_input(2, run_.train_d, rng);
      if (X(0, 0) == X(1, 0)) X(1, 0) = -X(0, 0);
      const double want = gadget_target(X, row_.S)(0, 0), got = apply(learned, X)(0, 0);
      correct += (got > 0.0) == (want > 0.0);
      ++total;
    }
    return double(correct) / total;
  }

  Partial partial() const {
    Partial p;
    p.put("heads", double(row_.heads));
    p.put("verify_error", row_.verify_error);
    p.put("sign_accuracy", row_.sign_accuracy);
    p.put("gf2_examples", double(row_.gf2_examples));
    p.put("gf2_correct", row_.gf2_correct ? 1.0 : 0.0);
    return p;
  }

  ParitySettings run_;
  ParityRow row_;
  Layer target_;
  std::optional<AdamBaseline> trainer_;
  std::int64_t pieces_ = 0;
  bool finished_ = false;
};

}  // namespace

std::unique_ptr<UnitTask> lower_bound_unit(const ParitySettings& run, int S) {
  return std::make_unique<ParityTask>(run, S);
}

std::vector<ParityRow> parity_rows(const std::vector<std::optional<Partial>>& slots) {
  std::vector<ParityRow> out;
  for (std::size_t u = 0; u < slots.size(); ++u) {
    if (!slots[u]) continue;
    const Partial& p = *slots[u];
    ParityRow row;
    row.S = static_cast<int>(u) + 1;
    row.heads = static_cast<int>(p.value("heads"));
    row.verify_error = p.value("verify_error");
    row.sign_accuracy = p.value("sign_accuracy");
    row.gf2_examples = static_cast<int>(p.value("gf2_examples"));
    row.gf2_correct = p.value("gf2_correct") != 0.0;
    out.push_back(row);
  }
  return out;
}

}  // namespace attnlab::multihead
