// SPDX-License-Identifier: MIT
#include "critter/creature/limbs/body_reactions.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace critter::creature {
namespace {

constexpr float kDt = 1.0f / 60.0f;

BodyMotion grounded_motion() {
  BodyMotion m;
  m.known = true;
  m.grounded = true;
  return m;
}

TEST(BodyReactions, HardLandingCrouchesAndRecovers) {
  BodyReactions r;
  r.set_leg_lengths(3.15f, 3.15f);
  BodyMotion m = grounded_motion();
  r.update(kDt, m, 0.0f, false, -1);
  // A 1.2 s fall: vy = -min(11, 9.81 t).
  m.grounded = false;
  for (int i = 1; i <= 72; ++i) {
    m.vy = -std::min(11.0f, 9.81f * static_cast<float>(i) * kDt);
    r.update(kDt, m, 0.0f, false, -1);
  }
  EXPECT_GT(r.fall_weight(), 0.5f);  // flailing
  m.grounded = true;
  m.vy = 0.0f;
  float max_knee = 0.0f, max_drop = 0.0f;
  for (int i = 0; i < 60; ++i) {
    r.update(kDt, m, 0.0f, false, -1);
    if (i == 0) {
      EXPECT_EQ(r.fall_weight(), 0.0f);  // the flail stops at once
    }
    max_knee = std::max(max_knee, r.motion_angles(2, false, true).bend);
    max_drop = std::max(max_drop, r.drop());
  }
  EXPECT_GT(max_knee, 45.0f);
  // The motion knee alone; the animator adds the walk bend's 4° of give (about 62° in all).
  EXPECT_NEAR(max_knee, 58.0f, 2.0f);
  EXPECT_GT(max_drop, 0.5f);
  EXPECT_NEAR(max_drop, 0.81f, 0.08f);
  EXPECT_LT(r.landing(), 0.1f);  // gone after 1 s
}

TEST(BodyReactions, StepUpLiftsTheSteppingLeg) {
  BodyReactions r;
  BodyMotion m = grounded_motion();
  r.update(kDt, m, 0.0f, false, 3);
  m.y = 0.55f;
  r.update(kDt, m, 0.0f, false, 3);
  EXPECT_EQ(r.step_leg(), 3);
  // Set to 1 and decayed over the same step (τ 0.12 s).
  EXPECT_NEAR(r.motion_angles(3, false, false).bend, 75.0f * std::exp(-kDt / 0.12f), 1e-3f);
  EXPECT_EQ(r.motion_angles(2, false, true).bend, 0.0f);
  // Too big a rise (a teleport) is no step.
  BodyReactions t;
  t.update(kDt, m, 0.0f, false, 2);
  m.y += 2.0f;
  t.update(kDt, m, 0.0f, false, 2);
  EXPECT_EQ(t.step(), 0.0f);
}

TEST(BodyReactions, LeanAndBank) {
  BodyReactions r;
  BodyMotion m = grounded_motion();
  m.speed = 2.0f;
  m.accel = 8.0f;
  for (int i = 0; i < 60; ++i) r.update(kDt, m, 0.0f, false, -1);
  EXPECT_GT(r.lean(), 5.0f);
  EXPECT_NEAR(r.lean(), 9.0f, 0.1f);  // clamped to 9
  m.accel = -8.0f;
  for (int i = 0; i < 60; ++i) r.update(kDt, m, 0.0f, false, -1);
  EXPECT_LT(r.lean(), -5.0f);
  m.accel = 0.0f;
  m.speed = 5.0f;
  m.yaw_rate = 90.0f;
  for (int i = 0; i < 60; ++i) r.update(kDt, m, 0.0f, false, -1);
  EXPECT_GT(r.bank(), 5.0f);
  EXPECT_NEAR(r.bank(), 12.0f, 0.1f);
  EXPECT_NEAR(r.lean(), 6.0f * 0.4f, 0.1f);  // running adds up to 6°
  for (int i = 0; i < 120; ++i) r.update(kDt, m, 0.0f, true, -1);
  EXPECT_NEAR(r.lean(), 0.0f, 1e-3f);
  EXPECT_NEAR(r.bank(), 0.0f, 1e-3f);
  // Unknown motion: nothing reacts.
  BodyReactions u;
  BodyMotion unknown;
  unknown.accel = 8.0f;
  unknown.grounded = false;
  unknown.vy = -9.0f;
  for (int i = 0; i < 60; ++i) u.update(kDt, unknown, 0.0f, false, -1);
  EXPECT_EQ(u.lean(), 0.0f);
  EXPECT_EQ(u.fall_weight(), 0.0f);
}

TEST(BodyReactions, FallingFlailSpreadsTheArms) {
  BodyReactions r;
  BodyMotion m = grounded_motion();
  m.grounded = false;
  m.vy = -9.0f;
  for (int i = 0; i < 90; ++i) r.update(kDt, m, 0.0f, false, -1);
  const LimbAngles arm = r.motion_angles(0, true, true);
  EXPECT_GT(arm.spread, 40.0f);
  EXPECT_GT(r.fall_weight(), 0.9f);
  // Swimming does not count as falling into lean: the pose weight switches lean off.
  EXPECT_EQ(r.drop(), 0.0f);
}

}  // namespace
}  // namespace critter::creature
