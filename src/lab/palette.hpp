// The series colours (Okabe-Ito, colour-blind safe), shared by the page and the figure exports.
#pragma once
#include <cstddef>
#include <cstdint>

namespace attnlab {

struct Rgb {
  std::uint8_t r, g, b;
};

inline constexpr Rgb kSeriesPalette[] = {{86, 180, 233}, {230, 159, 0},  {0, 158, 115}, {204, 121, 167},
                                         {240, 228, 66}, {213, 94, 0},   {0, 114, 178}};

// The colour of the index-th series (the palette repeats).
inline Rgb series_rgb(std::size_t index) {
  return kSeriesPalette[index % (sizeof kSeriesPalette / sizeof kSeriesPalette[0])];
}

}  // namespace attnlab
