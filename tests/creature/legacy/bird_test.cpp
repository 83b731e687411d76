// SPDX-License-Identifier: MIT
#include "critter/creature/legacy/bird.h"

#include <gtest/gtest.h>

#include <cmath>

#include "rig_test_support.h"

namespace critter::creature::legacy {
namespace {

using test::Bench;

BirdRig& bird(Bench& b) {
  return static_cast<BirdRig&>(*b.rig);
}

TEST(BirdRig, PeckUsesCosOfTwoPiPhase) {
  Bench b(Kind::kBird);
  CreatureState s;
  s.is_on_ground = true;
  s.is_feeding = true;
  for (int f = 0; f < 17; ++f) b.frame(s);
  const float peck = bird(b).peck_phase();
  ASSERT_GT(peck, 0.1f);
  // Standing still: φ = 0, so n = −1.25·(1 − (c >= 0 ? c : −.5c)) with c = cos(2π·peck).
  const float c = std::cos(2.0f * kPi * peck);
  const float expected = -1.25f * (1.0f - (c >= 0.0f ? c : -0.5f * c));
  EXPECT_NEAR(bird(b).neck_pitch(), expected, 1e-5f);
  // The source's precedence bug (cos(peck) without 2π) would give another value.
  const float buggy_c = std::cos(peck);
  const float buggy = -1.25f * (1.0f - (buggy_c >= 0.0f ? buggy_c : -0.5f * buggy_c));
  EXPECT_GT(std::abs(bird(b).neck_pitch() - buggy), 0.05f);
  EXPECT_LT(test::angle_between(b.turn("Neck"), rot_x(expected)), 1e-5f);
}

TEST(BirdRig, PeckCycleStaysBetweenQuarterAndThreeQuartersThenRunsOut) {
  Bench b(Kind::kBird);
  CreatureState s;
  s.is_on_ground = true;
  s.is_feeding = true;
  for (int f = 0; f < 120; ++f) {
    b.frame(s);
    EXPECT_LE(bird(b).peck_phase(), 0.75f);
  }
  s.is_feeding = false;
  for (int f = 0; f < 60; ++f) b.frame(s);
  EXPECT_EQ(bird(b).peck_phase(), 0.0f);
}

TEST(BirdRig, InFlightTheLegsTuckAndTheWingsFlap) {
  Bench b(Kind::kBird, "pigeon");
  CreatureState s;
  s.is_flying = true;
  s.velocity = vec3(0, 0, -3);
  s.fly_order = vec3(0, 0, -1);
  float lo = 10.0f, hi = -10.0f;
  for (int f = 0; f < 60; ++f) {
    b.frame(s);
    lo = std::min(lo, bird(b).wing_angle());
    hi = std::max(hi, bird(b).wing_angle());
  }
  EXPECT_EQ(b.rig->outputs().gait, "fly");
  EXPECT_LT(test::angle_between(b.turn("Leg1"), rot_x(-60.0f * kDeg)), 1e-5f);
  EXPECT_LT(test::angle_between(b.turn("Leg2"), rot_x(-60.0f * kDeg)), 1e-5f);
  EXPECT_NEAR(lo, -1.2f, 0.05f);  // wing = 1.2·sin(2π(FlyPhase + .75)), FAS·1.5 = 6 flaps/s
  EXPECT_NEAR(hi, 1.2f, 0.05f);
  EXPECT_LT(test::angle_between(b.turn("Wing1"), rot_y(bird(b).wing_angle())), 1e-5f);
  EXPECT_LT(test::angle_between(b.turn("Wing2"), rot_y(-bird(b).wing_angle())), 1e-5f);
  // Diving fast: the glide pose, FlyPhase pinned at 0.72.
  s.fly_order = vec3(0, -0.5f, -0.5f);
  s.velocity = vec3(0, -4, -3);
  b.frame(s);
  EXPECT_FLOAT_EQ(bird(b).fly_phase(), 0.72f);
  EXPECT_EQ(b.rig->outputs().gait, "glide");
  // Landed: legs walk again, the wings fold toward FlyPhase 1 (wing −1.2).
  CreatureState ground;
  ground.is_on_ground = true;
  for (int f = 0; f < 120; ++f) b.frame(ground);
  EXPECT_FLOAT_EQ(bird(b).fly_phase(), 1.0f);
  EXPECT_NEAR(bird(b).wing_angle(), -1.2f, 1e-4f);
  EXPECT_LT(test::angle_between(b.turn("Leg1"), quat(1, 0, 0, 0)), 1e-5f);
}

TEST(BirdRig, SpeciesAndKickSpeed) {
  EXPECT_FLOAT_EQ(BirdRig::preset("sparrow")->fly_animation_speed, 5.0f);
  EXPECT_FLOAT_EQ(BirdRig::preset("pigeon")->peck_animation_speed, 3.0f);
  EXPECT_FLOAT_EQ(BirdRig::preset("seagull")->walk_animation_speed, 1.5f);
  Bench b(Kind::kBird);
  CreatureState s;
  s.is_on_ground = true;
  s.is_attacking = true;
  b.frame(s, 0.1f);
  EXPECT_NEAR(bird(b).kick_phase(), 0.2f, 1e-6f);  // KickAnimationSpeed defaults to PAS = 2
  ASSERT_TRUE(b.rig->set_setting("KickAnimationSpeed", 1.0f));
  b.frame(s, 0.1f);
  EXPECT_NEAR(bird(b).kick_phase(), 0.3f, 1e-6f);
}

}  // namespace
}  // namespace critter::creature::legacy
