#include "experiments/reproductions.hpp"
#include "lab/find_named.hpp"

#include "lab/param.hpp"

namespace attnlab {

namespace {

// Deng et al., Figs. 3, 4, 5 and 7: the 19 sweep panels of docs/separation.md s.4, each where it
// sits in the paper's figure with the paper's letter and caption. The paper's text gives the letters
// and captions (Figs. 4 and 5 follow the captions, docs/separation.md s.4); the arrangement in rows of three
// (Fig. 3: one row of two) is ours where the text does not show it.
std::vector<Panel> separation_panels() {
  std::vector<Panel> panels{
      {"fig3a", "separation.toy", "fig3a", "fig3", 0, 0, "a", "Ratio of success with respect to n"},
      {"fig3b", "separation.toy", "fig3b", "fig3", 0, 1, "b", "Ratio of success with respect to m"}};
  const char* self_captions[] = {"Vary with n", "Vary with d", "Vary with m", "Vary with c", "Vary with a0",
                                 "Vary with a1"};
  for (const char* fig : {"fig4", "fig5"})
    for (int k = 0; k < 6; ++k) {
      const std::string letter(1, static_cast<char>('a' + k)), name = fig + letter;
      panels.push_back({name, "separation.self", name, fig, k / 3, k % 3, letter, self_captions[k]});
    }
  const char* cross_captions[] = {"Cross-attention, n", "Cross-attention, d", "Cross-attention, m",
                                  "Cross-attention, a1", "Cross-attention, a0"};
  for (int k = 0; k < 5; ++k) {
    const std::string letter(1, static_cast<char>('a' + k)), name = "fig7" + letter;
    panels.push_back({name, "separation.cross", name, "fig7", k / 3, k % 3, letter, cross_captions[k]});
  }
  return panels;
}

std::vector<PaperFigure> separation_figures() {
  return {{"fig3", "Figure 3: the softmax regression model", 1, 2},
          {"fig4", "Figure 4: self-attention when X = vec(I_d)", 2, 3},
          {"fig5", "Figure 5: self-attention when X = 1 (all ones)", 2, 3},
          {"fig7", "Figure 7: cross-attention", 2, 3}};
}

const std::vector<Reproduction>& reproductions() {
  // Each figure shows the panels' first plot, the success rate with its theory curve.
  static const std::vector<Reproduction> all{
      {"separation", "success_rate", "trials", separation_panels(), separation_figures(), 0}};
  return all;
}

}  // namespace

std::vector<std::string> reproduction_names() {
  std::vector<std::string> names;
  for (const auto& r : reproductions()) names.push_back(r.name);
  return names;
}

const Reproduction& reproduction(const std::string& name) {
  return find_named(reproductions(), name, [](const Reproduction& r) { return std::string(r.name); }, "reproduction",
                    "reproductions");
}

const std::vector<Panel>& reproduction_panels(const std::string& name) { return reproduction(name).panels; }

}  // namespace attnlab
