#include "lab/heatmap_image.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "lab/palette.hpp"

namespace attnlab {

std::array<std::uint8_t, 3> viridis(double t) {
  // The coefficients of shaders/heatmap.frag (Matt Zucker's public-domain fit), one row per power of t.
  static const double c[7][3] = {{0.2777273272234177, 0.005407344544966578, 0.3340998053353061},
                                 {0.1050930431085774, 1.404613529898575, 1.384590162594685},
                                 {-0.3308618287255563, 0.214847559468213, 0.09509516302823659},
                                 {-4.634230498983486, -5.799100973351585, -19.33244095627987},
                                 {6.228269936347081, 14.17993336680509, 56.69055260068105},
                                 {4.776384997670288, -13.74514537774601, -65.35303263337234},
                                 {-5.435455855934631, 4.645852612178535, 26.3124352495832}};
  t = std::isfinite(t) ? std::clamp(t, 0.0, 1.0) : 0.0;
  std::array<std::uint8_t, 3> rgb{};
  for (int k = 0; k < 3; ++k) {
    double v = c[6][k];
    for (int p = 5; p >= 0; --p) v = c[p][k] + t * v;  // Horner, as the shader
    rgb[k] = static_cast<std::uint8_t>(std::lround(std::clamp(v, 0.0, 1.0) * 255.0));
  }
  return rgb;
}

std::array<std::uint8_t, 3> heatmap_colour(const Heatmap& h, double v, double gamma) {
  if (!std::isfinite(v)) return {128, 128, 128};  // neutral grey
  const double span = h.high - h.low;
  const double t = span > 0.0 ? std::clamp((v - h.low) / span, 0.0, 1.0) : 0.0;
  return viridis(std::pow(t, gamma));
}

std::vector<std::uint8_t> heatmap_rgba(const Heatmap& h, int scale, int& width, int& height, double gamma) {
  scale = std::max(1, scale);
  const int rows = std::max(0, h.rows), cols = std::max(0, h.cols);
  width = cols * scale, height = rows * scale;
  std::vector<std::uint8_t> image(static_cast<std::size_t>(width) * height * 4, 255);
  auto put = [&](long x, long y, std::array<std::uint8_t, 3> c) {
    if (x < 0 || y < 0 || x >= width || y >= height) return;
    std::copy(c.begin(), c.end(), image.begin() + (static_cast<std::ptrdiff_t>(y) * width + x) * 4);
  };
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      const std::size_t k = static_cast<std::size_t>(r) * cols + c;
      const auto colour = heatmap_colour(h, k < h.values.size() ? h.values[k] : NAN, gamma);
      for (int y = r * scale; y < (r + 1) * scale; ++y)
        for (int x = c * scale; x < (c + 1) * scale; ++x) put(x, y, colour);
    }
  // Paths as 1-pixel polylines in their series colours (the page also dots each point; too small here).
  for (std::size_t k = 0; k < h.paths.size(); ++k) {
    const Heatmap::Path& path = h.paths[k];
    const Rgb rgb = series_rgb(k);
    for (std::size_t i = 1; i < std::min(path.rows.size(), path.cols.size()); ++i) {
      const double x0 = path.cols[i - 1] * scale, y0 = path.rows[i - 1] * scale;
      const double x1 = path.cols[i] * scale, y1 = path.rows[i] * scale;
      if (!std::isfinite(x0 + y0 + x1 + y1)) continue;
      const double steps = std::min(std::ceil(std::max(std::fabs(x1 - x0), std::fabs(y1 - y0))), 4.0 * (width + height));
      for (double s = 0; s <= steps; ++s) {
        const double f = steps > 0 ? s / steps : 0.0;
        put(std::lround(x0 + (x1 - x0) * f), std::lround(y0 + (y1 - y0) * f), {rgb.r, rgb.g, rgb.b});
      }
    }
  }
  // Marks: a white ring with a red one inside it, visible on dark and bright cells (the page draws
  // a white ring and the label; no text here).
  const double radius = std::max(6.0, 0.5 * scale - 1.0);  // inside a big cell, beyond a small one
  for (const Heatmap::Mark& m : h.marks) {
    const double cx = (m.col + 0.5) * scale, cy = (m.row + 0.5) * scale;
    for (long y = std::lround(cy - radius - 1); y <= std::lround(cy + radius + 1); ++y)
      for (long x = std::lround(cx - radius - 1); x <= std::lround(cx + radius + 1); ++x) {
        const double d = std::hypot(static_cast<double>(x) + 0.5 - cx, static_cast<double>(y) + 0.5 - cy);
        if (std::fabs(d - radius) < 0.5) put(x, y, {255, 255, 255});
        else if (std::fabs(d - (radius - 1.0)) < 0.5) put(x, y, {220, 30, 30});
      }
  }
  return image;
}

