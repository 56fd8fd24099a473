#version 300 es
// Heatmap vertex shader: the same vertex layout as Dear ImGui's OpenGL3 backend (locations 0-2),
// so an ImGui image quad can be drawn with this program (src/ui/heatmap_widget.cpp).
precision highp float;
layout (location = 0) in vec2 Position;
layout (location = 1) in vec2 UV;
layout (location = 2) in vec4 Color;
uniform mat4 ProjMtx;
out vec2 Frag_UV;
void main() {
  Frag_UV = UV;
  gl_Position = ProjMtx * vec4(Position.xy, 0.0, 1.0);
}
