#include "ui/text_contrast.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

#include <nlohmann/json.hpp>

#include "ui/theme.hpp"

namespace attnlab::ui {

namespace {

struct Rgba {
  float r = 0, g = 0, b = 0, a = 1;
};
Rgba rgba(ImU32 c) {
  const ImVec4 v = ImGui::ColorConvertU32ToFloat4(c);
  return {v.x, v.y, v.z, v.w};
}
ImU32 opaque(const Rgba& c) { return ImGui::ColorConvertFloat4ToU32(ImVec4(c.r, c.g, c.b, 1.0f)); }
Rgba over(const Rgba& top, const Rgba& under) {
  return {top.r * top.a + under.r * (1 - top.a), top.g * top.a + under.g * (1 - top.a), top.b * top.a + under.b * (1 - top.a), 1};
}
// WCAG 2 relative luminance and contrast ratio.
double luminance(const Rgba& c) {
  const auto f = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
  return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b);
}
double contrast(const Rgba& a, const Rgba& b) {
  const double x = luminance(a), y = luminance(b);
  return (std::max(x, y) + 0.05) / (std::min(x, y) + 0.05);
}

enum class Fill { Solid, Image, LineTexture };
// A filled triangle drawn before some text: what lies behind it.
struct Shape {
  ImVec2 p[3];
  Rgba c[3];
  ImVec4 clip;
  ImVec2 lo, hi;
  Fill fill;
};
struct Glyph {
  ImVec2 lo, hi;
  ImU32 colour;
  unsigned codepoint;
  float pen_y;
  std::size_t shapes_before;
};

bool inside(const ImVec4& clip, ImVec2 q) { return q.x >= clip.x && q.x < clip.z && q.y >= clip.y && q.y < clip.w; }

// The shape's colour at `q` (barycentric blend of its vertices' colours), or false when outside.
bool colour_at(const Shape& s, ImVec2 q, Rgba& out) {
  if (q.x < s.lo.x || q.x > s.hi.x || q.y < s.lo.y || q.y > s.hi.y || !inside(s.clip, q)) return false;
  const float d = (s.p[1].y - s.p[2].y) * (s.p[0].x - s.p[2].x) + (s.p[2].x - s.p[1].x) * (s.p[0].y - s.p[2].y);
  if (std::fabs(d) < 1e-6f) return false;
  const float w0 = ((s.p[1].y - s.p[2].y) * (q.x - s.p[2].x) + (s.p[2].x - s.p[1].x) * (q.y - s.p[2].y)) / d;
  const float w1 = ((s.p[2].y - s.p[0].y) * (q.x - s.p[2].x) + (s.p[0].x - s.p[2].x) * (q.y - s.p[2].y)) / d;
  const float w2 = 1 - w0 - w1;
  if (w0 < 0 || w1 < 0 || w2 < 0) return false;
  const auto mix = [&](float Rgba::*m) { return w0 * s.c[0].*m + w1 * s.c[1].*m + w2 * s.c[2].*m; };
  out = {mix(&Rgba::r), mix(&Rgba::g), mix(&Rgba::b), mix(&Rgba::a)};
  return true;
}

// The composited colour behind `q` from the first `count` shapes over `clear`; `image` set when an
// image covers it.
Rgba behind(const std::vector<Shape>& shapes, std::size_t count, ImVec2 q, const Rgba& clear, bool& image) {
  Rgba bg = clear;
  for (std::size_t k = 0; k < count; ++k) {
    Rgba c;
    if (shapes[k].fill == Fill::LineTexture || !colour_at(shapes[k], q, c)) continue;
    if (shapes[k].fill == Fill::Image) image = true;
    else bg = over(c, bg), image = image && c.a < 0.999f;  // an opaque shape hides the image
  }
  return bg;
}

const ImFontGlyph* glyph_of(const ImFont& font, ImVec2 uv) {
  for (const ImFontGlyph& g : font.Glyphs)
    if (g.Visible && uv.x >= g.U0 && uv.x <= g.U1 && uv.y >= g.V0 && uv.y <= g.V1) return &g;
  return nullptr;
}

// Walks the draw lists in order: filled triangles become shapes, glyph quads become glyphs.
void collect(const ImDrawData& draw, const ImFont& font, float scale, std::vector<Shape>& shapes, std::vector<Glyph>& glyphs) {
  const ImFontAtlas& atlas = *font.ContainerAtlas;
  const ImVec2 white = atlas.TexUvWhitePixel;
  for (int l = 0; l < draw.CmdListsCount; ++l) {
    const ImDrawList& list = *draw.CmdLists[l];
    for (const ImDrawCmd& cmd : list.CmdBuffer) {
      if (cmd.UserCallback) continue;
      const bool font_texture = cmd.TextureId == atlas.TexID;
      for (unsigned i = 0; i + 2 < cmd.ElemCount; i += 3) {
        const ImDrawVert* v[3];
        for (int k = 0; k < 3; ++k) v[k] = &list.VtxBuffer[cmd.VtxOffset + list.IdxBuffer[cmd.IdxOffset + i + k]];
        const ImVec2 uv((v[0]->uv.x + v[1]->uv.x + v[2]->uv.x) / 3, (v[0]->uv.y + v[1]->uv.y + v[2]->uv.y) / 3);
        const bool solid = font_texture && std::fabs(uv.x - white.x) < 1e-6f && std::fabs(uv.y - white.y) < 1e-6f;
        const ImFontGlyph* g = font_texture && !solid ? glyph_of(font, uv) : nullptr;
        ImVec2 lo(std::min({v[0]->pos.x, v[1]->pos.x, v[2]->pos.x}), std::min({v[0]->pos.y, v[1]->pos.y, v[2]->pos.y}));
        ImVec2 hi(std::max({v[0]->pos.x, v[1]->pos.x, v[2]->pos.x}), std::max({v[0]->pos.y, v[1]->pos.y, v[2]->pos.y}));
        if (!g) {
          shapes.push_back({{v[0]->pos, v[1]->pos, v[2]->pos}, {rgba(v[0]->col), rgba(v[1]->col), rgba(v[2]->col)}, cmd.ClipRect, lo, hi,
                            solid ? Fill::Solid : font_texture ? Fill::LineTexture : Fill::Image});
          continue;
        }
        // A glyph's quad is two triangles (a, b, c), (a, c, d): the first spans the quad; skip the second.
        const auto idx = [&](unsigned k) { return list.IdxBuffer[cmd.IdxOffset + k]; };
        if (i + 5 < cmd.ElemCount && idx(i + 3) == idx(i) && idx(i + 4) == idx(i + 2)) i += 3;
        // The line's pen from the glyph's top, or from its foot when the clip cut its top.
        const float pen_y = lo.y <= cmd.ClipRect.y + 0.01f ? hi.y - g->Y1 * scale : lo.y - g->Y0 * scale;
        lo = ImVec2(std::max(lo.x, cmd.ClipRect.x), std::max(lo.y, cmd.ClipRect.y));
        hi = ImVec2(std::min(hi.x, cmd.ClipRect.z), std::min(hi.y, cmd.ClipRect.w));
        if (lo.x >= hi.x || lo.y >= hi.y) continue;
        glyphs.push_back({lo, hi, v[0]->col, g->Codepoint, pen_y, shapes.size()});
      }
    }
  }
}

void append_utf8(std::string& s, unsigned c) {
  if (c < 0x80) {
    s += static_cast<char>(c);
  } else if (c < 0x800) {
    s += static_cast<char>(0xC0 | (c >> 6)), s += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    s += static_cast<char>(0xE0 | (c >> 12)), s += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    s += static_cast<char>(0x80 | (c & 0x3F));
  }
}

std::string hex(ImU32 c, bool alpha) {
  const Rgba v = rgba(c);
  char buf[10];
  const auto b = [](float x) { return static_cast<int>(std::lround(x * 255)); };
  if (alpha) std::snprintf(buf, sizeof buf, "#%02x%02x%02x%02x", b(v.r), b(v.g), b(v.b), b(v.a));
  else std::snprintf(buf, sizeof buf, "#%02x%02x%02x", b(v.r), b(v.g), b(v.b));
  return buf;
}

// The theme's names for a text colour (several roles may share one); failing an exact match, alpha
// aside (a disabled control dims its text's alpha).
std::string roles_of(ImU32 colour) {
  const Theme& t = theme();
  const std::pair<const char*, ImU32> roles[] = {
      {"text", ImGui::GetColorU32(ImGuiCol_Text)}, {"hint (disabled text)", ImGui::GetColorU32(ImGuiCol_TextDisabled)},
      {"plot label, legend", t.text},              {"tick label", t.text_dim},
      {"heading, link", t.heading},                {"OK note", t.ok},
      {"warning", t.warning},                      {"error", t.error}};
  std::string names;
  for (const auto& [name, c] : roles)
    if (c == colour) names += (names.empty() ? "" : "; ") + std::string(name);
  if (!names.empty()) return names;
  for (const auto& [name, c] : roles)
    if (((c ^ colour) & ~IM_COL32_A_MASK) == 0) names += (names.empty() ? "" : "; ") + std::string(name);
  return names.empty() ? names : names + " (dimmed)";
}

}  // namespace

