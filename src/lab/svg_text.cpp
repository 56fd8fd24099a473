#include "lab/svg_text.hpp"

#include <algorithm>
#include <clocale>
#include <cmath>
#include <cstdint>
#include <cstdio>

namespace attnlab {

std::string xml_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        // XML 1.0 allows no other control characters, even escaped.
        if (static_cast<unsigned char>(c) >= 0x20 || c == '\t' || c == '\n' || c == '\r') out += c;
    }
  }
  return out;
}

std::string c_locale_text(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  std::string s = buf;
  const char point = std::localeconv()->decimal_point[0];
  if (point != '.') std::replace(s.begin(), s.end(), point, '.');
  return s;
}

std::string svg_num(double v) { return c_locale_text("%.2f", std::isfinite(v) ? std::clamp(v, -1e6, 1e6) : 0.0); }

std::string svg_hex(Rgb c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", c.r, c.g, c.b);
  return buf;
}

double svg_text_width(const std::string& s, double font) {
  auto starts_glyph = [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; };
  const auto glyphs = std::count_if(s.begin(), s.end(), starts_glyph);
  return 0.62 * font * static_cast<double>(glyphs);
}

std::string svg_text(const char* cls, double x, double y, const char* anchor, const std::string& body) {
  return "<text class=\"" + std::string(cls) + "\" x=\"" + svg_num(x) + "\" y=\"" + svg_num(y) + "\" text-anchor=\"" +
         anchor + "\">" + xml_escape(body) + "</text>\n";
}

std::string svg_line(double x1, double y1, double x2, double y2) {
  return "<line x1=\"" + svg_num(x1) + "\" y1=\"" + svg_num(y1) + "\" x2=\"" + svg_num(x2) + "\" y2=\"" + svg_num(y2) +
         "\"/>\n";
}

std::string svg_marker(Marker m, double x, double y, double radius) {
  const auto polygon = marker_polygon(m, radius);
  if (polygon.empty())
    return "<circle cx=\"" + svg_num(x) + "\" cy=\"" + svg_num(y) + "\" r=\"" + svg_num(radius) + "\"/>";
  std::string d;
  for (const auto& [dx, dy] : polygon) d += (d.empty() ? "M" : "L") + svg_num(x + dx) + " " + svg_num(y + dy);
  return "<path d=\"" + d + "Z\"/>";
}

std::string data_uri(const std::string& mime, const std::string& bytes) {
  static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out = "data:" + mime + ";base64,";
  out.reserve(out.size() + (bytes.size() + 2) / 3 * 4);
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const std::size_t n = std::min<std::size_t>(3, bytes.size() - i);
    std::uint32_t v = 0;
    for (std::size_t k = 0; k < 3; ++k)
      v = v << 8 | (k < n ? static_cast<unsigned char>(bytes[i + k]) : 0u);
    for (std::size_t k = 0; k < 4; ++k) out += k <= n ? digits[(v >> (18 - 6 * k)) & 0x3F] : '=';
  }
  return out;
}

}  // namespace attnlab
