// The experiment interface: declared once, driven by every face (docs/design.md "The experiment contract").
// [SECTION] index
//   Preset, ExperimentInfo   what the faces list
//   Budget, Progress         the step(budget) contract and its read-out
//   Experiment               identity; the run (reset / step / progress / results: one home of the
//                            slicing rules, for every experiment); its work units (lab/work_unit);
//                            the picture of its inputs before a run (inputs())
//                            and what a subclass writes: prepare(), start_unit(), merge(), results()
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "lab/results.hpp"
#include "lab/schema.hpp"
#include "lab/work_unit.hpp"

namespace attnlab {

struct Preset {
  std::string name;         // "fig3a"
  std::string title;        // "Fig. 3a: success vs n"
  std::string description;  // what the paper claims and what to look for
  KeyValues values;         // applied over the defaults, in order
};

struct ExperimentInfo {
  std::string id;       // "separation.toy"
  std::string title;    // human title
  std::string paper;    // citation: Paper::citation (src/lab/paper.hpp) with the section or figure
  std::string summary;  // two or three sentences
};

// How much work one step() may do: at most `max_units` pieces of work (a piece is a small part of
// a unit, see UnitTask), and it stops after `seconds` of wall time (checked between pieces, so a
// step overruns its time by at most one piece). Results never depend on the slicing.
struct Budget {
  std::int64_t max_units = INT64_MAX;
  double seconds = 1e300;
};

struct Progress {
  std::int64_t done = 0;
  std::int64_t total = 0;
  bool finished() const { return done >= total; }
  double fraction() const { return total > 0 ? static_cast<double>(done) / static_cast<double>(total) : 1.0; }
};

class Experiment {
 public:
  virtual ~Experiment() = default;
  // What every experiment declares once, set by its constructor (below).
  const ExperimentInfo& info() const { return info_; }
  const Schema& schema() const { return schema_; }
  const std::vector<Preset>& presets() const { return presets_; }

  // ---- the run, driven in slices on one thread (the page's fallback, the JS API, tests) -------
  // reset() prepares a run (Params are valid by construction; throws ParamError for runs that are
  // valid key by key but impossible together). step() runs pieces of the unfinished units in
  // unit order within the budget. progress() and results() may be called at any time.
  void reset(const Params& params, std::uint64_t seed);
  void step(const Budget& budget);
  Progress progress() const;
  virtual Results results() const = 0;  // from the partials merged so far

  // ---- work units: for schedulers that run units elsewhere (threads, Web Workers, shards) -----
  std::int64_t unit_count() const { return static_cast<std::int64_t>(costs_.size()); }
  std::int64_t unit_cost(std::int64_t unit) const { return costs_[static_cast<std::size_t>(unit)]; }
  bool unit_finished(std::int64_t unit) const { return finished_[static_cast<std::size_t>(unit)] != 0; }
  // Starts unit `unit` of the current run. Const and free of shared mutable state, so several
  // threads may run tasks of one experiment at once; the task owns everything it changes.
  virtual std::unique_ptr<UnitTask> start_unit(std::int64_t unit) const = 0;
  // Takes a finished unit's partial, computed here or anywhere else with the same parameters and
  // seed. Absorbing a unit twice keeps the later partial (they are equal by construction).
  void absorb(std::int64_t unit, const Partial& partial);
  // Takes a provisional partial of a unit still running elsewhere (curves grow while it runs).
  void absorb_preview(std::int64_t unit, const Partial& preview);

  // Optional close look at one trial of one sweep point of the current run (valid after reset):
  // matrices as heatmaps, per-row values, the network's outputs. has_inspector() says, without a
  // run, whether there is one (the page's Inspector tab, `attnlab inspect`); then
  // inspector_points() labels the points of every run ("n = 200", ...), else it is empty.
  // inspect() throws ParamError for a point or trial out of range or when there is no inspector.
  // Its heatmaps and plots come in reading order, which every face keeps: the page draws the
  // heatmaps two to a row, an odd last one beside the first plot, then the other plots; exported
  // figures are numbered in that order.
  virtual bool has_inspector() const { return false; }
  virtual std::vector<std::string> inspector_points() const { return {}; }
  virtual Results inspect(std::size_t point, std::int64_t trial) const;

  // The picture before a run (docs/design.md "The picture before a run"): plots or heatmaps of the
  // run's inputs, drawn from the parameters and seed alone (for a sweep, its first point), shown by
  // the page until Run. It computes in milliseconds and tells nothing of the outcome: it draws what
  // goes in (one sampled input, the starting point, the functions involved), never a quantity the
  // run measures. Every title starts with "Inputs: ". Throws ParamError like reset() may.
  virtual Results inputs(const Params& params, std::uint64_t seed) const = 0;

  // Optional user data (e.g. a problem file as JSON text), kept across reset() and used when the
  // parameters ask for it. An experiment that takes data names its data selector: the parameter
  // setting that makes a run use the loaded data (regression: source=data). Faces apply it when
  // data arrives (the page's Load button, the CLI's --data) and know nothing else of it.
  // set_data() throws ParamError naming what is wrong (a file larger than kMaxDataBytes before it
  // is parsed); the default takes no data. Faces that can see a file's size before reading it
  // (the CLI, the page's file picker) call check_data_size() first.
  struct DataSelector {
    std::string key, value;  // both empty: the experiment takes no data
  };
  virtual DataSelector data_selector() const { return {}; }
  bool accepts_data() const { return !data_selector().key.empty(); }
  void set_data(const std::string& json);
  static constexpr std::uintmax_t kMaxDataBytes = 64u << 20;  // 64 MB: far above any problem the lab solves
  static void check_data_size(std::uintmax_t bytes);

  const Preset& preset(const std::string& name) const;  // throws ParamError for unknown names
  // Defaults with the named preset (if any) and then `overrides` applied; throws ParamError.
  Params make_params(const std::string& preset_name, const KeyValues& overrides) const;

  // A small run over the defaults (well under a second natively) that still has several units of
  // every kind the experiment makes: the tests run it in one go, in one-piece slices, split into
  // shards and with another seed, for every registered experiment.
  virtual KeyValues smoke_settings() const = 0;

 protected:
  // A subclass's constructor passes its schema and presets (or assigns presets_) and fills info_,
  // whose citation comes from its paper (src/experiments/papers.hpp: paper_citation).
  explicit Experiment(Schema schema, std::vector<Preset> presets = {})
      : schema_(std::move(schema)), presets_(std::move(presets)) {}

  ExperimentInfo info_;
  Schema schema_;
  std::vector<Preset> presets_;

  // Prepares a run and lists its units: returns each unit's cost in the experiment's own measure
  // of work (trials, steps, examples; at least 1), which progress() adds up.
  virtual std::vector<std::int64_t> prepare(const Params& params, std::uint64_t seed) = 0;
  // Keeps a unit's partial (final, or a preview that a later partial of the same unit replaces).
  // results() reduces the kept partials in unit order, so the order of arrival never matters.
  virtual void merge(std::int64_t unit, const Partial& partial) = 0;
  // Parses and keeps user data (set_data() has checked its size); the default takes none.
  virtual void read_data(const std::string& json);

 private:
  std::vector<std::int64_t> costs_;
  std::vector<char> finished_;
  std::int64_t finished_cost_ = 0, total_cost_ = 0;
  std::int64_t next_unit_ = 0;           // the first unit step() has not finished or started
  std::unique_ptr<UnitTask> task_;       // the unit step() is in the middle of, if any
  std::int64_t task_unit_ = -1;
};

}  // namespace attnlab
