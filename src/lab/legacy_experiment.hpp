// TEMPORARY (removed once every experiment declares its units): an experiment written as one
// sequential run, adapted to the unit interface as a single unit that drives the old step().
#pragma once
#include "lab/experiment.hpp"

namespace attnlab {

class LegacyExperiment : public Experiment {
 public:
  std::unique_ptr<UnitTask> start_unit(std::int64_t) const override {
    auto* self = const_cast<LegacyExperiment*>(this);
    class Task final : public UnitTask {
     public:
      explicit Task(LegacyExperiment* e) : e_(e) {}
      bool run_piece() override {
        Budget b;
        b.max_units = 1;
        e_->legacy_step(b);
        return e_->legacy_progress().finished();
      }
      Partial finish() override { return {}; }
      double fraction() const override { return e_->legacy_progress().fraction(); }

     private:
      LegacyExperiment* e_;
    };
    return std::make_unique<Task>(self);
  }

 public:
  KeyValues smoke_settings() const override { return {}; }

 protected:
  virtual void legacy_reset(const Params& params, std::uint64_t seed) = 0;
  virtual void legacy_step(const Budget& budget) = 0;
  virtual Progress legacy_progress() const = 0;
  std::vector<std::int64_t> prepare(const Params& params, std::uint64_t seed) override {
    legacy_reset(params, seed);
    return {1};
  }
  void merge(std::int64_t, const Partial&) override {}
};

}  // namespace attnlab
