// The heatmap widget (ui/heatmap_widget.hpp).
// Index of this file
// [SECTION] The colour-map program and the textures
// [SECTION] Around the image: paths, marks, ticks, the paths' key, the read-out
// [SECTION] The widget
#include "ui/heatmap_widget.hpp"

#include <GLES3/gl3.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "lab/palette.hpp"
#include "lab/plot_map_frame.hpp"
#include "lab/plot_ticks.hpp"
#include "ui/embedded_assets.hpp"
#include "ui/series_marks.hpp"
#include "ui/theme.hpp"
#include "ui/wrapped_text.hpp"

namespace attnlab::ui {

namespace {

// [SECTION] The colour-map program and the textures

// The one program shared by every heatmap (built from the files embedded at /shaders).
struct Program {
  GLuint id = 0;
  GLint projection = -1, texture = -1, gamma = -1;
};
Program g_program;

GLuint compile(GLenum kind, const std::string& source, std::string& error) {
  const GLuint shader = glCreateShader(kind);
  const char* text = source.c_str();
  glShaderSource(shader, 1, &text, nullptr);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[512] = {0};
    glGetShaderInfoLog(shader, sizeof log, nullptr, log);
    error = std::string("heatmap shader does not compile: ") + log;
  }
  return shader;
}

// Draw-list callback: switch to the colour-map program for the next image quad, with the same
// orthographic projection Dear ImGui's backend uses (imgui_impl_opengl3.cpp, SetupRenderState).
void use_colour_map(const ImDrawList*, const ImDrawCmd* cmd) {
  const ImDrawData* dd = ImGui::GetDrawData();
  const float l = dd->DisplayPos.x, r = l + dd->DisplaySize.x, t = dd->DisplayPos.y, b = t + dd->DisplaySize.y;
  const float ortho[16] = {2.0f / (r - l), 0, 0, 0, 0, 2.0f / (t - b), 0, 0, 0, 0, -1.0f, 0,
                           (r + l) / (l - r), (t + b) / (b - t), 0, 1.0f};
  glUseProgram(g_program.id);
  glUniformMatrix4fv(g_program.projection, 1, GL_FALSE, ortho);
  glUniform1i(g_program.texture, 0);
  glUniform1f(g_program.gamma, *static_cast<const float*>(cmd->UserCallbackData));
}

void upload(GLuint texture, int cols, int rows, const std::vector<float>& values) {
  glBindTexture(GL_TEXTURE_2D, texture);
  // R32F is not filterable in WebGL2: nearest neighbour, which is also what a matrix wants.
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, cols, rows, 0, GL_RED, GL_FLOAT, values.data());
}

}  // namespace

bool HeatmapWidget::ensure_program() {
  if (g_program.id != 0) return true;
  if (!program_error_.empty()) return false;
  const GLuint vs = compile(GL_VERTEX_SHADER, kHeatmapVertexShader, program_error_);
  const GLuint fs = compile(GL_FRAGMENT_SHADER, kHeatmapFragmentShader, program_error_);
  const GLuint program = glCreateProgram();
  glAttachShader(program, vs);
  glAttachShader(program, fs);
  glLinkProgram(program);
  glDeleteShader(vs);
  glDeleteShader(fs);
  GLint ok = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (!ok || !program_error_.empty()) {
    if (program_error_.empty()) program_error_ = "heatmap shader program does not link";
    glDeleteProgram(program);
    return false;
  }
  g_program = {program, glGetUniformLocation(program, "ProjMtx"), glGetUniformLocation(program, "Texture"),
               glGetUniformLocation(program, "Gamma")};
  return true;
}

void HeatmapWidget::forget_gl_objects() {
  // After a context loss the old names are invalid; nothing to delete.
  g_program = Program{};
  program_error_.clear();
  for (Slot& s : slots_) s = Slot{};
  ramp_ = Slot{};
  ramp_sqrt_ = Slot{};
}

HeatmapWidget::Slot& HeatmapWidget::slot(int index) {
  if (static_cast<int>(slots_.size()) <= index) slots_.resize(static_cast<std::size_t>(index) + 1);
  return slots_[static_cast<std::size_t>(index)];
}

void HeatmapWidget::draw_texture(Slot& s, ImVec2 lo, ImVec2 hi) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddCallback(use_colour_map, &s.gamma);
  dl->AddImage(reinterpret_cast<ImTextureID>(static_cast<intptr_t>(s.texture)), lo, hi);
  dl->AddCallback(ImDrawCallback_ResetRenderState, nullptr);
}

