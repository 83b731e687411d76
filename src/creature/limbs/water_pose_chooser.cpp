// SPDX-License-Identifier: MIT
#include "critter/creature/limbs/water_pose_chooser.h"

#include <cmath>

namespace critter::creature {

WaterPoseChoice WaterPoseChooser::choose(const WaterPoseInput& in, float dt) {
  if (!(dt > 0.0f) || !std::isfinite(dt)) dt = 0.0f;
  const float limb_speed = std::isfinite(in.limb_speed) ? in.limb_speed : 0.0f;
  const float vy = std::isfinite(in.vy) ? in.vy : 0.0f;
  WaterPose wp = WaterPose::kNone;
  if (in.in_water && in.alive) {
    if (in.lying) {
      wp = (!in.grounded || limb_speed > 0.3f) ? WaterPose::kSwim : WaterPose::kNone;
    } else if (!in.grounded) {
      wp = limb_speed > 0.6f ? WaterPose::kPaddle : WaterPose::kTread;
    }
  }
  if (wp != WaterPose::kNone) {
    pose_age_ = 0.0f;
  } else {
    pose_age_ += dt;
    // Bobbing at the surface leaves the water for a moment; the hold keeps the stroke through it.
    if (in.alive && last_ != WaterPose::kNone && last_ != WaterPose::kClimb &&
        pose_age_ < kHoldSeconds) {
      wp = last_;
    }
  }
  float speed = limb_speed;
  if (wp == WaterPose::kNone && in.climbing && in.alive && (!in.grounded || std::abs(vy) > 0.3f)) {
    wp = WaterPose::kClimb;
    speed = vy;
  }
  last_ = wp;
  return {wp, speed};
}

}  // namespace critter::creature
