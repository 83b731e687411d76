// SPDX-License-Identifier: MIT
#include "critter/creature/limbs/limb_angles.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace critter::creature {
namespace {

constexpr float kPi = std::numbers::pi_v<float>;

// Where a hanging limb's far end points after turning `pitch` degrees forward (forward is -z).
float end_z(float pitch_deg) {
  return -std::sin(pitch_deg * kPi / 180.0f);
}

TEST(LimbAngles, WalkBendNumbers) {
  EXPECT_LT(walk_bend(false, 0.0f, 0.0f), 10.0f);
  EXPECT_FLOAT_EQ(walk_bend(false, 0.0f, 0.0f), 4.0f);
  EXPECT_GT(walk_bend(false, 0.0f, 300.0f), 30.0f);
  EXPECT_LE(walk_bend(false, 0.0f, 5000.0f), 75.0f);
  EXPECT_FLOAT_EQ(walk_bend(false, 0.0f, 5000.0f), 75.0f);
  EXPECT_GT(walk_bend(true, 40.0f, 0.0f), walk_bend(true, -40.0f, 0.0f));
  EXPECT_FLOAT_EQ(walk_bend(true, 40.0f, 100.0f), 8.0f + 20.0f + 3.0f);
  EXPECT_FLOAT_EQ(walk_bend(true, 1000.0f, 0.0f), 80.0f);
}

TEST(LimbAngles, CrawlArmsCircleHalfAStrokeApart) {
  for (int i = 0; i < 64; ++i) {
    const float phi = (static_cast<float>(i) + 0.5f) * 2.0f * kPi / 64.0f;
    const LimbAngles right = stroke_angles(WaterPose::kSwim, true, true, phi);
    const LimbAngles left = stroke_angles(WaterPose::kSwim, true, false, phi);
    if (i < 32) {
      EXPECT_GT(end_z(right.pitch), 0.0f) << i;  // behind the body: recovery over the back
    } else {
      EXPECT_LT(end_z(right.pitch), 0.0f) << i;  // in front: the pull under the chest
    }
    const float sum = std::sin(right.pitch * kPi / 180.0f) + std::sin(left.pitch * kPi / 180.0f);
    EXPECT_NEAR(sum, 0.0f, 1e-4f) << i;
  }
  // Recovery lifts the elbow; the pull keeps it at 25.
  EXPECT_FLOAT_EQ(stroke_angles(WaterPose::kSwim, true, true, kPi / 2.0f).bend, 100.0f);
  EXPECT_FLOAT_EQ(stroke_angles(WaterPose::kSwim, true, true, 1.5f * kPi).bend, 25.0f);
  EXPECT_FLOAT_EQ(stroke_angles(WaterPose::kSwim, true, true, kPi / 2.0f).spread, 12.0f);
}

TEST(LimbAngles, FlutterKickBeatsThreeTimesAStroke) {
  const LimbAngles a = stroke_angles(WaterPose::kSwim, false, true, kPi / 6.0f);
  EXPECT_NEAR(a.pitch, 18.0f, 1e-4f);
  EXPECT_NEAR(a.bend, 12.0f, 1e-4f);
  const LimbAngles b = stroke_angles(WaterPose::kSwim, false, false, kPi / 6.0f);
  EXPECT_NEAR(b.pitch, -18.0f, 1e-4f);
  EXPECT_NEAR(stroke_angles(WaterPose::kSwim, false, true, 0.0f).bend, 30.0f, 1e-4f);
}

TEST(LimbAngles, BreaststrokeNumbers) {
  float max_pitch = -1e9f, max_spread = -1e9f, max_knee = -1e9f;
  for (int i = 0; i < 64; ++i) {
    const float phi = static_cast<float>(i) * 2.0f * kPi / 64.0f;
    const LimbAngles r = stroke_angles(WaterPose::kPaddle, true, true, phi);
    const LimbAngles l = stroke_angles(WaterPose::kPaddle, true, false, phi);
    EXPECT_EQ(r.pitch, l.pitch);
    EXPECT_EQ(r.spread, l.spread);
    EXPECT_EQ(r.bend, l.bend);
    max_pitch = std::max(max_pitch, r.pitch);
    max_spread = std::max(max_spread, r.spread);
    max_knee = std::max(max_knee, stroke_angles(WaterPose::kPaddle, false, true, phi).bend);
  }
  EXPECT_GT(max_pitch, 80.0f);
  EXPECT_GT(max_spread, 40.0f);
  EXPECT_GT(max_knee, 80.0f);
  // The legs lag the arms by half a stroke: full kick when the arms are reaching (φ = 0).
  EXPECT_FLOAT_EQ(stroke_angles(WaterPose::kPaddle, false, true, 0.0f).bend, 100.0f);
  EXPECT_FLOAT_EQ(stroke_angles(WaterPose::kPaddle, true, true, 0.0f).pitch, 95.0f);
}

TEST(LimbAngles, TreadAndClimbNumbers) {
  const LimbAngles arm = stroke_angles(WaterPose::kTread, true, true, 1.0f);
  const LimbAngles knee = stroke_angles(WaterPose::kTread, false, true, 1.0f);
  EXPECT_GT(arm.spread, 25.0f);
  EXPECT_GT(knee.bend, 45.0f);
  EXPECT_NEAR(arm.pitch, 25.0f + 20.0f * std::sin(1.0f), 1e-4f);
  EXPECT_FLOAT_EQ(knee.spread, 12.0f);

  const LimbAngles reach = stroke_angles(WaterPose::kClimb, true, true, kPi / 2.0f);
  EXPECT_FLOAT_EQ(reach.pitch, 175.0f);
  EXPECT_FLOAT_EQ(reach.bend, 30.0f);
  const LimbAngles other = stroke_angles(WaterPose::kClimb, true, false, kPi / 2.0f);
  EXPECT_NEAR(other.bend, 80.0f, 1e-4f);
  EXPECT_NEAR(stroke_angles(WaterPose::kClimb, false, true, 1.5f * kPi).bend, 90.0f, 1e-4f);
  EXPECT_EQ(stroke_angles(WaterPose::kNone, true, true, 1.0f).bend, 0.0f);
}

TEST(LimbAngles, StrokeRates) {
  const float two_pi = 2.0f * kPi;
  EXPECT_GT(stroke_rate(WaterPose::kPaddle, 2.0f), stroke_rate(WaterPose::kPaddle, 0.5f));
  EXPECT_GT(stroke_rate(WaterPose::kSwim, 3.0f), stroke_rate(WaterPose::kSwim, 0.5f));
  EXPECT_NEAR(stroke_rate(WaterPose::kSwim, 10.0f), two_pi * 1.25f, 1e-4f);
  EXPECT_NEAR(stroke_rate(WaterPose::kTread, 3.0f), two_pi * 0.8f, 1e-4f);
  EXPECT_NEAR(stroke_rate(WaterPose::kPaddle, 1.0f), two_pi * 0.7f, 1e-4f);
  EXPECT_NEAR(stroke_rate(WaterPose::kClimb, -1.8f), two_pi * 2.0f, 1e-4f);
  EXPECT_EQ(stroke_rate(WaterPose::kClimb, 0.0f), 0.0f);
  EXPECT_EQ(stroke_rate(WaterPose::kNone, 3.0f), 0.0f);
  EXPECT_NEAR(stroke_rate(WaterPose::kSwim, std::nanf("")), two_pi * 0.45f, 1e-4f);
}

TEST(LimbAngles, LandingNumbers) {
  EXPECT_EQ(land_depth(1.4f), 0.0f);
  EXPECT_FLOAT_EQ(land_depth(1.5f), 0.1f);
  EXPECT_NEAR(land_depth(4.4f), 0.305f, 0.01f);  // a one-node step down
  EXPECT_FLOAT_EQ(land_depth(11.0f), 1.0f);
  EXPECT_FLOAT_EQ(land_depth(40.0f), 1.0f);
  EXPECT_EQ(land_depth(std::nanf("")), 0.0f);
  const LimbAngles leg = land_angles(false, 0.5f);
  EXPECT_FLOAT_EQ(leg.pitch, 25.0f);
  EXPECT_FLOAT_EQ(leg.bend, 42.5f);
  const LimbAngles arm = land_angles(true, 1.0f);
  EXPECT_FLOAT_EQ(arm.pitch, 30.0f);
  EXPECT_FLOAT_EQ(arm.bend, 35.0f);
  EXPECT_EQ(land_angles(false, -1.0f).bend, 0.0f);
}

TEST(LimbAngles, LegShorteningKeepsTheFootUnderTheHip) {
  EXPECT_FLOAT_EQ(leg_shortening(3.15f, 3.15f, 0.0f, 0.0f), 0.0f);
  // Hip 50°, knee 85°: thigh 50° forward, shin 35° back from vertical.
  const float expected = 3.15f * (1.0f - std::cos(50.0f * kPi / 180.0f)) +
                         3.15f * (1.0f - std::cos(-35.0f * kPi / 180.0f));
  EXPECT_NEAR(leg_shortening(3.15f, 3.15f, 50.0f, 85.0f), expected, 1e-5f);
  EXPECT_NEAR(leg_shortening(3.15f, 3.15f, 50.0f, 85.0f), 1.695f, 0.01f);
  // A straight leg pitched 90° forward rises by its whole length.
  EXPECT_NEAR(leg_shortening(2.0f, 1.0f, 90.0f, 0.0f), 3.0f, 1e-5f);
}

}  // namespace
}  // namespace critter::creature
