// SPDX-License-Identifier: MIT
// A 67-joint humanoid with a tail, built in code so that tests and benchmarks of the animation
// pipeline (compact clips, the baked format) have a character of game size without reading any
// file. The same skeleton and motion as the character of bench/bench_anim.cpp.
#pragma once

#include "critter/asset/model.h"

namespace critter {

inline constexpr int kSyntheticJointCount = 67;

// Returns the editable character: name "synthetic67", format "code".
//  - Skeleton (67 joints, parents first, metres, +Y up): root, pelvis 1 m up, three spine joints,
//    neck, head, jaw, two eyes; per side clavicle, upper arm, forearm, hand and five three-joint
//    fingers; per side thigh, calf, foot, toe; an eleven-joint tail. Rest rotations identity.
//  - One skinned mesh of one box per joint (24 vertices, 36 indices each, rigid to its joint),
//    one skin over all joints, one material.
//  - Two looping clips with LINEAR translation, rotation and scale tracks on every joint at 30
//    keys per second: "walk" (2 s, 0.5 Hz) and "run" (3 s, 1/3 Hz): small smooth motions around
//    the rest pose with a per-joint phase.
RawModel make_synthetic_character();

}  // namespace critter
