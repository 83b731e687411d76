// SPDX-License-Identifier: MIT
#include "ground_grid.h"

#include <epoxy/gl.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include <glm/gtc/type_ptr.hpp>

namespace critter::cli {
namespace {

constexpr const char* kVertex = R"(#version 330 core
layout(location = 0) in vec4 a_position;  // xyz world, w: line opacity
uniform mat4 u_view_projection;
out float v_fade;
void main() {
  v_fade = a_position.w;
  gl_Position = u_view_projection * vec4(a_position.xyz, 1.0);
}
)";

constexpr const char* kFragment = R"(#version 330 core
in float v_fade;
uniform vec4 u_colour;
out vec4 o_colour;
void main() {
  float a = u_colour.a * v_fade;
  o_colour = vec4(u_colour.rgb * a, a);
}
)";

Result<GLuint> compile(GLenum kind, const char* source) {
  const GLuint shader = glCreateShader(kind);
  glShaderSource(shader, 1, &source, nullptr);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (ok == 0) {
    char log[512] = {};
    glGetShaderInfoLog(shader, sizeof log, nullptr, log);
    glDeleteShader(shader);
    return fail(Error::at(ErrorCode::kInvalid, "ground grid", "shader", log));
  }
  return shader;
}

}  // namespace

Result<std::unique_ptr<GroundGrid>> GroundGrid::create() {
  Result<GLuint> vs = compile(GL_VERTEX_SHADER, kVertex);
  if (!vs) return fail(vs.error());
  Result<GLuint> fs = compile(GL_FRAGMENT_SHADER, kFragment);
  if (!fs) {
    glDeleteShader(*vs);
    return fail(fs.error());
  }
  std::unique_ptr<GroundGrid> grid(new GroundGrid());
  grid->program_ = glCreateProgram();
  glAttachShader(grid->program_, *vs);
  glAttachShader(grid->program_, *fs);
  glLinkProgram(grid->program_);
  glDeleteShader(*vs);
  glDeleteShader(*fs);
  GLint ok = 0;
  glGetProgramiv(grid->program_, GL_LINK_STATUS, &ok);
  if (ok == 0) return fail(Error::at(ErrorCode::kInvalid, "ground grid", "shader", "link failed"));
  grid->view_projection_ = glGetUniformLocation(grid->program_, "u_view_projection");
  grid->colour_ = glGetUniformLocation(grid->program_, "u_colour");
  glGenVertexArrays(1, &grid->vao_);
  glGenBuffers(1, &grid->vbo_);
  glBindVertexArray(grid->vao_);
  glBindBuffer(GL_ARRAY_BUFFER, grid->vbo_);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 4 * sizeof(float), nullptr);
  glBindVertexArray(0);
  return grid;
}

GroundGrid::~GroundGrid() {
  if (program_ != 0) glDeleteProgram(program_);
  glDeleteBuffers(1, &vbo_);
  glDeleteVertexArrays(1, &vao_);
}

float GroundGrid::spacing_for(float size) {
  if (!(size > 0.0f) || !std::isfinite(size)) return 1.0f;
  const float raw = size / 8.0f;
  const float decade = std::pow(10.0f, std::floor(std::log10(raw)));
  const float f = raw / decade;
  return decade * (f < 1.5f ? 1.0f : f < 3.5f ? 2.0f : f < 7.5f ? 5.0f : 10.0f);
}

void GroundGrid::draw(const gl::Camera& camera, vec3 centre, float ground, float half_size,
                      float spacing, vec4 colour) {
  if (!(spacing > 0.0f) || !(half_size > 0.0f)) return;
  // Lines on multiples of the spacing (a fixed world grid, not one that moves with the model),
  // each cut into segments so the opacity can fall off with the distance from the centre.
  const int first_x = static_cast<int>(std::ceil((centre.x - half_size) / spacing));
  const int last_x = static_cast<int>(std::floor((centre.x + half_size) / spacing));
  const int first_z = static_cast<int>(std::ceil((centre.z - half_size) / spacing));
  const int last_z = static_cast<int>(std::floor((centre.z + half_size) / spacing));
  constexpr int kSegments = 16;
  std::vector<float> vertices;
  auto fade = [&](float x, float z) {
    const float d = std::hypot(x - centre.x, z - centre.z) / half_size;
    return std::clamp(1.0f - d, 0.0f, 1.0f);
  };
  auto line = [&](vec3 a, vec3 b) {
    for (int s = 0; s < kSegments; ++s) {
      for (int e : {s, s + 1}) {
        const vec3 p = glm::mix(a, b, static_cast<float>(e) / kSegments);
        vertices.insert(vertices.end(), {p.x, p.y, p.z, fade(p.x, p.z)});
      }
    }
  };
  for (int i = first_x; i <= last_x; ++i) {
    const float x = static_cast<float>(i) * spacing;
    line({x, ground, centre.z - half_size}, {x, ground, centre.z + half_size});
  }
  for (int i = first_z; i <= last_z; ++i) {
    const float z = static_cast<float>(i) * spacing;
    line({centre.x - half_size, ground, z}, {centre.x + half_size, ground, z});
  }
  if (vertices.empty()) return;
  glUseProgram(program_);
  const mat4 vp = camera.view_projection();
  glUniformMatrix4fv(view_projection_, 1, GL_FALSE, glm::value_ptr(vp));
  glUniform4fv(colour_, 1, glm::value_ptr(colour));
  glBindVertexArray(vao_);
  glBindBuffer(GL_ARRAY_BUFFER, vbo_);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(vertices.size() * sizeof(float)),
               vertices.data(), GL_STREAM_DRAW);
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LEQUAL);
  glDepthMask(GL_FALSE);
  glEnable(GL_BLEND);
  glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
  glDrawArrays(GL_LINES, 0, static_cast<GLsizei>(vertices.size() / 4));
  glDisable(GL_BLEND);
  glDepthMask(GL_TRUE);
  glBindVertexArray(0);
  glUseProgram(0);
}

}  // namespace critter::cli
