// Work units (docs/design.md "The run: prepare, units, merge, results"): an experiment's run is a fixed list of independent
// units. A unit's partial result depends only on (parameters, seed, unit index): never on the
// thread, worker or machine that ran it, nor on how its work was sliced. The experiment owns its
// units and their merge; scheduling (slices, threads, workers, shards) is the framework's.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace attnlab {

// One unit's result: named arrays of doubles (counts are exact up to 2^53) and named texts
// (states, messages). The framework moves it between threads, Web Workers and shard files
// (lab/partial_codec) without knowing what it holds. Names are unique; order is kept.
class Partial {
 public:
  void put(const std::string& name, std::vector<double> values);
  void put(const std::string& name, double value) { put(name, std::vector<double>{value}); }
  void put_text(const std::string& name, std::string text);

  // Throw std::runtime_error naming the field when it is missing (a partial from another build).
  const std::vector<double>& values(const std::string& name) const;
  double value(const std::string& name) const;
  const std::string& text(const std::string& name) const;
  bool has(const std::string& name) const;

  const std::vector<std::pair<std::string, std::vector<double>>>& all_values() const { return values_; }
  const std::vector<std::pair<std::string, std::string>>& all_texts() const { return texts_; }
  bool operator==(const Partial& other) const;  // bitwise on the doubles (NaN equals NaN)

 private:
  std::vector<std::pair<std::string, std::vector<double>>> values_;
  std::vector<std::pair<std::string, std::string>> texts_;
};

// A unit in progress. The scheduler calls run_piece() until it returns true, then finish() once.
// A piece is a small, bounded amount of work (about a millisecond natively, never more than a
// few tens): the step(budget) contract is kept by the scheduler checking the clock between
// pieces (Experiment::step), so a unit only says what one piece is.
class UnitTask {
 public:
  virtual ~UnitTask() = default;
  virtual bool run_piece() = 0;         // true when the unit is finished
  virtual Partial finish() = 0;         // the unit's partial result, after run_piece() returned true
  virtual double fraction() const = 0;  // of this unit done, in [0, 1], for progress read-outs
  // A provisional partial of the work so far, for long units whose curves should grow while they
  // run (the page previews it; the final partial replaces it). False when the unit has none.
  virtual bool preview(Partial& out) const {
    (void)out;
    return false;
  }
};

// A unit done in pieces: `piece(k)` does piece k (k = 0, 1, ..., pieces - 1), then `finish()`
// makes the partial. For units that are a loop over small independent steps.
std::unique_ptr<UnitTask> make_piecewise_task(std::int64_t pieces, std::function<void(std::int64_t)> piece,
                                              std::function<Partial()> finish,
                                              std::function<bool(Partial&)> preview = {});

// A unit that is one piece: `compute()` makes the partial in one go (keep it short).
std::unique_ptr<UnitTask> make_single_piece_task(std::function<Partial()> compute);

// Runs a task to the end on this thread.
Partial run_task_to_end(UnitTask& task);

}  // namespace attnlab