std::vector<TextRun> text_runs(const ImDrawData& draw, ImU32 clear) {
  std::vector<TextRun> runs;
  const ImFont* font = ImGui::GetIO().Fonts->Fonts.empty() ? nullptr : ImGui::GetIO().Fonts->Fonts[0];
  if (!font || !draw.Valid) return runs;
  const float font_px = font->FontSize * ImGui::GetIO().FontGlobalScale;
  const float scale = font_px / font->FontSize;
  std::vector<Shape> shapes;
  std::vector<Glyph> glyphs;
  collect(draw, *font, scale, shapes, glyphs);
  const Rgba ground = rgba(clear);
  double least = 0;  // the current run's least contrast
  const Glyph* last = nullptr;
  for (const Glyph& g : glyphs) {
    bool image = false;
    const ImVec2 centre((g.lo.x + g.hi.x) / 2, (g.lo.y + g.hi.y) / 2);
    const Rgba bg = behind(shapes, g.shapes_before, centre, ground, image);
    const Rgba shown = over(rgba(g.colour), bg);
    const double r = contrast(shown, bg);
    const bool same_run = last && last->colour == g.colour && std::fabs(last->pen_y - g.pen_y) < 0.5f &&
                          g.lo.x >= last->lo.x && g.lo.x - last->hi.x < font_px;
    if (!same_run) {
      runs.push_back({"", g.lo, g.hi, g.colour, opaque(shown), opaque(bg), image, font_px});
      least = r;
    } else {
      TextRun& run = runs.back();
      if (g.lo.x - last->hi.x > font_px * 0.2f) run.text += ' ';
      run.lo = ImVec2(std::min(run.lo.x, g.lo.x), std::min(run.lo.y, g.lo.y));
      run.hi = ImVec2(std::max(run.hi.x, g.hi.x), std::max(run.hi.y, g.hi.y));
      run.over_image = run.over_image || image;
      if (r < least) least = r, run.shown = opaque(shown), run.background = opaque(bg);
    }
    append_utf8(runs.back().text, g.codepoint);
    last = &g;
  }
  return runs;
}

std::string text_runs_json(const std::vector<TextRun>& runs) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const TextRun& r : runs)
    list.push_back({{"text", r.text}, {"x", r.lo.x}, {"y", r.lo.y}, {"w", r.hi.x - r.lo.x}, {"h", r.hi.y - r.lo.y},
                    {"colour", hex(r.colour, true)}, {"shown", hex(r.shown, false)}, {"background", hex(r.background, false)},
                    {"overImage", r.over_image}, {"roles", roles_of(r.colour)}, {"fontPx", r.font_px}});
  return list.dump();
}

}  // namespace attnlab::ui
