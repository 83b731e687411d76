// SPDX-License-Identifier: MIT
#include "critter/creature/legacy/common.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <initializer_list>

namespace critter::creature::legacy {
namespace {

// h(i) computed by hand with 64-bit arithmetic reduced to 32 bits at each step.
double hash_by_hand(std::int64_t i) {
  auto wrap = [](std::int64_t v) {
    return static_cast<std::int64_t>(static_cast<std::int32_t>(static_cast<std::uint32_t>(v)));
  };
  const std::int64_t n = wrap(wrap(i << 13) ^ i);
  const std::int64_t inner = wrap(wrap(n * n) * 15731 + 789221);
  const std::int64_t v = wrap(wrap(n * inner) + 1376312589);
  return static_cast<double>(v & 0x7FFFFFFF) / 2147483648.0;
}

TEST(LegacyCommon, SigmaMatchesHandComputedValues) {
  EXPECT_EQ(sigma(-1.0f, 4.0f), 0.0f);
  EXPECT_EQ(sigma(0.0f, 4.0f), 0.0f);
  EXPECT_EQ(sigma(1.0f, 4.0f), 1.0f);
  EXPECT_EQ(sigma(2.0f, 4.0f), 1.0f);
  // x = 0.5, k = 4: e^4·(e^4 − 1)/((e^4 − 1)·(e^4 + e^4)) = 1/2.
  EXPECT_NEAR(sigma(0.5f, 4.0f), 0.5f, 1e-6f);
  // x = 0.25, k = 4: e^4·(e^2 − 1)/((e^4 − 1)(e^2 + e^4)).
  const double e2 = std::exp(2.0), e4 = std::exp(4.0);
  EXPECT_NEAR(sigma(0.25f, 4.0f), e4 * (e2 - 1) / ((e4 - 1) * (e2 + e4)), 1e-6);
  EXPECT_NEAR(
      sigma(0.1f, 5.0f),
      std::exp(5.0) * (std::exp(1.0) - 1) / ((std::exp(5.0) - 1) * (std::exp(1.0) + std::exp(5.0))),
      1e-6);
  EXPECT_EQ(sigma(NAN, 4.0f), 0.0f);
}

TEST(LegacyCommon, LatticeHashMatchesTheFormula) {
  // n = 0 for i = 0: (0 + 1376312589) & 0x7FFFFFFF / 2^31.
  EXPECT_NEAR(lattice_hash(0), 1376312589.0 / 2147483648.0, 1e-7);
  for (std::int64_t i : std::initializer_list<std::int64_t>{1, 2, 3, -1, -7, 1000, 123456, -98765,
                                                            2147483647, -2147483648LL}) {
    EXPECT_NEAR(lattice_hash(static_cast<std::int32_t>(i)), hash_by_hand(i), 1e-7) << i;
  }
}

TEST(LegacyCommon, NoiseIsInRangeContinuousAndEqualsTheHashAtIntegers) {
  for (int i = -20; i <= 20; ++i) {
    EXPECT_FLOAT_EQ(noise(static_cast<float>(i)), lattice_hash(i)) << i;
  }
  float previous = noise(-10.0f);
  for (int s = 1; s <= 20000; ++s) {
    const float x = -10.0f + static_cast<float>(s) * 0.001f;
    const float n = noise(x);
    EXPECT_GE(n, 0.0f);
    EXPECT_LE(n, 1.0f);
    EXPECT_LT(std::abs(n - previous), 0.01f) << x;  // continuous: small steps, small changes
    previous = n;
  }
  // Hand-computed at x = 2.25: h(2) + f²(3 − 2f)(h(3) − h(2)), f = .25 → weight 0.15625.
  EXPECT_NEAR(noise(2.25f), hash_by_hand(2) + 0.15625 * (hash_by_hand(3) - hash_by_hand(2)), 1e-6);
  EXPECT_EQ(noise(NAN), noise(0.0f));
}

TEST(LegacyCommon, OctaveNoiseIsTheWeightedMean) {
  const float x = 1.3f;
  const float expected = (noise(x * 3.0f) + 0.75f * noise(x * 6.0f)) / 1.75f;
  EXPECT_NEAR(oct_noise(x, 3.0f, 2, 2.0f, 0.75f), expected, 1e-6f);
  EXPECT_NEAR(oct_noise(x, 3.0f, 1, 2.0f, 0.75f), noise(x * 3.0f), 1e-6f);
}

TEST(LegacyCommon, SmoothingFactor) {
  EXPECT_FLOAT_EQ(smoothing(1.0f / 60.0f), 0.2f);
  EXPECT_EQ(smoothing(0.5f), 1.0f);
  EXPECT_EQ(smoothing(0.0f), 0.0f);
}

TEST(LegacyCommon, AttackCycleHitsOnceAtHalfAndFinishesItsCycle) {
  AttackCycle a;
  int hits = 0;
  int frame_of_hit = -1;
  for (int f = 0; f < 60; ++f) {  // 1 s held at rate 2: two cycles, two hits
    if (a.update(true, 1.0f / 60.0f, 4.0f, 2.0f)) {
      ++hits;
      if (frame_of_hit < 0) frame_of_hit = f;
    }
  }
  EXPECT_EQ(hits, 2);
  EXPECT_EQ(frame_of_hit, 14);  // phase 15/30 = 0.5 at the 15th frame
  EXPECT_FLOAT_EQ(a.factor, 1.0f);
  // Released above 0.5: runs on to 1 and wraps to 0, no hit.
  a.phase = 0.7f;
  int frames = 0;
  while (a.phase != 0.0f && frames < 100) {
    EXPECT_FALSE(a.update(false, 1.0f / 60.0f, 4.0f, 2.0f));
    ++frames;
  }
  EXPECT_EQ(frames, 9);  // 0.3 at 2/s = 9 frames
  // Released below 0.5: falls by 2·dt (kFall) or decays (kDecay).
  a.phase = 0.3f;
  a.update(false, 0.1f, 4.0f, 2.0f);
  EXPECT_NEAR(a.phase, 0.1f, 1e-6f);
  a.phase = 0.3f;
  a.update(false, 0.1f, 4.0f, 2.0f, AttackCycle::Release::kDecay);
  EXPECT_NEAR(a.phase, 0.27f, 1e-6f);
}

TEST(LegacyCommon, DeathPhaseAndRollSide) {
  EXPECT_FLOAT_EQ(death_phase_step(0.0f, 0.0f, 0.1f, 3.0f), 0.3f);
  EXPECT_FLOAT_EQ(death_phase_step(0.9f, 0.0f, 0.1f, 3.0f), 1.0f);
  EXPECT_EQ(death_phase_step(0.5f, 1.0f, 0.1f, 3.0f), 0.0f);
  EXPECT_EQ(death_roll_side(vec3(1, 0, 0), vec3(2, 0, 0)), 1.0f);
  EXPECT_EQ(death_roll_side(vec3(1, 0, 0), vec3(-2, 0, 0)), -1.0f);
  EXPECT_EQ(death_roll_side(vec3(1, 0, 0), vec3(0, 0, 0)), -1.0f);
  // At DP = 1: RotZ(±90°), lowered by .5h then raised by .2h.
  const Transform t = death_roll(1.0f, 1.0f, 1.0f);
  EXPECT_LT(std::abs(glm::angle(t.rotation) - kPi / 2), 1e-5f);
  const vec3 up = t.rotation * vec3(0, 1, 0);
  EXPECT_NEAR(up.x, -1.0f, 1e-5f);
  EXPECT_NEAR(t.translation.x, 0.5f, 1e-5f);  // RotZ(90°)·(0, −.5, 0) = (.5, 0, 0)
  EXPECT_NEAR(t.translation.y, 0.2f, 1e-5f);
}

TEST(LegacyCommon, EyeAndLookAt) {
  const vec3 eye = eye_position(vec3(0), quat(1, 0, 0, 0), 1.0f, 2.0f, false);
  EXPECT_NEAR(eye.y, 0.95f, 1e-6f);
  EXPECT_NEAR(eye.z, -0.9f, 1e-6f);
  EXPECT_NEAR(eye_position(vec3(0), quat(1, 0, 0, 0), 1.0f, 2.0f, true).y, 1.0f, 1e-6f);

  LookOrders look;
  LookOrders::Inputs in;
  in.box_y = 1.0f;
  const vec3 right_target = eye + vec3(5.0f, 0.0f, -5.0f) + vec3(0, 0.05f, 0);
  in.look_at = &right_target;
  in.box_z = 2.0f;
  const vec2 a = look.update(in, 1.0f / 60.0f);
  EXPECT_NEAR(a.x, kPi / 4, 1e-3f);  // 45° to the right
  const vec3 up_target = eye + vec3(0.0f, 1.0f, 0.0f);
  in.look_at = &up_target;
  EXPECT_NEAR(look.update(in, 0.0f).y, std::asin(0.99f), 1e-5f);
  // Head shake: sat(4·remaining)·sin(16t + .01·hash).
  in.look_at = nullptr;
  in.head_shake = 0.1f;
  in.game_time = 0.25;
  in.entity_hash = 100;
  EXPECT_NEAR(look.update(in, 0.0f).x, 0.4f * std::sin(16.0f * 0.25f + 1.0f), 1e-5f);
  // Random look: targets stay ahead of the eye.
  in.head_shake = 0.0f;
  in.look_random = true;
  for (int f = 0; f < 600; ++f) {
    const vec2 r = look.update(in, 1.0f / 60.0f);
    EXPECT_LT(std::abs(r.x), kPi / 2);
  }
}

}  // namespace
}  // namespace critter::creature::legacy
