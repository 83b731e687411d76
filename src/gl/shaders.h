// SPDX-License-Identifier: MIT
// GLSL sources of the renderer's programs and a small compile/link helper. Variants of the model
// program come from #defines prepended to the sources (rendering.md §6): SKINNED (else rigid:
// one joint per vertex), ALPHA_TEST, MORPH, UNLIT, PALETTE_BUFFER (palettes in a buffer texture
// instead of the 2D texture).
#pragma once

#include <cstdint>
#include <string>

#include "critter/core/error.h"

namespace critter::gl::detail {

// Vertex attribute locations shared by GpuModel's VAOs and the model program.
inline constexpr unsigned kAttrInstanceWorld = 8;   // 3 rows of world_from_model (8, 9, 10)
inline constexpr unsigned kAttrInstanceBases = 11;  // uvec2: palette base, morph weight base
inline constexpr unsigned kAttrInstanceTint = 12;
inline constexpr unsigned kAttrInstanceLight = 13;  // vec2: light, opacity

inline constexpr const char* kModelVertexShader = R"(
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec2 a_uv0;
layout(location = 3) in vec2 a_uv1;
layout(location = 4) in vec4 a_colour;
layout(location = 5) in uvec4 a_joints;
layout(location = 6) in vec4 a_weights;
layout(location = 8) in vec4 i_world0;
layout(location = 9) in vec4 i_world1;
layout(location = 10) in vec4 i_world2;
layout(location = 11) in uvec2 i_bases;
layout(location = 12) in vec4 i_tint;
layout(location = 13) in vec2 i_light;

#ifdef PALETTE_BUFFER
uniform samplerBuffer u_palette;
#else
uniform sampler2D u_palette;
#endif
uniform uint u_segment;
uniform mat4 u_view_projection;
uniform vec3 u_light_dir1;
uniform vec3 u_light_dir2;
uniform float u_ambient;
uniform int u_uv_set;
uniform mat3 u_uv_transform;
uniform vec3 u_eye;
#ifdef MORPH
uniform sampler2DArray u_morph;
uniform samplerBuffer u_weights;
uniform int u_morph_offset;
uniform int u_morph_count;
#endif

out vec2 v_uv;
out vec4 v_colour;
out vec2 v_light;  // front-face and back-face lighting factor
out float v_opacity;
out float v_distance;

// Joint j of this instance's palette: 3 RGBA32F texels (rendering.md §9), columns of the upper
// 3x3 in xyz and the translation in w. The texture width is a multiple of 3, so the three texels
// share a row.
void joint_matrix(uint j, out vec3 c0, out vec3 c1, out vec3 c2, out vec3 t) {
  int i = int(i_bases.x + u_segment + j) * 3;
#ifdef PALETTE_BUFFER
  vec4 t0 = texelFetch(u_palette, i);
  vec4 t1 = texelFetch(u_palette, i + 1);
  vec4 t2 = texelFetch(u_palette, i + 2);
#else
  int width = textureSize(u_palette, 0).x;
  ivec2 at = ivec2(i % width, i / width);
  vec4 t0 = texelFetch(u_palette, at, 0);
  vec4 t1 = texelFetch(u_palette, at + ivec2(1, 0), 0);
  vec4 t2 = texelFetch(u_palette, at + ivec2(2, 0), 0);
#endif
  c0 = t0.xyz;
  c1 = t1.xyz;
  c2 = t2.xyz;
  t = vec3(t0.w, t1.w, t2.w);
}

mat3 cofactor(mat3 m) {
  return mat3(cross(m[1], m[2]), cross(m[2], m[0]), cross(m[0], m[1]));
}

float lighting(vec3 n) {
  return u_ambient + max(dot(n, u_light_dir1), 0.0) + max(dot(n, u_light_dir2), 0.0);
}

void main() {
  vec3 position = a_position;
  vec3 normal = a_normal;
#ifdef MORPH
  // Morphing happens in mesh space before skinning; gl_VertexID is the original vertex index.
  int width = textureSize(u_morph, 0).x;
  ivec2 texel = ivec2(gl_VertexID % width, gl_VertexID / width);
  for (int k = 0; k < u_morph_count; ++k) {
    float w = texelFetch(u_weights, int(i_bases.y) + u_morph_offset + k).r;
    if (w == 0.0) continue;
    position += w * texelFetch(u_morph, ivec3(texel, 3 * k), 0).xyz;
    normal += w * texelFetch(u_morph, ivec3(texel, 3 * k + 1), 0).xyz;
  }
#endif
  vec3 c0, c1, c2, t;
#ifdef SKINNED
  vec3 b0 = vec3(0.0), b1 = vec3(0.0), b2 = vec3(0.0), bt = vec3(0.0);
  for (int k = 0; k < 4; ++k) {
    float w = a_weights[k];
    if (w == 0.0) continue;
    joint_matrix(a_joints[k], c0, c1, c2, t);
    b0 += w * c0;
    b1 += w * c1;
    b2 += w * c2;
    bt += w * t;
  }
  c0 = b0;
  c1 = b1;
  c2 = b2;
  t = bt;
#else
  joint_matrix(a_joints.x, c0, c1, c2, t);
#endif
  mat3 skin = mat3(c0, c1, c2);
  vec3 model_position = skin * position + t;
  vec3 model_normal = cofactor(skin) * normal;

  mat3 world_rows = mat3(i_world0.xyz, i_world1.xyz, i_world2.xyz);
  mat3 world = transpose(world_rows);
  vec3 world_position = world * model_position + vec3(i_world0.w, i_world1.w, i_world2.w);
  vec3 n = cofactor(world) * model_normal;
  float len = length(n);
  n = len > 0.0 ? n / len : vec3(0.0, 1.0, 0.0);

  gl_Position = u_view_projection * vec4(world_position, 1.0);
  vec2 uv = u_uv_set == 1 ? a_uv1 : a_uv0;
  v_uv = (u_uv_transform * vec3(uv, 1.0)).xy;
  v_colour = a_colour * i_tint;
#ifdef UNLIT
  v_light = vec2(1.0);
#else
  v_light = vec2(lighting(n), lighting(-n)) * i_light.x;
#endif
  v_opacity = i_light.y;
  v_distance = distance(world_position, u_eye);
}
)";

