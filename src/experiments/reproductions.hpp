// Whole-paper reproductions: the list of a paper's figure panels, each an (experiment, preset)
// pair, run by `attnlab reproduce PAPER` and by the page's "Reproduce the paper" action. Every
// panel's experiment has a boolean `paper_trials` parameter (the paper's own trial counts:
// `--paper-trials`, the page's button); tests/test_registry.cpp checks it with the columns below.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace attnlab {

struct Panel {
  std::string name;        // "fig4a": also the CSV file name
  std::string experiment;  // "separation.self"
  std::string preset;      // "fig4a"
  // Where the panel sits in the paper's figure (the multi-panel figure export): the figure's name
  // (one of the reproduction's `figures`), its row and column there (from 0, top left), and the
  // paper's sub-figure letter and caption.
  std::string figure;      // "fig4"
  int row = 0, column = 0;
  std::string letter;      // "a"
  std::string caption;     // "Vary with n"
};

// One figure of the paper as a grid of panels (the panels name it in Panel::figure).
struct PaperFigure {
  std::string name;   // "fig4": also the exported file's name
  std::string title;  // "Figure 4: Self-attention when X = vec(I_d)"
  int rows = 1, columns = 1;
};

struct Reproduction {
  std::string name;  // "separation": the PAPER of `attnlab reproduce PAPER`
  // Columns every panel's table has, so the faces name none: the number that sums up a sweep
  // point ("success_rate": the page's reproduction read-out, the CLI's progress lines) and the
  // trials behind it ("trials": index.csv's trials_per_point).
  std::string summary_column;
  std::string trials_column;
  std::vector<Panel> panels;
  std::vector<PaperFigure> figures;  // in the paper's order
  std::size_t figure_plot = 0;       // the plot of each panel that the figures show
};

std::vector<std::string> reproduction_names();  // "separation", ...
// Throw ParamError naming the known reproductions for an unknown name.
const Reproduction& reproduction(const std::string& name);
const std::vector<Panel>& reproduction_panels(const std::string& name);

}  // namespace attnlab
