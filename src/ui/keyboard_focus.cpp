// See ui/keyboard_focus.hpp. ImGui 1.86 has no public call that moves the navigation's focus to an
// item already drawn, so this uses its internal one (SetFocusID) and shows the focus frame.
#include "ui/keyboard_focus.hpp"

#include "imgui.h"
#include "imgui_internal.h"

namespace attnlab::ui {

void take_keyboard_focus(int flags) {
  ImGuiContext& g = *GImGui;
  if (g.LastItemData.ID == 0) return;
  ImGui::SetFocusID(g.LastItemData.ID, g.CurrentWindow);
  g.NavDisableHighlight = false;  // the frame shows, as after an arrow key
  g.NavDisableMouseHover = true;  // until the mouse moves, the focus (not the pointer) is highlighted
  if (!(flags & FocusFlags_NoScroll) && !ImGui::IsItemVisible()) ImGui::SetScrollHereY(0.5f);
}

bool keyboard_focus_shown() {
  const ImGuiContext& g = *GImGui;
  return g.NavId != 0 && !g.NavDisableHighlight;
}

}  // namespace attnlab::ui
