#include "experiments/multihead/acceptance_unit.hpp"

#include <algorithm>
#include <memory>

#include "experiments/multihead/certification.hpp"
#include "experiments/multihead/instance.hpp"

namespace attnlab::multihead {

AcceptancePoint make_acceptance_point(const Params& p, std::uint64_t seed) {
  InstanceSettings s;
  s.d = static_cast<int>(p.integer("d"));
  s.k = static_cast<int>(p.integer("k"));
  s.m = static_cast<int>(p.integer("m"));
  s.norm = p.real("norm");
  AcceptancePoint point;
  point.k = s.k;
  point.truth = random_instance(s, seed);
  point.w_sum = point.truth.W_sum();
  point.settings.eps = p.real("eps");
  return point;
}

namespace {

// One unit: `samples` examples of one point certified with the true W_sum (docs/multihead.md s.5), from the
// unit's own stream (point + 1) * 2^32 + block of the seed (stream 0 is the instance's), so a
// block's count depends on nothing but (parameters, seed, point, block). A piece is kPiece samples.
class BlockTask final : public UnitTask {
 public:
  BlockTask(std::shared_ptr<const std::vector<AcceptancePoint>> points, std::size_t point, std::int64_t block,
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
  std::shared_ptr<const std::vector<AcceptancePoint>> points_;
  const AcceptancePoint* point_;
  std::int64_t samples_, done_ = 0, accepted_ = 0;
  Rng rng_;
};

}  // namespace

std::int64_t block_samples(const AcceptanceRun& run, std::int64_t block) {
  return std::min(kBlock, run.samples - block * kBlock);
}

std::unique_ptr<UnitTask> acceptance_unit(const AcceptanceRun& run, std::int64_t unit) {
  const std::size_t point = static_cast<std::size_t>(unit / run.blocks);
  const std::int64_t block = unit % run.blocks;
  return std::make_unique<BlockTask>(run.points, point, block, block_samples(run, block), run.seed);
}

}  // namespace attnlab::multihead
