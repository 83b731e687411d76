// SPDX-License-Identifier: MIT
#include "critter/creature/limbs/body_reactions.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace critter::creature {
namespace {

constexpr float kPi = std::numbers::pi_v<float>;

}  // namespace

void BodyReactions::set_leg_lengths(float upper, float lower) {
  leg_upper_ = std::isfinite(upper) ? std::max(0.0f, upper) : 0.0f;
  leg_lower_ = std::isfinite(lower) ? std::max(0.0f, lower) : 0.0f;
}

void BodyReactions::update(float dt, const BodyMotion& motion, float pose_weight_sum,
                           bool first_person, int stepping_leg) {
  if (!(dt > 0.0f) || !std::isfinite(dt)) dt = 0.0f;
  clock_ += dt;
  if (motion.known) {
    if (!motion.grounded) {
      air_time_ += dt;
      fall_peak_ = std::max(fall_peak_, -motion.vy);
    } else {
      if (have_y_ && !prev_grounded_) {
        land_ = std::max(land_, land_depth(fall_peak_));
        fall_w_ = 0.0f;  // the flail stops at once on touching down
      }
      const float rise = motion.y - prev_y_;
      if (have_y_ && prev_grounded_ && rise >= 0.25f && rise <= 1.2f && stepping_leg >= 0) {
        step_leg_ = stepping_leg;
        step_ = 1.0f;
      }
      air_time_ = 0.0f;
      fall_peak_ = 0.0f;
    }
    prev_grounded_ = motion.grounded;
    prev_y_ = motion.y;
    have_y_ = true;
  }
  land_amt_ += (land_ - land_amt_) * ease_factor(dt, 0.04f);
  land_ *= std::exp(-dt / 0.18f);
  step_ *= std::exp(-dt / 0.12f);

  const bool falling = motion.known && !motion.grounded && motion.vy < -5.0f && air_time_ > 0.2f;
  fall_w_ += ((falling ? 1.0f : 0.0f) - fall_w_) * ease_factor(dt, 0.25f);

  float lean_target = 0.0f;
  float bank_target = 0.0f;
  if (motion.known && motion.grounded && pose_weight_sum < 0.5f && !first_person) {
    lean_target = std::clamp(1.6f * motion.accel, -9.0f, 9.0f) +
                  6.0f * std::clamp((motion.speed - 4.0f) / 2.5f, 0.0f, 1.0f);
    bank_target = std::clamp(3.0f * motion.speed * motion.yaw_rate * kPi / 180.0f, -12.0f, 12.0f);
  }
  const float k = ease_factor(dt, 0.15f);
  lean_ += (lean_target - lean_) * k;
  bank_ += (bank_target - bank_) * k;

  const LimbAngles crouch = land_angles(false, land_amt_);
  drop_ = leg_shortening(leg_upper_, leg_lower_, crouch.pitch, crouch.bend);
}

LimbAngles BodyReactions::motion_angles(int limb, bool arm, bool right) const {
  LimbAngles a = land_angles(arm, land_amt_);
  const float f = fall_w_;
  if (f > 1e-3f) {
    const float wob = std::sin(7.0f * clock_ + (right ? 0.0f : kPi) + (arm ? kPi / 2.0f : 0.0f)) *
                      std::min(1.0f, air_time_);
    if (arm) {
      a.spread += 55.0f * f;
      a.pitch += (25.0f + 20.0f * wob) * f;
      a.bend += 20.0f * f;
    } else {
      a.pitch += (15.0f + 15.0f * wob) * f;
      a.spread += 8.0f * f;
      a.bend += (25.0f + 15.0f * std::max(0.0f, wob)) * f;
    }
  }
  if (!arm && limb == step_leg_) {
    a.pitch += 50.0f * step_;
    a.bend += 75.0f * step_;
  }
  return a;
}

}  // namespace critter::creature