namespace {

std::uint32_t crc32(const std::string& bytes) {
  static const auto table = [] {
    std::array<std::uint32_t, 256> t{};
    for (std::uint32_t n = 0; n < 256; ++n) {
      std::uint32_t c = n;
      for (int k = 0; k < 8; ++k) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[n] = c;
    }
    return t;
  }();
  std::uint32_t c = 0xFFFFFFFFu;
  for (unsigned char b : bytes) c = table[(c ^ b) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

std::uint32_t adler32(const std::string& bytes) {
  std::uint32_t a = 1, b = 0;
  for (unsigned char x : bytes) a = (a + x) % 65521, b = (b + a) % 65521;
  return (b << 16) | a;
}

void put_u32(std::string& out, std::uint32_t v) {  // big-endian, as PNG and zlib want
  for (int shift = 24; shift >= 0; shift -= 8) out += static_cast<char>((v >> shift) & 0xFF);
}

void put_chunk(std::string& png, const char* type, const std::string& data) {
  put_u32(png, static_cast<std::uint32_t>(data.size()));
  const std::string body = type + data;
  png += body;
  put_u32(png, crc32(body));  // the CRC covers the type and the data
}

}  // namespace

std::string encode_png(const std::vector<std::uint8_t>& rgba, int width, int height) {
  if (width < 1 || height < 1 || rgba.size() != static_cast<std::size_t>(width) * height * 4)
    throw std::invalid_argument("encode_png: need width, height >= 1 and width * height * 4 bytes");
  const std::size_t row = static_cast<std::size_t>(width) * 4;
  std::string raw;  // each row: filter type 0 (none), then its pixels
  raw.reserve((row + 1) * height);
  for (int y = 0; y < height; ++y) {
    raw += '\0';
    raw.append(reinterpret_cast<const char*>(rgba.data()) + y * row, row);
  }
  std::string zlib = "\x78\x01";  // deflate, 32K window; (0x78 * 256 + 0x01) % 31 == 0
  for (std::size_t at = 0; at < raw.size(); at += 65535) {
    const std::size_t n = std::min<std::size_t>(65535, raw.size() - at);
    zlib += static_cast<char>(at + n == raw.size() ? 1 : 0);  // BFINAL on the last; BTYPE 00 = stored
    for (std::size_t v : {n, n ^ 0xFFFF})  // LEN and NLEN, little-endian
      zlib += static_cast<char>(v & 0xFF), zlib += static_cast<char>(v >> 8);
    zlib.append(raw, at, n);
  }
  put_u32(zlib, adler32(raw));

  std::string header;
  put_u32(header, static_cast<std::uint32_t>(width));
  put_u32(header, static_cast<std::uint32_t>(height));
  header += std::string("\x08\x06\x00\x00\x00", 5);  // 8 bits, RGBA, deflate, adaptive filters, no interlace
  std::string png = "\x89PNG\r\n\x1a\n";
  put_chunk(png, "IHDR", header);
  put_chunk(png, "IDAT", zlib);
  put_chunk(png, "IEND", "");
  return png;
}

std::string heatmap_to_png(const Heatmap& h, double gamma) {
  if (h.rows < 1 || h.cols < 1) throw std::invalid_argument("heatmap '" + h.title + "' has no cells");
  const int side = std::max(h.rows, h.cols);
  const int scale = std::max(1, std::min((400 + h.cols - 1) / h.cols, 2048 / side));
  int width = 0, height = 0;
  const std::vector<std::uint8_t> rgba = heatmap_rgba(h, scale, width, height, gamma);
  return encode_png(rgba, width, height);
}

}  // namespace attnlab
