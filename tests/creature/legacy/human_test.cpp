// SPDX-License-Identifier: MIT
#include "critter/creature/legacy/human.h"

#include <gtest/gtest.h>

#include <cmath>

#include "rig_test_support.h"

namespace critter::creature::legacy {
namespace {

using test::Bench;

HumanRig& human(Bench& b) {
  return static_cast<HumanRig&>(*b.rig);
}

TEST(HumanRig, WalkSwingsLegsAgainstHandsAndSettlesToAHalfCycle) {
  Bench b(Kind::kHuman, "player");
  CreatureState s = test::walking(2.0f);
  for (int f = 0; f < 40; ++f) b.frame(s);
  EXPECT_EQ(b.rig->outputs().gait, "walk");
  // φ rate s·WAS = 2·0.48 per second.
  const float before = human(b).phase();
  b.frame(s);
  EXPECT_NEAR(human(b).phase() - before, 2.0f * 0.48f / 60.0f, 1e-5f);
  // Legs in opposition; each hand swings against its leg.
  for (int f = 0; f < 20; ++f) b.frame(s);
  EXPECT_LT(human(b).leg(0).x * human(b).leg(1).x, 0.0f);
  // Stopping: the phase settles to 0 or 0.5 at 2 per second.
  s = test::walking(0.0f);
  for (int f = 0; f < 60; ++f) b.frame(s);
  const float p = human(b).phase();
  EXPECT_TRUE(p == 0.0f || p == 0.5f) << p;
  EXPECT_EQ(b.rig->outputs().gait, "idle");
}

TEST(HumanRig, PunchAlternatesHandsAndHitsAtHalf) {
  Bench b(Kind::kHuman);
  CreatureState s;
  s.is_attacking = true;
  int hits = 0;
  for (int f = 0; f < 60; ++f) {
    b.frame(s);
    for (const RigEvent& e : b.rig->outputs().events.events()) {
      hits += e.type == RigEventType::kAttackHit;
    }
  }
  EXPECT_EQ(hits, 2);
  EXPECT_EQ(human(b).punch().wraps, 2);
}

TEST(HumanRig, CrouchLowersTheBodyAndShortensTheLegs) {
  Bench b(Kind::kHuman);
  CreatureState s;
  s.crouch = true;
  for (int f = 0; f < 60; ++f) b.frame(s);
  EXPECT_FLOAT_EQ(human(b).crouch_factor(), 1.0f);
  const float f = sigma(1.0f, 4.0f);
  EXPECT_NEAR(b.bone("Body").translation.y, -0.7f * f, 1e-6f);
  EXPECT_NEAR(b.bone("Leg1").scale.z, 0.5f, 1e-6f);
  EXPECT_NEAR(b.bone("Leg1").translation.z - b.rest("Leg1").translation.z, 28.0f * 0.5f, 1e-4f);
}

TEST(HumanRig, DeathLaysTheBodyDownAndRowingPlaysItsSound) {
  Bench b(Kind::kHuman);
  CreatureState s;
  s.health = 0.0f;
  s.body_height = 1.6f;
  s.body_depth = 0.3f;
  for (int f = 0; f < 60; ++f) b.frame(s);
  EXPECT_LT(test::angle_between(b.turn("Body"), rot_x(kPi / 2)), 1e-4f);
  EXPECT_NEAR(b.bone("Body").translation.z, -0.8f, 1e-5f);
  EXPECT_NEAR(b.bone("Body").translation.y, 0.03f, 1e-5f);
  EXPECT_LT(test::angle_between(b.turn("Head"), quat(1, 0, 0, 0)), 1e-5f);

  Bench r(Kind::kHuman);
  CreatureState row;
  row.row = CreatureState::Row::kBoth;
  row.mount = CreatureState::Mount::kBoat;
  int sounds = 0;
  for (int f = 0; f < 120; ++f) {
    row.game_time = f / 60.0;
    r.frame(row);
    for (const RigEvent& e : r.rig->outputs().events.events()) {
      sounds += e.type == RigEventType::kRowingSound;
    }
  }
  EXPECT_EQ(sounds, 2);  // floor(1.1t) changes at 1/1.1 and 2/1.1 s
  EXPECT_EQ(r.rig->outputs().gait, "boat");
}

}  // namespace
}  // namespace critter::creature::legacy
