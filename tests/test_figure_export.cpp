// Figure exports: the SVG is well-formed and has one path per series, the PNG decodes back to the
// pixels it was given, and the colour map is the shader's.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "experiments/registry.hpp"
#include "experiments/reproduction_figures.hpp"
#include "lab/figure_grid.hpp"
#include "lab/heatmap_image.hpp"
#include "lab/heatmap_svg.hpp"
#include "lab/palette.hpp"
#include "lab/plot_svg.hpp"
#include "lab/plot_ticks.hpp"
#include "lab/svg_text.hpp"

using namespace attnlab;

namespace {

// A small XML well-formedness check: tags balance and nest, attributes are quoted, text holds no
// raw '<' and every '&' starts a known entity. Returns what is wrong, or "" when nothing is.
std::string xml_problem(const std::string& x) {
  auto entity_ok = [&](std::size_t at) {
    for (const char* e : {"&amp;", "&lt;", "&gt;", "&quot;", "&apos;"})
      if (x.compare(at, std::char_traits<char>::length(e), e) == 0) return true;
    return false;
  };
  std::vector<std::string> open;
  int roots = 0;
  std::size_t i = 0;
  if (x.rfind("<?xml ", 0) != 0) return "no XML declaration";
  while (i < x.size()) {
    if (x[i] == '&' && !entity_ok(i)) return "bad entity at " + std::to_string(i);
    if (x[i] == '>') return "stray '>' at " + std::to_string(i);
    if (x[i] != '<') {
      if (open.empty() && !std::isspace(static_cast<unsigned char>(x[i]))) return "text outside the root";
      ++i;
      continue;
    }
    if (x.compare(i, 2, "<?") == 0) {
      const std::size_t end = x.find("?>", i);
      if (end == std::string::npos) return "unclosed <?";
      i = end + 2;
      continue;
    }
    const bool closing = x.compare(i, 2, "</") == 0;
    std::size_t j = i + (closing ? 2 : 1);
    const std::size_t name_start = j;
    while (j < x.size() && (std::isalnum(static_cast<unsigned char>(x[j])) || x[j] == '-' || x[j] == ':')) ++j;
    const std::string name = x.substr(name_start, j - name_start);
    if (name.empty()) return "tag without a name at " + std::to_string(i);
    // Attributes: name="value" (no '<' inside; '&' only as an entity).
    while (j < x.size() && x[j] != '>' && x.compare(j, 2, "/>") != 0) {
      if (std::isspace(static_cast<unsigned char>(x[j]))) {
        ++j;
        continue;
      }
      const std::size_t eq = x.find('=', j);
      if (eq == std::string::npos || eq + 1 >= x.size() || (x[eq + 1] != '"' && x[eq + 1] != '\''))
        return "unquoted attribute in <" + name + ">";
      const std::size_t close = x.find(x[eq + 1], eq + 2);
      if (close == std::string::npos) return "unclosed attribute in <" + name + ">";
      for (std::size_t k = eq + 2; k < close; ++k) {
        if (x[k] == '<') return "'<' inside an attribute of <" + name + ">";
        if (x[k] == '&' && !entity_ok(k)) return "bad entity in an attribute of <" + name + ">";
      }
      j = close + 1;
    }
    if (j >= x.size()) return "unclosed tag <" + name + ">";
    const bool self_closing = x.compare(j, 2, "/>") == 0;
    i = j + (self_closing ? 2 : 1);
    if (closing) {
      if (open.empty()) return "</" + name + "> closes nothing";
      if (open.back() != name) return "</" + name + "> closes <" + open.back() + ">";
      open.pop_back();
    } else if (!self_closing) {
      if (open.empty()) ++roots;
      open.push_back(name);
    } else if (open.empty()) {
      ++roots;
    }
  }
  if (!open.empty()) return "<" + open.back() + "> never closed";
  if (roots != 1) return std::to_string(roots) + " root elements";
  return "";
}

std::string unescape(std::string s) {
  for (auto [from, to] : {std::pair<std::string, std::string>{"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""},
                          {"&apos;", "'"}, {"&amp;", "&"}})
    for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
      s.replace(at, from.size(), to);
  return s;
}

// The value of `attribute` in the tag that starts at `tag_start`.
std::string attribute_of(const std::string& x, std::size_t tag_start, const std::string& attribute) {
  const std::size_t end = x.find('>', tag_start);
  const std::size_t at = x.find(" " + attribute + "=\"", tag_start);
  if (at == std::string::npos || at > end) return "<missing>";
  const std::size_t value = at + attribute.size() + 3;
  return x.substr(value, x.find('"', value) - value);
}

std::vector<std::size_t> tags_with(const std::string& x, const std::string& marker) {
  std::vector<std::size_t> at;
  for (std::size_t k = x.find(marker); k != std::string::npos; k = x.find(marker, k + 1)) at.push_back(x.rfind('<', k));
  return at;
}

Plot three_series_plot() {
  Plot p;
  p.title = "Success rate & friends";
  p.x_label = "m <tokens>";
  p.y_label = "rate";
  Series curve{"measured", SeriesStyle::LineMarkers, {1, 2, 3, 4, 5}, {0.1, 0.4, NAN, 0.7, 0.9}, {}, {}};
  Series reference{"a<b & \"c\"", SeriesStyle::Reference, {1, 5}, {0.0, 1.0}, {}, {}};
  Series bars{"bars", SeriesStyle::Bars, {1, 2, 3}, {0.2, 0.5, 0.3}, {0.1, 0.4, INFINITY}, {0.3, 0.6, 0.4}};
  p.series = {curve, reference, bars};
  return p;
}

// Tiny independent PNG / zlib readers for the checks below.
std::uint32_t crc32_bitwise(const std::string& bytes) {
  std::uint32_t c = 0xFFFFFFFFu;
  for (unsigned char b : bytes) {
    c ^= b;
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
  }
  return ~c;
}

std::uint32_t adler32_plain(const std::string& bytes) {
  std::uint64_t a = 1, b = 0;
  for (unsigned char x : bytes) a = (a + x) % 65521, b = (b + a) % 65521;
  return static_cast<std::uint32_t>((b << 16) | a);
}

std::uint32_t be32(const std::string& s, std::size_t at) {
  std::uint32_t v = 0;
  for (int k = 0; k < 4; ++k) v = (v << 8) | static_cast<unsigned char>(s[at + k]);
  return v;
}

struct Chunk {
  std::string type, data;
  bool crc_ok;
};

std::vector<Chunk> png_chunks(const std::string& png) {
  std::vector<Chunk> chunks;
  for (std::size_t at = 8; at + 12 <= png.size();) {
    const std::uint32_t n = be32(png, at);
    REQUIRE(at + 12 + n <= png.size());
    const std::string body = png.substr(at + 4, 4 + n);
    chunks.push_back({body.substr(0, 4), body.substr(4), crc32_bitwise(body) == be32(png, at + 8 + n)});
    at += 12 + n;
  }
  return chunks;
}

// Inflates a zlib stream of stored blocks (the only kind encode_png writes).
std::string inflate_stored(const std::string& z, std::size_t& blocks) {
  REQUIRE(z.size() >= 6);
  const unsigned cmf = static_cast<unsigned char>(z[0]), flg = static_cast<unsigned char>(z[1]);
  CHECK((cmf & 0x0F) == 8);  // deflate
  CHECK((cmf * 256 + flg) % 31 == 0);
  CHECK((flg & 0x20) == 0);  // no preset dictionary
  std::string out;
  std::size_t at = 2;
  blocks = 0;
  for (bool last = false; !last;) {
    REQUIRE(at + 5 <= z.size());
    const unsigned head = static_cast<unsigned char>(z[at]);
    last = head & 1;
    REQUIRE(((head >> 1) & 3) == 0);  // stored
    const unsigned len = static_cast<unsigned char>(z[at + 1]) | static_cast<unsigned char>(z[at + 2]) << 8;
    const unsigned nlen = static_cast<unsigned char>(z[at + 3]) | static_cast<unsigned char>(z[at + 4]) << 8;
    REQUIRE(len == (~nlen & 0xFFFF));
    REQUIRE(at + 5 + len <= z.size());
    out.append(z, at + 5, len);
    at += 5 + len;
    ++blocks;
  }
  REQUIRE(at + 4 == z.size());
  CHECK(be32(z, at) == adler32_plain(out));
  return out;
}

// The text content of the element that starts at `tag_start` (up to the next tag), unescaped.
std::string text_of(const std::string& x, std::size_t tag_start) {
  const std::size_t open = x.find('>', tag_start) + 1;
  return unescape(x.substr(open, x.find('<', open) - open));
}

std::string base64_decode(const std::string& text) {
  const std::string digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  std::uint32_t bits = 0;
  int have = 0;
  for (char c : text) {
    if (c == '=') break;
    const std::size_t v = digits.find(c);
    REQUIRE(v != std::string::npos);
    bits = bits << 6 | static_cast<std::uint32_t>(v);
    have += 6;
    if (have >= 8) {
      have -= 8;
      out += static_cast<char>((bits >> have) & 0xFF);
    }
  }
  return out;
}

// The hex colour "#rrggbb" of an RGB triple.
std::string hex_of(std::array<std::uint8_t, 3> c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", c[0], c[1], c[2]);
  return buf;
}

}  // namespace

TEST_CASE("the tag-balance checker catches broken XML", "[lab][figures]") {
  CHECK(xml_problem("<?xml version=\"1.0\"?>\n<svg a=\"1\"><g><path d=\"M0 0\"/></g></svg>\n").empty());
  CHECK_FALSE(xml_problem("<?xml version=\"1.0\"?><svg><g></svg></g>").empty());
  CHECK_FALSE(xml_problem("<?xml version=\"1.0\"?><svg><text>a<b</text></svg>").empty());
  CHECK_FALSE(xml_problem("<?xml version=\"1.0\"?><svg><text>a & b</text></svg>").empty());
  CHECK_FALSE(xml_problem("<?xml version=\"1.0\"?><svg data-name=\"\"c\"\"></svg>").empty());
}

TEST_CASE("a plot's SVG is well-formed with one escaped path per series and no NaN", "[lab][figures]") {
  const Plot plot = three_series_plot();
  const std::string svg = plot_to_svg(plot);
  INFO(svg);
  CHECK(xml_problem(svg) == "");
  CHECK(svg.find("<svg xmlns=\"http://www.w3.org/2000/svg\"") != std::string::npos);
  CHECK(svg.find("viewBox=\"0 0 640.00 400.00\"") != std::string::npos);

  const auto paths = tags_with(svg, "class=\"series\"");
  REQUIRE(paths.size() == 3);
  for (std::size_t k = 0; k < 3; ++k) {
    CHECK(svg.compare(paths[k], 5, "<path") == 0);
    CHECK(unescape(attribute_of(svg, paths[k], "data-name")) == plot.series[k].name);
  }
  CHECK(svg.find("data-name=\"a&lt;b &amp; &quot;c&quot;\"") != std::string::npos);
  CHECK(svg.find("a<b") == std::string::npos);
  CHECK(svg.find("Success rate &amp; friends") != std::string::npos);

  // The NaN breaks the measured curve into two runs; the reference is dashed; bars are closed rectangles.
  const std::string curve = attribute_of(svg, paths[0], "d");
  CHECK(std::count(curve.begin(), curve.end(), 'M') == 2);
  CHECK(std::count(curve.begin(), curve.end(), 'L') == 2);
  CHECK(attribute_of(svg, paths[1], "stroke-dasharray") == "6 4");
  const std::string bars = attribute_of(svg, paths[2], "d");
  CHECK(std::count(bars.begin(), bars.end(), 'Z') == 3);
  CHECK(tags_with(svg, "class=\"errorbars\"").size() == 1);
  CHECK(tags_with(svg, "class=\"markers\"").size() == 1);
  CHECK(tags_with(svg, "<circle").size() == 5);  // the four finite points of the measured curve, its legend sample
  CHECK(tags_with(svg, "class=\"legend-entry\"").size() == 3);

  std::string lower = svg;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  CHECK(lower.find("nan") == std::string::npos);
  CHECK(lower.find("inf") == std::string::npos);
}

TEST_CASE("a log-y plot's SVG has decade tick labels", "[lab][figures]") {
  Plot plot;
  plot.title = "loss";
  plot.log_y = true;
  plot.series = {{"loss", SeriesStyle::Line, {1, 2, 3, 4}, {1.0, 1e-2, 1e-4, 1e-6}, {}, {}}};
  const std::string svg = plot_to_svg(plot);
  INFO(svg);
  CHECK(xml_problem(svg) == "");
  int decades = 0;
  for (std::size_t at : tags_with(svg, "class=\"tick-label\"")) {
    if (attribute_of(svg, at, "text-anchor") != "end") continue;  // y labels only
    const std::size_t open = svg.find('>', at) + 1;
    const std::string label = svg.substr(open, svg.find('<', open) - open);
    const double exponent = std::log10(std::strtod(label.c_str(), nullptr));
    INFO(label);
    CHECK(std::fabs(exponent - std::round(exponent)) < 1e-9);
    ++decades;
  }
  CHECK(decades >= 2);
  CHECK(svg.find(">1e-06<") != std::string::npos);
}

// Walk 15: the last label of a log x axis ("10000"), centred on the frame's corner, was cut by the
// panel's edge. Every x tick label ends inside the picture, read from the SVG's own anchors.
TEST_CASE("x tick labels end inside the plot, the last one too", "[lab][figures]") {
  for (const int width : {320, 640}) {
    Plot plot;
    plot.title = "distance";
    plot.log_x = true;
    plot.series = {{"GD", SeriesStyle::Line, {1, 10, 100, 1000, 10000}, {1, 2, 3, 4, 5}, {}, {}}};
    const std::string svg = plot_to_svg(plot, width, 300);
    INFO(svg);
    int x_labels = 0;
    for (std::size_t at : tags_with(svg, "class=\"tick-label\"")) {
      const std::size_t open = svg.find('>', at) + 1;
      const std::string label = svg.substr(open, svg.find('<', open) - open);
      const double x = std::strtod(attribute_of(svg, at, "x").c_str(), nullptr);
      const std::string anchor = attribute_of(svg, at, "text-anchor");
      if (anchor == "end" && x < 60) continue;  // the y axis's labels, ending left of the frame
      const double right = anchor == "end" ? x : x + 0.5 * svg_text_width(label, 12.0 * 0.92);
      INFO(label << " anchored " << anchor << " at " << x);
      CHECK(right <= width - 2.0);
      ++x_labels;
    }
    CHECK(x_labels >= 3);
    CHECK(svg.find(">10000<") != std::string::npos);
  }
}

// Walks 16 and 17: labels every 4 decades from 1e-15 left a curve at 3.3e3 under a top label of
// 10. A log axis over many decades labels both of its ends: evenly, with a stride up to half again
// as wide as the least one where one lands on the top; else the top takes the place of the label
// under it when that is under half a stride away, or comes after it.
TEST_CASE("a log axis over many decades labels both of its ends", "[lab][figures]") {
  for (int top = -3; top <= 6; ++top)
    for (int bottom = -16; bottom <= top - 3; ++bottom)
      for (int target : {3, 4, 6}) {
        const Axis a{std::pow(10.0, bottom), std::pow(10.0, top), true, false};
        const std::vector<double> t = axis_ticks(a, target);
        INFO("1e" << bottom << " to 1e" << top << ", about " << target << " labels: " << t.size());
        REQUIRE(t.size() >= 2);
        CHECK(t.front() == a.lo);
        CHECK(t.back() == a.hi);
        CHECK(t.size() <= static_cast<std::size_t>(target) + 2);
        const double least = std::max(1.0, std::ceil((top - bottom + 1.0) / target));
        const double step = std::round(std::log10(t[1] / t[0]));
        CHECK(step <= std::max(1.0, std::floor(least * 1.5)));
        for (std::size_t k = 1; k + 1 < t.size(); ++k) CHECK(std::round(std::log10(t[k] / t[k - 1])) == step);
        const double last_gap = std::round(std::log10(t.back() / t[t.size() - 2]));
        CHECK(last_gap >= 1.0);
        CHECK(last_gap <= 1.5 * step);
      }
}

TEST_CASE("viridis follows matplotlib's colour map", "[lab][figures]") {
  // matplotlib's viridis at 0, 1/4, 1/2, 3/4 and 1 (#440154 #3b528b #21918c #5ec962 #fde725); the
  // shader's polynomial fit (and so the PNG export) stays within a few levels of it.
  const int reference[5][3] = {{68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}};
  for (int i = 0; i < 5; ++i) {
    const auto rgb = viridis(i / 4.0);
    for (int k = 0; k < 3; ++k) CHECK(std::abs(rgb[k] - reference[i][k]) <= 5);
  }
  CHECK(viridis(-3.0) == viridis(0.0));  // clamped
  CHECK(viridis(7.0) == viridis(1.0));
}

TEST_CASE("encode_png writes chunks, stored deflate blocks and checksums that verify", "[lab][figures]") {
  const int width = 200, height = 100;  // 100 rows of 801 bytes: more than one 65535-byte block
  std::vector<std::uint8_t> rgba(static_cast<std::size_t>(width) * height * 4);
  for (std::size_t k = 0; k < rgba.size(); ++k) rgba[k] = static_cast<std::uint8_t>((k * 2654435761u) >> 13);
  const std::string png = encode_png(rgba, width, height);

  REQUIRE(png.compare(0, 8, std::string("\x89PNG\r\n\x1a\n", 8)) == 0);
  const auto chunks = png_chunks(png);
  REQUIRE(chunks.size() >= 3);
  for (const Chunk& c : chunks) CHECK(c.crc_ok);
  CHECK(chunks.front().type == "IHDR");
  CHECK(chunks.back().type == "IEND");
  const std::string& ihdr = chunks.front().data;
  REQUIRE(ihdr.size() == 13);
  CHECK(be32(ihdr, 0) == static_cast<std::uint32_t>(width));
  CHECK(be32(ihdr, 4) == static_cast<std::uint32_t>(height));
  CHECK(ihdr[8] == 8);  // bits per channel
  CHECK(ihdr[9] == 6);  // RGBA

  std::string zlib;
  for (const Chunk& c : chunks)
    if (c.type == "IDAT") zlib += c.data;
  std::size_t blocks = 0;
  const std::string raw = inflate_stored(zlib, blocks);
  CHECK(blocks == 2);
  std::string expected;
  for (int y = 0; y < height; ++y) {
    expected += '\0';
    expected.append(reinterpret_cast<const char*>(rgba.data()) + y * width * 4, width * 4);
  }
  CHECK(raw == expected);

  // A corrupted byte is caught by the chunk CRC.
  std::string broken = png;
  broken[40] ^= 0x01;
  const auto bad = png_chunks(broken);
  CHECK(std::any_of(bad.begin(), bad.end(), [](const Chunk& c) { return !c.crc_ok; }));
}

TEST_CASE("a heatmap image: viridis cells, grey for NaN, ringed marks, a sensible size", "[lab][figures]") {
  Heatmap h;
  h.rows = 2, h.cols = 3;
  h.values = {0.0, 1.0, NAN, 0.5, 2.0, -1.0};
  h.low = 0.0, h.high = 1.0;
  int width = 0, height = 0;
  const auto rgba = heatmap_rgba(h, 4, width, height);
  REQUIRE(width == 12);
  REQUIRE(height == 8);
  auto pixel = [&](int x, int y) {
    const std::size_t at = (static_cast<std::size_t>(y) * width + x) * 4;
    return std::array<std::uint8_t, 4>{rgba[at], rgba[at + 1], rgba[at + 2], rgba[at + 3]};
  };
  auto rgb = [](std::array<std::uint8_t, 3> c) { return std::array<std::uint8_t, 4>{c[0], c[1], c[2], 255}; };
  CHECK(pixel(1, 1) == rgb(viridis(0.0)));
  CHECK(pixel(5, 2) == rgb(viridis(1.0)));
  CHECK(pixel(9, 3) == std::array<std::uint8_t, 4>{128, 128, 128, 255});
  CHECK(pixel(2, 6) == rgb(viridis(0.5)));
  CHECK(pixel(6, 6) == rgb(viridis(1.0)));  // clamped
  CHECK(pixel(10, 6) == rgb(viridis(0.0)));

  const auto sqrt_scale = heatmap_rgba(h, 4, width, height, 0.5);
  CHECK(sqrt_scale[(6 * width + 2) * 4 + 1] == viridis(std::sqrt(0.5))[1]);

  h.marks = {{0, 0, "here"}};
  const auto marked = heatmap_rgba(h, 4, width, height);
  auto count = [&](const std::vector<std::uint8_t>& image, std::array<std::uint8_t, 3> c) {
    int n = 0;
    for (std::size_t at = 0; at < image.size(); at += 4)
      n += image[at] == c[0] && image[at + 1] == c[1] && image[at + 2] == c[2];
    return n;
  };
  CHECK(count(rgba, {255, 255, 255}) == 0);
  CHECK(count(marked, {255, 255, 255}) > 8);  // the white ring
  CHECK(count(marked, {220, 30, 30}) > 8);    // and the red one inside it

  const std::string png = heatmap_to_png(h);
  const auto chunks = png_chunks(png);
  REQUIRE(!chunks.empty());
  const std::uint32_t png_width = be32(chunks.front().data, 0), png_height = be32(chunks.front().data, 4);
  CHECK(png_width >= 399);
  CHECK(png_width <= 2048);
  CHECK(png_height * 3 == png_width * 2);
}

TEST_CASE("every experiment stops a step when its time is up, its plots export as SVG with one path per series and its heatmaps as SVG and PNG", "[lab][figures][registry]") {
  for (const auto& id : experiment_ids()) {
    INFO(id);
    auto e = make_experiment(id);
    e->reset(e->schema().defaults(), 1);
    // The page's contract, without a clock to race: a step whose time is up at once does one piece
    // of work and returns, so the default run is under way but far from finished.
    Budget budget;
    budget.seconds = 0.0;
    e->step(budget);
    CHECK_FALSE(e->progress().finished());
    const Results r = e->results();
    for (const Plot& plot : r.plots) {
      INFO(id << ": " << plot.title);
      const std::string svg = plot_to_svg(plot);
      CHECK(xml_problem(svg).empty());
      std::size_t paths = 0;
      for (std::size_t at = svg.find("class=\"series\""); at != std::string::npos;
           at = svg.find("class=\"series\"", at + 1))
        ++paths;
      CHECK(paths == plot.series.size());
      CHECK(svg.find("nan") == std::string::npos);
      CHECK(svg.find("inf") == std::string::npos);
    }
    for (const Heatmap& h : r.heatmaps) {
      INFO(id << ": " << h.title);
      CHECK(heatmap_to_png(h).compare(1, 3, "PNG") == 0);
      const std::string svg = heatmap_to_svg(h);
      CHECK(xml_problem(svg).empty());
      CHECK(tags_with(svg, "class=\"colour-band\"").size() == 64);
      CHECK(text_of(svg, svg.find("<text id=\"title\"")) == h.title);
    }
  }
}

TEST_CASE("series looks stay apart beyond the 7 colours: marker and dash change too", "[lab][figures]") {
  std::set<std::tuple<int, int, int, int, double>> looks;
  for (std::size_t k = 0; k < 35; ++k) {
    const SeriesLook a = series_look(k);
    looks.insert({a.colour.r, a.colour.g, a.colour.b, static_cast<int>(a.marker), a.dash.on});
    // The series 7 on has the colour of series k - 7, but never its marker nor its dash.
    if (k >= kSeriesColours) {
      const SeriesLook b = series_look(k - kSeriesColours);
      CHECK(a.colour.r == b.colour.r);
      CHECK(a.marker != b.marker);
      CHECK(a.dash.on != b.dash.on);
    }
  }
  CHECK(looks.size() == 35);
  CHECK(series_look(0).dash.solid());
  CHECK(series_look(0).marker == Marker::Circle);
  CHECK(marker_polygon(Marker::Circle, 3.0).empty());
  for (Marker m : {Marker::Square, Marker::TriangleUp, Marker::Diamond, Marker::TriangleDown})
    CHECK(marker_polygon(m, 3.0).size() >= 3);
}

TEST_CASE("a plot of 9 series (the mirror 3 x 3) gives each series and legend entry its own look", "[lab][figures]") {
  Plot plot;
  plot.title = "Each p against every SVM p'";
  for (int k = 0; k < 9; ++k)
    plot.series.push_back({"series " + std::to_string(k), k % 4 == 0 ? SeriesStyle::LineMarkers : SeriesStyle::Line,
                           {1, 2, 3}, {1.0 + k, 2.0 + k, 3.0 + k}, {}, {}});
  const std::string svg = plot_to_svg(plot);
  INFO(svg);
  REQUIRE(xml_problem(svg) == "");
  const auto drawn = tags_with(svg, "class=\"series\"");  // in drawing order: the marked series first
  REQUIRE(drawn.size() == 9);
  std::vector<std::size_t> paths(9);  // series k's path
  for (std::size_t at : drawn) paths[std::stoul(attribute_of(svg, at, "data-name").substr(7))] = at;
  std::set<std::pair<std::string, std::string>> strokes;  // (colour, dash pattern)
  for (std::size_t at : paths) strokes.insert({attribute_of(svg, at, "stroke"), attribute_of(svg, at, "stroke-dasharray")});
  CHECK(strokes.size() == 9);  // series 8 and 9 repeat the colours of 1 and 2, dashed
  CHECK(attribute_of(svg, paths[7], "stroke") == attribute_of(svg, paths[0], "stroke"));
  // Series 6 (blue) and 7 (sky blue again) are of series 0's colour family: each its own dash.
  CHECK(attribute_of(svg, paths[6], "stroke-dasharray") == "9 4");
  CHECK(attribute_of(svg, paths[7], "stroke-dasharray") == "2 4");
  CHECK(attribute_of(svg, paths[0], "stroke-dasharray") == "<missing>");
  // Markers: series 0 circles, series 4 (LineMarkers, marker index 4) triangles drawn as paths;
  // series 8 too, with its own shape.
  const auto markers = tags_with(svg, "class=\"markers\"");
  REQUIRE(markers.size() == 3);
  CHECK(svg.compare(svg.find('>', markers[0]) + 1, 7, "<circle") == 0);
  CHECK(svg.compare(svg.find('>', markers[1]) + 1, 5, "<path") == 0);
  // Each legend entry's sample line carries its series' dash; marked series show their marker.
  const auto entries = tags_with(svg, "class=\"legend-entry\"");
  REQUIRE(entries.size() == 9);
  for (std::size_t k = 0; k < 9; ++k) {
    const std::size_t sample = svg.find("<path", entries[k]);
    CHECK(attribute_of(svg, sample, "stroke") == attribute_of(svg, paths[k], "stroke"));
    CHECK(attribute_of(svg, sample, "stroke-dasharray") == attribute_of(svg, paths[k], "stroke-dasharray"));
    const std::string entry = svg.substr(entries[k], svg.find("</g>", entries[k]) - entries[k]);
    CHECK((entry.find("<g fill=") != std::string::npos) == (k % 4 == 0));
  }
}

TEST_CASE("an axis of whole numbers (m, |S|) has no ticks between them", "[lab][figures]") {
  Plot p;
  Series rate;
  rate.name = "rate";
  rate.x = {1, 2, 3};
  rate.y = {0.5, 0.7, 0.9};
  p.series.push_back(rate);
  const PlotAxes whole = fit_plot_axes(p);
  CHECK(whole.x.whole);
  for (int target : {2, 5, 10, 20}) {
    const auto ticks = axis_ticks(whole.x, target);
    CHECK(ticks.size() >= 2);
    for (double t : ticks) CHECK(t == std::floor(t));
  }
  // One fractional x, and the axis is an ordinary one with ticks between.
  p.series[0].x = {1, 1.5, 3};
  const PlotAxes fractional = fit_plot_axes(p);
  CHECK_FALSE(fractional.x.whole);
  const auto ticks = axis_ticks(fractional.x, 10);
  CHECK(std::any_of(ticks.begin(), ticks.end(), [](double t) { return t != std::floor(t); }));
}

// Walk 16: a log y axis over 0.0304 .. 1 labelled 0.05 and up (W's error under every label), and a
// log x axis of m = 1, 2, 3 labelled 1 and 2 only. A value axis over two decades or less ends at the
// 1-2-5 values around its data, so a label lies at or beyond its smallest and its largest value; a
// log axis of whole numbers labels its last one.
TEST_CASE("narrow log axes label their data's ends", "[lab][figures]") {
  const std::vector<std::pair<double, double>> ranges = {{0.0304, 1.0}, {0.3, 2.5}, {3.0, 70.0}, {0.011, 0.9}, {1.5, 1.7}};
  for (const auto& [low, high] : ranges) {
    Plot p;
    p.log_y = true;
    p.series = {{"error", SeriesStyle::Line, {1, 2, 3}, {high, (low + high) / 2, low}, {}, {}}};
    const PlotAxes axes = fit_plot_axes(p);
    const std::vector<double> t = axis_ticks(axes.y, 6);
    INFO(low << " .. " << high << ": " << t.size() << " labels from " << t.front() << " to " << t.back());
    CHECK(t.front() <= low);
    CHECK(t.back() >= high);
    CHECK(t.size() <= 8);
  }
  // An axis between two powers of ten holds no decade (the top-decade rule read an empty list:
  // the page crashed on multihead.lower_bound's |S| = 2..8; the sanitizer build catches the read).
  for (const auto& [low, high] : std::vector<std::pair<double, double>>{{2.0, 8.0}, {0.2, 0.9}, {3.0, 7.0}}) {
    const std::vector<double> t = axis_ticks(Axis{low, high, true, false}, 6);
    INFO(low << " .. " << high);
    CHECK(t.size() >= 2);
  }
  // Walk 17: a plot ranged 0 to 1 (a success rate) drew nothing on a log y axis: 0 has no place there.
  Plot rate = Plot::titled("Success rate").y_range(0, 1).log_y_axis();
  rate.series = {{"success", SeriesStyle::LineMarkers, {1, 2, 3}, {0.47, 0.0, 0.99}, {}, {}}};
  const PlotAxes rate_axes = fit_plot_axes(rate);
  CHECK(rate_axes.y.lo > 0.0);
  CHECK(rate_axes.y.map(0.47) > 0.0);
  CHECK(rate_axes.y.map(0.99) < 1.0);
  CHECK(axis_ticks(rate_axes.y, 6).size() >= 2);
  for (int last : {3, 4, 7, 12, 30}) {
    Plot p;
    p.log_x = true;
    Series s{"rate", SeriesStyle::LineMarkers, {}, {}, {}, {}};
    for (int m = 1; m <= last; ++m) s.x.push_back(m), s.y.push_back(1.0 / m);
    p.series = {s};
    const PlotAxes axes = fit_plot_axes(p);
    REQUIRE(axes.x.whole);
    const std::vector<double> t = axis_ticks(axes.x, 5);
    INFO("m = 1 .. " << last << ": last label " << t.back());
    CHECK(t.back() == last);
    for (double v : t) CHECK(v == std::floor(v));
  }
}

TEST_CASE("bars at the ends of a linear axis fit inside it (|S| = 1, 2, 3)", "[lab][figures]") {
  Plot p;
  Series bars;
  bars.name = "accuracy";
  bars.style = SeriesStyle::Bars;
  bars.x = {1, 2, 3};
  bars.y = {1.0, 0.58, 0.52};
  p.series.push_back(bars);
  const PlotAxes axes = fit_plot_axes(p);
  // Both halves of the first and the last bar, as plot_svg and the page draw them, lie inside the axis.
  const double half = bar_half_width(600.0, 3) / 600.0;  // as a fraction of a 600-pixel axis
  CHECK(axes.x.map(1.0) - half >= 0.0);
  CHECK(axes.x.map(3.0) + half <= 1.0);
  for (double t : axis_ticks(axes.x, 10)) CHECK(t == std::floor(t));
  // Lines and markers keep the usual 3% of air.
  p.series[0].style = SeriesStyle::LineMarkers;
  CHECK(fit_plot_axes(p).x.map(1.0) < half);
}

TEST_CASE("on log axes no point sits on the frame, and less than two decades get 1-2-5 ticks", "[lab][figures]") {
  // Multihead's "final test error against examples used": one point per learner, at the two ends.
  Plot p;
  p.log_x = p.log_y = true;
  p.series = {{"Adam", SeriesStyle::LineMarkers, {7000.0}, {1.2e-12}, {}, {}},
              {"learner", SeriesStyle::LineMarkers, {90000.0}, {3.1e-4}, {}, {}}};
  const PlotAxes axes = fit_plot_axes(p);
  for (double x : {7000.0, 90000.0}) {
    INFO(x);
    CHECK(axes.x.map(x) > 0.02);
    CHECK(axes.x.map(x) < 0.98);
  }
  for (double y : {1.2e-12, 3.1e-4}) {
    INFO(y);
    CHECK(axes.y.map(y) > 0.02);
    CHECK(axes.y.map(y) < 0.98);
  }
  // 7000 .. 90000 holds one decade mark: 1, 2 and 5 times powers of ten instead of crowded 60000 70000 ...
  const std::vector<double> ticks = axis_ticks(axes.x, 12);
  CHECK(ticks == std::vector<double>{10000.0, 20000.0, 50000.0});
  // Many decades: decade ticks only.
  for (double t : axis_ticks(axes.y, 6)) CHECK(std::fabs(std::log10(t) - std::round(std::log10(t))) < 1e-12);
  // Two decades on an axis reaching well beyond them: the outermost 2 or 5 times a power of ten too
  // (walk 13: mirror 1's curves ended at 0.0025 under the lowest label, 0.01).
  Axis two;
  two.log = true, two.lo = 0.0021, two.hi = 0.31;
  CHECK(axis_ticks(two, 6) == std::vector<double>{0.005, 0.01, 0.1, 0.2});
  two.lo = 0.002;
  CHECK(axis_ticks(two, 6).front() == 0.002);
  // Data over more than two decades: a label at or beyond its smallest and its largest value (walk
  // 14: 2e-16 under the lowest label 1e-15; curves at 3 over the highest label 0.01).
  for (const std::vector<double>& data : {std::vector<double>{2e-16, 5e-14, 1.2e-12}, std::vector<double>{6e-9, 1e-4, 2.98},
                                          std::vector<double>{2.55e-4, 3e-3, 0.2}}) {
    const Axis fitted = fit_axis(true, {&data}, AxisFit_Decades);
    const std::vector<double> labels = axis_ticks(fitted, 6);
    INFO(data.front() << " to " << data.back());
    CHECK(labels.front() <= data.front());
    CHECK(labels.back() >= data.back());
    for (double v : data) CHECK((fitted.map(v) > 0.02 && fitted.map(v) < 0.98));  // never on the frame
  }
}

TEST_CASE("colour bar ticks lie inside the scale, or are its two ends", "[lab][figures]") {
  const auto ticks = colour_bar_ticks(0.0, 0.37);
  REQUIRE(ticks.size() >= 3);
  for (double t : ticks) CHECK((t >= 0.0 && t <= 0.37));
  CHECK(ticks.front() == 0.0);
  CHECK(colour_bar_ticks(-6.2, -1.3).size() >= 3);
  CHECK(colour_bar_ticks(0.1234, 0.1236).size() >= 3);
  CHECK(colour_bar_ticks(0.11, 0.19, 1) == std::vector<double>{0.11, 0.19});  // no nice tick inside: the ends
  CHECK(colour_bar_ticks(1.0, 1.0).size() == 1);
}

namespace {

Heatmap sample_heatmap() {
  Heatmap h;
  h.title = "Softmax attention <D1> & friends";
  h.x_label = "key token j1";
  h.y_label = "query token j0";
  h.value_label = "attention weight";
  h.rows = 20, h.cols = 30;
  for (int r = 0; r < h.rows; ++r)
    for (int c = 0; c < h.cols; ++c) h.values.push_back(0.01 * r + 0.001 * c);
  h.values[5] = NAN;
  h.low = 0.0, h.high = 0.2;
  h.note = "block-averaged";
  h.marks = {{3, 4, "planted (j2, j3)"}, {10, 28, "far right"}};
  h.paths = {{"Newton", {1.0, 5.0, 9.5}, {2.0, 10.0, 20.0}}};
  return h;
}

}  // namespace

TEST_CASE("a heatmap's SVG: well-formed, the matrix embedded as PNG, title, colour bar with ticks", "[lab][figures]") {
  const Heatmap h = sample_heatmap();
  const std::string svg = heatmap_to_svg(h);
  INFO(svg.substr(0, 3000));
  REQUIRE(xml_problem(svg) == "");
  CHECK(text_of(svg, svg.find("<text id=\"title\"")) == h.title);

  // The embedded image is a PNG of the cells (marks and paths are vectors over it).
  const std::size_t image = svg.find("<image id=\"matrix\"");
  REQUIRE(image != std::string::npos);
  const std::string href = attribute_of(svg, image, "xlink:href");
  const std::string prefix = "data:image/png;base64,";
  REQUIRE(href.compare(0, prefix.size(), prefix) == 0);
  const std::string png = base64_decode(href.substr(prefix.size()));
  REQUIRE(png.compare(0, 8, std::string("\x89PNG\r\n\x1a\n", 8)) == 0);
  const auto chunks = png_chunks(png);
  REQUIRE(chunks.front().type == "IHDR");
  for (const Chunk& c : chunks) CHECK(c.crc_ok);
  const std::uint32_t w = be32(chunks.front().data, 0), hgt = be32(chunks.front().data, 4);
  CHECK(w * static_cast<std::uint32_t>(h.rows) == hgt * static_cast<std::uint32_t>(h.cols));  // whole cells
  CHECK(w % static_cast<std::uint32_t>(h.cols) == 0);
  CHECK(std::stod(attribute_of(svg, image, "width")) == Approx(400.0).margin(0.01));
  CHECK(std::stod(attribute_of(svg, image, "height")) == Approx(400.0 * 20 / 30).margin(0.01));

  // The colour bar: 64 bands from the top colour (high) to the bottom (low), ticks at nice values.
  const std::size_t bar = svg.find("<g id=\"colour-bar\"");
  REQUIRE(bar != std::string::npos);
  const auto bands = tags_with(svg, "class=\"colour-band\"");
  REQUIRE(bands.size() == 64);
  CHECK(attribute_of(svg, bands.front(), "fill") == hex_of(viridis(63.5 / 64.0)));
  CHECK(attribute_of(svg, bands.back(), "fill") == hex_of(viridis(0.5 / 64.0)));
  std::vector<std::string> labels;
  for (std::size_t at : tags_with(svg, "class=\"colour-bar-label\"")) labels.push_back(text_of(svg, at));
  std::vector<std::string> expected;
  for (double t : colour_bar_ticks(h.low, h.high)) expected.push_back(tick_label(t));
  CHECK(labels == expected);
  CHECK(labels.front() == "0");
  CHECK(labels.back() == "0.2");
  CHECK(svg.find(">attention weight</text>") != std::string::npos);

  // Marks ringed with their labels (the right-hand one's label to its left), the path and its legend.
  const auto marks = tags_with(svg, "class=\"mark\"");
  REQUIRE(marks.size() == 2);
  CHECK(unescape(attribute_of(svg, marks[0], "data-label")) == "planted (j2, j3)");
  CHECK(attribute_of(svg, svg.find("<text", marks[1]), "text-anchor") == "end");
  CHECK(tags_with(svg, "class=\"path\"").size() == 1);
  CHECK(tags_with(svg, "class=\"markers\"").size() == 1);  // its three points
  CHECK(tags_with(svg, "class=\"legend-entry\"").size() == 1);
  CHECK(svg.find(">key token j1</text>") != std::string::npos);
  CHECK(svg.find(">query token j0</text>") != std::string::npos);
  CHECK(svg.find(">block-averaged</text>") != std::string::npos);

  // The square-root scale: the bar follows it and the caption says so.
  const std::string sqrt_svg = heatmap_to_svg(h, 0.5);
  const auto sqrt_bands = tags_with(sqrt_svg, "class=\"colour-band\"");
  CHECK(attribute_of(sqrt_svg, sqrt_bands.back(), "fill") == hex_of(viridis(std::sqrt(0.5 / 64.0))));
  CHECK(sqrt_svg.find("square root") != std::string::npos);
  CHECK(svg.find("square root") == std::string::npos);

  Heatmap empty;
  CHECK_THROWS(heatmap_to_svg(empty));
}

TEST_CASE("a figure grid puts every panel in its cell with its letter, title and one shared y label", "[lab][figures]") {
  FigureGrid g;
  g.title = "Figure 4: self-attention";
  g.caption = "seed 1";
  g.rows = 2, g.columns = 3;
  for (int k = 0; k < 5; ++k) {
    GridPanel p{"fig4" + std::string(1, static_cast<char>('a' + k)), k / 3, k % 3, std::string(1, static_cast<char>('a' + k)),
                "Vary with " + std::to_string(k), three_series_plot()};
    p.plot.y_label = "success";
    if (k == 4) p.plot.series.clear();  // not computed yet
    g.panels.push_back(p);
  }
  const std::string svg = figure_grid_to_svg(g);
  INFO(svg.substr(0, 2000));
  REQUIRE(xml_problem(svg) == "");
  CHECK(text_of(svg, svg.find("id=\"figure-title\"")) == g.title);
  const auto panels = tags_with(svg, "class=\"panel\"");
  REQUIRE(panels.size() == 5);
  std::set<std::string> translations;
  for (std::size_t k = 0; k < 5; ++k) {
    CHECK(attribute_of(svg, panels[k], "id") == "panel-" + g.panels[k].id);
    translations.insert(attribute_of(svg, panels[k], "transform"));
    const std::size_t title = svg.find("class=\"panel-title\"", panels[k]);
    CHECK(svg.compare(svg.find('>', svg.find("<tspan", title)) + 1, 3, "(" + g.panels[k].letter + ")") == 0);
  }
  CHECK(translations.size() == 5);
  auto origin = [&](std::size_t k) {  // translate(X Y) of panel k
    const std::string t = attribute_of(svg, panels[k], "transform");
    double x = 0.0, y = 0.0;
    REQUIRE(std::sscanf(t.c_str(), "translate(%lf %lf)", &x, &y) == 2);
    return std::pair<double, double>{x, y};
  };
  CHECK(origin(1).first >= origin(0).first + 360.0);  // columns side by side, rows stacked
  CHECK(origin(1).second == origin(0).second);
  CHECK(origin(3).first == origin(0).first);
  CHECK(origin(3).second >= origin(0).second + 270.0);
  // One clip path per panel, each named once; the shared y label drawn once, not in the panels.
  CHECK(tags_with(svg, "<clipPath id=\"panel-fig4a-area\"").size() == 1);
  CHECK(tags_with(svg, "<clipPath").size() == 5);
  CHECK(tags_with(svg, "class=\"y-label\"").size() == 1);
  CHECK(tags_with(svg, "class=\"no-results\"").size() == 1);
  CHECK(tags_with(svg, "class=\"series\"").size() == 12);  // 3 series in each of 4 panels
  CHECK(text_of(svg, svg.find("class=\"caption\"")) == "seed 1");
  // The panels share their series: one legend under the grid, after the last panel.
  CHECK(tags_with(svg, "class=\"legend-entry\"").size() == 3);
  CHECK(svg.find("<g id=\"legend\"") > svg.rfind("class=\"panel\""));

  // Panels with other series, or another y label, keep their own legend and y label.
  FigureGrid mixed = g;
  mixed.panels[1].plot.series.pop_back();
  mixed.panels[2].plot.y_label = "rate";
  const std::string own = figure_grid_to_svg(mixed);
  REQUIRE(xml_problem(own) == "");
  CHECK(own.find("<g id=\"legend\"") == std::string::npos);
  CHECK(tags_with(own, "class=\"legend-entry\"").size() == 3 + 2 + 3 + 3);
  CHECK(tags_with(own, "class=\"y-label\"").size() == 5);  // in the panels' headings, the empty one too
  CHECK(own.find(">(rate)</tspan>") != std::string::npos);

  FigureGrid outside = g;
  outside.panels[0].column = 3;
  CHECK_THROWS_WITH(figure_grid_to_svg(outside), Catch::Contains("outside its 2 x 3 grid"));
  FigureGrid twice = g;
  twice.panels[1].column = 0;
  CHECK_THROWS_WITH(figure_grid_to_svg(twice), Catch::Contains("shares its cell"));
}

TEST_CASE("a reproduction's figures hold every panel with its results, named and captioned", "[lab][figures][registry]") {
  for (const auto& name : reproduction_names()) {
    const Reproduction& r = reproduction(name);
    std::map<std::string, Results> results;
    for (const Panel& panel : r.panels) {
      auto e = make_experiment(panel.experiment);
      e->reset(e->make_params(panel.preset, {}), 1);  // prepared: the plots exist, with the sweep's points
      results[panel.name] = e->results();
    }
    std::size_t drawn = 0;
    std::set<std::string> files;
    for (std::size_t k = 0; k < r.figures.size(); ++k) {
      INFO(name << " " << r.figures[k].name);
      const FigureGrid grid = reproduction_figure(
          r, k, [&](const Panel& p) -> const Results* { return &results.at(p.name); }, 7);
      const std::string svg = figure_grid_to_svg(grid);
      CHECK(xml_problem(svg) == "");
      for (const Panel& panel : r.panels) {
        if (panel.figure != r.figures[k].name) continue;
        ++drawn;
        CHECK(svg.find("id=\"panel-" + panel.name + "\"") != std::string::npos);
        CHECK(svg.find("</tspan> " + xml_escape(panel.caption) + "</text>") != std::string::npos);
      }
      CHECK(grid.caption.find("seed 7") != std::string::npos);
      files.insert(reproduction_figure_file(r, k, 7, "svg"));
    }
    CHECK(drawn == r.panels.size());
    CHECK(files.size() == r.figures.size());
    CHECK(files.count(name + "-" + r.figures[0].name + "-seed7.svg") == 1);
    // Without results yet every panel is still there, empty.
    const FigureGrid none = reproduction_figure(r, 0, [](const Panel&) -> const Results* { return nullptr; }, 1);
    for (const GridPanel& p : none.panels) CHECK(p.plot.series.empty());
  }
}

TEST_CASE("a tick label writes its exponent short, so it fits the plot's margin", "[lab][figures]") {
  CHECK(tick_label(5.2e7) == "5.2e7");
  CHECK(tick_label(1e-9) == "1e-9");
  CHECK(tick_label(-2.5e-10) == "-2.5e-10");
  CHECK(tick_label(1e100) == "1e100");
  CHECK(tick_label(0.25) == "0.25");
  CHECK(tick_label(40) == "40");
  CHECK(std::stod(tick_label(4.4e7)) == 4.4e7);  // still a number that reads back
}
