// The page's figure exports as one choice table: appExportFigure(kind, index) and
// appFigureSvg(kind, index) (src/ui/app_exports.cpp) save a plot, a heatmap or a paper figure of
// the reproduction, as an SVG or as the browser's PNG of it (lab/export_format.hpp holds the
// tables' formats, csv and json).
#pragma once
#include <string>

#include "lab/choice_table.hpp"

namespace attnlab::page {

enum class FigureOf { Plot, Heatmap, Reproduction };

struct FigureKind {
  FigureOf of = FigureOf::Plot;
  bool png = false;  // the browser's PNG of the SVG (at twice its size), else the SVG
  constexpr bool operator==(const FigureKind& other) const { return of == other.of && png == other.png; }
};

inline constexpr ChoiceTable<FigureKind> kFigureKinds{
    {"svg", {FigureOf::Plot, false}},          {"png", {FigureOf::Plot, true}},
    {"heatmap-svg", {FigureOf::Heatmap, false}}, {"heatmap", {FigureOf::Heatmap, true}},
    {"reproduction-svg", {FigureOf::Reproduction, false}}, {"reproduction", {FigureOf::Reproduction, true}}};

// The refusal of an unknown kind, with the table's names and what each saves:
//   "figure: kind 'gif' is not allowed; allowed: svg, png (a plot), heatmap-svg, heatmap (a
//    heatmap), reproduction-svg, reproduction (a paper figure); the -svg kinds and svg save the
//    SVG, the others its PNG"
inline std::string figure_kind_refused(const std::string& kind) {
  static const char* what[] = {"a plot", "a heatmap", "a paper figure"};
  std::string allowed;
  for (const auto& row : kFigureKinds) {
    allowed += (allowed.empty() ? "" : ", ") + std::string(row.name);
    if (row.value.png) allowed += std::string(" (") + what[static_cast<int>(row.value.of)] + ")";
  }
  return "figure: kind '" + kind + "' is not allowed; allowed: " + allowed +
         "; the -svg kinds and svg save the SVG, the others its PNG";
}

}  // namespace attnlab::page
