#include "experiments/reproductions.hpp"

#include "lab/param.hpp"

namespace attnlab {

namespace {

// Deng et al., Figs. 3, 4, 5 and 7: the 19 sweep panels of spec/separation.md s.4.
std::vector<Panel> separation_panels() {
  std::vector<Panel> panels{{"fig3a", "separation.toy", "fig3a"}, {"fig3b", "separation.toy", "fig3b"}};
  for (const char* fig : {"fig4", "fig5"})
    for (char letter = 'a'; letter <= 'f'; ++letter) {
      const std::string name = fig + std::string(1, letter);
      panels.push_back({name, "separation.self", name});
    }
  for (char letter = 'a'; letter <= 'e'; ++letter) {
    const std::string name = "fig7" + std::string(1, letter);
    panels.push_back({name, "separation.cross", name});
  }
  return panels;
}

const std::vector<Reproduction>& reproductions() {
  static const std::vector<Reproduction> all{{"separation", "success_rate", "trials", separation_panels()}};
  return all;
}

}  // namespace

std::vector<std::string> reproduction_names() {
  std::vector<std::string> names;
  for (const auto& r : reproductions()) names.push_back(r.name);
  return names;
}

const Reproduction& reproduction(const std::string& name) {
  std::string known;
  for (const auto& r : reproductions()) {
    if (name == r.name) return r;
    known += (known.empty() ? "" : ", ") + r.name;
  }
  throw ParamError("unknown reproduction '" + name + "'; reproductions: " + known);
}

const std::vector<Panel>& reproduction_panels(const std::string& name) { return reproduction(name).panels; }

}  // namespace attnlab
