// SPDX-License-Identifier: MIT
// BodyMotion: how a block-limbed character's body moves this frame, the input of the limb
// animator's body-motion reactions (creatures.md §9, §18), and WaterPose, the whole-limb pose the
// host picks for it (§19). Also the exponential easing factor every limb time constant uses.
//
//   BodyMotion motion;
//   motion.known = true;
//   motion.grounded = false;
//   motion.vy = -4.0f;  // falling at 4 nodes per second
//   animator.set_motion(motion);
#pragma once

#include <cmath>
#include <cstdint>
#include <string_view>

#include "critter/core/error.h"

namespace critter::creature {

// Units: nodes (1 node = 10 Luanti mesh units) and seconds; up is +Y, forward is the character's
// forward.
struct BodyMotion {
  float y = 0.0f;         // the feet's height, nodes (any finite value)
  float speed = 0.0f;     // horizontal speed, nodes per second (>= 0)
  float vy = 0.0f;        // vertical velocity, nodes per second, up positive
  float accel = 0.0f;     // d(speed)/dt along the facing, nodes/s², positive = speeding up
  float yaw_rate = 0.0f;  // turning rate, degrees per second, positive = turning left
  bool grounded = true;   // standing on something
  // False: the host knows nothing of the body's motion, and the landing, falling, step-up, lean
  // and bank reactions stay off.
  bool known = false;
};

// Names the first non-finite field ("y", "speed", "vy", "accel", "yaw_rate") as a kUsage error
// at path "BodyMotion"; success when every field is finite.
Status validate(const BodyMotion& motion);

// Whole-limb poses (creatures.md §9). Climb is not a water pose but shares the machinery.
enum class WaterPose : std::uint8_t {
  kNone = 0,
  kSwim = 1,    // the crawl, body lying
  kTread = 2,   // treading water, upright
  kPaddle = 3,  // the breaststroke, upright and moving
  kClimb = 4,   // hand over hand on a ladder or vine
};
inline constexpr int kWaterPoseCount = 5;

// "none", "swim", "tread", "paddle", "climb".
std::string_view to_string(WaterPose pose);

// The easing factor k(τ) = 1 − e^(−dt/τ) of `x += (target − x)·k(τ)` (§8): 0 for dt <= 0, in
// [0, 1). dt and tau in seconds, tau > 0.
inline float ease_factor(float dt, float tau) {
  return dt > 0.0f ? 1.0f - std::exp(-dt / tau) : 0.0f;
}

}  // namespace critter::creature
