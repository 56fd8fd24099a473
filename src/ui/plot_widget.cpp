#include "ui/plot_widget.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "imgui.h"
#include "lab/palette.hpp"
#include "lab/plot_hover.hpp"
#include "lab/plot_looks.hpp"
#include "lab/plot_ticks.hpp"
#include "lab/text.hpp"
#include "ui/series_marks.hpp"
#include "ui/theme.hpp"
#include "ui/wrapped_text.hpp"

namespace attnlab::ui {

namespace {
// The plot's area on screen and its axes: data coordinates to pixels.
struct ScreenMapping {
  PlotAxes axes;
  float left, right, top, bottom;
  float px(double x) const { return left + static_cast<float>(axes.x.map(x)) * (right - left); }
  float py(double y) const { return bottom - static_cast<float>(axes.y.map(y)) * (bottom - top); }
};

// Grid, ticks and their labels (none on an empty frame: no scale is known before the data), the
// frame and (not on an empty frame) the x label.
void draw_axes(ImDrawList* dl, const Plot& plot, const ScreenMapping& m, float font, bool ticks) {
  const Theme& th = theme();
  const Axis &ax = m.axes.x, &ay = m.axes.y;
  const auto [x_ticks, y_ticks] = frame_ticks(ax, ay, m.right - m.left, m.bottom - m.top, font);
  if (ticks) {  // a log axis's decades between its labels: short marks at the frame
    for (double t : unlabelled_decades(ay, y_ticks)) dl->AddLine(ImVec2(m.left, m.py(t)), ImVec2(m.left + font * 0.4f, m.py(t)), th.axis);
    for (double t : unlabelled_decades(ax, x_ticks)) dl->AddLine(ImVec2(m.px(t), m.bottom), ImVec2(m.px(t), m.bottom - font * 0.4f), th.axis);
  }
  for (double t : y_ticks) {
    if (!ticks || t < ay.lo || t > ay.hi) continue;
    const float y = m.py(t);
    dl->AddLine(ImVec2(m.left, y), ImVec2(m.right, y), th.grid);
    const std::string s = tick_label(t);
    const ImVec2 ts = ImGui::CalcTextSize(s.c_str());
    dl->AddText(ImVec2(m.left - ts.x - font * 0.4f, y - ts.y * 0.5f), th.text_dim, s.c_str());
  }
  for (double t : x_ticks) {
    if (!ticks || t < ax.lo || t > ax.hi) continue;
    const float x = m.px(t);
    dl->AddLine(ImVec2(x, m.top), ImVec2(x, m.bottom), th.grid);
    const std::string s = tick_label(t);
    const ImVec2 ts = ImGui::CalcTextSize(s.c_str());
    const float edge = m.right + font * static_cast<float>(kTickLabelOverhang);
    const float label_left = x_tick_label_ends_at_edge(x, ts.x, edge) ? edge - ts.x : x - ts.x * 0.5f;
    dl->AddText(ImVec2(label_left, m.bottom + font * 0.3f), th.text_dim, s.c_str());
  }
  dl->AddRect(ImVec2(m.left, m.top), ImVec2(m.right, m.bottom), th.axis);
  if (!ticks) return;  // an empty frame (drawn at Run): no axis name floating under it
  const ImVec2 xl = ImGui::CalcTextSize(plot.x_label.c_str());
  dl->AddText(ImVec2((m.left + m.right - xl.x) * 0.5f, m.bottom + font * 1.4f), th.text, plot.x_label.c_str());
}

// The colour series k is drawn in: the reference grey, its palette colour, or that colour faint
// when another series is highlighted.
ImU32 drawn_colour(const SeriesDrawing& d) {
  const ImU32 c = d.reference ? theme().reference : series_colour(d.colour_slot);
  return d.dimmed ? (c & 0x00FFFFFF) | 0x60000000 : c;
}

// Series k: error bars, then bars or lines and markers (lab/plot_looks.hpp). Gaps at non-finite points.
void draw_series(ImDrawList* dl, const Series& s, const SeriesDrawing& d, const ScreenMapping& m) {
  const Axis &ax = m.axes.x, &ay = m.axes.y;
  const ImU32 c = drawn_colour(d);
  if (!s.y_low.empty()) {
    for (std::size_t i = 0; i < s.x.size(); ++i) {
      if (!ax.usable(s.x[i]) || !ay.usable(s.y_low[i]) || !ay.usable(s.y_high[i])) continue;
      const float x = m.px(s.x[i]) + static_cast<float>(d.dodge);
      dl->AddLine(ImVec2(x, m.py(s.y_low[i])), ImVec2(x, m.py(s.y_high[i])), (c & 0x00FFFFFF) | 0x90000000, 1.0f);
    }
  }
  if (s.style == SeriesStyle::Bars) {
    // One bar per point from 0 (or the axis floor) up to y; at least a pixel wide.
    const double base = ay.usable(0.0) ? std::max(0.0, ay.lo) : ay.lo;
    const float half = static_cast<float>(bar_half_width(m.right - m.left, s.x.size()));
    for (std::size_t i = 0; i < s.x.size(); ++i) {
      if (!ax.usable(s.x[i]) || !ay.usable(s.y[i])) continue;
      const float x = m.px(s.x[i]), y0 = m.py(base), y1 = m.py(s.y[i]);
      dl->AddRectFilled(ImVec2(x - half, std::min(y0, y1)), ImVec2(x + half, std::max(y0, y1)), c);
    }
    return;
  }
  if (s.flags & SeriesFlags_Level) {
    if (!s.y.empty() && ay.usable(s.y[0]))
      dashed_line(dl, ImVec2(m.left, m.py(s.y[0])), ImVec2(m.right, m.py(s.y[0])), c, static_cast<float>(d.width),
                  d.look.dash, 0.0f);
    return;
  }
  bool have_prev = false;
  ImVec2 prev;
  float phase = 0.0f;  // where in the dash pattern the curve is
  const double radius = kMarkRadius * (d.line ? 1.0 : 1.4);
  for (std::size_t i = 0; i < s.x.size(); ++i) {
    if (!ax.usable(s.x[i]) || !ay.usable(s.y[i])) {
      have_prev = false;
      continue;
    }
    const ImVec2 p(m.px(s.x[i]) + static_cast<float>(d.dodge), m.py(s.y[i]));
    if (have_prev && d.line) phase = dashed_line(dl, prev, p, c, static_cast<float>(d.width), d.look.dash, phase);
    if (d.markers) draw_marker(dl, d.look.marker, p, static_cast<float>(radius * d.mark_scale_at(i)), c);
    prev = p;
    have_prev = true;
  }
}

// The band under the plot's rounding level, labelled (lab/plot_looks.hpp rounding_band_box).
void draw_rounding_band(ImDrawList* dl, const Plot& plot, const ScreenMapping& m, float font) {
  const auto band = rounding_band_box(plot, m.axes.y, m.left, m.top, m.bottom, font);
  if (!band) return;
  dl->AddRectFilled(ImVec2(m.left, static_cast<float>(band->top)), ImVec2(m.right, static_cast<float>(band->bottom)),
                    (theme().reference & 0x00FFFFFF) | 0x30000000);
  dl->AddText(ImVec2(static_cast<float>(band->label_x), static_cast<float>(band->label_y)), theme().text_dim,
              band->label.c_str());
}

// Legend rows under the x label (they never hide the data).
void draw_legend(ImDrawList* dl, const Plot& plot, const std::vector<SeriesDrawing>& drawn, const PlotFrame& frame,
                 ImVec2 origin, float font) {
  const Theme& th = theme();
  for (std::size_t k = 0; k < plot.series.size(); ++k) {
    const Series& s = plot.series[k];
    const SeriesDrawing& d = drawn[k];
    const ImU32 c = drawn_colour(d);
    const float lx = origin.x + static_cast<float>(frame.legend_x[k]), ly = origin.y + static_cast<float>(frame.legend_y[k]);
    const float sample = font * static_cast<float>(kLegendSample);
    const ImVec2 a(lx, ly + font * 0.55f), b(lx + sample, ly + font * 0.55f);
    if (s.style == SeriesStyle::Bars) {
      dl->AddRectFilled(ImVec2(a.x + font * 0.3f, a.y - font * 0.35f), ImVec2(a.x + font * 0.9f, a.y + font * 0.35f), c);
    } else {  // the dash pattern and the marker that tell the series apart
      if (d.line) dashed_line(dl, a, b, c, 2.5f, d.look.dash, 0.0f);
      if (d.markers) draw_marker(dl, d.look.marker, ImVec2(a.x + sample * 0.5f, a.y), 3.0f, c);
    }
    const std::vector<std::string>& lines = frame.legend_lines[k];  // wrapped where it is wider than the plot
    for (std::size_t i = 0; i < lines.size(); ++i)
      dl->AddText(ImVec2(lx + font * static_cast<float>(kLegendLabel), ly + font * 1.3f * static_cast<float>(i)),
                  d.dimmed ? th.text_dim : th.text, lines[i].c_str());
  }
}

// Hover read-out (lab/plot_hover.hpp): the x of the point nearest the pointer, then each series'
// point nearest it, with exact values; a series without a value there (a run that diverged) says so.
void draw_hover(ImDrawList* dl, const Plot& plot, const ScreenMapping& m) {
  const float mx = ImGui::GetIO().MousePos.x;
  const auto readout = hover_readout(plot, m.axes, (mx - m.left) / std::max(1.0f, m.right - m.left));
  if (!readout) return;
  dl->AddLine(ImVec2(m.px(readout->x), m.top), ImVec2(m.px(readout->x), m.bottom), theme().axis);
  ImGui::BeginTooltip();
  ImGui::Text("%s = %.6g", plot.x_label.c_str(), readout->x);
  for (const HoverLine& line : readout->lines) {
    const Series& s = plot.series[line.series];
    const std::size_t i = line.point;
    const std::string where = line.own_x ? printf_text(" (at %.6g)", s.x[i]) : "";
    if (i >= s.y.size() || !std::isfinite(s.y[i]))
      ImGui::Text("%s: no value here", s.name.c_str());
    else if (i < s.y_low.size() && i < s.y_high.size())
      ImGui::Text("%s: %s%s", s.name.c_str(), value_with_range(s.y[i], s.y_low[i], s.y_high[i]).c_str(), where.c_str());
    else
      ImGui::Text("%s: %.4g%s", s.name.c_str(), s.y[i], where.c_str());
  }
  ImGui::EndTooltip();
}

}  // namespace

void draw_plot(const char* id, const Plot& plot, float height, const PlotOptions& options) {
  ImGui::PushID(id);
  const Theme& th = theme();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = std::max(200.0f, ImGui::GetContentRegionAvail().x);
  const float font = ImGui::GetFontSize();
  const std::vector<SeriesDrawing> drawn = series_drawings(plot);  // once per plot and frame
  PlotFrame frame = plot_frame(plot, drawn, width, height, font, text_width);
  if (options.min_data_lines > 0.0f) {  // taller when the heading and legend rows leave too little
    const float chrome = height - static_cast<float>(frame.bottom - frame.top);
    const float needed = chrome + font * options.min_data_lines;
    if (needed > height) height = needed, frame = plot_frame(plot, drawn, width, height, font, text_width);
  }
  // A place, not a button: a finger dragged over a plot scrolls the results as over their background
  // (src/web/main.cpp scroll_by_touch; walk 9), and the arrow keys pass it by.
  ImGui::Dummy(ImVec2(width, height));
  const bool hovered = ImGui::IsItemHovered();
  const ScreenMapping m{fit_plot_axes(plot), origin.x + static_cast<float>(frame.left),
                        origin.x + static_cast<float>(frame.right), origin.y + static_cast<float>(frame.top),
                        origin.y + static_cast<float>(frame.bottom)};

  dl->AddRectFilled(origin, ImVec2(origin.x + width, origin.y + height), th.plot_background);
  // The heading, wrapped onto more lines when it is wider than the plot (never cut).
  for (std::size_t i = 0; i < frame.heading.size(); ++i)
    dl->AddText(ImVec2(m.left, origin.y + font * (0.2f + 1.3f * static_cast<float>(i))), th.text, frame.heading[i].c_str());
  const bool pending = !options.pending.empty();
  draw_axes(dl, plot, m, font, !pending);
  if (pending) {  // an empty frame: the note in its middle, wrapped to its width
    const std::string note = wrap_at_spaces(options.pending, m.right - m.left - font);
    const ImVec2 size = ImGui::CalcTextSize(note.c_str());
    dl->AddText(ImVec2((m.left + m.right - size.x) * 0.5f, (m.top + m.bottom - size.y) * 0.5f), th.text, note.c_str());
  }
  dl->PushClipRect(ImVec2(m.left, m.top), ImVec2(m.right, m.bottom), true);
  draw_rounding_band(dl, plot, m, font);
  for (std::size_t k : drawing_order(plot, drawn)) draw_series(dl, plot.series[k], drawn[k], m);
  dl->PopClipRect();
  draw_legend(dl, plot, drawn, frame, origin, font);
  if (hovered && !pending) draw_hover(dl, plot, m);
  ImGui::PopID();
}

}  // namespace attnlab::ui
