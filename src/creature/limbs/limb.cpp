// SPDX-License-Identifier: MIT
#include "critter/creature/limbs/limb.h"

#include <cmath>

namespace critter::creature {

std::string_view to_string(LimbKind kind) {
  return kind == LimbKind::Arm ? "arm" : "leg";
}

std::string_view to_string(LimbSide side) {
  return side == LimbSide::Right ? "right" : "left";
}

bool horizontal_forward(const vec3& forward, vec3& out) {
  out = kDefaultLimbForward;
  const vec2 h(forward.x, forward.z);
  if (!std::isfinite(h.x) || !std::isfinite(h.y)) return false;
  const float len = glm::length(h);
  if (!(len > 1e-6f) || !std::isfinite(len)) return false;
  out = vec3(h.x / len, 0.0f, h.y / len);
  return true;
}

glm::mat3 limb_frame(const vec3& forward) {
  vec3 f;
  horizontal_forward(forward, f);
  // Columns are the images of model x, y, z: the frame's x is the bend axis (right of forward
  // when looking down), its −z is forward, +Y stays up.
  const vec3 x = limb_bend_axis(f);
  // Rows of the frame matrix are the frame axes expressed in model space.
  return glm::transpose(glm::mat3(x, vec3(0.0f, 1.0f, 0.0f), -f));
}

vec3 limb_bend_axis(const vec3& forward) {
  return glm::normalize(glm::cross(vec3(0.0f, -1.0f, 0.0f), forward));
}

}  // namespace critter::creature
