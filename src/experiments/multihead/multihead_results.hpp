// `multihead`'s results (docs/multihead.md): the table, the curves, the enclosure's notes and plot,
// the head search's heatmap and the notes, reduced from the units' partials in unit order.
#pragma once
#include <optional>

#include "experiments/multihead/instance.hpp"
#include "experiments/multihead/multihead_run.hpp"
#include "experiments/multihead/multihead_unit.hpp"
#include "lab/results.hpp"
#include "lab/work_unit.hpp"

namespace attnlab::multihead {

// `pipeline_slot` and `adam_slot`: the kept partials of units 0 and 1 (empty: not reported yet).
Results multihead_results(const RunSettings& run, const AssumptionMeter& meter,
                          const std::optional<Partial>& pipeline_slot, const std::optional<Partial>& adam_slot);

}  // namespace attnlab::multihead
