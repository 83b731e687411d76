// SPDX-License-Identifier: MIT
// Critically damped smoothing toward a moving goal (Unity's SmoothDamp), used by the IK jobs to
// smooth targets, aim directions and look angles over frames (animation-config.md §18).
#pragma once

#include "critter/core/math.h"

namespace critter::anim {

// Moves `current` toward `goal` over about `smooth_time` seconds (> 0) after a step of `dt`
// seconds (>= 0), updating `velocity` (units per second, per-instance state that starts at 0).
// Never overshoots: when the step would pass the goal, the goal is returned and the velocity is
// set to 0. dt == 0 returns `current` unchanged.
float smooth_damp(float current, float goal, float& velocity, float smooth_time, float dt);
// The same on a vector as a whole (one spring along the line to the goal).
vec3 smooth_damp(const vec3& current, const vec3& goal, vec3& velocity, float smooth_time,
                 float dt);

}  // namespace critter::anim
