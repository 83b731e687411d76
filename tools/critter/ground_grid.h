// SPDX-License-Identifier: MIT
// The ground grid of `critter render --grid`: thin lines on the plane y = ground under a model,
// fading out toward the edge, drawn into the current OpenGL context before the model so the
// model and its shadow cover them.
#pragma once

#include <cstdint>
#include <memory>

#include "critter/core/error.h"
#include "critter/core/math.h"
#include "critter/gl/camera.h"

namespace critter::cli {

class GroundGrid {
 public:
  // Compiles the line shader in the current context (which must outlive the grid).
  static Result<std::unique_ptr<GroundGrid>> create();
  ~GroundGrid();
  GroundGrid(const GroundGrid&) = delete;
  GroundGrid& operator=(const GroundGrid&) = delete;

  // Draws lines every `spacing` metres (> 0) on y = `ground` covering the square of half size
  // `half_size` metres around (centre.x, centre.z), in `colour` (straight RGBA), with depth test
  // on and depth writes off, blended onto premultiplied pixels.
  void draw(const gl::Camera& camera, vec3 centre, float ground, float half_size, float spacing,
            vec4 colour);

  // A round spacing (1, 2 or 5 times a power of ten) giving about 8 lines across `size` metres.
  static float spacing_for(float size);

 private:
  GroundGrid() = default;
  std::uint32_t program_ = 0;
  std::uint32_t vao_ = 0;
  std::uint32_t vbo_ = 0;
  int view_projection_ = -1;
  int colour_ = -1;
};

}  // namespace critter::cli
