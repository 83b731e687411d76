// SPDX-License-Identifier: MIT
// Pointer input of the viewer's 3D view, turned into camera moves: left drag orbits, right or
// middle drag (or shift + left drag) pans, the wheel zooms. Kept apart from GLFW so the mapping
// is testable.
#pragma once

#include "critter/core/math.h"
#include "critter/gl/camera.h"

namespace critter::viewer {

// Degrees of yaw or pitch per pixel of drag.
inline constexpr float kOrbitDegreesPerPixel = 0.5f;

// One frame of pointer input over the 3D view (not over a UI window).
struct PointerInput {
  vec2 drag{0.0f};      // cursor motion since the last frame, pixels (x right, y down)
  float scroll = 0.0f;  // wheel notches, positive away from the user (zoom in)
  bool left = false;    // buttons held during the motion
  bool right = false;
  bool middle = false;
  bool shift = false;
};

// Applies one frame of input: a left drag turns the camera around its target (dragging right
// moves the eye toward -yaw so the model appears to turn right; dragging down raises the eye), a
// pan drag moves the target so the grabbed point follows the cursor, and each wheel notch zooms
// by 0.9. `viewport_height` in pixels.
void apply_pointer(gl::OrbitCamera& camera, const PointerInput& input, float viewport_height);

}  // namespace critter::viewer
