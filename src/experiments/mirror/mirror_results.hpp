// `mirror` (docs/mirror.md): results() as named parts, reduced over the merged runs in run order
// (unit order, then p), so any order of arrival and any split of the units give the same numbers.
// Runs still running contribute their curves so far.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "experiments/mirror/mirror_run.hpp"
#include "experiments/mirror/mirror_unit.hpp"
#include "lab/results.hpp"

namespace attnlab::mirror {

// Per run of the prepared run (PreparedRun::runs), its record as merged so far, or none.
using MergedRecords = std::vector<std::optional<RunRecord>>;

// The whole results: the table, its curves, then per p its notes and its shown run's figures.
Results mirror_results(const PreparedRun& run, const MergedRecords& records);

// One row per checkpoint of any run (the union: a shorter run's last iterate, k = 1500 for p =
// 1.75, is a row of its own; columns of runs without that checkpoint are blank there); columns per
// MD p: mean D against each SVM p' (with the 10% and 90% quantiles), the norm ||W_k||_p, the loss,
// the max softmax probability and, for joint training, the logistic probability (means over
// finished seeds).
Table results_table(const PreparedRun& run, const MergedRecords& records);
// The curves of the table: D against the own-p SVM, the 3 x 3, the norm, the loss, the softmax
// concentration and, for joint training, the logistic probability.
std::vector<Plot> results_plots(const PreparedRun& run, const Table& table);
// The notes of p: its finished runs, whose tokens the 3 x 3's SVMs were solved on (with the first
// p), and the tokens its shown run selected. None while no run of p is done.
std::vector<std::string> results_notes(const PreparedRun& run, const MergedRecords& records, double p);
// The done run of p that the heatmaps, path plots and token notes show (seed index 0), or null.
const RunRecord* shown_record(const PreparedRun& run, const MergedRecords& records, double p);
// The heatmaps and plots of p's shown run (seed index 0), appended to `out`; none until it is done
// (mirror_figures.cpp).
void results_figures(const PreparedRun& run, const MergedRecords& records, double p, Results& out);

}  // namespace attnlab::mirror
