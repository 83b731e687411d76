// SPDX-License-Identifier: MIT
// The built-in demo creature: a small skinned quadruped made of boxes, built in code so that the
// CLI, tests and benchmarks have a rigged, animated model without reading any file.
#pragma once

#include "critter/asset/model.h"
#include "critter/core/diagnostics.h"
#include "critter/core/error.h"

namespace critter {

// Names of the demo quadruped's joints in raw skeleton order (parents first). Legs are named
// "leg_<front|back>_<left|right>_<upper|lower|paw>"; the creature faces +Z, so its left is +X.
inline constexpr const char* kDemoJointNames[] = {
    "root",
    "body",
    "neck",
    "head",
    "tail_base",
    "tail_tip",
    "leg_front_left_upper",
    "leg_front_left_lower",
    "leg_front_left_paw",
    "leg_front_right_upper",
    "leg_front_right_lower",
    "leg_front_right_paw",
    "leg_back_left_upper",
    "leg_back_left_lower",
    "leg_back_left_paw",
    "leg_back_right_upper",
    "leg_back_right_lower",
    "leg_back_right_paw",
};

// Returns the editable demo quadruped: name "demo_quadruped", format "code", no source path.
//  - Skeleton: the 18 joints of kDemoJointNames, rest rotations identity, metres, +Y up; the paws
//    stand on y = 0 and the body joint is 0.55 m above the ground.
//  - One mesh "demo_quadruped" with one triangle part of 17 boxes (body, neck, head, two tail
//    segments, three per leg), 24 vertices and 36 indices per box, with positions, normals, uv0,
//    joints and weights. Every box is rigid to its joint except at the knees, where the vertices
//    of the upper and lower leg boxes that meet are weighted half and half.
//  - One material "fur" (opaque base colour, no texture) and one skin "demo_skin" over all 18
//    joints, joint i of the skin = raw joint i, inverse binds = inverse rest model transforms.
//  - Two looping clips with LINEAR keys whose first and last key values are identical:
//    "walk" (1 s, 9 keys per track): legs swing in diagonal pairs (front left with back right),
//    knees bend on the forward swing, the body bobs twice per cycle, the tail sways, the head nods;
//    "idle" (2 s, 9 keys per track): the body breathes (scale) and bobs, tail and head drift.
// Bounds in the rest pose: min (-0.18, 0, -0.7), max (0.18, 0.86, 0.58).
RawModel make_demo_quadruped();

// build_model(make_demo_quadruped(), diag).
Result<Model> build_demo_quadruped(Diagnostics* diag = nullptr);

}  // namespace critter
