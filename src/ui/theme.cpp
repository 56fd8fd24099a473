#include "ui/theme.hpp"

#include "lab/palette.hpp"

namespace attnlab::ui {

namespace {

const Theme kDark{IM_COL32(230, 230, 235, 255), IM_COL32(170, 170, 180, 255), IM_COL32(140, 140, 150, 255),
                  IM_COL32(60, 62, 70, 255),    IM_COL32(24, 25, 30, 255),    IM_COL32(240, 240, 240, 200),
                  IM_COL32(110, 200, 120, 255), IM_COL32(230, 180, 80, 255),  IM_COL32(255, 120, 110, 255),
                  IM_COL32(140, 204, 255, 255)};
const Theme kLight{IM_COL32(25, 25, 30, 255),    IM_COL32(85, 85, 95, 255),    IM_COL32(90, 90, 100, 255),
                   IM_COL32(215, 215, 222, 255), IM_COL32(255, 255, 255, 255), IM_COL32(40, 40, 40, 200),
                   IM_COL32(20, 120, 40, 255),   IM_COL32(150, 90, 0, 255),    IM_COL32(190, 30, 20, 255),
                   IM_COL32(0, 90, 170, 255)};
const Theme kContrast{IM_COL32(255, 255, 255, 255), IM_COL32(235, 235, 235, 255), IM_COL32(255, 255, 255, 255),
                      IM_COL32(110, 110, 110, 255), IM_COL32(0, 0, 0, 255),       IM_COL32(255, 255, 255, 255),
                      IM_COL32(80, 255, 120, 255),  IM_COL32(255, 230, 0, 255),   IM_COL32(255, 110, 110, 255),
                      IM_COL32(120, 220, 255, 255)};
const Theme* g_theme = &kDark;

// High contrast: black ground, white text and borders, yellow focus and activity (WCAG AAA ratios).
void style_high_contrast(ImGuiStyle& s) {
  ImGui::StyleColorsDark(&s);
  ImVec4* c = s.Colors;
  const ImVec4 black(0, 0, 0, 1), white(1, 1, 1, 1), yellow(1, 0.9f, 0, 1), grey(0.22f, 0.22f, 0.22f, 1);
  c[ImGuiCol_Text] = white;
  c[ImGuiCol_TextDisabled] = ImVec4(0.85f, 0.85f, 0.85f, 1);
  c[ImGuiCol_WindowBg] = c[ImGuiCol_ChildBg] = c[ImGuiCol_PopupBg] = black;
  c[ImGuiCol_Border] = white;
  c[ImGuiCol_FrameBg] = black;
  c[ImGuiCol_FrameBgHovered] = c[ImGuiCol_ButtonHovered] = c[ImGuiCol_HeaderHovered] = c[ImGuiCol_TabHovered] = grey;
  c[ImGuiCol_FrameBgActive] = c[ImGuiCol_ButtonActive] = c[ImGuiCol_HeaderActive] = ImVec4(0.35f, 0.35f, 0, 1);
  c[ImGuiCol_Button] = c[ImGuiCol_Header] = c[ImGuiCol_Tab] = black;
  c[ImGuiCol_TabActive] = ImVec4(0.3f, 0.3f, 0.3f, 1);
  c[ImGuiCol_CheckMark] = c[ImGuiCol_SliderGrab] = c[ImGuiCol_SliderGrabActive] = yellow;
  c[ImGuiCol_PlotHistogram] = ImVec4(0.0f, 0.3f, 0.75f, 1);  // the progress fill, under white text
  c[ImGuiCol_NavHighlight] = yellow;
  c[ImGuiCol_TextSelectedBg] = ImVec4(0.4f, 0.4f, 0, 1);
  c[ImGuiCol_Separator] = white;
  s.FrameBorderSize = 1.0f;
  s.ChildBorderSize = s.PopupBorderSize = s.WindowBorderSize = 1.0f;
}

}  // namespace

const Theme& theme() { return *g_theme; }

ImU32 note_colour(const std::string& note) {
  if (note.rfind("OK: ", 0) == 0) return theme().ok;
  if (note.rfind("FAILS: ", 0) == 0) return theme().error;
  if (note.rfind("Warning: ", 0) == 0) return theme().warning;
  if (note.rfind("Ours: ", 0) == 0) return theme().heading;
  return 0;
}

namespace {
bool g_light = false;
void light_background(bool light) { g_light = light; }
}  // namespace

ImU32 series_colour(std::size_t index) {
  const Rgb c = series_rgb(index, g_light);
  return IM_COL32(c.r, c.g, c.b, 255);
}

void apply_theme(ThemeChoice choice) {
  ImGuiStyle& s = ImGui::GetStyle();
  s.FrameBorderSize = 0.0f;
  light_background(choice == ThemeChoice::Light);
  switch (choice) {
    case ThemeChoice::Light:
      ImGui::StyleColorsLight(&s);
      s.Colors[ImGuiCol_NavHighlight] = ImVec4(0.0f, 0.35f, 0.9f, 1.0f);
      // The hints' grey (ImGui's #999 is 2.5:1 on #f0f0f0): #5c5c5c, 6:1 (WCAG AA asks 4.5:1).
      s.Colors[ImGuiCol_TextDisabled] = ImVec4(0.36f, 0.36f, 0.36f, 1.0f);
      s.FrameBorderSize = 1.0f;  // light frames need an edge to be seen
      g_theme = &kLight;
      break;
    case ThemeChoice::HighContrast:
      style_high_contrast(s);
      g_theme = &kContrast;
      break;
    case ThemeChoice::Default:
    case ThemeChoice::Dark:
      ImGui::StyleColorsDark(&s);
      s.Colors[ImGuiCol_NavHighlight] = ImVec4(1.0f, 0.85f, 0.2f, 1.0f);  // focus must be easy to see
      s.Colors[ImGuiCol_TextDisabled] = ImVec4(0.62f, 0.62f, 0.62f, 1.0f);  // #9e9e9e: 7:1 on #0f0f0f (ImGui's #808080: 4.8:1)
      // The progress bar's fill, under its white "running 40%": #2e6bbf, 5.3:1 (ImGui's #e6b300: 1.9:1).
      s.Colors[ImGuiCol_PlotHistogram] = ImVec4(0.18f, 0.42f, 0.75f, 1.0f);
      g_theme = &kDark;
      break;
  }
  s.Colors[ImGuiCol_PopupBg].w = 1.0f;  // dialogs are opaque: no text shows through
}

void apply_imgui_style(float dpi_scale) {
  apply_theme(ThemeChoice::Dark);
  ImGuiStyle& s = ImGui::GetStyle();
  s.WindowRounding = 4.0f;
  s.FrameRounding = 3.0f;
  s.GrabRounding = 3.0f;
  s.FramePadding = ImVec2(6, 4);
  s.ItemSpacing = ImVec2(8, 6);
  s.ScaleAllSizes(dpi_scale);
}

}  // namespace attnlab::ui
