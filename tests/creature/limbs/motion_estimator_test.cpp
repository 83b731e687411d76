// SPDX-License-Identifier: MIT
#include "critter/creature/limbs/motion_estimator.h"

#include <gtest/gtest.h>

#include <cmath>

namespace critter::creature {
namespace {

constexpr float kDt = 1.0f / 60.0f;

TEST(MotionEstimator, SpeedAccelAndYawRateFromPositions) {
  MotionEstimator e;
  BodyMotion m = e.update(vec3(0.0f), 0.0f, true, kDt);
  EXPECT_TRUE(m.known);
  EXPECT_EQ(m.speed, 0.0f);
  vec3 p(0.0f);
  float yaw = 0.0f;
  for (int i = 0; i < 120; ++i) {
    p.z -= 3.0f * kDt;
    yaw += 90.0f * kDt;
    m = e.update(p, yaw, true, kDt);
  }
  EXPECT_NEAR(m.speed, 3.0f, 0.01f);
  EXPECT_NEAR(m.yaw_rate, 90.0f, 0.5f);
  EXPECT_NEAR(m.accel, 0.0f, 0.1f);
  EXPECT_TRUE(m.grounded);
  // Speeding up: accel positive while it changes.
  for (int i = 0; i < 10; ++i) {
    p.z -= 6.0f * kDt;
    m = e.update(p, yaw, true, kDt);
  }
  EXPECT_GT(m.accel, 5.0f);
  EXPECT_LE(m.accel, 30.0f);
}

TEST(MotionEstimator, IgnoresTeleportsAndCapsSpeed) {
  MotionEstimator e;
  e.update(vec3(0.0f), 0.0f, true, kDt);
  BodyMotion m = e.update(vec3(100.0f, 0.0f, 0.0f), 0.0f, true, kDt);
  EXPECT_EQ(m.speed, 0.0f);
  vec3 p(100.0f, 0.0f, 0.0f);
  for (int i = 0; i < 200; ++i) {
    p.x += 20.0f * kDt;
    m = e.update(p, 0.0f, true, kDt);
  }
  EXPECT_NEAR(m.speed, 12.0f, 1e-3f);
}

TEST(MotionEstimator, FallingIsNotGroundedAndYawWraps) {
  MotionEstimator e;
  vec3 p(0.0f, 10.0f, 0.0f);
  e.update(p, 179.0f, true, kDt);
  BodyMotion m{};
  float yaw = 179.0f;
  for (int i = 0; i < 30; ++i) {
    p.y -= 5.0f * kDt;
    yaw += 60.0f * kDt;
    if (yaw > 180.0f) yaw -= 360.0f;
    m = e.update(p, yaw, true, kDt);
  }
  EXPECT_LT(m.vy, -4.0f);
  EXPECT_FALSE(m.grounded);  // a walkable node below, but moving too fast
  EXPECT_NEAR(m.yaw_rate, 60.0f, 3.0f);
  const BodyMotion same = e.update(vec3(std::nanf("")), 0.0f, true, kDt);
  EXPECT_EQ(same.vy, m.vy);
}

}  // namespace
}  // namespace critter::creature
