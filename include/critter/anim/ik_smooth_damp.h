// SPDX-License-Identifier: MIT
// Critically damped smoothing toward a moving goal (Unity's SmoothDamp), used by the IK jobs to
// smooth targets, aim directions and look angles over frames (animation-config.md §18).
#pragma once

#include "critter/core/math.h"

namespace critter::anim {

// The decay of the spring over a step of x = ω·dt (ω = 2 / smooth time): exp(−x) by the
// polynomial SmoothDamp popularised, 1 / (1 + x + 0.48x² + 0.235x³), in (0, 1] for x >= 0.
// Shared with root motion's SmoothDamp blend (animation-config.md §13).
float smooth_damp_decay(float x);
// From this x = ω·dt on the spring has come to rest (the decay is below 5e-9): the step returns
// the goal with no velocity left, so a step of any length (1e30 s, or a smooth time of 0) stays
// finite.
inline constexpr float kSmoothDampSettled = 1000.0f;

// Moves `current` toward `goal` over about `smooth_time` seconds (>= 0) after a step of `dt`
// seconds (>= 0), updating `velocity` (units per second, per-instance state that starts at 0).
// Never overshoots: when the step would pass the goal, the goal is returned and the velocity is
// set to 0; so does a step of ω·dt >= kSmoothDampSettled. dt == 0 returns `current` unchanged.
float smooth_damp(float current, float goal, float& velocity, float smooth_time, float dt);
// The same on a vector as a whole (one spring along the line to the goal).
vec3 smooth_damp(const vec3& current, const vec3& goal, vec3& velocity, float smooth_time,
                 float dt);

}  // namespace critter::anim