namespace {

// [SECTION] Around the image: paths, marks, ticks, the paths' key, the read-out

// Where the matrix is on screen: cell coordinates (column, row) to pixels.
struct ImageArea {
  ImVec2 lo, hi;
  float width, height;
  ImVec2 at(const Heatmap& h, double col, double row) const {
    return ImVec2(lo.x + static_cast<float>(col / h.cols) * width, lo.y + static_cast<float>(row / h.rows) * height);
  }
};

// Paths (e.g. solvers' iterates) as polylines over the image, each in its series colour and marker.
void draw_paths(ImDrawList* dl, const Heatmap& h, const ImageArea& area) {
  dl->PushClipRect(area.lo, area.hi, true);
  for (std::size_t k = 0; k < h.paths.size(); ++k) {
    const Heatmap::Path& path = h.paths[k];
    const ImU32 c = series_colour(k);
    const Marker marker = series_look(k).marker;  // the marker of the same series in the plots
    for (std::size_t i = 0; i < path.rows.size(); ++i) {
      const ImVec2 p = area.at(h, path.cols[i], path.rows[i]);
      if (i > 0) dl->AddLine(area.at(h, path.cols[i - 1], path.rows[i - 1]), p, c, 2.0f);
      draw_marker(dl, marker, p, 2.5f, c);
    }
  }
  dl->PopClipRect();
}

// Marked cells get a ring (a single entry of a 200 x 200 matrix is under a pixel wide).
// A label that would overlap one placed before it moves down below it (x* and x0 a cell apart).
void draw_marks(ImDrawList* dl, const Heatmap& h, const ImageArea& area, float font) {
  struct Box {
    float x0, y0, x1, y1;
    bool overlaps(const Box& b) const { return x0 < b.x1 && b.x0 < x1 && y0 < b.y1 && b.y0 < y1; }
  };
  std::vector<Box> placed;
  for (const Heatmap::Mark& m : h.marks) {
    const ImVec2 c(area.lo.x + (static_cast<float>(m.col) + 0.5f) / static_cast<float>(h.cols) * area.width,
                   area.lo.y + (static_cast<float>(m.row) + 0.5f) / static_cast<float>(h.rows) * area.height);
    dl->AddCircle(c, font * 0.6f, IM_COL32(255, 255, 255, 220), 0, 1.5f);
    // The label on a plate of the plot's ground: white on the heatmap's yellow was 1.2:1.
    const ImVec2 size = ImGui::CalcTextSize(m.label.c_str());
    Box plate{c.x + font * 0.7f - 2.0f, c.y - font * 0.5f, c.x + font * 0.7f + size.x + 2.0f, c.y - font * 0.5f + size.y};
    // A ring near the image's right edge has its label on its left (walk 18: "support token" ran under
    // the colour bar).
    if (plate.x1 > area.hi.x) plate.x1 = c.x - font * 0.7f + 2.0f, plate.x0 = plate.x1 - size.x - 4.0f;
    for (bool moved = true; moved;) {
      moved = false;
      for (const Box& r : placed)
        if (r.overlaps(plate)) plate.y1 += r.y1 + 1.0f - plate.y0, plate.y0 = r.y1 + 1.0f, moved = true;
    }
    placed.push_back(plate);
    dl->AddRectFilled(ImVec2(plate.x0, plate.y0), ImVec2(plate.x1, plate.y1), theme().plot_background, 2.0f);
    dl->AddText(ImVec2(plate.x0 + 2.0f, plate.y0), theme().text, m.label.c_str());
  }
}

// The colour bar's frame, ticks and labels at nice values of the scale (the exports' ticks).
void draw_bar_ticks(ImDrawList* dl, const Heatmap& h, const std::vector<double>& ticks, ImVec2 bar_lo, ImVec2 bar_hi,
                    float font) {
  const Theme& th = theme();
  dl->AddRect(bar_lo, bar_hi, th.axis);
  for (double t : ticks) {
    const float y = h.high > h.low ? bar_lo.y + static_cast<float>((h.high - t) / (h.high - h.low)) * (bar_hi.y - bar_lo.y)
                                   : bar_hi.y;
    // A short tick, then a clear gap: a tick that touches its label reads as a minus sign (walk 6).
    dl->AddLine(ImVec2(bar_hi.x, y), ImVec2(bar_hi.x + font * 0.2f, y), th.axis);
    const std::string label = tick_label(t);
    dl->AddText(ImVec2(bar_hi.x + font * 0.6f, std::clamp(y - font * 0.5f, bar_lo.y - font * 0.5f, bar_hi.y - font * 0.5f)),
                th.text_dim, label.c_str());
  }
}

// Tick labels at the image's left (rows) and under it (columns), with a short tick on the frame.
void draw_axis_ticks(ImDrawList* dl, const MapFrame& f, const ImageArea& area, float font) {
  for (int axis = 0; axis < 2; ++axis)
    for (const MapTick& t : axis == 0 ? f.y_ticks : f.x_ticks) {
      const ImVec2 ts = ImGui::CalcTextSize(t.label.c_str());
      const ImVec2 at = axis == 0 ? ImVec2(area.lo.x, area.lo.y + static_cast<float>(t.at) * area.height)
                                  : ImVec2(area.lo.x + static_cast<float>(t.at) * area.width, area.hi.y);
      const ImVec2 out = axis == 0 ? ImVec2(at.x - font * 0.25f, at.y) : ImVec2(at.x, at.y + font * 0.25f);
      dl->AddLine(at, out, theme().axis);
      dl->AddText(axis == 0 ? ImVec2(at.x - ts.x - font * 0.35f, at.y - ts.y * 0.5f) : ImVec2(at.x - ts.x * 0.5f, at.y + font * 0.2f),
                  theme().text_dim, t.label.c_str());
    }
}

// The paths' key, as a plot's legend (and the SVG export's): each path's colour, dash and marker
// (those of the same series in the plots beside it) and its label, flowed into rows.
void draw_paths_key(ImDrawList* dl, const Heatmap& h, float width, float font) {
  std::vector<Series> entries;
  for (const Heatmap::Path& path : h.paths)
    if (!path.label.empty()) entries.push_back({path.label, SeriesStyle::LineMarkers, {}, {}, {}, {}});
  if (entries.size() != h.paths.size() || entries.empty()) return;
  const LegendLayout legend = legend_layout(entries, width, font, text_width);
  const ImVec2 top = ImGui::GetCursorScreenPos();
  ImGui::Dummy(ImVec2(width, font * 1.3f * static_cast<float>(legend.rows)));
  for (std::size_t k = 0; k < entries.size(); ++k) {
    const SeriesLook look = series_look(k);
    const ImU32 c = series_colour(k);
    const float lx = top.x + static_cast<float>(legend.x[k]), ly = top.y + static_cast<float>(legend.y[k]);
    const float sample = font * static_cast<float>(kLegendSample);
    const ImVec2 a(lx, ly + font * 0.55f), b(lx + sample, ly + font * 0.55f);
    dashed_line(dl, a, b, c, 2.5f, look.dash, 0.0f);
    draw_marker(dl, look.marker, ImVec2(a.x + sample * 0.5f, a.y), 3.0f, c);
    for (std::size_t i = 0; i < legend.lines[k].size(); ++i)  // wrapped where wider than the key
      dl->AddText(ImVec2(lx + font * static_cast<float>(kLegendLabel), ly + font * 1.3f * static_cast<float>(i)),
                  theme().text, legend.lines[k][i].c_str());
  }
}

// The value of the cell under the mouse.
void hover_tooltip(const Heatmap& h, const ImageArea& area) {
  if (h.rows <= 0 || h.cols <= 0) return;
  const ImVec2 m = ImGui::GetIO().MousePos;
  const int col = std::clamp(static_cast<int>((m.x - area.lo.x) / area.width * static_cast<float>(h.cols)), 0, h.cols - 1);
  const int row = std::clamp(static_cast<int>((m.y - area.lo.y) / area.height * static_cast<float>(h.rows)), 0, h.rows - 1);
  if (m.x < area.lo.x || m.x > area.hi.x || m.y > area.hi.y) return;
  ImGui::BeginTooltip();
  // The ring or path point under the pointer first (walk 13), then the cell's value.
  const double cell_w = area.width / static_cast<float>(h.cols), cell_h = area.height / static_cast<float>(h.rows);
  const std::string point = map_point_name(h, (m.y - area.lo.y) / cell_h, (m.x - area.lo.x) / cell_w, cell_w, cell_h,
                                           0.6 * ImGui::GetFontSize());
  if (!point.empty()) ImGui::Text("%s; the cell under it:", point.c_str());
  const double v = h.values[static_cast<std::size_t>(row) * h.cols + col];
  ImGui::Text("%s: %s%.4g", cell_place(h, row, col).c_str(), h.value_label.empty() ? "" : (h.value_label + " = ").c_str(), v);
  if (!h.note.empty()) ImGui::TextDisabled("%s", h.note.c_str());
  ImGui::EndTooltip();
}

}  // namespace

