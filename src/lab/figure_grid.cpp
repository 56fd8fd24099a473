#include "lab/figure_grid.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>
#include <utility>

#include "lab/plot_svg.hpp"
#include "lab/plot_ticks.hpp"
#include "lab/svg_text.hpp"

namespace attnlab {

namespace {

constexpr double kFont = 12.0;  // px, as a single plot's
constexpr double kMargin = 12.0, kGapX = 16.0, kGapY = 10.0;

// The y label every panel with data shares, or "" when they differ (or there is none).
std::string shared_y_label(const FigureGrid& g) {
  std::string label;
  for (const GridPanel& p : g.panels) {
    if (p.plot.series.empty()) continue;
    if (p.plot.y_label.empty() || (!label.empty() && p.plot.y_label != label)) return "";
    label = p.plot.y_label;
  }
  return label;
}

// The series every panel with data has (the same names and styles, in order), whose legend the
// figure then draws once under the panels; empty when the panels differ.
std::vector<Series> shared_legend(const FigureGrid& g) {
  const std::vector<Series>* first = nullptr;
  for (const GridPanel& p : g.panels) {
    if (p.plot.series.empty()) continue;
    if (!first) {
      first = &p.plot.series;
      continue;
    }
    const std::vector<Series>& s = p.plot.series;
    if (s.size() != first->size()) return {};
    for (std::size_t k = 0; k < s.size(); ++k)
      if (s[k].name != (*first)[k].name || s[k].style != (*first)[k].style) return {};
  }
  return first ? *first : std::vector<Series>{};
}

// A line of text no wider than `fit`: squeezed (textLength) when the estimate says it would not fit.
std::string fitted(double fit, double size, const std::string& body) {
  return svg_text_width(body, size) > fit
             ? " textLength=\"" + svg_num(fit) + "\" lengthAdjust=\"spacingAndGlyphs\""
             : std::string();
}

}  // namespace

std::string figure_grid_to_svg(const FigureGrid& g, double pw, double ph) {
  std::set<std::pair<int, int>> used;
  for (const GridPanel& p : g.panels) {
    if (p.row < 0 || p.row >= g.rows || p.column < 0 || p.column >= g.columns)
      throw std::invalid_argument("figure '" + g.title + "': panel '" + p.id + "' lies outside its " +
                                  std::to_string(g.rows) + " x " + std::to_string(g.columns) + " grid");
    if (!used.insert({p.row, p.column}).second)
      throw std::invalid_argument("figure '" + g.title + "': panel '" + p.id + "' shares its cell with another");
  }
  const double f = kFont, title_font = f * 1.3;
  const std::string y_label = shared_y_label(g);
  const double left = kMargin + (y_label.empty() ? 0.0 : f * 1.6), top = kMargin + title_font * 1.6;
  // Whole units: the browser's PNG of the SVG is then exactly twice its size.
  const double width = std::ceil(left + g.columns * pw + (g.columns - 1) * kGapX + kMargin);
  const double grid_bottom = top + g.rows * ph + (g.rows - 1) * kGapY;
  const std::vector<Series> legend = shared_legend(g);
  const auto text_width = [&](const std::string& s) { return svg_text_width(s, f); };
  const LegendLayout legend_at = legend_layout(legend, width - left - kMargin, f, text_width);
  const double legend_top = grid_bottom + f * 0.5, legend_bottom = legend_top + f * 1.3 * legend_at.rows;
  const double height = std::ceil(legend_bottom + (g.caption.empty() ? 0.0 : f * 1.6) + kMargin);

  std::string out = svg_document_start(width, height, f, g.title);
  out += "<text id=\"figure-title\" class=\"figure-title\" x=\"" + svg_num(kMargin) + "\" y=\"" +
         svg_num(kMargin + title_font) + "\" font-size=\"" + svg_num(title_font) + "\" font-weight=\"bold\" fill=\"" +
         kSvgText + "\"" + fitted(width - 2 * kMargin, title_font, g.title) + ">" + xml_escape(g.title) + "</text>\n";
  if (!y_label.empty()) {
    const double x = kMargin + f, y = (top + grid_bottom) * 0.5;
    out += "<text class=\"y-label\" x=\"" + svg_num(x) + "\" y=\"" + svg_num(y) + "\" transform=\"rotate(-90 " +
           svg_num(x) + " " + svg_num(y) + ")\" text-anchor=\"middle\" fill=\"" + kSvgTextDim + "\"" +
           fitted(grid_bottom - top, f, y_label) + ">" + xml_escape(y_label) + "</text>\n";
  }

  for (const GridPanel& p : g.panels) {
    const double x = left + p.column * (pw + kGapX), y = top + p.row * (ph + kGapY);
    // The panel's own heading replaces the plot's: the letter in bold, the title, and the y label
    // when the panels do not share one.
    Plot plot = p.plot;
    const std::string own_y_label = y_label.empty() ? plot.y_label : "";
    plot.title.clear();
    plot.y_label.clear();
    const PlotFrame frame = plot_frame(plot, series_drawings(plot, true), pw, ph, f, text_width, legend.empty());
    const std::string heading = "(" + p.letter + ") " + p.title + (own_y_label.empty() ? "" : "  (" + own_y_label + ")");
    out += "<g id=\"panel-" + xml_escape(p.id) + "\" class=\"panel\" data-panel=\"" + xml_escape(p.id) +
           "\" transform=\"translate(" + svg_num(x) + " " + svg_num(y) + ")\">\n";
    out += plot_svg_body(plot, pw, ph, "panel-" + p.id, legend.empty());
    out += "<text class=\"panel-title\" x=\"" + svg_num(frame.left) + "\" y=\"" + svg_num(f * 1.0) + "\" fill=\"" +
           kSvgText + "\"" + fitted(pw - frame.left - f * 0.3, f, heading) + "><tspan font-weight=\"bold\">(" +
           xml_escape(p.letter) + ")</tspan> " + xml_escape(p.title) +
           (own_y_label.empty() ? "" : "<tspan class=\"y-label\" dx=\"" + svg_num(f * 0.5) + "\" fill=\"" + kSvgTextDim + "\">(" +
                                           xml_escape(own_y_label) + ")</tspan>") +
           "</text>\n";
    if (plot.series.empty())
      out += svg_text("no-results", (frame.left + frame.right) * 0.5, (frame.top + frame.bottom) * 0.5, "middle",
                      "no results yet");
    out += "</g>\n";
  }
  if (!legend.empty()) {
    out += "<g id=\"legend\" class=\"legend\" fill=\"" + std::string(kSvgText) + "\">\n";
    const std::vector<SeriesDrawing> looks = legend_drawings(legend);
    for (std::size_t k = 0; k < legend.size(); ++k)
      out += legend_entry_svg(legend[k], looks[k], left + legend_at.x[k], legend_top + legend_at.y[k], legend_at.lines[k]);
    out += "</g>\n";
  }
  if (!g.caption.empty())
    out += "<text class=\"caption\" x=\"" + svg_num(kMargin) + "\" y=\"" + svg_num(legend_bottom + f * 1.4) +
           "\" font-size=\"" + svg_num(f * 0.92) + "\" fill=\"" + kSvgTextDim + "\"" +
           fitted(width - 2 * kMargin, f * 0.92, g.caption) + ">" + xml_escape(g.caption) + "</text>\n";
  return out + "</svg>\n";
}

}  // namespace attnlab
