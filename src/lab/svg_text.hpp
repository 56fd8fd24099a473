// Small pieces every SVG figure writer uses (plots, heatmaps, multi-panel figures): numbers in the
// C locale, colours, text elements with escaping, a text-width estimate for layout (no font metrics
// here), and data URIs for embedded images.
#pragma once
#include <string>

#include "lab/palette.hpp"

namespace attnlab {

// Print colours shared by the figures: the page's dark theme would vanish on paper.
inline constexpr const char* kSvgText = "#1a1a1a";
inline constexpr const char* kSvgTextDim = "#4d4d4d";
inline constexpr const char* kSvgAxis = "#666666";
inline constexpr const char* kSvgFontFamily = "Helvetica, Arial, sans-serif";

// `text` safe inside XML content and attribute values (& < > " ' escaped, control characters dropped).
std::string xml_escape(const std::string& text);

// printf of one number in the C locale's form whatever the process locale is (a ',' decimal point
// would break the SVG's numbers).
std::string c_locale_text(const char* format, double v);
// A coordinate with two decimals; non-finite values print as 0 and far-off ones are clamped to
// +-1e6 (callers pass mapped finite points; the clamp keeps a clipped outlier short).
std::string svg_num(double v);
std::string svg_hex(Rgb c);  // "#56b4e9"

// The width of `s` at `font` px in a generous average sans-serif glyph, 0.62 em (DejaVu Sans
// averages about 0.6; UTF-8 continuation bytes skipped).
double svg_text_width(const std::string& s, double font);

// <text class="CLS" x y text-anchor="ANCHOR">escaped body</text> and a newline.
std::string svg_text(const char* cls, double x, double y, const char* anchor, const std::string& body);
// <line x1 y1 x2 y2/> and a newline.
std::string svg_line(double x1, double y1, double x2, double y2);

// One marker of shape `m` (lab/palette.hpp) centred at (x, y): a <circle> or a closed <path>,
// filled with the enclosing group's colour.
std::string svg_marker(Marker m, double x, double y, double radius);

// "data:MIME;base64,..." for embedding bytes (a PNG) in an <image>.
std::string data_uri(const std::string& mime, const std::string& bytes);

}  // namespace attnlab
