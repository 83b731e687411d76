// SPDX-License-Identifier: MIT
#include "shaders.h"

#include <epoxy/gl.h>

#include <string>

namespace critter::gl::detail {
namespace {

Result<GLuint> compile(GLenum stage, const std::string& source) {
  const GLuint shader = glCreateShader(stage);
  const char* text = source.c_str();
  glShaderSource(shader, 1, &text, nullptr);
  glCompileShader(shader);
  GLint ok = GL_FALSE;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (ok != GL_TRUE) {
    char log[4096] = {};
    glGetShaderInfoLog(shader, sizeof log, nullptr, log);
    glDeleteShader(shader);
    return fail(Error::at(ErrorCode::kInvalid, "shader",
                          stage == GL_VERTEX_SHADER ? "vertex" : "fragment",
                          std::string("compile failed: ") + log));
  }
  return shader;
}

}  // namespace

Result<std::uint32_t> build_program(const std::string& defines, const char* vertex,
                                    const char* fragment) {
  const std::string header = "#version 330 core\n" + defines;
  Result<GLuint> vs = compile(GL_VERTEX_SHADER, header + vertex);
  if (!vs) return fail(vs.error());
  Result<GLuint> fs = compile(GL_FRAGMENT_SHADER, header + fragment);
  if (!fs) {
    glDeleteShader(*vs);
    return fail(fs.error());
  }
  const GLuint program = glCreateProgram();
  glAttachShader(program, *vs);
  glAttachShader(program, *fs);
  glLinkProgram(program);
  glDeleteShader(*vs);
  glDeleteShader(*fs);
  GLint ok = GL_FALSE;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (ok != GL_TRUE) {
    char log[4096] = {};
    glGetProgramInfoLog(program, sizeof log, nullptr, log);
    glDeleteProgram(program);
    return fail(Error::at(ErrorCode::kInvalid, "shader", "link", std::string("failed: ") + log));
  }
  return program;
}

}  // namespace critter::gl::detail
