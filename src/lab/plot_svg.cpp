#include "lab/plot_svg.hpp"

#include <algorithm>
#include <cmath>

#include "lab/palette.hpp"
#include "lab/plot_looks.hpp"
#include "lab/plot_ticks.hpp"
#include "lab/svg_text.hpp"

namespace attnlab {

namespace {

constexpr const char* kGrid = "#e3e3e3";
constexpr const char* kReference = "#333333";
constexpr double kFont = 12.0;  // px; the layout below is the plot widget's, in units of the font size

std::string num(double v) { return svg_num(v); }
std::string hex(Rgb c) { return svg_hex(c); }
double text_width(const std::string& s) { return svg_text_width(s, kFont); }
std::string text(const char* cls, double x, double y, const char* anchor, const std::string& body) {
  return svg_text(cls, x, y, anchor, body);
}
std::string line(double x1, double y1, double x2, double y2) { return svg_line(x1, y1, x2, y2); }

// ` stroke-dasharray="9 4"` for a dashed pattern, nothing for a solid line.
std::string dash_attribute(Dash d) {
  if (d.solid()) return "";
  return " stroke-dasharray=\"" + c_locale_text("%g", d.on) + " " + c_locale_text("%g", d.off) + "\"";
}

// The plot's frame and axes: data coordinates to SVG units, as the widget lays the plot out.
struct PlotMapping {
  PlotFrame frame;
  PlotAxes axes;
  double left, right, top, bottom;
  double px(double x) const { return left + axes.x.map(x) * (right - left); }
  double py(double y) const { return bottom - axes.y.map(y) * (bottom - top); }
  bool drawable(double x, double y) const {
    return axes.x.usable(x) && axes.y.usable(y) && std::isfinite(px(x)) && std::isfinite(py(y));
  }
};

constexpr double kBaseline = kFont * 0.8;  // from the top of a line of text to its baseline

// The title with the y label after it in brackets; a heading wider than the plot is wrapped onto
// the lines the frame gave it (lab/plot_ticks.hpp plot_frame), as the page's widget draws it.
std::string title_svg(const Plot& plot, const PlotFrame& frame) {
  if (plot.title.empty() && plot.y_label.empty()) return "";
  const double font = kFont, left = frame.left;
  if (frame.heading.size() > 1) {
    std::string out;
    for (std::size_t i = 0; i < frame.heading.size(); ++i)
      out += "<text class=\"title\" x=\"" + num(left) + "\" y=\"" + num(font * (0.2 + 1.3 * static_cast<double>(i)) + kBaseline) +
             "\" fill=\"" + kSvgText + "\">" + xml_escape(frame.heading[i]) + "</text>\n";
    return out;
  }
  std::string out = "<text class=\"title\" x=\"" + num(left) + "\" y=\"" + num(font * 0.2 + kBaseline) + "\" fill=\"" +
                    kSvgText + "\">" + xml_escape(plot.title);
  if (!plot.y_label.empty())
    out += "<tspan class=\"y-label\" dx=\"" + num(font * 0.5) + "\" fill=\"" + kSvgTextDim + "\">(" + xml_escape(plot.y_label) +
           ")</tspan>";
  return out + "</text>\n";
}

// Grid, tick marks and labels (the widget's tick choice for the same plot height in font units),
// the axes' frame and the x label.
std::string axes_svg(const Plot& plot, const PlotMapping& m) {
  const double font = kFont, left = m.left, right = m.right, top = m.top, bottom = m.bottom;
  const Axis &ax = m.axes.x, &ay = m.axes.y;
  std::string grid, marks, labels;
  const auto [x_ticks, y_ticks] = frame_ticks(ax, ay, right - left, bottom - top, font);
  for (double t : unlabelled_decades(ay, y_ticks)) marks += line(left, m.py(t), left + 4.0, m.py(t));
  for (double t : unlabelled_decades(ax, x_ticks)) marks += line(m.px(t), bottom, m.px(t), bottom - 4.0);
  for (double t : y_ticks) {
    if (t < ay.lo || t > ay.hi) continue;
    const double y = m.py(t);
    grid += line(left, y, right, y);
    marks += line(left - 4.0, y, left, y);
    labels += text("tick-label", left - font * 0.4, y + font * 0.35, "end", c_locale_text("%g", t));
  }
  for (double t : x_ticks) {
    if (t < ax.lo || t > ax.hi) continue;
    const double x = m.px(t);
    grid += line(x, top, x, bottom);
    marks += line(x, bottom, x, bottom + 4.0);
    const std::string label = c_locale_text("%g", t);
    const double edge = right + font * kTickLabelOverhang;
    labels += x_tick_label_ends_at_edge(x, svg_text_width(label, font * 0.92), edge)
                  ? text("tick-label", edge, bottom + font * 0.3 + kBaseline, "end", label)
                  : text("tick-label", x, bottom + font * 0.3 + kBaseline, "middle", label);
  }
  std::string out = "<g class=\"grid\" stroke=\"" + std::string(kGrid) + "\" stroke-width=\"1\">\n" + grid + "</g>\n";
  out += "<g class=\"ticks\" stroke=\"" + std::string(kSvgAxis) + "\" stroke-width=\"1\">\n" + marks + "</g>\n";
  out += "<g class=\"tick-labels\" fill=\"" + std::string(kSvgTextDim) + "\" font-size=\"" + num(font * 0.92) + "\">\n" +
         labels + "</g>\n";
  out += "<rect class=\"axes\" x=\"" + num(left) + "\" y=\"" + num(top) + "\" width=\"" + num(right - left) +
         "\" height=\"" + num(bottom - top) + "\" fill=\"none\" stroke=\"" + kSvgAxis + "\"/>\n";
  out += "<g fill=\"" + std::string(kSvgText) + "\">\n" +
         text("x-label", (left + right) * 0.5, bottom + font * 1.4 + kBaseline, "middle", plot.x_label) + "</g>\n";
  return out;
}

// The series' error bars (from y_low to y_high at each x).
std::string error_bars_svg(const Series& s, const std::string& colour, const PlotMapping& m, double dodge) {
  std::string d;
  for (std::size_t i = 0; i < std::min({s.x.size(), s.y_low.size(), s.y_high.size()}); ++i)
    if (m.drawable(s.x[i], s.y_low[i]) && m.drawable(s.x[i], s.y_high[i]))
      d += "M" + num(m.px(s.x[i]) + dodge) + " " + num(m.py(s.y_low[i])) + "V" + num(m.py(s.y_high[i]));
  return "<g class=\"errorbars\" data-name=\"" + xml_escape(s.name) + "\" stroke=\"" + colour +
         "\" stroke-opacity=\"0.56\" stroke-width=\"1\" fill=\"none\"><path d=\"" + d + "\"/></g>\n";
}

// One bar per point from 0 (or the axis floor) up to y; at least a pixel wide.
std::string bars_svg(const Series& s, const std::string& colour, const PlotMapping& m) {
  const Axis& ay = m.axes.y;
  const double base = ay.usable(0.0) ? std::max(0.0, ay.lo) : ay.lo;
  const double half = bar_half_width(m.right - m.left, s.x.size());
  std::string d;
  for (std::size_t i = 0; i < std::min(s.x.size(), s.y.size()); ++i) {
    if (!m.drawable(s.x[i], s.y[i])) continue;
    const double x = m.px(s.x[i]), y0 = m.py(base), y1 = m.py(s.y[i]);
    d += "M" + num(x - half) + " " + num(std::min(y0, y1)) + "H" + num(x + half) + "V" + num(std::max(y0, y1)) + "H" +
         num(x - half) + "Z";
  }
  return "<path class=\"series\" data-name=\"" + xml_escape(s.name) + "\" fill=\"" + colour + "\" d=\"" + d + "\"/>\n";
}

// The colour a series is drawn in (the reference grey, or its palette colour) and its opacity.
std::string colour_of(const SeriesDrawing& d) { return d.reference ? kReference : hex(d.look.colour); }
std::string opacity_of(const SeriesDrawing& d) { return d.dimmed ? " opacity=\"0.4\"" : ""; }

// The band under the plot's rounding level, labelled (Plot::rounding_level; lab/plot_looks.hpp).
std::string rounding_band_svg(const Plot& plot, const PlotMapping& m) {
  const auto band = rounding_band_box(plot, m.axes.y, m.left, m.top, m.bottom, kFont);
  if (!band) return "";
  return "<g class=\"rounding-band\"><rect x=\"" + num(m.left) + "\" y=\"" + num(band->top) + "\" width=\"" +
         num(m.right - m.left) + "\" height=\"" + num(band->bottom - band->top) + "\" fill=\"" + kReference +
         "\" fill-opacity=\"0.12\"/>" + text("rounding-label", band->label_x, band->label_y + kBaseline, "start", band->label) +
         "</g>\n";
}

// Series k: error bars, then its one path (lines or bars), then markers (lab/plot_looks.hpp). Gaps
// at non-finite points.
std::string series_svg(const Series& s, const SeriesDrawing& look, const PlotMapping& m) {
  const std::string c = colour_of(look);
  const std::string name = xml_escape(s.name);
  std::string out = s.y_low.empty() ? "" : error_bars_svg(s, c, m, look.dodge);
  if (s.style == SeriesStyle::Bars) return out + bars_svg(s, c, m);
  std::string d, dots;
  bool have_prev = false;
  const double radius = kMarkRadius * (look.line ? 1.0 : 1.4);
  const bool level = (s.flags & SeriesFlags_Level) != 0;  // across the plot at its first y
  if (level && !s.y.empty() && m.axes.y.usable(s.y[0]) && std::isfinite(m.py(s.y[0])))
    d = "M" + num(m.left) + " " + num(m.py(s.y[0])) + "L" + num(m.right) + " " + num(m.py(s.y[0]));
  for (std::size_t i = 0; i < std::min(s.x.size(), s.y.size()) && !level; ++i) {
    if (!m.drawable(s.x[i], s.y[i])) {
      have_prev = false;
      continue;
    }
    const double x = m.px(s.x[i]) + look.dodge;
    const std::string p = num(x) + " " + num(m.py(s.y[i]));
    d += (have_prev && look.line ? "L" : "M") + p;  // marks only: moves, so the path draws no line
    if (look.markers) dots += svg_marker(look.look.marker, x, m.py(s.y[i]), radius * look.mark_scale_at(i));
    have_prev = true;
  }
  out += "<path class=\"series\" data-name=\"" + name + "\" fill=\"none\" stroke=\"" + c + "\" stroke-width=\"" +
         num(look.width) + "\"" + dash_attribute(look.look.dash) + opacity_of(look) +
         " stroke-linejoin=\"round\" d=\"" + d + "\"/>\n";
  if (!dots.empty())
    out += "<g class=\"markers\" data-name=\"" + name + "\" fill=\"" + c + "\"" + opacity_of(look) + ">" + dots + "</g>\n";
  return out;
}

}  // namespace

std::string plot_svg_body(const Plot& plot, double w, double h, const std::string& id, bool legend) {
  const std::vector<SeriesDrawing> drawn = series_drawings(plot, true);
  const PlotFrame frame = plot_frame(plot, drawn, w, h, kFont, text_width, legend);  // as the widget lays it out
  const PlotMapping m{frame, fit_plot_axes(plot), frame.left, frame.right, frame.top, frame.bottom};
  const std::string clip = id + "-area";
  std::string out = "<defs><clipPath id=\"" + clip + "\"><rect x=\"" + num(m.left) + "\" y=\"" + num(m.top) +
                    "\" width=\"" + num(m.right - m.left) + "\" height=\"" + num(m.bottom - m.top) +
                    "\"/></clipPath></defs>\n";
  out += title_svg(plot, frame);
  out += axes_svg(plot, m);
  out += "<g class=\"data\" clip-path=\"url(#" + clip + ")\">\n";
  out += rounding_band_svg(plot, m);
  for (std::size_t k : drawing_order(plot, drawn)) out += series_svg(plot.series[k], drawn[k], m);
  out += "</g>\n";
  // Legend rows under the x label (they never hide the data).
  if (legend) {
    out += "<g class=\"legend\" fill=\"" + std::string(kSvgText) + "\">\n";
    for (std::size_t k = 0; k < plot.series.size(); ++k)
      out += legend_entry_svg(plot.series[k], drawn[k], frame.legend_x[k], frame.legend_y[k], frame.legend_lines[k]);
    out += "</g>\n";
  }
  return out;
}

std::string legend_entry_svg(const Series& s, const SeriesDrawing& look, double lx, double ly,
                             const std::vector<std::string>& lines) {
  const double font = kFont, baseline = font * 0.8, y = ly + font * 0.55;
  const std::string c = colour_of(look);
  std::string sample;
  if (s.style == SeriesStyle::Bars) {
    sample = "<rect x=\"" + num(lx + font * 0.3) + "\" y=\"" + num(y - font * 0.35) + "\" width=\"" + num(font * 0.6) +
             "\" height=\"" + num(font * 0.7) + "\" fill=\"" + c + "\"" + opacity_of(look) + "/>";
  } else {
    // The sample shows what tells the series apart: its dash pattern and its marker.
    if (look.line)
      sample = "<path d=\"M" + num(lx) + " " + num(y) + "H" + num(lx + font * kLegendSample) + "\" stroke=\"" + c +
               "\" stroke-width=\"2.5\"" + dash_attribute(look.look.dash) + opacity_of(look) + "/>";
    if (look.markers)
      sample += "<g fill=\"" + c + "\">" + svg_marker(look.look.marker, lx + font * kLegendSample * 0.5, y, 3.0) + "</g>";
  }
  std::string label;
  const std::vector<std::string> shown = lines.empty() ? std::vector<std::string>{look.legend} : lines;
  for (std::size_t i = 0; i < shown.size(); ++i)
    label += text("legend-label", lx + font * kLegendLabel, ly + baseline + font * 1.3 * static_cast<double>(i), "start", shown[i]);
  return "<g class=\"legend-entry\" data-name=\"" + xml_escape(s.name) + "\">" + sample + label + "</g>\n";
}

std::vector<SeriesDrawing> legend_drawings(const std::vector<Series>& entries) {
  Plot plot;
  plot.series = entries;
  return series_drawings(plot, true);
}

std::string svg_document_start(double w, double h, double font, const std::string& title) {
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"" + num(w) +
         "\" height=\"" + num(h) + "\" viewBox=\"0 0 " + num(w) + " " + num(h) + "\" font-family=\"" + kSvgFontFamily +
         "\" font-size=\"" + num(font) + "\">\n";
  out += "<title>" + xml_escape(title) + "</title>\n";
  out += "<rect class=\"background\" width=\"" + num(w) + "\" height=\"" + num(h) + "\" fill=\"#ffffff\"/>\n";
  return out;
}

std::string plot_to_svg(const Plot& plot, int width, int height) {
  const double w = std::max(200, width), h = std::max(150, height);
  return svg_document_start(w, h, kFont, plot.title) + plot_svg_body(plot, w, h, "plot") + "</svg>\n";
}

}  // namespace attnlab
