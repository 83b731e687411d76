// SPDX-License-Identifier: MIT
#include "critter/creature/limbs/water_pose_chooser.h"

#include <gtest/gtest.h>

namespace critter::creature {
namespace {

constexpr float kDt = 1.0f / 60.0f;

TEST(WaterPoseChooser, PicksFromWaterAndSpeed) {
  WaterPoseChooser c;
  WaterPoseInput in{.in_water = true, .alive = true, .grounded = false, .limb_speed = 0.2f};
  EXPECT_EQ(c.choose(in, kDt).pose, WaterPose::kTread);
  in.limb_speed = 1.0f;
  EXPECT_EQ(c.choose(in, kDt).pose, WaterPose::kPaddle);
  EXPECT_EQ(c.choose(in, kDt).speed, 1.0f);
  in.lying = true;
  EXPECT_EQ(c.choose(in, kDt).pose, WaterPose::kSwim);
}

TEST(WaterPoseChooser, DrownedBodyOnTheBottomDoesNotCrawl) {
  WaterPoseChooser c;
  WaterPoseInput in{.in_water = true, .alive = true, .grounded = true, .lying = true};
  EXPECT_EQ(c.choose(in, kDt).pose, WaterPose::kNone);
  in.limb_speed = 0.5f;
  EXPECT_EQ(c.choose(in, kDt).pose, WaterPose::kSwim);
  WaterPoseChooser dead;
  WaterPoseInput gone{.in_water = true, .alive = false, .grounded = false, .lying = true};
  EXPECT_EQ(dead.choose(gone, kDt).pose, WaterPose::kNone);
}

TEST(WaterPoseChooser, HoldsThePoseForPointEightSeconds) {
  WaterPoseChooser c;
  WaterPoseInput in{.in_water = true, .alive = true, .grounded = false, .limb_speed = 1.0f};
  EXPECT_EQ(c.choose(in, kDt).pose, WaterPose::kPaddle);
  in.in_water = false;
  int held = 0;
  for (int i = 0; i < 120; ++i) {
    if (c.choose(in, kDt).pose == WaterPose::kPaddle) ++held;
  }
  // Ages 1/60 .. 47/60 s are under 0.8 s (48/60 summed in floats may land just under too).
  EXPECT_GE(held, 47);
  EXPECT_LE(held, 48);
  EXPECT_EQ(c.last(), WaterPose::kNone);
  // Dying ends the hold at once.
  in.in_water = true;
  c.choose(in, kDt);
  in.in_water = false;
  in.alive = false;
  EXPECT_EQ(c.choose(in, kDt).pose, WaterPose::kNone);
}

TEST(WaterPoseChooser, ClimbUsesSignedVerticalSpeed) {
  WaterPoseChooser c;
  WaterPoseInput in{.alive = true, .grounded = true, .climbing = true, .vy = -2.0f};
  const WaterPoseChoice down = c.choose(in, kDt);
  EXPECT_EQ(down.pose, WaterPose::kClimb);
  EXPECT_EQ(down.speed, -2.0f);
  in.vy = 0.1f;  // grounded and still: standing at the ladder's foot
  EXPECT_EQ(c.choose(in, kDt).pose, WaterPose::kNone);
  in.grounded = false;
  in.vy = 0.0f;  // hanging on: Climb at rate 0
  EXPECT_EQ(c.choose(in, kDt).pose, WaterPose::kClimb);
  // Climb is never held.
  in.climbing = false;
  EXPECT_EQ(c.choose(in, kDt).pose, WaterPose::kNone);
}

}  // namespace
}  // namespace critter::creature
