// SPDX-License-Identifier: MIT
#include "input.h"

#include "camera_control.h"

namespace critter::viewer {

void apply_pointer(gl::OrbitCamera& camera, const PointerInput& input, float viewport_height) {
  const bool pan_drag = input.right || input.middle || (input.left && input.shift);
  if (pan_drag) {
    pan(camera, input.drag, viewport_height);
  } else if (input.left) {
    orbit(camera, -input.drag.x * kOrbitDegreesPerPixel, input.drag.y * kOrbitDegreesPerPixel);
  }
  if (input.scroll != 0.0f) zoom(camera, input.scroll);
}

}  // namespace critter::viewer