inline constexpr const char* kModelFragmentShader = R"(
in vec2 v_uv;
in vec4 v_colour;
in vec2 v_light;
in float v_opacity;
in float v_distance;

uniform sampler2D u_texture;
uniform vec4 u_base_colour;
uniform vec3 u_emissive;
uniform float u_alpha_cutoff;
uniform bool u_force_opaque;
uniform bool u_srgb_output;
uniform bool u_fog;
uniform vec3 u_fog_params;  // start, end, unused
uniform vec3 u_fog_colour;

out vec4 o_colour;

vec3 to_srgb(vec3 c) {
  c = clamp(c, 0.0, 1.0);
  return mix(c * 12.92, 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055, step(vec3(0.0031308), c));
}

void main() {
  vec4 c = texture(u_texture, v_uv) * u_base_colour * v_colour;
#ifdef ALPHA_TEST
  if (c.a < u_alpha_cutoff) discard;
#endif
  if (u_force_opaque) c.a = 1.0;
  c.a *= v_opacity;
  float light = gl_FrontFacing ? v_light.x : v_light.y;
  vec3 rgb = c.rgb * light + u_emissive;
  if (u_fog) {
    float f = clamp((v_distance - u_fog_params.x) / max(u_fog_params.y - u_fog_params.x, 1e-6),
                    0.0, 1.0);
    rgb = mix(rgb, u_fog_colour, f);
  }
  if (u_srgb_output) rgb = to_srgb(rgb);
  o_colour = vec4(rgb * c.a, c.a);
}
)";

// Blob shadow: a unit quad in xz scaled and placed by uniforms, alpha fading radially.
inline constexpr const char* kShadowVertexShader = R"(
layout(location = 0) in vec2 a_corner;
uniform mat4 u_view_projection;
uniform vec3 u_centre;
uniform float u_radius;
out vec2 v_corner;
void main() {
  v_corner = a_corner;
  gl_Position = u_view_projection * vec4(u_centre + vec3(a_corner.x, 0.0, a_corner.y) * u_radius, 1.0);
}
)";

inline constexpr const char* kShadowFragmentShader = R"(
in vec2 v_corner;
uniform float u_alpha;
out vec4 o_colour;
void main() {
  float r = length(v_corner);
  if (r >= 1.0) discard;
  float a = u_alpha * (1.0 - smoothstep(0.3, 1.0, r));
  o_colour = vec4(0.0, 0.0, 0.0, a);
}
)";

// Compiles and links "#version 330 core" + defines + the sources. Fails (kInvalid) with the
// driver's log.
Result<std::uint32_t> build_program(const std::string& defines, const char* vertex,
                                    const char* fragment);

}  // namespace critter::gl::detail
