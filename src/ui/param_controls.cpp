#include "ui/param_controls.hpp"

#include <algorithm>

#include "imgui.h"
#include "imgui_stdlib.h"
#include "ui/theme.hpp"

namespace attnlab::ui {

namespace {

void tooltip(const ParamSpec& s) {
  if (!ImGui::IsItemHovered()) return;
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28.0f);
  ImGui::TextUnformatted(s.help.c_str());
  ImGui::TextDisabled("%s: %s; default %s", s.key.c_str(), describe_type(s).c_str(), s.default_value.c_str());
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

}  // namespace

bool ParamControls::commit(const Schema& schema, Params& params, const std::string& key, const std::string& text) {
  try {
    const std::string before = schema.format(params, key);
    schema.set(params, key, text);
    errors_.erase(key);
    text_.erase(key);
    return schema.format(params, key) != before;
  } catch (const ParamError& e) {
    errors_[key] = e.what();
    return false;
  }
}

bool ParamControls::draw(const Schema& schema, Params& params, const EmbedOptions& embed) {
  bool changed = false;
  focused_.clear();
  // Labels in one column as wide as the longest label, but never more than half the panel.
  float longest = 0.0f;
  for (const ParamSpec& s : schema.specs())
    if (!embed.hides_param(s.key)) longest = std::max(longest, ImGui::CalcTextSize(s.label.c_str()).x);
  const float label_width =
      std::min(longest + ImGui::GetFontSize() * 0.8f, ImGui::GetContentRegionAvail().x * 0.5f);
  for (const ParamSpec& s : schema.specs()) {
    if (embed.hides_param(s.key)) continue;
    ImGui::PushID(s.key.c_str());
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(s.label.c_str());
    tooltip(s);
    ImGui::SameLine(label_width);
    ImGui::SetNextItemWidth(-1.0f);
    switch (s.type) {
      case ParamType::Boolean: {
        bool v = params.boolean(s.key);
        if (ImGui::Checkbox("##v", &v)) changed |= commit(schema, params, s.key, v ? "true" : "false");
        break;
      }
      case ParamType::Choice: {
        const std::string current = params.text(s.key);
        if (ImGui::BeginCombo("##v", current.c_str())) {
          for (const auto& c : s.choices)
            if (ImGui::Selectable(c.c_str(), c == current)) changed |= commit(schema, params, s.key, c);
          ImGui::EndCombo();
        }
        break;
      }
      case ParamType::Real:
      case ParamType::Integer:
      case ParamType::Sweep: {
        // Text entry (the same syntax as the CLI and the URL), validated on Enter or when focus leaves.
        auto it = text_.find(s.key);
        std::string& text = it != text_.end() ? it->second : (text_[s.key] = schema.format(params, s.key));
        const bool slider = s.type == ParamType::Real;
        if (slider) ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x * 0.4f);
        // A refused value's field is framed in the error's colour (walk 19: "the value in red" was only
        // the message under it).
        const bool refused = errors_.count(s.key) != 0;
        if (refused) {
          ImGui::PushStyleColor(ImGuiCol_Border, theme().error);
          ImGui::PushStyleVar(ImGuiStyleVar_FrameBorderSize, 2.0f);
        }
        ImGui::InputText("##v", &text);  // std::string: long sweep lists are never cut
        if (refused) ImGui::PopStyleVar(), ImGui::PopStyleColor();
        if (ImGui::IsItemFocused()) focused_ = s.key;
        if (slider) tooltip(s);  // the field's; the slider's (the last item) is drawn below
        if (ImGui::IsItemDeactivatedAfterEdit()) changed |= commit(schema, params, s.key, text);
        if (slider) {
          ImGui::SameLine();
          ImGui::SetNextItemWidth(-1.0f);
          double v = params.real(s.key), lo = s.min, hi = s.max;
          // No text on the slider: the field beside it shows the value (a knob would cover it).
          if (ImGui::SliderScalar("##s", ImGuiDataType_Double, &v, &lo, &hi, "",
                                  s.log_scale ? ImGuiSliderFlags_Logarithmic : 0)) {
            changed |= commit(schema, params, s.key, format_number(v));
            text_.erase(s.key);
          }
        }
        break;
      }
    }
    tooltip(s);
    auto err = errors_.find(s.key);
    if (err != errors_.end()) {
      ImGui::PushStyleColor(ImGuiCol_Text, theme().error);
      // The field's label first (walk 18, 19: the schema's message names the key, "parameter 'eps'").
      ImGui::TextWrapped("%s", (s.label + ": " + err->second).c_str());
      ImGui::PopStyleColor();
    }
    ImGui::PopID();
  }
  return changed;
}

}  // namespace attnlab::ui
