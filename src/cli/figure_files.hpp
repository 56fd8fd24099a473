// Figure files written by the CLI, named like the page's downloads:
// `attnlab run --figures DIR`: every plot of a run as SVG and every heatmap as SVG (the figure: title,
// colour bar, labels) and PNG (the matrix image alone, pixel for pixel), as
// <experiment>-<preset or custom>-seed<N>-plot<K>.svg, ...-heatmap<K>.svg/.png (K from 1);
// `attnlab reproduce PAPER --figures DIR`: each of the paper's figures as one multi-panel SVG,
// <paper>-<figure>-seed<N>.svg (experiments/reproduction_figures.hpp).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "experiments/reproduction_figures.hpp"
#include "lab/results.hpp"

namespace attnlab::cli {

// Creates `dir` (and its parents) or throws naming it; called before the run so a bad path fails at once.
void prepare_figure_dir(const std::string& dir);

// Writes the figures; returns the paths written. Throws naming the file that cannot be written.
std::vector<std::string> write_figures(const std::string& dir, const std::string& experiment, const std::string& preset,
                                       std::uint64_t seed, const Results& results);

// Writes every figure of reproduction `r` from its panels' results; returns the paths written.
std::vector<std::string> write_reproduction_figures(const std::string& dir, const Reproduction& r,
                                                    const PanelResults& results, std::uint64_t seed);

}  // namespace attnlab::cli
