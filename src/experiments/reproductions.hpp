// Whole-paper reproductions: the list of a paper's figure panels, each an (experiment, preset)
// pair, run by `attnlab reproduce PAPER` and by the page's "Reproduce the paper" action.
#pragma once
#include <string>
#include <vector>

namespace attnlab {

struct Panel {
  std::string name;        // "fig4a": also the CSV file name
  std::string experiment;  // "separation.self"
  std::string preset;      // "fig4a"
};

std::vector<std::string> reproduction_names();  // "separation", ...
// Throws ParamError naming the known reproductions for an unknown name.
const std::vector<Panel>& reproduction_panels(const std::string& name);

}  // namespace attnlab
