// The page's assets, compiled into its module (cmake/embed_assets.cmake writes their definitions at
// build time): the page has no file system to read them from.
#pragma once
#include <cstddef>

namespace attnlab::ui {

// The UI font: DejaVu Sans cut down to the glyphs the page draws (cmake/web_app.cmake), kUiFontSize bytes.
extern const unsigned char kUiFont[];
extern const std::size_t kUiFontSize;
// The heatmap's shaders (shaders/heatmap.vert, shaders/heatmap.frag), GLSL ES 3.0 text.
extern const char* const kHeatmapVertexShader;
extern const char* const kHeatmapFragmentShader;

}  // namespace attnlab::ui
