#include "lab/experiment.hpp"
#include "lab/find_named.hpp"

#include <algorithm>
#include <stdexcept>

#include "lab/deadline.hpp"

namespace attnlab {

void Experiment::reset(const Params& params, std::uint64_t seed) {
  task_.reset();
  task_unit_ = -1;
  costs_.clear();
  finished_.clear();
  finished_cost_ = total_cost_ = 0;
  next_unit_ = 0;
  std::vector<std::int64_t> costs = prepare(params, seed);
  for (std::int64_t& c : costs) c = std::max<std::int64_t>(1, c);
  for (std::int64_t c : costs) total_cost_ += c;
  costs_ = std::move(costs);
  finished_.assign(costs_.size(), 0);
}

// The one home of the step(budget) contract: pieces of units in unit order, the deadline checked
// between pieces (lab/deadline.hpp), a preview of the unit in flight merged at the end of the slice.
void Experiment::step(const Budget& budget) {
  Deadline deadline(budget.seconds);
  for (std::int64_t pieces = 0; pieces < budget.max_units; ++pieces) {
    if (!task_) {
      while (next_unit_ < unit_count() && unit_finished(next_unit_)) ++next_unit_;
      if (next_unit_ >= unit_count()) return;
      task_unit_ = next_unit_;
      task_ = start_unit(task_unit_);
    }
    if (task_->run_piece()) {
      absorb(task_unit_, task_->finish());
      task_.reset();
      task_unit_ = -1;
    }
    if (deadline.passed()) break;
  }
  Partial preview;
  if (task_ && task_->preview(preview)) merge(task_unit_, preview);
}

Progress Experiment::progress() const {
  std::int64_t done = finished_cost_;
  if (task_) done += static_cast<std::int64_t>(task_->fraction() * double(unit_cost(task_unit_)));
  // Every unit finished is the only way to be done (a unit's fraction may round up to its cost).
  const bool all = finished_cost_ == total_cost_;
  return {all ? total_cost_ : std::min(done, total_cost_ - 1), total_cost_};
}

void Experiment::absorb(std::int64_t unit, const Partial& partial) {
  if (unit < 0 || unit >= unit_count())
    throw std::runtime_error("unit " + std::to_string(unit) + " is out of range for " + info().id + " (it has " +
                             std::to_string(unit_count()) + " units)");
  merge(unit, partial);
  if (!unit_finished(unit)) {
    finished_[static_cast<std::size_t>(unit)] = 1;
    finished_cost_ += unit_cost(unit);
  }
  if (unit == task_unit_) {  // finished elsewhere first: drop the local copy
    task_.reset();
    task_unit_ = -1;
  }
}

void Experiment::absorb_preview(std::int64_t unit, const Partial& preview) {
  if (unit < 0 || unit >= unit_count() || unit_finished(unit)) return;
  merge(unit, preview);
}

const Preset& Experiment::preset(const std::string& name) const {
  return find_named(presets(), name, [](const Preset& p) { return p.name; }, "preset", "presets", " for " + info().id);
}

Params Experiment::make_params(const std::string& preset_name, const KeyValues& overrides) const {
  Params p = schema().defaults();
  if (!preset_name.empty()) schema().apply(p, preset(preset_name).values);
  schema().apply(p, overrides);
  return p;
}

void Experiment::check_data_size(std::uintmax_t bytes) {
  if (bytes > kMaxDataBytes)
    throw ParamError("data file: " + std::to_string(bytes) + " bytes is more than the " +
                     std::to_string(kMaxDataBytes >> 20) + " MB a data file may have");
}

void Experiment::set_data(const std::string& json) {
  if (!accepts_data()) throw ParamError("experiment '" + info().id + "' takes no data file");
  check_data_size(json.size());
  read_data(json);
}

void Experiment::read_data(const std::string&) {}

Results Experiment::inspect(std::size_t, std::int64_t) const {
  throw ParamError("experiment '" + info().id + "' has no inspector");
}

}  // namespace attnlab
