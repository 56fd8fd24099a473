// The plot a story step names, before Run (docs/design.md "The picture before a run"): an empty
// frame with the figure's title and axis labels and a note that it is drawn at Run. No data, no
// ticks, no reference curve: nothing that could give away the value the student predicts.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "lab/results.hpp"
#include "lab/story.hpp"

namespace attnlab::page {

// The note inside the empty frame, on the canvas and in the text twin.
inline constexpr const char* kDrawnAtRun = "Drawn when you press Run";

// The frame of the figure `title` as a run declares it before any unit: the plot of that title in
// `skeleton` (an experiment's results() once prepared, before a unit is merged) or the heatmap of
// that title drawn as a plot frame, keeping its title, axis labels and log scales and dropping
// every series, range and band; a frame with the title alone when the skeleton has no such figure
// (a run that adds the figure only once it has data).
Plot empty_frame(const std::string& title, const Results& skeleton);

// The frame of `step`'s named figure (StoryStep::plot): a run of the step's own settings is
// prepared (milliseconds for every step but a large regression problem, about a second) and its
// skeleton read. A title alone when the settings cannot run or the step names no figure ("").
Plot step_frame(const StoryStep& step);

// The order a story step draws its run's plots in: the named plot (StoryStep::plot), then the
// plots its answer relies on (StoryStep::shown_plots, in their order), then the others as listed.
std::vector<std::size_t> plots_in_order(const std::vector<Plot>& plots, const std::string& named,
                                        const std::vector<std::string>& shown);
// How many of them lead that order and are drawn open, outside "More plots".
std::size_t plots_shown_open(const std::vector<Plot>& plots, const std::string& named,
                             const std::vector<std::string>& shown);
// The order a story step draws its run's maps in: the named one (a map, as regression 5's), then
// the others as listed.
std::vector<std::size_t> maps_in_order(const std::vector<Heatmap>& maps, const std::string& named);

}  // namespace attnlab::page
