// SPDX-License-Identifier: MIT
#include "critter/creature/legacy/flightless_bird.h"

#include <gtest/gtest.h>

#include <cmath>

#include "rig_test_support.h"

namespace critter::creature::legacy {
namespace {

using test::Bench;

FlightlessBirdRig& ostrich(Bench& b) {
  return static_cast<FlightlessBirdRig&>(*b.rig);
}

TEST(FlightlessBirdRig, LegsAlternateAndWidenAboveThreeQuartersWalkSpeed) {
  Bench b(Kind::kFlightlessBird, "ostrich");
  // dt = 0.1 s makes k = 1, so the legs reach their targets and the peaks are the amplitudes.
  float walk_peak = 0.0f;
  for (int f = 0; f < 600; ++f) {
    b.frame(test::walking(2.0f), 0.1f);  // W = 4: walk
    walk_peak = std::max(walk_peak, std::abs(ostrich(b).leg_angle(1)));
  }
  EXPECT_EQ(b.rig->outputs().gait, "walk");
  float run_peak = 0.0f;
  for (int f = 0; f < 600; ++f) {
    b.frame(test::walking(3.5f), 0.1f);  // > 0.75·W: amplitude ×1.5
    run_peak = std::max(run_peak, std::abs(ostrich(b).leg_angle(1)));
  }
  EXPECT_EQ(b.rig->outputs().gait, "run");
  EXPECT_NEAR(run_peak / walk_peak, 1.5f, 0.03f);
  EXPECT_NEAR(walk_peak, 0.42f, 0.01f);
  EXPECT_LT(ostrich(b).leg_angle(0) * ostrich(b).leg_angle(1), 0.0f);
  b.frame(test::walking(0.1f));
  EXPECT_EQ(ostrich(b).phase(), 0.0f);
}

TEST(FlightlessBirdRig, KickLiftsLegOneAndDeathRolls) {
  Bench b(Kind::kFlightlessBird);
  CreatureState s = test::walking(0.0f);
  s.is_attacking = true;
  int hits = 0;
  float peak = 0.0f;
  for (int f = 0; f < 30; ++f) {
    b.frame(s);
    peak = std::max(peak, ostrich(b).leg_angle(0));
    for (const RigEvent& e : b.rig->outputs().events.events()) {
      hits += e.type == RigEventType::kAttackHit;
    }
  }
  EXPECT_EQ(hits, 1);
  EXPECT_GT(peak, 40.0f * kDeg);
  s.is_attacking = false;
  s.health = 0.0f;
  s.death_cause_offset = vec3(0.0f, 0.0f, 0.0f);  // right·cause = 0: side −1
  for (int f = 0; f < 30; ++f) b.frame(s);
  EXPECT_LT(test::angle_between(b.turn("Body"), rot_z(-kPi / 2)), 1e-4f);
  EXPECT_LT(test::angle_between(b.turn("Head"), quat(1, 0, 0, 0)), 1e-5f);
}

}  // namespace
}  // namespace critter::creature::legacy
