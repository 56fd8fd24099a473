// A reproduction's figures as the paper lays them out (experiments/reproductions.hpp: each panel's
// figure, row, column, letter and caption), built from the panels' results for
// lab/figure_grid.hpp. The CLI (`attnlab reproduce ... --figures DIR`) and the page's "Reproduce
// the paper" tab export them with the same names and the same bytes.
#pragma once
#include <cstdint>
#include <functional>
#include <string>

#include "experiments/reproductions.hpp"
#include "lab/figure_grid.hpp"
#include "lab/results.hpp"

namespace attnlab {

// The results of a panel so far, or null when it has none yet.
using PanelResults = std::function<const Results*(const Panel& panel)>;

// Figure `figure` of `r` (an index into r.figures): every panel declared in it, showing plot
// r.figure_plot of its results (an empty panel when there are none yet), with a caption that says
// what was run (the version, the seed, the trials per point from r.trials_column).
FigureGrid reproduction_figure(const Reproduction& r, std::size_t figure, const PanelResults& results,
                               std::uint64_t seed);

// "separation-fig4-seed1.svg": the file name of that figure (extension "svg" or "png").
std::string reproduction_figure_file(const Reproduction& r, std::size_t figure, std::uint64_t seed,
                                     const std::string& extension);

}  // namespace attnlab
