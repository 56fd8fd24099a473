#include "ui/wrapped_text.hpp"

#include <algorithm>
#include <vector>

#include "lab/text.hpp"

namespace attnlab::ui {

double text_width(const std::string& text) { return static_cast<double>(ImGui::CalcTextSize(text.c_str()).x); }

std::string wrap_at_spaces(const std::string& text, float width) {
  std::string lines;
  for (const auto& line : wrap_lines(text, std::max(1.0f, width), text_width)) lines += (lines.empty() ? "" : "\n") + line;
  return lines;
}

void text_unformatted(const std::string& text, ImU32 colour) {
  if (colour) ImGui::PushStyleColor(ImGuiCol_Text, colour);
  ImGui::TextUnformatted(text.c_str());  // one item: the lines sit as close as ImGui's own wrapping
  if (colour) ImGui::PopStyleColor();
}

void text_wrapped_at_spaces(const std::string& text, ImU32 colour) {
  text_unformatted(wrap_at_spaces(text, ImGui::GetContentRegionAvail().x), colour);
}

void wrapped_tooltip(const std::string& text) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float screen = ImGui::GetIO().DisplaySize.x - 2.0f * (style.WindowPadding.x + style.DisplaySafeAreaPadding.x);
  const float width = std::max(ImGui::GetFontSize() * 8.0f, std::min(ImGui::GetFontSize() * 28.0f, screen));
  ImGui::BeginTooltip();
  text_unformatted(wrap_at_spaces(text, width));
  ImGui::EndTooltip();
}

}  // namespace attnlab::ui
