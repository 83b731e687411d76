// SPDX-License-Identifier: MIT
// LimbAngles and the closed-form tables of the limb system (creatures.md §17, §18): the stroke
// tables of the water and climb poses, the stroke rate, the landing crouch and the leg shortening
// that keeps the feet planted under it.
//
//   LimbAngles a = stroke_angles(WaterPose::kSwim, /*arm=*/true, /*right=*/true, phase);
//   float rate = stroke_rate(WaterPose::kSwim, 1.5f);  // radians per second
#pragma once

#include "critter/creature/limbs/body_motion.h"

namespace critter::creature {

// A limb's turn relative to its rest (or animated) pose, degrees: pitch about the bend axis
// (positive swings the limb forward), spread about the forward axis (positive swings it outward),
// bend at the knee or elbow (positive: the elbow brings the hand forward, the knee the foot back).
struct LimbAngles {
  float pitch = 0.0f;
  float spread = 0.0f;
  float bend = 0.0f;
};

// The stroke table of `pose` for an arm (arm true) or a leg, right or left side, at stroke phase
// `phase` (radians, any finite value) (§17). Zeros for WaterPose::kNone.
LimbAngles stroke_angles(WaterPose pose, bool arm, bool right, float phase);

// Stroke rate in radians per second (2π × frequency): Swim 0.45 + 0.2·clamp(speed, 0, 4) Hz,
// Tread 0.8 Hz, Paddle 0.55 + 0.15·clamp(speed, 0, 4) Hz, Climb |speed| / 0.9 Hz (speed is the
// signed vertical speed then), None 0. Speed in nodes per second; a non-finite speed counts as 0.
float stroke_rate(WaterPose pose, float speed);

// The walk bend target of §15 from the limb's swing (degrees forward of hanging straight,
// relative to the torso) and swing rate (degrees per second): legs clamp(4 + 0.12·max(0, rate),
// 0, 75), arms clamp(8 + 0.5·max(0, swing) + 0.03·max(0, rate), 0, 80).
float walk_bend(bool arm, float swing, float swing_rate);

// The landing depth in [0.1, 1] for an impact speed v (nodes per second, downward positive):
// 0 below 1.5 n/s, else clamp((v − 1.5)/(11 − 1.5), 0.1, 1).
float land_depth(float v);

// The landing crouch at depth d (0..1): legs pitch 50d and bend 85d, arms pitch 30d and bend 35d;
// zeros when d <= 0.
LimbAngles land_angles(bool arm, float d);

// How much a leg shortens when its thigh hangs `hip_deg` forward of vertical and the shin turns
// back from the thigh by `knee_deg`: upper·(1 − cos hip) + lower·(1 − cos(hip − knee)), in the
// units of `upper` (joint to cut) and `lower` (cut to the limb's bottom centre). Lowering the body
// by it keeps the feet planted.
float leg_shortening(float upper, float lower, float hip_deg, float knee_deg);

}  // namespace critter::creature
