// SPDX-License-Identifier: MIT
#include "critter/creature/legacy/four_legged.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <string>

#include "rig_test_support.h"

namespace critter::creature::legacy {
namespace {

using test::Bench;
using test::kDt;
using test::walking;

FourLeggedRig& four(Bench& b) {
  return static_cast<FourLeggedRig&>(*b.rig);
}

struct Measured {
  std::array<float, 4> offsets{};  // cycles, relative to leg 1, in [0, 1)
  std::array<float, 4> amplitudes{};
  float rate = 0.0f;  // cycles per second
  std::string gait;
};

// Runs `seconds` at `speed` after a warm-up and measures each leg's phase against the rig's phase
// (the fundamental of L_i over φ) and the phase rate.
Measured measure(Bench& b, float speed, float seconds) {
  const CreatureState s = walking(speed);
  for (int f = 0; f < 120; ++f) b.frame(s);
  std::array<double, 4> c{}, sn{};
  double advanced = 0.0;
  float last = four(b).phase();
  const int frames = static_cast<int>(std::lround(seconds / kDt));
  Measured m;
  for (int f = 0; f < frames; ++f) {
    b.frame(s);
    const float phi = four(b).phase();
    float d = phi - last;
    if (d < -0.5f) d += 1.0f;
    advanced += d;
    last = phi;
    for (int i = 0; i < 4; ++i) {
      const double l = four(b).leg_angle(i);
      c[static_cast<std::size_t>(i)] += l * std::cos(2.0 * kPi * phi);
      sn[static_cast<std::size_t>(i)] += l * std::sin(2.0 * kPi * phi);
    }
  }
  m.gait = std::string(b.rig->outputs().gait);
  m.rate = static_cast<float>(advanced / (frames * kDt));
  const double base = std::atan2(c[0], sn[0]);
  for (std::size_t i = 0; i < 4; ++i) {
    double o = (std::atan2(c[i], sn[i]) - base) / (2.0 * kPi);
    o -= std::floor(o);
    m.offsets[i] = static_cast<float>(o);
    m.amplitudes[i] = static_cast<float>(std::hypot(c[i], sn[i]) * 2.0 / frames);
  }
  return m;
}

float cycle_distance(float a, float b) {
  float d = std::abs(a - b);
  d -= std::floor(d);
  return std::min(d, 1.0f - d);
}

TEST(FourLeggedRig, EachGaitsLegPhasesAndRateMatchTheTable) {
  struct Case {
    const char* species;
    float speed;
    const char* gait;
    std::array<float, 4> offsets;
    float rate;  // φ̇
    float amp_front, amp_hind;
    float seconds;  // a whole number of cycles, so the fundamental is measured without leakage
  };
  const Case cases[] = {
      {"default", 1.5f, "walk", {0, .5f, .25f, .75f}, 1.5f, .55f, .4f, 4.0f},
      {"wolf", 2.5f, "trot", {0, .5f, .5f, 0}, 0.9f * 2.5f, .55f, .4f, 4.0f},
      {"default", 5.0f, "canter", {0, .25f, .15f, .4f}, 0.7f * 5.0f, 1.5f * .55f, 1.5f * .4f, 4.0f},
      {"wolf",
       5.0f,
       "canter",
       {0, .25f, .15f, .4f},
       0.7f * 0.9f * 5.0f,
       1.65f * .55f,
       1.65f * .4f,
       400.0f / 60.0f},
  };
  for (const Case& k : cases) {
    Bench b(Kind::kFourLegged, k.species);
    const Measured m = measure(b, k.speed, k.seconds);
    EXPECT_EQ(m.gait, k.gait) << k.species << " " << k.speed;
    for (std::size_t i = 0; i < 4; ++i) {
      EXPECT_LT(cycle_distance(m.offsets[i], k.offsets[i]), 0.02f)
          << k.gait << " leg " << i + 1 << " measured " << m.offsets[i];
    }
    EXPECT_NEAR(m.rate, k.rate, 1e-3f) << k.gait;
    // The smoothing filter has the same gain for every leg: the ratio is exact.
    EXPECT_NEAR(m.amplitudes[0] / m.amplitudes[2], k.amp_front / k.amp_hind, 2e-3f) << k.gait;
    EXPECT_NEAR(m.amplitudes[1] / m.amplitudes[3], k.amp_front / k.amp_hind, 2e-3f) << k.gait;
  }
}

TEST(FourLeggedRig, GaitSwitchesAtPointSevenAndPointFiveWalkSpeed) {
  Bench wolf(Kind::kFourLegged, "wolf");  // trots and canters, W = 4
  wolf.frame(walking(1.99f));
  EXPECT_EQ(four(wolf).gait(), FourLeggedRig::Gait::kWalk);
  wolf.frame(walking(2.01f));
  EXPECT_EQ(four(wolf).gait(), FourLeggedRig::Gait::kTrot);
  wolf.frame(walking(2.79f));
  EXPECT_EQ(four(wolf).gait(), FourLeggedRig::Gait::kTrot);
  wolf.frame(walking(2.81f));
  EXPECT_EQ(four(wolf).gait(), FourLeggedRig::Gait::kCanter);
  EXPECT_EQ(wolf.rig->outputs().gait, "canter");
  wolf.frame(walking(0.1f));
  EXPECT_EQ(wolf.rig->outputs().gait, "idle");
  EXPECT_EQ(four(wolf).phase(), 0.0f);
}

TEST(FourLeggedRig, OnlySpeciesThatTrotEverTrot) {
  for (std::string_view species : FourLeggedRig::species_names()) {
    Bench b(Kind::kFourLegged, species);
    bool trotted = false;
    bool cantered = false;
    for (int v = 0; v <= 100; ++v) {
      b.frame(walking(0.1f * static_cast<float>(v)));
      trotted |= four(b).gait() == FourLeggedRig::Gait::kTrot;
      cantered |= four(b).gait() == FourLeggedRig::Gait::kCanter;
    }
    const auto preset = *FourLeggedRig::preset(species);
    EXPECT_EQ(trotted, preset.can_trot) << species;
    EXPECT_EQ(cantered, preset.can_canter) << species;
  }
  EXPECT_TRUE(FourLeggedRig::preset("wolf")->can_trot);
  EXPECT_FALSE(FourLeggedRig::preset("camel")->can_canter);
  EXPECT_FLOAT_EQ(FourLeggedRig::preset("horse")->walk_bob_height, 0.05f);
}

TEST(FourLeggedRig, DeathRollsTheBodyNinetyDegreesToTheSideOfTheCause) {
  for (float cause_x : {2.0f, -2.0f}) {
    Bench b(Kind::kFourLegged);
    CreatureState s = walking(0.0f);
    s.health = 0.0f;
    s.death_cause_offset = vec3(cause_x, 0.0f, 0.0f);  // right·cause has the sign of cause_x
    for (int f = 0; f < 30; ++f) b.frame(s);           // DP = 3/s · 0.5 s, clamped at 1
    EXPECT_FLOAT_EQ(b.rig->outputs().death_phase, 1.0f);
    EXPECT_EQ(b.rig->outputs().gait, "dead");
    const float side = cause_x > 0.0f ? 1.0f : -1.0f;
    // Body = RotZ(side·90°) over the rest rotation: the body's up ends along −side·X.
    const quat body = b.turn("Body");
    EXPECT_LT(test::angle_between(body, rot_z(side * kPi / 2)), 1e-4f);
    const vec3 up = b.bone("Body").rotation * vec3(0, 0, 1);  // bone +Z is up
    EXPECT_NEAR(up.x, -side, 1e-4f);
    // Head RotX(50°), neck identity, legs × (1 − DP) = 0.
    EXPECT_LT(test::angle_between(b.turn("Head"), rot_x(50.0f * kDeg)), 1e-4f);
    EXPECT_LT(test::angle_between(b.turn("Neck"), quat(1, 0, 0, 0)), 1e-5f);
    EXPECT_LT(test::angle_between(b.turn("Leg1"), quat(1, 0, 0, 0)), 1e-5f);
  }
}

TEST(FourLeggedRig, FootstepsAndTheCanterSound) {
  Bench b(Kind::kFourLegged);
  int steps = 0;
  for (int f = 0; f < 120; ++f) {  // walk at 1.6 m/s for 2 s: 1.25·1.6·2 = 4 footsteps
    b.frame(walking(1.6f));
    for (const RigEvent& e : b.rig->outputs().events.events()) {
      EXPECT_EQ(e.type, RigEventType::kFootstep);
      ++steps;
    }
  }
  EXPECT_NEAR(steps, 4, 1);
  int canter = 0;
  for (int f = 0; f < 120; ++f) {  // canter at 5 m/s: 0.7·5·2 = 7
    b.frame(walking(5.0f));
    for (const RigEvent& e : b.rig->outputs().events.events()) {
      EXPECT_EQ(e.type, RigEventType::kCanterSound);
      ++canter;
    }
  }
  EXPECT_NEAR(canter, 7, 1);
}

TEST(FourLeggedRig, HeadSplitsLookBetweenNeckAndHeadWithClamps) {
  Bench b(Kind::kFourLegged);
  CreatureState s = walking(0.0f);
  s.look_angle_x = 2.0f;  // beyond 65°
  s.look_angle_y = 0.3f;
  b.frame(s);
  const float yaw = 65.0f * kDeg;
  EXPECT_LT(test::angle_between(b.turn("Neck"), rot_z(-0.6f * yaw) * rot_x(0.6f * 0.3f)), 1e-5f);
  EXPECT_LT(test::angle_between(b.turn("Head"), rot_z(-0.4f * yaw) * rot_x(0.4f * 0.3f)), 1e-5f);
}

TEST(FourLeggedRig, FeedingAndButtingLowerTheHead) {
  Bench b(Kind::kFourLegged);
  CreatureState s = walking(0.0f);
  s.is_feeding = true;
  for (int f = 0; f < 60; ++f) b.frame(s);
  EXPECT_FLOAT_EQ(four(b).feed_factor(), 1.0f);
  const vec3 nose = b.turn("Head") * vec3(0, 1, 0);
  EXPECT_LT(nose.z, -std::sin(0.4f * 20.0f * kDeg));  // pitched down
  s.is_feeding = false;
  s.is_attacking = true;
  int hits = 0;
  for (int f = 0; f < 60; ++f) {
    b.frame(s);
    for (const RigEvent& e : b.rig->outputs().events.events()) {
      hits += e.type == RigEventType::kAttackHit;
    }
  }
  EXPECT_EQ(hits, 2);
}

TEST(FourLeggedRig, SettingsByNameAndUnknownNames) {
  Bench b(Kind::kFourLegged);
  EXPECT_TRUE(b.rig->set_setting("cantrot", 1.0f));
  EXPECT_TRUE(four(b).settings().can_trot);
  EXPECT_TRUE(b.rig->set_setting("WalkAnimationSpeed", 0.5f));
  EXPECT_FLOAT_EQ(*b.rig->setting("walkanimationspeed"), 0.5f);
  auto bad = b.rig->set_setting("WalkAnimSpeed", 1.0f);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("WalkAnimationSpeed"), std::string::npos)
      << bad.error().message;
  EXPECT_FALSE(b.rig->set_setting("CanTrot", NAN));
}

}  // namespace
}  // namespace critter::creature::legacy
