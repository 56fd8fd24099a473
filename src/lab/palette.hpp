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

// On white, Okabe-Ito's yellow (1.3:1 against it) gives way to a dark yellow (3.8:1).
inline constexpr Rgb kDarkYellow{150, 130, 0};

// The colour of the index-th series (the palette repeats), on a dark or a light background.
inline Rgb series_rgb(std::size_t index, bool light_background = false) {
  const std::size_t i = index % (sizeof kSeriesPalette / sizeof kSeriesPalette[0]);
  return light_background && i == 4 ? kDarkYellow : kSeriesPalette[i];
}

}  // namespace attnlab