// [SECTION] The widget

HeatmapWidget::Slot& HeatmapWidget::ramp(bool sqrt_scale) {
  Slot& ramp = sqrt_scale ? ramp_sqrt_ : ramp_;
  if (ramp.texture == 0) {
    glGenTextures(1, &ramp.texture);
    std::vector<float> values(64);
    for (int k = 0; k < 64; ++k) values[static_cast<std::size_t>(k)] = 1.0f - static_cast<float>(k) / 63.0f;
    upload(ramp.texture, 1, 64, values);
    ramp.uploaded = true;
  }
  return ramp;
}

void HeatmapWidget::draw(int index, const Heatmap& h, unsigned version, ImVec2 size, bool sqrt_scale) {
  ImGui::PushID(index);
  const float font = ImGui::GetFontSize();
  // The title and the caption wrapped to the width drawn in, the ticks at values of the grid
  // (lab/plot_map_frame.hpp); y tick labels at the image's left, x tick labels under it.
  const MapFrame words = map_frame(h, size.x, size.x, size.y, font, text_width);
  for (const std::string& line : words.title) ImGui::TextUnformatted(line.c_str());
  if (!ensure_program()) {
    ImGui::TextWrapped("%s", program_error_.c_str());
    ImGui::PopID();
    return;
  }
  Slot& s = slot(index);
  if (s.texture == 0) glGenTextures(1, &s.texture);
  const float span = static_cast<float>(h.high - h.low);
  if (!s.uploaded || s.version != version) {
    std::vector<float> scaled(h.values.size());
    for (std::size_t k = 0; k < h.values.size(); ++k)
      scaled[k] = std::isfinite(h.values[k]) ? static_cast<float>((h.values[k] - h.low) / span) : 0.0f;
    upload(s.texture, h.cols, h.rows, scaled);
    s.uploaded = true;
    s.version = version;
  }
  s.gamma = sqrt_scale ? 0.5f : 1.0f;

  // Layout: the image, a colour bar at its right with ticks at nice values of the scale (the
  // exports' ticks), the x label under it.
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const std::vector<double> ticks = colour_bar_ticks(h.low, h.high);
  float labels_w = font * 1.5f;
  for (double t : ticks) labels_w = std::max(labels_w, ImGui::CalcTextSize(tick_label(t).c_str()).x + font * 0.85f);
  const float bar_w = font * 0.8f;
  float y_labels_w = 0.0f;
  for (const MapTick& t : words.y_ticks) y_labels_w = std::max(y_labels_w, ImGui::CalcTextSize(t.label.c_str()).x);
  const float left = y_labels_w + font * 0.5f;
  const float image_w = std::max(font * 4.0f, size.x - left - bar_w - labels_w - font);
  const float image_h = std::max(font * 4.0f, size.y - font * 2.6f);
  const ImVec2 lo(origin.x + left, origin.y);
  const ImageArea area{lo, ImVec2(lo.x + image_w, lo.y + image_h), image_w, image_h};
  // A place, not a button (as a plot's): a finger dragged over a map scrolls the results.
  ImGui::Dummy(ImVec2(size.x, image_h + font * 1.2f));
  const bool hovered = ImGui::IsItemHovered();
  draw_texture(s, area.lo, area.hi);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRect(area.lo, area.hi, theme().axis);
  draw_paths(dl, h, area);
  draw_marks(dl, h, area, font);
  Slot& bar = ramp(sqrt_scale);
  bar.gamma = s.gamma;
  const ImVec2 bar_lo(area.hi.x + font * 0.5f, area.lo.y), bar_hi(bar_lo.x + bar_w, area.hi.y);
  draw_texture(bar, bar_lo, bar_hi);
  draw_bar_ticks(dl, h, ticks, bar_lo, bar_hi, font);
  draw_axis_ticks(dl, words, area, font);
  for (const std::string& line : words.caption) ImGui::TextDisabled("%s", line.c_str());
  draw_paths_key(dl, h, size.x, font);
  if (hovered) hover_tooltip(h, area);
  ImGui::PopID();
}

}  // namespace attnlab::ui
