// SPDX-License-Identifier: MIT
#include "critter/core/transform.h"

#include <cmath>

namespace critter {

mat4 Transform::to_matrix() const {
  const glm::mat3 r = glm::mat3_cast(rotation);
  mat4 m(1.0f);
  m[0] = vec4(r[0] * scale.x, 0.0f);
  m[1] = vec4(r[1] * scale.y, 0.0f);
  m[2] = vec4(r[2] * scale.z, 0.0f);
  m[3] = vec4(translation, 1.0f);
  return m;
}

Transform Transform::from_matrix(const mat4& m) {
  Transform t;
  t.translation = vec3(m[3]);
  vec3 c0(m[0]), c1(m[1]), c2(m[2]);
  t.scale = vec3(glm::length(c0), glm::length(c1), glm::length(c2));
  // A mirrored basis: fold the reflection into X so the rotation stays proper.
  if (glm::dot(glm::cross(c0, c1), c2) < 0.0f) t.scale.x = -t.scale.x;
  glm::mat3 r(1.0f);
  const vec3 cols[3] = {c0, c1, c2};
  for (int i = 0; i < 3; ++i) {
    if (std::abs(t.scale[i]) > 1e-12f) r[i] = cols[i] / t.scale[i];
  }
  // Orthonormalise what is left (drops shear, repairs degenerate columns).
  r[0] = glm::length(r[0]) > 0.0f ? glm::normalize(r[0]) : vec3(1, 0, 0);
  r[1] = r[1] - glm::dot(r[0], r[1]) * r[0];
  r[1] = glm::length(r[1]) > 1e-6f
             ? glm::normalize(r[1])
             : glm::normalize(glm::cross(r[0], vec3(0, 0, 1)) + vec3(0, 1e-6f, 0));
  r[2] = glm::cross(r[0], r[1]);
  t.rotation = glm::normalize(glm::quat_cast(r));
  return t;
}

}  // namespace critter
