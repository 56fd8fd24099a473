#include "lab/heatmap_svg.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "lab/heatmap_image.hpp"
#include "lab/palette.hpp"
#include "lab/plot_svg.hpp"
#include "lab/plot_ticks.hpp"
#include "lab/svg_text.hpp"

namespace attnlab {

namespace {

constexpr double kFont = 12.0;       // px, as the plots
constexpr double kImageSide = 400.0;  // the matrix's longer side, as the PNG export
constexpr int kBands = 64;            // the colour bar's bands (the page's ramp texture has 64 too)

// The cells alone (marks and paths are drawn as vectors over them), a few hundred pixels wide at
// most: the viewer scales them up pixel-sharp, so the file stays small.
std::string cells_png(const Heatmap& h, double gamma) {
  Heatmap bare = h;
  bare.marks.clear();
  bare.paths.clear();
  const int longest = std::max(h.rows, h.cols);
  const int scale = std::max(1, (200 + longest - 1) / longest);
  int width = 0, height = 0;
  const auto rgba = heatmap_rgba(bare, scale, width, height, gamma);
  return encode_png(rgba, width, height);
}

// Where everything goes, left to right: y label, matrix, colour bar with its ticks and labels, the
// value label; under the matrix: the x label, a caption (the note; the colour scale when it is not
// linear), then the paths' legend in rows.
struct HeatmapLayout {
  double f = kFont, title_font = kFont * 1.15, tick_font = kFont * 0.92;
  double iw = 0, ih = 0;                   // the matrix's size
  double left = 0, top = 0;                // the matrix's top left corner
  double bar_x = 0, bar_w = 0, tick_x = 0;  // the colour bar and its ticks
  double value_x = 0;                      // the value label
  double width = 0, height = 0;            // the figure
  double x_label_y = 0, caption_y = 0, legend_top = 0;
  std::string caption;
  std::vector<double> ticks;               // the colour bar's
  std::vector<Series> entries;             // the paths' legend entries
  LegendLayout legend;
};

HeatmapLayout layout_of(const Heatmap& h, double gamma) {
  HeatmapLayout L;
  const double f = L.f;
  const int longest = std::max(h.rows, h.cols);
  // A long thin matrix (A: n x d) keeps a visible width: its cells are then not square.
  L.iw = std::max(f * 8.0, kImageSide * h.cols / longest);
  L.ih = std::max(f * 8.0, kImageSide * h.rows / longest);
  L.ticks = colour_bar_ticks(h.low, h.high);
  double tick_width = 0.0;
  for (double t : L.ticks) tick_width = std::max(tick_width, svg_text_width(c_locale_text("%g", t), L.tick_font));
  L.left = f * (h.y_label.empty() ? 1.0 : 2.6), L.top = f * 2.8;
  L.bar_x = L.left + L.iw + f * 1.0, L.bar_w = f * 1.2, L.tick_x = L.bar_x + L.bar_w;
  L.value_x = L.tick_x + f * 0.9 + tick_width + f * 0.9;
  const double layout_right = L.value_x + (h.value_label.empty() ? 0.0 : f * 1.0) + f * 0.6;
  // The figure is wide enough for its texts (up to 900 units; a longer one is squeezed).
  L.caption = h.note;
  if (gamma != 1.0)
    L.caption += (L.caption.empty() ? "" : "; ") + std::string("colours: square root of the scaled value");
  const double text_right = std::max({L.left + svg_text_width(h.title, L.title_font), L.left + svg_text_width(h.x_label, f),
                                      L.left + svg_text_width(L.caption, L.tick_font)}) + f;
  // Whole units: the browser's PNG of the SVG is then exactly twice its size.
  L.width = std::ceil(std::max(layout_right, std::min(text_right, 900.0)));

  double y = L.top + L.ih + f * 0.3;
  L.x_label_y = y + f * 1.2;
  y = L.x_label_y + (h.x_label.empty() ? 0.0 : f * 0.4);
  L.caption_y = L.caption.empty() ? y : y + f * 1.3;
  y = L.caption_y;
  // The paths' legend: entries as a plot's (lab/plot_svg.hpp), each path a series with markers.
  for (const Heatmap::Path& p : h.paths) L.entries.push_back({p.label, SeriesStyle::LineMarkers, {}, {}, {}, {}});
  L.legend = legend_layout(L.entries, L.width - L.left - f * 0.5, f,
                           [&](const std::string& s) { return svg_text_width(s, f); });
  L.legend_top = y + f * (L.caption.empty() ? 0.4 : 0.8);
  if (!L.entries.empty()) y = L.legend_top + f * 1.3 * L.legend.rows;
  L.height = std::ceil(y + f * 0.8);
  return L;
}

// A text squeezed to `fit` units when it is wider.
std::string fitted_text(const std::string& attributes, const std::string& text, double font, double fit) {
  return "<text " + attributes +
         (svg_text_width(text, font) > fit ? " textLength=\"" + svg_num(fit) + "\" lengthAdjust=\"spacingAndGlyphs\""
                                           : std::string()) +
         ">" + xml_escape(text) + "</text>\n";
}

// The matrix, pixel-sharp (SVG 1.1's optimizeSpeed for older tools, CSS pixelated for browsers).
std::string matrix_svg(const Heatmap& h, double gamma, const HeatmapLayout& L) {
  return "<image id=\"matrix\" class=\"matrix\" x=\"" + svg_num(L.left) + "\" y=\"" + svg_num(L.top) + "\" width=\"" +
         svg_num(L.iw) + "\" height=\"" + svg_num(L.ih) +
         "\" preserveAspectRatio=\"none\" image-rendering=\"optimizeSpeed\" style=\"image-rendering:pixelated\" "
         "xlink:href=\"" + data_uri("image/png", cells_png(h, gamma)) + "\"/>\n" +
         "<rect class=\"frame\" x=\"" + svg_num(L.left) + "\" y=\"" + svg_num(L.top) + "\" width=\"" + svg_num(L.iw) +
         "\" height=\"" + svg_num(L.ih) + "\" fill=\"none\" stroke=\"" + kSvgAxis + "\"/>\n";
}

// Paths: polylines in their series looks, markers at the points (few enough to see).
std::string paths_svg(const Heatmap& h, const HeatmapLayout& L) {
  if (h.paths.empty()) return "";
  std::string out = "<defs><clipPath id=\"matrix-area\"><rect x=\"" + svg_num(L.left) + "\" y=\"" + svg_num(L.top) +
                    "\" width=\"" + svg_num(L.iw) + "\" height=\"" + svg_num(L.ih) +
                    "\"/></clipPath></defs>\n<g class=\"paths\" clip-path=\"url(#matrix-area)\">\n";
  for (std::size_t k = 0; k < h.paths.size(); ++k) {
    const Heatmap::Path& p = h.paths[k];
    const SeriesLook look = series_look(k, true);  // as its legend entry (and the page's light theme)
    std::string d, dots;
    const std::size_t n = std::min(p.rows.size(), p.cols.size());
    for (std::size_t i = 0; i < n; ++i) {
      if (!std::isfinite(p.rows[i]) || !std::isfinite(p.cols[i])) continue;
      const double x = L.left + p.cols[i] / h.cols * L.iw, y = L.top + p.rows[i] / h.rows * L.ih;
      d += (d.empty() ? "M" : "L") + svg_num(x) + " " + svg_num(y);
      if (n <= 120) dots += svg_marker(look.marker, x, y, 2.5);
    }
    out += "<path class=\"path\" data-name=\"" + xml_escape(p.label) + "\" fill=\"none\" stroke=\"" + svg_hex(look.colour) +
           "\" stroke-width=\"2\" stroke-linejoin=\"round\" d=\"" + d + "\"/>\n";
    if (!dots.empty()) out += "<g class=\"markers\" fill=\"" + svg_hex(look.colour) + "\">" + dots + "</g>\n";
  }
  return out + "</g>\n";
}

// Marked cells: a white ring with a red one inside (seen on dark and bright cells), and the label
// in white with a dark outline.
std::string marks_svg(const Heatmap& h, const HeatmapLayout& L) {
  std::string out;
  const double f = L.f;
  for (const Heatmap::Mark& m : h.marks) {
    const double cx = L.left + (m.col + 0.5) / h.cols * L.iw, cy = L.top + (m.row + 0.5) / h.rows * L.ih;
    const double r = std::max(f * 0.6, 0.5 * L.iw / h.cols);
    const bool label_left = cx > L.left + L.iw * 0.6;
    out += "<g class=\"mark\" data-label=\"" + xml_escape(m.label) + "\"><circle cx=\"" + svg_num(cx) + "\" cy=\"" +
           svg_num(cy) + "\" r=\"" + svg_num(r) + "\" fill=\"none\" stroke=\"#ffffff\" stroke-width=\"1.5\"/><circle cx=\"" +
           svg_num(cx) + "\" cy=\"" + svg_num(cy) + "\" r=\"" + svg_num(r - 1.5) +
           "\" fill=\"none\" stroke=\"#dc1e1e\" stroke-width=\"1\"/><text x=\"" +
           svg_num(label_left ? cx - r - f * 0.3 : cx + r + f * 0.3) + "\" y=\"" + svg_num(cy + f * 0.35) +
           "\" text-anchor=\"" + (label_left ? "end" : "start") +
           "\" fill=\"#ffffff\" stroke=\"#000000\" stroke-opacity=\"0.7\" stroke-width=\"3\" paint-order=\"stroke\">" +
           xml_escape(m.label) + "</text></g>\n";
  }
  return out;
}

// The colour bar: bands from high (top) to low, each the colour of its middle value on the
// heatmap's scale (gamma included), then the frame, the ticks and their labels, and the value label.
std::string colour_bar_svg(const Heatmap& h, double gamma, const HeatmapLayout& L) {
  const double f = L.f, top = L.top, ih = L.ih, span = h.high - h.low;
  std::string out = "<g id=\"colour-bar\" class=\"colour-bar\">\n";
  for (int k = 0; k < kBands; ++k) {
    const double v = h.high - (k + 0.5) / kBands * span;
    const auto c = heatmap_colour(h, v, gamma);
    // Each band overlaps the next by half a unit: no hairline gaps when a viewer anti-aliases.
    out += "<rect class=\"colour-band\" x=\"" + svg_num(L.bar_x) + "\" y=\"" + svg_num(top + k * ih / kBands) +
           "\" width=\"" + svg_num(L.bar_w) + "\" height=\"" + svg_num(ih / kBands + (k + 1 < kBands ? 0.5 : 0.0)) +
           "\" fill=\"" + svg_hex({c[0], c[1], c[2]}) + "\"/>\n";
  }
  out += "<rect class=\"frame\" x=\"" + svg_num(L.bar_x) + "\" y=\"" + svg_num(top) + "\" width=\"" + svg_num(L.bar_w) +
         "\" height=\"" + svg_num(ih) + "\" fill=\"none\" stroke=\"" + kSvgAxis + "\"/>\n";
  std::string marks, labels;
  for (double t : L.ticks) {
    const double ty = span > 0.0 ? top + (h.high - t) / span * ih : top + ih;
    marks += svg_line(L.tick_x, ty, L.tick_x + f * 0.4, ty);
    labels += svg_text("colour-bar-label", L.tick_x + f * 0.6, ty + L.tick_font * 0.35, "start", c_locale_text("%g", t));
  }
  out += "<g stroke=\"" + std::string(kSvgAxis) + "\">\n" + marks + "</g>\n";
  out += "<g fill=\"" + std::string(kSvgTextDim) + "\" font-size=\"" + svg_num(L.tick_font) + "\">\n" + labels + "</g>\n";
  if (!h.value_label.empty()) {
    const double vy = top + ih * 0.5;
    out += "<text class=\"value-label\" x=\"" + svg_num(L.value_x) + "\" y=\"" + svg_num(vy) + "\" transform=\"rotate(90 " +
           svg_num(L.value_x) + " " + svg_num(vy) + ")\" text-anchor=\"middle\" fill=\"" + kSvgText + "\">" +
           xml_escape(h.value_label) + "</text>\n";
  }
  return out + "</g>\n";
}

// Axis labels, caption and the paths' legend.
std::string labels_svg(const Heatmap& h, const HeatmapLayout& L) {
  const double f = L.f, left = L.left;
  std::string out = "<g fill=\"" + std::string(kSvgText) + "\">\n";
  if (!h.x_label.empty()) {  // centred under the matrix, or from its left edge when wider than it
    const bool wide = svg_text_width(h.x_label, f) > L.iw;
    out += svg_text("x-label", wide ? left : left + L.iw * 0.5, L.x_label_y, wide ? "start" : "middle", h.x_label);
  }
  if (!h.y_label.empty()) {
    const double yx = f * 1.3, yy = L.top + L.ih * 0.5;
    out += "<text class=\"y-label\" x=\"" + svg_num(yx) + "\" y=\"" + svg_num(yy) + "\" transform=\"rotate(-90 " +
           svg_num(yx) + " " + svg_num(yy) + ")\" text-anchor=\"middle\">" + xml_escape(h.y_label) + "</text>\n";
  }
  out += "</g>\n";
  if (!L.caption.empty())
    out += fitted_text("class=\"caption\" x=\"" + svg_num(left) + "\" y=\"" + svg_num(L.caption_y) + "\" font-size=\"" +
                           svg_num(L.tick_font) + "\" fill=\"" + kSvgTextDim + "\"",
                       L.caption, L.tick_font, L.width - left - f * 0.5);
  const std::vector<SeriesDrawing> looks = legend_drawings(L.entries);
  for (std::size_t k = 0; k < L.entries.size(); ++k)
    out += legend_entry_svg(L.entries[k], looks[k], left + L.legend.x[k], L.legend_top + L.legend.y[k], L.legend.lines[k]);
  return out;
}

}  // namespace

std::string heatmap_to_svg(const Heatmap& h, double gamma) {
  if (h.rows < 1 || h.cols < 1) throw std::invalid_argument("heatmap '" + h.title + "' has no cells");
  const HeatmapLayout L = layout_of(h, gamma);
  std::string out = svg_document_start(L.width, L.height, L.f, h.title);
  out += fitted_text("id=\"title\" class=\"title\" x=\"" + svg_num(L.left) + "\" y=\"" + svg_num(L.f * 1.8) +
                         "\" font-size=\"" + svg_num(L.title_font) + "\" font-weight=\"bold\" fill=\"" + kSvgText + "\"",
                     h.title, L.title_font, L.width - L.left - L.f * 0.5);
  out += matrix_svg(h, gamma, L);
  out += paths_svg(h, L);
  out += marks_svg(h, L);
  out += colour_bar_svg(h, gamma, L);
  out += labels_svg(h, L);
  return out + "</svg>\n";
}

}  // namespace attnlab
