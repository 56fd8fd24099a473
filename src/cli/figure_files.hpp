// `attnlab run --figures DIR`: every plot of a run as SVG and every heatmap as PNG, named like the
// page's downloads (<experiment>-<preset or custom>-seed<N>-plot<K>.svg, ...-heatmap<K>.png, K from 1).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "lab/results.hpp"

namespace attnlab::cli {

// Creates `dir` (and its parents) or throws naming it; called before the run so a bad path fails at once.
void prepare_figure_dir(const std::string& dir);

// Writes the figures; returns the paths written. Throws naming the file that cannot be written.
std::vector<std::string> write_figures(const std::string& dir, const std::string& experiment, const std::string& preset,
                                       std::uint64_t seed, const Results& results);

}  // namespace attnlab::cli
