#version 300 es
// Heatmap fragment shader: a single-channel float texture of values already scaled to [0, 1]
// (nearest-neighbour, one texel per matrix cell) mapped through the viridis colour map.
// Gamma < 1 stretches small values (a square-root scale shows near-uniform rows).
precision highp float;
uniform sampler2D Texture;
uniform float Gamma;
in vec2 Frag_UV;
layout (location = 0) out vec4 Out_Color;

// Polynomial fit of matplotlib's viridis (public-domain fit by Matt Zucker, shadertoy WlfXRN).
vec3 viridis(float t) {
  const vec3 c0 = vec3(0.2777273272234177, 0.005407344544966578, 0.3340998053353061);
  const vec3 c1 = vec3(0.1050930431085774, 1.404613529898575, 1.384590162594685);
  const vec3 c2 = vec3(-0.3308618287255563, 0.214847559468213, 0.09509516302823659);
  const vec3 c3 = vec3(-4.634230498983486, -5.799100973351585, -19.33244095627987);
  const vec3 c4 = vec3(6.228269936347081, 14.17993336680509, 56.69055260068105);
  const vec3 c5 = vec3(4.776384997670288, -13.74514537774601, -65.35303263337234);
  const vec3 c6 = vec3(-5.435455855934631, 4.645852612178535, 26.3124352495832);
  return c0 + t * (c1 + t * (c2 + t * (c3 + t * (c4 + t * (c5 + t * c6)))));
}

void main() {
  float v = clamp(texture(Texture, Frag_UV).r, 0.0, 1.0);
  Out_Color = vec4(viridis(pow(v, Gamma)), 1.0);
}
