// Checks of any plot or heatmap a run makes, shared by the registry-wide figure test
// (test_plot_figures.cpp) and the story steps' plots (test_story_plots.cpp): on a phone no heading,
// legend entry, map title or caption line is wider than the figure (docs/design.md "How to add a
// story"), a map has tick labels on both axes, and no two series of a plot are drawn alike.
#pragma once
#include <catch2/catch.hpp>

#include <cstddef>
#include <string>
#include <tuple>
#include <vector>

#include "lab/plot_looks.hpp"
#include "lab/plot_map_frame.hpp"
#include "lab/plot_ticks.hpp"
#include "lab/text.hpp"

namespace attnlab::test {

inline constexpr double kPhoneFont = 15.0, kPhonePlotWidth = 360.0;  // a 390 px phone less the panel's padding

// About the page font's width: 0.55 of its size a character (its widest letters are wider, its
// spaces narrower).
inline double phone_text_width(const std::string& s) { return 0.55 * kPhoneFont * static_cast<double>(characters(s)); }

inline void check_fits_phone(const Plot& plot) {
  INFO("plot '" << plot.title << "' at " << kPhonePlotWidth << " px");
  const std::vector<SeriesDrawing> drawn = series_drawings(plot);
  const PlotFrame f = plot_frame(plot, drawn, kPhonePlotWidth, 400.0, kPhoneFont, phone_text_width);
  for (const std::string& line : f.heading) {
    INFO("heading line '" << line << "'");
    CHECK(f.left + phone_text_width(line) <= kPhonePlotWidth);
  }
  for (std::size_t k = 0; k < f.legend_lines.size(); ++k)
    for (const std::string& line : f.legend_lines[k]) {
      INFO("legend line '" << line << "'");
      CHECK(f.legend_x[k] + kPhoneFont * kLegendLabel + phone_text_width(line) <= kPhonePlotWidth);
    }
}

inline void check_fits_phone(const Heatmap& h) {
  INFO("map '" << h.title << "' at " << kPhonePlotWidth << " px");
  const MapFrame f = map_frame(h, kPhonePlotWidth, 0.7 * kPhonePlotWidth, 0.7 * kPhonePlotWidth, kPhoneFont, phone_text_width);
  for (const auto* lines : {&f.title, &f.caption})
    for (const std::string& line : *lines) {
      INFO("line '" << line << "'");
      CHECK(phone_text_width(line) <= kPhonePlotWidth);
    }
  CHECK(f.x_ticks.size() >= (h.cols > 1 ? 2u : 1u));  // tick labels on both axes
  CHECK(f.y_ticks.size() >= (h.rows > 1 ? 2u : 1u));
  for (const auto* ticks : {&f.x_ticks, &f.y_ticks})
    for (const MapTick& t : *ticks) CHECK((t.at >= 0.0 && t.at <= 1.0 && !t.label.empty()));
}

// What the eye tells two series apart by: grey or a colour family (sky blue and blue look alike
// when faint: palette.hpp colour_family), faint or not, the line's dash (when a
// line is drawn) and the mark's shape (when marks are drawn), bars.
inline auto drawn_look(const Plot& plot, const SeriesDrawing& d, std::size_t k) {
  const bool bars = plot.series[k].style == SeriesStyle::Bars;
  return std::make_tuple(d.reference ? kSeriesColours : colour_family(d.colour_slot), d.dimmed, bars, d.line,
                         d.line ? d.look.dash.on : 0.0, d.line ? d.look.dash.off : 0.0, d.markers,
                         d.markers ? static_cast<int>(d.look.marker) : -1);
}

inline void check_drawn_apart(const Plot& plot) {
  const std::vector<SeriesDrawing> drawn = series_drawings(plot);
  for (std::size_t a = 0; a < drawn.size(); ++a)
    for (std::size_t b = a + 1; b < drawn.size(); ++b) {
      INFO("plot '" << plot.title << "': series '" << plot.series[a].name << "' and '" << plot.series[b].name
                    << "' are drawn alike");
      CHECK(drawn_look(plot, drawn[a], a) != drawn_look(plot, drawn[b], b));
    }
}

inline void check_figures(const Results& r) {
  for (const Plot& p : r.plots) check_fits_phone(p), check_drawn_apart(p);
  for (const Heatmap& h : r.heatmaps) check_fits_phone(h);
}

}  // namespace attnlab::test
