// SPDX-License-Identifier: MIT
#include "critter/creature/limbs/limb_angles.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace critter::creature {
namespace {

constexpr float kPi = std::numbers::pi_v<float>;
constexpr float kTwoPi = 2.0f * kPi;
constexpr float kLandHard = 11.0f;

float degrees(float radians) {
  return radians * (180.0f / kPi);
}

LimbAngles swim(bool arm, bool right, float phi) {
  if (arm) {
    // Each arm turns backward through a full circle: over the back for the first half
    // (recovery), then forward and under the chest (pull).
    float p = std::fmod(phi + (right ? 0.0f : kPi), kTwoPi);
    if (p < 0.0f) p += kTwoPi;
    if (p < kPi) {
      return {-degrees(p), 12.0f * std::sin(p), 30.0f + 70.0f * std::sin(p)};
    }
    return {-degrees(p), 0.0f, 25.0f};
  }
  const float k = 3.0f * phi + (right ? 0.0f : kPi);
  return {18.0f * std::sin(k), 0.0f, 12.0f + 18.0f * std::max(0.0f, std::cos(k))};
}

LimbAngles tread(bool arm, bool right, float phi) {
  if (arm) {
    return {25.0f + 20.0f * std::sin(phi), 40.0f + 10.0f * std::cos(phi),
            55.0f + 20.0f * std::cos(phi)};
  }
  const float k = phi + (right ? 0.0f : kPi);
  return {45.0f + 15.0f * std::sin(k), 12.0f, 75.0f + 25.0f * std::cos(k)};
}

LimbAngles paddle(bool arm, float phi) {
  const float u = (1.0f - std::cos(phi)) * 0.5f;
  const float v = (1.0f + std::cos(phi)) * 0.5f;
  if (arm) return {95.0f - 45.0f * u, 10.0f + 45.0f * u, 15.0f + 75.0f * u};
  return {15.0f + 45.0f * v, 5.0f + 25.0f * v, 10.0f + 90.0f * v};
}

LimbAngles climb(bool arm, bool right, float phi) {
  const float p = phi + (right ? 0.0f : kPi);
  const float lift = std::max(0.0f, -std::sin(p));
  if (arm) return {150.0f + 25.0f * std::sin(p), 10.0f, 30.0f + 50.0f * lift};
  return {15.0f + 40.0f * lift, 0.0f, 15.0f + 75.0f * lift};
}

}  // namespace

LimbAngles stroke_angles(WaterPose pose, bool arm, bool right, float phase) {
  switch (pose) {
    case WaterPose::kSwim:
      return swim(arm, right, phase);
    case WaterPose::kTread:
      return tread(arm, right, phase);
    case WaterPose::kPaddle:
      return paddle(arm, phase);
    case WaterPose::kClimb:
      return climb(arm, right, phase);
    case WaterPose::kNone:
      break;
  }
  return {};
}

float stroke_rate(WaterPose pose, float speed) {
  if (!std::isfinite(speed)) speed = 0.0f;
  float hz = 0.0f;
  switch (pose) {
    case WaterPose::kSwim:
      hz = 0.45f + 0.2f * std::clamp(speed, 0.0f, 4.0f);
      break;
    case WaterPose::kTread:
      hz = 0.8f;
      break;
    case WaterPose::kPaddle:
      hz = 0.55f + 0.15f * std::clamp(speed, 0.0f, 4.0f);
      break;
    case WaterPose::kClimb:
      hz = std::abs(speed) / 0.9f;
      break;
    case WaterPose::kNone:
      break;
  }
  return kTwoPi * hz;
}

float walk_bend(bool arm, float swing, float swing_rate) {
  if (arm) {
    return std::clamp(8.0f + 0.5f * std::max(0.0f, swing) + 0.03f * std::max(0.0f, swing_rate),
                      0.0f, 80.0f);
  }
  return std::clamp(4.0f + 0.12f * std::max(0.0f, swing_rate), 0.0f, 75.0f);
}

float land_depth(float v) {
  if (!(v >= 1.5f)) return 0.0f;
  return std::clamp((v - 1.5f) / (kLandHard - 1.5f), 0.1f, 1.0f);
}

LimbAngles land_angles(bool arm, float d) {
  if (!(d > 0.0f)) return {};
  if (arm) return {30.0f * d, 0.0f, 35.0f * d};
  return {50.0f * d, 0.0f, 85.0f * d};
}

float leg_shortening(float upper, float lower, float hip_deg, float knee_deg) {
  const float hip = hip_deg * (kPi / 180.0f);
  const float shin = (hip_deg - knee_deg) * (kPi / 180.0f);
  return upper * (1.0f - std::cos(hip)) + lower * (1.0f - std::cos(shin));
}

}  // namespace critter::creature
