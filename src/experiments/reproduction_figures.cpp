#include "experiments/reproduction_figures.hpp"

#include <cmath>
#include <set>

#include "lab/version.hpp"

namespace attnlab {

namespace {

// "1000 trials per point" (or "100 to 1000 ..." when the panels differ), from the trials column.
std::string trials_text(const std::set<double>& trials) {
  if (trials.empty()) return "";
  const auto count = [](double v) { return std::to_string(std::llround(v)); };
  const std::string range = trials.size() == 1 ? count(*trials.begin())
                                               : count(*trials.begin()) + " to " + count(*trials.rbegin());
  return ", " + range + " trials per point";
}

}  // namespace

FigureGrid reproduction_figure(const Reproduction& r, std::size_t figure, const PanelResults& results,
                               std::uint64_t seed) {
  const PaperFigure& fig = r.figures.at(figure);
  FigureGrid grid;
  grid.title = fig.title;
  grid.rows = fig.rows;
  grid.columns = fig.columns;
  std::set<double> trials;
  for (const Panel& panel : r.panels) {
    if (panel.figure != fig.name) continue;
    GridPanel cell{panel.name, panel.row, panel.column, panel.letter, panel.caption, {}};
    if (const Results* got = results(panel)) {
      if (r.figure_plot < got->plots.size()) cell.plot = got->plots[r.figure_plot];
      const int column = got->table.column(r.trials_column);
      for (const auto& row : got->table.rows)
        if (column >= 0 && std::isfinite(row[static_cast<std::size_t>(column)]))
          trials.insert(row[static_cast<std::size_t>(column)]);
    }
    grid.panels.push_back(std::move(cell));
  }
  grid.caption = "Reproduced with Attention Lab " + std::string(kVersion) + " (" + r.name + "), seed " +
                 std::to_string(seed) + trials_text(trials) + ".";
  return grid;
}

std::string reproduction_figure_file(const Reproduction& r, std::size_t figure, std::uint64_t seed,
                                     const std::string& extension) {
  return r.name + "-" + r.figures.at(figure).name + "-seed" + std::to_string(seed) + "." + extension;
}

}  // namespace attnlab
