// SPDX-License-Identifier: MIT
// MotionEstimator: BodyMotion for hosts that only know where a character is (creatures.md §19):
// velocity, horizontal limb speed, acceleration and yaw rate from successive positions, eased with
// the reference renderer's time constants.
//
//   MotionEstimator estimator;
//   BodyMotion motion = estimator.update(position_in_nodes, yaw_degrees, walkable_below, dt);
#pragma once

#include "critter/core/math.h"
#include "critter/creature/limbs/body_motion.h"

namespace critter::creature {

class MotionEstimator {
 public:
  // One sample: `position` in nodes (+Y up), `yaw_deg` the facing in degrees (positive turning
  // left), `walkable_below` whether there is a walkable node 0.2 nodes under the feet, `dt` in
  // seconds. The first sample (or dt <= 0) only records the position. Velocity eases toward the
  // position difference per second (τ 0.1 s), ignoring jumps above 30 n/s; the limb speed toward
  // its horizontal length (τ 0.2 s), capped at 12 n/s; accel toward the derivative of the
  // horizontal speed (τ 0.1 s), clamped to ±30; yaw_rate toward the wrapped yaw derivative
  // (τ 0.1 s), clamped to ±720 deg/s. Grounded = walkable_below and |vy| < 1. The result is known;
  // non-finite inputs are ignored (the previous estimate is returned).
  BodyMotion update(vec3 position, float yaw_deg, bool walkable_below, float dt);

  vec3 velocity() const { return velocity_; }       // nodes per second
  float limb_speed() const { return limb_speed_; }  // nodes per second, 0..12

 private:
  vec3 prev_position_{0.0f};
  float prev_yaw_ = 0.0f;
  bool have_prev_ = false;
  vec3 velocity_{0.0f};
  float limb_speed_ = 0.0f;
  float horizontal_speed_ = 0.0f;
  float accel_ = 0.0f;
  float yaw_rate_ = 0.0f;
  BodyMotion last_{};
};

}  // namespace critter::creature
