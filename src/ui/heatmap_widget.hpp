// The heatmap widget: a matrix uploaded as a float texture and drawn through the colour-map shader
// of shaders/ (GLSL ES 3.00) inside the ImGui draw list, with title, axis labels, a colour bar and
// a hover read-out of the cell under the mouse (docs/design.md "Rendering").
#pragma once
#include <deque>
#include <string>
#include <vector>

#include "imgui.h"
#include "lab/results.hpp"

namespace attnlab::ui {

class HeatmapWidget {
 public:
  // Draws `h` in a `size` region at the cursor. `slot` names the texture to reuse and `version`
  // says when the data changed (the texture is uploaded again only then). With `sqrt_scale` the
  // colours follow sqrt of the scaled value, which makes near-uniform rows visible.
  void draw(int slot, const Heatmap& h, unsigned version, ImVec2 size, bool sqrt_scale);
  // Forget every GL object (after a lost WebGL context); they are created again on demand.
  void forget_gl_objects();

 private:
  struct Slot {
    unsigned texture = 0;
    unsigned version = 0;
    bool uploaded = false;
    float gamma = 1.0f;  // read by the draw callback when the frame renders
  };
  Slot& slot(int index);
  // The colour bar's ramp texture (uploaded once), linear or on the square-root scale.
  Slot& ramp(bool sqrt_scale);
  bool ensure_program();
  void draw_texture(Slot& s, ImVec2 lo, ImVec2 hi);

  // A deque: growing it keeps the slots in place, and the frame's draw callbacks hold pointers to
  // their gamma (a vector moved them when a later heatmap added a slot within the same frame).
  std::deque<Slot> slots_;
  Slot ramp_;  // the colour bar: 64 values from 1 (top) to 0
  Slot ramp_sqrt_;
  std::string program_error_;
};

}  // namespace attnlab::ui
