// The page's figure kinds (src/page/figure_kind.hpp): one row for each figure and file type, and
// the refusal of any other kind names them all.
#include <catch2/catch.hpp>
#include <set>

#include "page/figure_kind.hpp"

using namespace attnlab;
using namespace attnlab::page;

TEST_CASE("Figure kinds: a plot, a heatmap or a paper figure, each as SVG or PNG", "[page]") {
  CHECK(kFigureKinds.names() == std::vector<std::string>{"svg", "png", "heatmap-svg", "heatmap", "reproduction-svg", "reproduction"});
  std::set<std::pair<int, bool>> seen;
  for (const auto& row : kFigureKinds) {
    CHECK(seen.insert({static_cast<int>(row.value.of), row.value.png}).second);  // each pair once
    const bool svg_name = std::string(row.name) == "svg" || std::string(row.name).find("-svg") != std::string::npos;
    CHECK(row.value.png == !svg_name);
  }
  CHECK(seen.size() == 6);
  CHECK(kFigureKinds.find("heatmap")->value == FigureKind{FigureOf::Heatmap, true});
  CHECK(kFigureKinds.find("reproduction-svg")->value == FigureKind{FigureOf::Reproduction, false});
  CHECK(kFigureKinds.find("SVG") == nullptr);
  CHECK(figure_kind_refused("gif") ==
        "figure: kind 'gif' is not allowed; allowed: svg, png (a plot), heatmap-svg, heatmap (a heatmap), "
        "reproduction-svg, reproduction (a paper figure); the -svg kinds and svg save the SVG, the others its PNG");
}
