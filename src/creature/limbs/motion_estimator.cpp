// SPDX-License-Identifier: MIT
#include "critter/creature/limbs/motion_estimator.h"

#include <algorithm>
#include <cmath>

namespace critter::creature {
namespace {

float wrap180(float deg) {
  deg = std::fmod(deg + 180.0f, 360.0f);
  if (deg < 0.0f) deg += 360.0f;
  return deg - 180.0f;
}

}  // namespace

BodyMotion MotionEstimator::update(vec3 position, float yaw_deg, bool walkable_below, float dt) {
  if (!all_finite(position) || !std::isfinite(yaw_deg) || !std::isfinite(dt)) return last_;
  if (!have_prev_ || !(dt > 0.0f)) {
    if (!have_prev_) {
      prev_position_ = position;
      prev_yaw_ = yaw_deg;
      have_prev_ = true;
      last_.y = position.y;
      last_.known = true;
      last_.grounded = walkable_below;
    }
    return last_;
  }
  const vec3 raw = (position - prev_position_) / dt;
  // A jump above 30 n/s is a teleport or a respawn, not motion.
  if (glm::length(raw) <= 30.0f) velocity_ += (raw - velocity_) * ease_factor(dt, 0.1f);
  const float horizontal = std::hypot(raw.x, raw.z);
  if (horizontal <= 30.0f) {
    limb_speed_ += (std::min(horizontal, 12.0f) - limb_speed_) * ease_factor(dt, 0.2f);
  }
  const float speed_now = std::hypot(velocity_.x, velocity_.z);
  const float raw_accel = (speed_now - horizontal_speed_) / dt;
  horizontal_speed_ = speed_now;
  accel_ = std::clamp(accel_ + (raw_accel - accel_) * ease_factor(dt, 0.1f), -30.0f, 30.0f);
  const float raw_yaw = wrap180(yaw_deg - prev_yaw_) / dt;
  yaw_rate_ =
      std::clamp(yaw_rate_ + (raw_yaw - yaw_rate_) * ease_factor(dt, 0.1f), -720.0f, 720.0f);
  prev_position_ = position;
  prev_yaw_ = yaw_deg;

  last_.y = position.y;
  last_.speed = limb_speed_;
  last_.vy = velocity_.y;
  last_.accel = accel_;
  last_.yaw_rate = yaw_rate_;
  last_.grounded = walkable_below && std::abs(velocity_.y) < 1.0f;
  last_.known = true;
  return last_;
}

}  // namespace critter::creature
