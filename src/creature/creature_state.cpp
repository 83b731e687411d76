// SPDX-License-Identifier: MIT
#include "critter/creature/creature_state.h"

#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

namespace critter::creature {

vec3 body_forward(const quat& rotation) {
  return rotation * vec3(0.0f, 0.0f, -1.0f);
}

vec3 body_right(const quat& rotation) {
  return rotation * vec3(1.0f, 0.0f, 0.0f);
}

quat from_yaw_pitch_roll(float yaw, float pitch, float roll) {
  const quat qy = glm::angleAxis(yaw, vec3(0.0f, 1.0f, 0.0f));
  const quat qx = glm::angleAxis(pitch, vec3(1.0f, 0.0f, 0.0f));
  const quat qz = glm::angleAxis(roll, vec3(0.0f, 0.0f, 1.0f));
  return glm::normalize(qy * qx * qz);
}

vec3 to_yaw_pitch_roll(const quat& rotation) {
  // With M = R_Y(y)·R_X(p)·R_Z(r) (columns m[c], rows r): m[2][1] = -sin p,
  // (m[2][0], m[2][2]) = cos p·(sin y, cos y) and (m[0][1], m[1][1]) = cos p·(sin r, cos r).
  const glm::mat3 m = glm::mat3_cast(glm::normalize(rotation));
  const float sp = glm::clamp(-m[2][1], -1.0f, 1.0f);
  const float pitch = std::asin(sp);
  // Past this the yaw and roll columns carry only rounding noise; the turn about Y is then
  // read from the first column, whose angle is yaw ∓ roll with roll taken as 0.
  constexpr float kGimbal = 0.99999f;
  if (std::abs(sp) > kGimbal) {
    return {std::atan2(-m[0][2], m[0][0]), pitch, 0.0f};
  }
  return {std::atan2(m[2][0], m[2][2]), pitch, std::atan2(m[0][1], m[1][1])};
}

float forward_speed(const CreatureState& state) {
  if (state.slip_speed) return *state.slip_speed;
  return glm::dot(state.velocity, body_forward(state.rotation));
}

float horizontal_speed(const CreatureState& state) {
  return std::hypot(state.velocity.x, state.velocity.z);
}

mat4 entity_transform(const CreatureState& state) {
  return glm::translate(mat4(1.0f), state.position) * glm::mat4_cast(state.rotation);
}

}  // namespace critter::creature
