// SPDX-License-Identifier: MIT
#include "critter/anim/ik_smooth_damp.h"

namespace critter::anim {

namespace {

// The spring's decay over one step: exp(−ω·dt) by the Padé-like polynomial that SmoothDamp
// popularised; it stays in (0, 1] for every dt >= 0, so the step is stable at any frame rate.
float decay(float omega, float dt) {
  const float x = omega * dt;
  return 1.0f / (1.0f + x + 0.48f * x * x + 0.235f * x * x * x);
}

}  // namespace

float smooth_damp(float current, float goal, float& velocity, float smooth_time, float dt) {
  if (dt <= 0.0f) return current;
  const float omega = 2.0f / smooth_time;
  const float e = decay(omega, dt);
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
  const float e = decay(omega, dt);
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
