// Whole-paper reproductions: the list of a paper's figure panels, each an (experiment, preset)
// pair, run by `attnlab reproduce PAPER` and by the page's "Reproduce the paper" action. Every
// panel's experiment has a boolean `paper_trials` parameter (the paper's own trial counts:
// `--paper-trials`, the page's button); tests/test_registry.cpp checks it with the columns below.
#pragma once
#include <string>
#include <vector>

namespace attnlab {

struct Panel {
  std::string name;        // "fig4a": also the CSV file name
  std::string experiment;  // "separation.self"
  std::string preset;      // "fig4a"
};

struct Reproduction {
  std::string name;  // "separation": the PAPER of `attnlab reproduce PAPER`
  // Columns every panel's table has, so the faces name none: the number that sums up a sweep
  // point ("success_rate": the page's reproduction read-out, the CLI's progress lines) and the
  // trials behind it ("trials": index.csv's trials_per_point).
  std::string summary_column;
  std::string trials_column;
  std::vector<Panel> panels;
};

std::vector<std::string> reproduction_names();  // "separation", ...
// Throw ParamError naming the known reproductions for an unknown name.
const Reproduction& reproduction(const std::string& name);
const std::vector<Panel>& reproduction_panels(const std::string& name);

}  // namespace attnlab
