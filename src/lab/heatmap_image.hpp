// A heatmap as a raster image (the page's viridis colour map, marks ringed) and a dependency-free
// PNG writer for it.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "lab/results.hpp"

namespace attnlab {

// shaders/heatmap.frag's polynomial fit of viridis, t clamped to [0, 1], as 8-bit RGB.
std::array<std::uint8_t, 3> viridis(double t);

// The colour of value `v` on h's scale: viridis(((v - low) / (high - low))^gamma), the scaled value
// clamped to [0, 1] first (as the shader); grey for a non-finite value.
std::array<std::uint8_t, 3> heatmap_colour(const Heatmap& h, double v, double gamma = 1.0);

// RGBA pixels, row-major from the top row, each cell `scale` x `scale` pixels; sets width and height.
// A cell shows viridis(((v - low) / (high - low))^gamma) like the page (gamma 0.5 = the inspector's
// sqrt colour scale); non-finite cells are grey. Marks get a ring, paths 1-pixel lines.
std::vector<std::uint8_t> heatmap_rgba(const Heatmap& h, int scale, int& width, int& height, double gamma = 1.0);

// A PNG file (8-bit RGBA, stored deflate blocks: no compression, no dependencies).
std::string encode_png(const std::vector<std::uint8_t>& rgba, int width, int height);

// The heatmap as a PNG, cells scaled up so the image is about 400 px or more wide, at most 2048.
// `gamma` as in heatmap_rgba (0.5: the inspector's square-root colour scale).
std::string heatmap_to_png(const Heatmap& h, double gamma = 1.0);

}  // namespace attnlab
