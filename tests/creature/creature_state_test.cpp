// SPDX-License-Identifier: MIT
// Body axes, yaw/pitch/roll and speeds of a CreatureState, against values worked out by hand
// from R = R_Y(yaw)·R_X(pitch)·R_Z(roll) and the body frame (forward -Z, right +X, up +Y).
#include "critter/creature/creature_state.h"
#include "support/math_helpers.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace critter::creature {
namespace {

using critter::testing::kPi;

constexpr float kEps = 1e-5f;

void expect_vec(const vec3& actual, const vec3& expected, float eps = kEps) {
  EXPECT_NEAR(actual.x, expected.x, eps);
  EXPECT_NEAR(actual.y, expected.y, eps);
  EXPECT_NEAR(actual.z, expected.z, eps);
}

TEST(CreatureStateTest, IdentityBodyFacesMinusZWithRightPlusX) {
  const quat identity{1.0f, 0.0f, 0.0f, 0.0f};
  expect_vec(body_forward(identity), {0, 0, -1});
  expect_vec(body_right(identity), {1, 0, 0});
}

TEST(CreatureStateTest, YawTurnsTheAxesAboutY) {
  // R_Y(90°) maps (x, z) to (z, -x): forward (0, 0, -1) -> (-1, 0, 0), right (1, 0, 0) -> (0, 0,
  // -1).
  const quat q = from_yaw_pitch_roll(kPi / 2, 0.0f, 0.0f);
  expect_vec(body_forward(q), {-1, 0, 0});
  expect_vec(body_right(q), {0, 0, -1});
}

TEST(CreatureStateTest, PitchIsAppliedBeforeYaw) {
  // R_X(p)·(0, 0, -1) = (0, sin p, -cos p) (nose up for p > 0); then R_Y(90°) turns it to
  // (-cos p, sin p, 0).
  const float p = 0.5f;
  const quat q = from_yaw_pitch_roll(kPi / 2, p, 0.0f);
  expect_vec(body_forward(q), {-std::cos(p), std::sin(p), 0.0f});
  // Roll turns right about the forward axis before pitch and yaw: R_Z(r)·(1, 0, 0) =
  // (cos r, sin r, 0).
  const float r = 0.3f;
  expect_vec(body_right(from_yaw_pitch_roll(0.0f, 0.0f, r)), {std::cos(r), std::sin(r), 0.0f});
}

TEST(CreatureStateTest, SingleAxisQuaternionsReadBackAsOneAngle) {
  // Half angles written out: a turn of 2a about an axis is (sin a · axis, cos a).
  expect_vec(to_yaw_pitch_roll(quat_xyzw(0.0f, std::sin(0.35f), 0.0f, std::cos(0.35f))),
             {0.7f, 0, 0});
  expect_vec(to_yaw_pitch_roll(quat_xyzw(std::sin(-0.2f), 0.0f, 0.0f, std::cos(-0.2f))),
             {0, -0.4f, 0});
  expect_vec(to_yaw_pitch_roll(quat_xyzw(0.0f, 0.0f, std::sin(0.3f), std::cos(0.3f))),
             {0, 0, 0.6f});
  // A turn of 180° about Y (yaw at the edge of the range).
  const vec3 half_turn = to_yaw_pitch_roll(quat_xyzw(0.0f, 1.0f, 0.0f, 0.0f));
  EXPECT_NEAR(std::abs(half_turn.x), kPi, kEps);
  EXPECT_NEAR(half_turn.y, 0.0f, kEps);
  EXPECT_NEAR(half_turn.z, 0.0f, kEps);
}

TEST(CreatureStateTest, YawPitchRollRoundTripsAndIgnoresScale) {
  const vec3 ypr{0.3f, -0.2f, 0.5f};
  const quat q = from_yaw_pitch_roll(ypr.x, ypr.y, ypr.z);
  expect_vec(to_yaw_pitch_roll(q), ypr);
  expect_vec(to_yaw_pitch_roll(q * 3.0f), ypr);
  expect_vec(to_yaw_pitch_roll(from_yaw_pitch_roll(-2.5f, 1.2f, -3.0f)), {-2.5f, 1.2f, -3.0f});
}

TEST(CreatureStateTest, GimbalLockPutsTheWholeTurnIntoYaw) {
  // At pitch +90° yaw and roll turn about the same world axis: R_Y(y)·R_X(90°)·R_Z(r) equals
  // R_Y(y - r)·R_X(90°), reported with roll 0.
  const vec3 a = to_yaw_pitch_roll(from_yaw_pitch_roll(0.7f, kPi / 2, 0.2f));
  EXPECT_NEAR(a.x, 0.5f, 1e-3f);
  EXPECT_NEAR(a.y, kPi / 2, 1e-3f);
  EXPECT_EQ(a.z, 0.0f);
  // At pitch -90° they add up: R_Y(y)·R_X(-90°)·R_Z(r) = R_Y(y + r)·R_X(-90°).
  const vec3 b = to_yaw_pitch_roll(from_yaw_pitch_roll(0.7f, -kPi / 2, 0.2f));
  EXPECT_NEAR(b.x, 0.9f, 1e-3f);
  EXPECT_NEAR(b.y, -kPi / 2, 1e-3f);
  EXPECT_EQ(b.z, 0.0f);
}

TEST(CreatureStateTest, ForwardSpeedUsesSlipSpeedWhenSet) {
  CreatureState s;
  s.rotation = from_yaw_pitch_roll(kPi / 2, 0.0f, 0.0f);  // forward (-1, 0, 0)
  s.velocity = {-2.0f, 1.0f, 0.5f};
  EXPECT_NEAR(forward_speed(s), 2.0f, kEps);
  s.velocity = {3.0f, 0.0f, 0.0f};
  EXPECT_NEAR(forward_speed(s), -3.0f, kEps);  // backing up
  s.slip_speed = 0.7f;
  EXPECT_FLOAT_EQ(forward_speed(s), 0.7f);
}

TEST(CreatureStateTest, HorizontalSpeedDropsVerticalVelocity) {
  CreatureState s;
  s.velocity = {3.0f, -12.0f, 4.0f};
  EXPECT_FLOAT_EQ(horizontal_speed(s), 5.0f);
}

TEST(CreatureStateTest, EntityTransformRotatesThenTranslates) {
  CreatureState s;
  s.position = {1.0f, 2.0f, 3.0f};
  s.rotation = from_yaw_pitch_roll(kPi / 2, 0.0f, 0.0f);
  // (0, 0, -1) turns to (-1, 0, 0), then moves by the position.
  expect_vec(vec3(entity_transform(s) * vec4(0, 0, -1, 1)), {0, 2, 3});
}

}  // namespace
}  // namespace critter::creature
