#include "ui/theme.hpp"

#include "lab/palette.hpp"

namespace attnlab::ui {

const Theme& theme() {
  static const Theme t{IM_COL32(230, 230, 235, 255), IM_COL32(170, 170, 180, 255), IM_COL32(140, 140, 150, 255),
                       IM_COL32(60, 62, 70, 255),    IM_COL32(24, 25, 30, 255),    IM_COL32(240, 240, 240, 200)};
  return t;
}

ImU32 series_colour(std::size_t index) {
  const Rgb c = series_rgb(index);
  return IM_COL32(c.r, c.g, c.b, 255);
}

void apply_imgui_style(float dpi_scale) {
  ImGui::StyleColorsDark();
  ImGuiStyle& s = ImGui::GetStyle();
  s.WindowRounding = 4.0f;
  s.FrameRounding = 3.0f;
  s.GrabRounding = 3.0f;
  s.FramePadding = ImVec2(6, 4);
  s.ItemSpacing = ImVec2(8, 6);
  s.ScaleAllSizes(dpi_scale);
}

}  // namespace attnlab::ui
