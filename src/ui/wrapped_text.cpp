#include "ui/wrapped_text.hpp"

#include <algorithm>
#include <vector>

namespace attnlab::ui {

namespace {

// The lines of `text` at `width` pixels: greedy, breaking at spaces; a word wider than a line
// gets a line of its own.
std::vector<std::string> wrap(const std::string& text, float width) {
  std::vector<std::string> lines;
  std::string line;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t space = text.find(' ', start);
    if (space == std::string::npos) space = text.size();
    const std::string word = text.substr(start, space - start);
    const std::string candidate = line.empty() ? word : line + " " + word;
    if (!line.empty() && ImGui::CalcTextSize(candidate.c_str()).x > width) {
      lines.push_back(line);
      line = word;
    } else {
      line = candidate;
    }
    start = space + 1;
  }
  if (!line.empty() || lines.empty()) lines.push_back(line);
  return lines;
}

}  // namespace

std::string wrap_at_spaces(const std::string& text, float width) {
  std::string lines;
  for (const auto& line : wrap(text, std::max(1.0f, width))) lines += (lines.empty() ? "" : "\n") + line;
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
