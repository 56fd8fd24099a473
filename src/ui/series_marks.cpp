#include "ui/series_marks.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace attnlab::ui {

float dashed_line(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 c, float thick, Dash dash, float phase) {
  if (dash.solid()) {
    dl->AddLine(a, b, c, thick);
    return 0.0f;
  }
  const float on = static_cast<float>(dash.on), period = on + static_cast<float>(dash.off);
  const float dx = b.x - a.x, dy = b.y - a.y, length = std::sqrt(dx * dx + dy * dy);
  float t = 0.0f;
  while (t < length) {
    const float in_period = std::fmod(phase + t, period);
    const float step = in_period < on ? on - in_period : period - in_period;
    const float end = std::min(length, t + step);
    if (in_period < on)
      dl->AddLine(ImVec2(a.x + dx * t / length, a.y + dy * t / length),
                  ImVec2(a.x + dx * end / length, a.y + dy * end / length), c, thick);
    t = end;
  }
  return std::fmod(phase + length, period);
}

void draw_marker(ImDrawList* dl, Marker m, ImVec2 p, float radius, ImU32 c) {
  const auto polygon = marker_polygon(m, radius);
  if (polygon.empty()) {
    dl->AddCircleFilled(p, radius, c);
    return;
  }
  std::vector<ImVec2> points;
  for (const auto& [dx, dy] : polygon) points.emplace_back(p.x + static_cast<float>(dx), p.y + static_cast<float>(dy));
  dl->AddConvexPolyFilled(points.data(), static_cast<int>(points.size()), c);
}

}  // namespace attnlab::ui
