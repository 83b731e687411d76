// SPDX-License-Identifier: MIT
#include "critter/creature/legacy/fish.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "rig_test_support.h"

namespace critter::creature::legacy {
namespace {

using test::Bench;

FishRig& fish(Bench& b) {
  return static_cast<FishRig&>(*b.rig);
}

float c1(float x) {
  return std::clamp(x, -1.0f, 1.0f);
}

TEST(FishRig, VerticalTailSweepsOnXAndOthersOnZ) {
  for (std::string_view species : {"orca", "bass"}) {
    Bench b(Kind::kFish, species);
    const bool vertical = fish(b).settings().has_vertical_tail;
    EXPECT_EQ(vertical, species == "orca");
    CreatureState s;
    s.immersion_factor = 1.0f;
    s.swim_order = vec3(0, 0, -1);  // |order|² = 1 > .99: m = 1.75
    s.turn_order = vec2(0.3f, 0.0f);
    s.bend_order = 0.2f;
    for (int f = 0; f < 50; ++f) {
      b.frame(s);
      const float phi = fish(b).phase();
      const vec2 turn = fish(b).turn();
      const float tau = 2.0f * kPi;
      vec2 t1, t2;  // (Z, X)
      if (vertical) {
        // w = digTail + wag = 0.
        t1 = vec2(25 * kDeg * c1(0.5f * std::sin(0.0f) - turn.x),
                  25 * kDeg * c1(0.5f * std::sin(tau * phi) - turn.y));
        t2 = vec2(30 * kDeg * c1(0.5f * std::sin(0.0f) - turn.x),
                  30 * kDeg * c1(0.5f * std::sin(tau * std::max(phi - 0.25f, 0.0f)) - turn.y));
      } else {
        t1 = vec2(25 * kDeg * c1(0.5f * std::sin(tau * phi) - turn.x), 25 * kDeg * c1(-turn.y));
        t2 = vec2(30 * kDeg * c1(0.5f * std::sin(tau * std::max(phi - 0.25f, 0.0f)) - turn.x),
                  30 * kDeg * c1(-turn.y));
      }
      EXPECT_NEAR(fish(b).tail(0).x, t1.x, 1e-5f);
      EXPECT_NEAR(fish(b).tail(0).y, t1.y, 1e-5f);
      EXPECT_NEAR(fish(b).tail(1).x, t2.x, 1e-5f);
      EXPECT_NEAR(fish(b).tail(1).y, t2.y, 1e-5f);
      EXPECT_LT(test::angle_between(b.turn("Tail1"), rot_x(t1.y) * rot_z(t1.x)), 1e-5f);
    }
    // The bend order goes to turn.Y for a vertical tail, turn.X otherwise.
    EXPECT_FLOAT_EQ(vertical ? fish(b).turn().y : fish(b).turn().x, 0.2f);
    // Swim rate SAS·1.75.
    const float sas = fish(b).settings().swim_animation_speed;
    EXPECT_NEAR(fish(b).phase(), 50.0f * sas * 1.75f / 60.0f, 1e-4f);
  }
}

TEST(FishRig, WithoutABendOrderTheTurnFollowsTheTurnOrder) {
  Bench b(Kind::kFish);
  CreatureState s;
  s.turn_order = vec2(0.5f, 0.0f);
  for (int f = 0; f < 300; ++f) b.frame(s);
  EXPECT_NEAR(fish(b).turn().x, -0.5f, 1e-4f);
  // No swim order: φ += .15·SAS·dt.
  EXPECT_NEAR(fish(b).phase(), 300.0f * 0.15f / 60.0f, 1e-3f);
  EXPECT_EQ(b.rig->outputs().gait, "drift");
}

TEST(FishRig, DeathTurnsBellyUpAndRises) {
  Bench b(Kind::kFish);
  CreatureState s;
  s.health = 0.0f;
  s.body_height = 0.2f;
  for (int f = 0; f < 60; ++f) b.frame(s);
  EXPECT_LT(test::angle_between(b.turn("Body"), rot_z(kPi)), 1e-4f);
  EXPECT_NEAR(b.bone("Body").translation.y - b.rest("Body").translation.y, 0.2f, 1e-6f);
  EXPECT_LT(test::angle_between(b.turn("Tail1"), quat(1, 0, 0, 0)), 1e-5f);
}

TEST(FishRig, BiteOpensTheJawAndHitsAtHalf) {
  Bench b(Kind::kFish);
  CreatureState s;
  s.is_attacking = true;
  int hits = 0;
  for (int f = 0; f < 60; ++f) {  // TurnSpeed 3: three bites a second
    b.frame(s);
    for (const RigEvent& e : b.rig->outputs().events.events()) {
      hits += e.type == RigEventType::kAttackHit;
    }
  }
  EXPECT_EQ(hits, 3);
  EXPECT_TRUE(FishRig::preset("great_white"));
  EXPECT_FLOAT_EQ(FishRig::preset("Piranha")->swim_animation_speed, 1.6f);
}

}  // namespace
}  // namespace critter::creature::legacy
