// The canvas's keyboard focus (ImGui's navigation), given to an item by the page rather than by the
// arrows: a story step's prediction takes it when the keyboard arrives on the canvas, so that the
// keys reach the question first (docs/design.md, "Keyboard and screen reader").
#pragma once

namespace attnlab::ui {

enum FocusFlags {
  FocusFlags_None = 0,
  FocusFlags_NoScroll = 1 << 0,  // leave the panel's scroll where it is (the answer the student reads)
};
// Gives the last drawn item the keyboard focus, its frame shown (as if the arrows had moved there),
// and scrolls its panel to it if it is out of view (unless FocusFlags_NoScroll). Call right after
// the item.
void take_keyboard_focus(int flags = FocusFlags_None);
// Whether a control shows the keyboard's focus frame: the keyboard, not the pointer, is in use.
bool keyboard_focus_shown();

}  // namespace attnlab::ui
