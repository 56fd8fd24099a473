// How series look, shared by the page's plot widget and the figure exports (SVG, and PNG through
// the SVG): the one home of the rule that keeps many series apart. Colour (Okabe-Ito, colour-blind
// safe) repeats every 7 series, and colour alone does not tell two series apart (in print, for a
// colour-blind reader, where two curves cross), so each series of a plot also gets its own marker
// shape (cycling every 5) and dash pattern (solid, dashed, dotted, cycling every 3): two of the
// first 5 series never share both, no two of the first 105 share all three, and series k and k + 7
// (same colour) differ in both marker and dash.
#pragma once
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace attnlab {

struct Rgb {
  std::uint8_t r, g, b;
};

inline constexpr Rgb kSeriesPalette[] = {{86, 180, 233}, {230, 159, 0},  {0, 158, 115}, {204, 121, 167},
                                         {240, 228, 66}, {213, 94, 0},   {0, 114, 178}};
inline constexpr std::size_t kSeriesColours = sizeof kSeriesPalette / sizeof kSeriesPalette[0];

// Palette colours that look alike when thin or faint (sky blue and blue; orange and vermilion) are
// one family: within a plot, series of one family get different dashes
// (lab/plot_looks.cpp), so two faint orange dotted curves never stand side by side.
inline std::size_t colour_family(std::size_t index) {
  static constexpr std::size_t family[kSeriesColours] = {0, 1, 2, 3, 4, 1, 0};
  return family[index % kSeriesColours];
}

// On white, Okabe-Ito's yellow (1.3:1 against it) gives way to a dark yellow (3.8:1).
inline constexpr Rgb kDarkYellow{150, 130, 0};

// The colour of the index-th series (the palette repeats), on a dark or a light background.
inline Rgb series_rgb(std::size_t index, bool light_background = false) {
  const std::size_t i = index % kSeriesColours;
  return light_background && i == 4 ? kDarkYellow : kSeriesPalette[i];
}

enum class Marker { Circle, Square, TriangleUp, Diamond, TriangleDown };
inline constexpr std::size_t kMarkers = 5;  // coprime with the 7 colours

// A dash pattern in pixels (SVG user units) for a 2 px line: `on` drawn, `off` left out; on == 0 is solid.
struct Dash {
  double on = 0.0, off = 0.0;
  bool solid() const { return on <= 0.0; }
};
inline constexpr Dash kSolid{0.0, 0.0};
inline constexpr Dash kDashed{9.0, 4.0};
inline constexpr Dash kDotted{2.0, 4.0};
inline constexpr Dash kReferenceDash{6.0, 4.0};  // reference curves (theory), drawn grey or white
// A plot's reference curves in turn (all grey): the first kReferenceDash, then these, so two theory
// curves (cosh and sinh beside exp) are told apart by their pattern, and so are a solver's bounds
// beside the theorem's rate (up to six; dense and sparse dots, short, long and longer dashes).
inline constexpr Dash kReferenceDashes[] = {kReferenceDash, {1.5, 3.0}, {14.0, 4.0}, {1.5, 9.0}, {6.0, 12.0}, {26.0, 6.0}};
inline constexpr std::size_t kReferencePatterns = sizeof kReferenceDashes / sizeof kReferenceDashes[0];

struct SeriesLook {
  Rgb colour;
  Marker marker;
  Dash dash;
};

// The look of the index-th data series (reference curves keep their own grey dashes).
inline SeriesLook series_look(std::size_t index, bool light_background = false) {
  static constexpr Marker markers[kMarkers] = {Marker::Circle, Marker::Square, Marker::TriangleUp, Marker::Diamond,
                                               Marker::TriangleDown};
  static constexpr Dash dashes[3] = {kSolid, kDashed, kDotted};
  return {series_rgb(index, light_background), markers[index % kMarkers], dashes[index % 3]};
}

// A marker's outline as a convex polygon around (0, 0), y down, about as large as a circle of
// `radius` looks; empty for the circle (drawn as a circle).
inline std::vector<std::pair<double, double>> marker_polygon(Marker m, double radius) {
  const double r = radius;
  switch (m) {
    case Marker::Circle: return {};
    case Marker::Square: return {{-0.85 * r, -0.85 * r}, {0.85 * r, -0.85 * r}, {0.85 * r, 0.85 * r}, {-0.85 * r, 0.85 * r}};
    case Marker::TriangleUp: return {{0.0, -1.2 * r}, {1.1 * r, 0.8 * r}, {-1.1 * r, 0.8 * r}};
    case Marker::Diamond: return {{0.0, -1.2 * r}, {1.2 * r, 0.0}, {0.0, 1.2 * r}, {-1.2 * r, 0.0}};
    case Marker::TriangleDown: return {{-1.1 * r, -0.8 * r}, {1.1 * r, -0.8 * r}, {0.0, 1.2 * r}};
  }
  return {};
}

}  // namespace attnlab
