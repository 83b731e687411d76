// SPDX-License-Identifier: MIT
// WaterPoseChooser: choose_water_pose of creatures.md §19 — which whole-limb pose a character
// takes from where it is and how it moves, holding a water pose 0.8 s through brief exits (a body
// bobbing at the surface).
//
//   WaterPoseChooser chooser;
//   WaterPoseChoice c = chooser.choose(
//       {.in_water = true, .alive = true, .grounded = false, .limb_speed = 1.0f}, dt);
//   animator.set_water_pose(c.pose, c.speed);
#pragma once

#include "critter/creature/limbs/body_motion.h"

namespace critter::creature {

struct WaterPoseInput {
  bool in_water = false;  // liquid at chest height (0.9 nodes above the feet)
  bool alive = true;
  bool grounded = true;     // standing on something
  bool climbing = false;    // on a climbable node
  bool lying = false;       // the animator's lying flag of the previous step
  float limb_speed = 0.0f;  // horizontal speed, nodes per second
  float vy = 0.0f;          // vertical velocity, nodes per second
};

struct WaterPoseChoice {
  WaterPose pose = WaterPose::kNone;
  // The speed for the stroke rate: limb_speed, or the signed vy for Climb.
  float speed = 0.0f;
};

class WaterPoseChooser {
 public:
  // In water and alive: lying → Swim when not grounded or limb_speed > 0.3, else None (a drowned
  // body on the bottom does not crawl); upright and not grounded → Paddle above 0.6 n/s, else
  // Tread. No water pose: the last one (not None, not Climb) is kept while alive for 0.8 s since a
  // water pose was last chosen. Still None, climbing and alive, and not grounded or |vy| > 0.3 →
  // Climb at speed vy. dt in seconds (<= 0 or non-finite counts as 0).
  WaterPoseChoice choose(const WaterPoseInput& input, float dt);

  WaterPose last() const { return last_; }
  float pose_age() const { return pose_age_; }  // seconds since a water pose was chosen

  static constexpr float kHoldSeconds = 0.8f;

 private:
  WaterPose last_ = WaterPose::kNone;
  float pose_age_ = 0.0f;
};

}  // namespace critter::creature
