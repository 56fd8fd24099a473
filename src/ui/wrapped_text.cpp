#include "ui/wrapped_text.hpp"

#include <algorithm>
#include <vector>

#include "lab/text.hpp"

namespace attnlab::ui {

std::string wrap_at_spaces(const std::string& text, float width) {
  const auto measure = [](const std::string& s) { return static_cast<double>(ImGui::CalcTextSize(s.c_str()).x); };
  std::string lines;
  for (const auto& line : wrap_lines(text, std::max(1.0f, width), measure)) lines += (lines.empty() ? "" : "\n") + line;
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

}  // namespace attnlab::ui
