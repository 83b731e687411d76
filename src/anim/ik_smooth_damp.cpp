// SPDX-License-Identifier: MIT
#include "critter/anim/ik_smooth_damp.h"

namespace critter::anim {

float smooth_damp_decay(float x) {
  return 1.0f / (1.0f + x + 0.48f * x * x + 0.235f * x * x * x);
}

float smooth_damp(float current, float goal, float& velocity, float smooth_time, float dt) {
  if (dt <= 0.0f) return current;
  const float omega = 2.0f / smooth_time;
  if (!(omega * dt < kSmoothDampSettled)) {
    velocity = 0.0f;
    return goal;
  }
  const float e = smooth_damp_decay(omega * dt);
  const float change = current - goal;
  const float temp = (velocity + omega * change) * dt;
  velocity = (velocity - omega * temp) * e;
  float out = goal + (change + temp) * e;
  // Past the goal (the sign of the offset flipped): stop there rather than swing back.
  if ((goal - current > 0.0f) == (out > goal)) {
    out = goal;
    velocity = 0.0f;
  }
  return out;
}

vec3 smooth_damp(const vec3& current, const vec3& goal, vec3& velocity, float smooth_time,
                 float dt) {
  if (dt <= 0.0f) return current;
  const float omega = 2.0f / smooth_time;
  if (!(omega * dt < kSmoothDampSettled)) {
    velocity = vec3(0.0f);
    return goal;
  }
  const float e = smooth_damp_decay(omega * dt);
  const vec3 change = current - goal;
  const vec3 temp = (velocity + omega * change) * dt;
  velocity = (velocity - omega * temp) * e;
  vec3 out = goal + (change + temp) * e;
  if (glm::dot(goal - current, out - goal) > 0.0f) {
    out = goal;
    velocity = vec3(0.0f);
  }
  return out;
}

}  // namespace critter::anim
