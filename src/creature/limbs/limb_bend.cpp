// SPDX-License-Identifier: MIT
#include "critter/creature/limbs/limb_bend.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace critter::creature {

mat4 limb_bend(const Limb& limb, float degrees, const vec3& axis, const vec3& forward,
               float mitre_degrees) {
  constexpr float kDegToRad = std::numbers::pi_v<float> / 180.0f;
  const float a = (limb.kind == LimbKind::Arm ? degrees : -degrees) * kDegToRad;
  mat4 m = glm::rotate(mat4(1.0f), a, axis);
  if (mitre_degrees > 0.0f) {
    // A rigid half-turn leaves the cut plane's forward extent at cos(θ/2) of the limb's
    // thickness measured across either half; stretching it back keeps the side faces straight.
    const float full = std::min(mitre_degrees, 120.0f) * kDegToRad;
    const float grow = 1.0f / std::cos(full * 0.5f);
    const glm::mat3 stretch = glm::mat3(1.0f) + (grow - 1.0f) * glm::outerProduct(forward, forward);
    m = m * mat4(stretch);
  }
  m[3] = vec4(limb.pivot - vec3(m * vec4(limb.pivot, 0.0f)), 1.0f);
  return m;
}

}  // namespace critter::creature
