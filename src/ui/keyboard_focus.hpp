// The canvas's keyboard focus (ImGui's navigation), given to an item by the page rather than by the
// arrows: a story step's prediction takes it when the keyboard arrives on the canvas, so that the
// keys reach the question first (docs/design.md, "Keyboard and screen reader").
#pragma once

namespace attnlab::ui {

// Gives the last drawn item the keyboard focus, its frame shown (as if the arrows had moved there),
// and scrolls its panel to it if it is out of view. Call right after the item.
void take_keyboard_focus();
// Whether a control shows the keyboard's focus frame: the keyboard, not the pointer, is in use.
bool keyboard_focus_shown();

}  // namespace attnlab::ui
