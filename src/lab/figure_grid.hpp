// Several plots as one multi-panel SVG figure (a paper's figure: panels in rows and columns, each
// with its letter and title), for slides and papers. Knows no paper: the caller says where each
// panel goes (experiments/reproduction_figures.hpp does it for a reproduction).
#pragma once
#include <string>
#include <vector>

#include "lab/results.hpp"

namespace attnlab {

struct GridPanel {
  std::string id;      // "fig4a": the panel's group is <g id="panel-fig4a" class="panel">
  int row = 0, column = 0;  // from 0, top left
  std::string letter;  // "a": drawn bold, "(a)", before the title
  std::string title;   // "Vary with n"
  Plot plot;           // its own title is not drawn (the panel's is); no series: "no results yet"
};

struct FigureGrid {
  std::string title;    // drawn at the top, bold
  std::string caption;  // drawn under the panels (e.g. what was run: version, seed, trials)
  int rows = 1, columns = 1;
  std::vector<GridPanel> panels;  // cells left out stay empty
};

// The whole file (XML declaration included); each panel is `panel_width` x `panel_height` user
// units with the plot widget's layout (lab/plot_svg.hpp). What every panel with data shares is drawn
// once: the same y label, rotated, at the figure's left (instead of in every panel's heading), and
// the same series (names and styles) as one legend under the panels (instead of one per panel).
// Throws std::invalid_argument for a panel outside the grid or two panels in one cell.
std::string figure_grid_to_svg(const FigureGrid& grid, double panel_width = 360.0, double panel_height = 270.0);

}  // namespace attnlab
