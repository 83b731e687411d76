// SPDX-License-Identifier: MIT
// find_limbs: the block limbs of a Luanti-shaped character (creatures.md §10), found at load.
//
//   creature::FoundLimbs found = creature::find_limbs(model);
//   for (const Warning& w : found.warnings) std::puts(w.to_string().c_str());
//   // found.limbs: up to four, in the order Arm_Right, Arm_Left, Leg_Right, Leg_Left
//
// Runs once per model and allocates; never per frame.
#pragma once

#include <vector>

#include "critter/asset/model.h"
#include "critter/core/diagnostics.h"
#include "critter/creature/limbs/limb.h"

namespace critter::creature {

struct LimbOptions {
  // The character's model-space forward. Only its horizontal part counts; a vertical or
  // non-finite forward falls back to −Z with a warning.
  vec3 forward = kDefaultLimbForward;
};

struct FoundLimbs {
  std::vector<Limb> limbs;        // in the order Arm_Right, Arm_Left, Leg_Right, Leg_Left
  std::vector<Warning> warnings;  // why a limb was left out; path = the model's source or name
};

// For each of the names Arm_Right, Arm_Left, Leg_Right, Leg_Left (kind and side from the name):
// the joint of that exact name (the last one when several match; a missing name skips the limb);
// rest globals computed from the joints' own local transforms; the vertices of every skinned
// part whose first influence is that joint with weight >= 0.999, in the limb frame; their box
// lo..hi. The limb is kept when the box has a height, is upright (height >= 1.5 × max(width,
// depth)) and the joint's rest position is nearer its top than its bottom; then cut_y =
// (lo.y + hi.y) / 2, pivot = (middle x, cut_y, middle z), end = (pivot.x, lo.y, pivot.z), and
// bone = seam_bone = -1. Every skipped limb gives a warning saying which rule failed (missing
// joint names are reported together in one warning). Never fails; a model with no such limbs
// gives an empty list.
FoundLimbs find_limbs(const Model& model, const LimbOptions& options = {});

}  // namespace critter::creature
