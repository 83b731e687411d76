// SPDX-License-Identifier: MIT
// The legacy override rule of creatures.md §1 for procedural rigs on legacy (.dae) creatures: a
// joint keeps its REST translation and takes the pose's rotation and scale. A pose source folds
// the rule into its local pose before local-to-model, so every later stage sees plain locals.
//
//   rig.animate(state, dt, locals);
//   if (rig.keeps_rest_translation()) apply_legacy_rest_translation(skeleton, locals);
#pragma once

#include <span>

#include "critter/asset/skeleton.h"
#include "critter/core/error.h"
#include "critter/core/transform.h"

namespace critter::creature {

// Sets locals[i].translation = skeleton.rest_pose()[i].translation for every joint; rotations
// and scales are left as they are. Rigs that need the full T(t_rest)·M·RS_rest composition fold
// RS_rest into the pose's rotation and scale first. Fails (kUsage, location "locals") when
// `locals` does not hold one Transform per skeleton joint, changing nothing. Never allocates on
// success.
Status apply_legacy_rest_translation(const Skeleton& skeleton, std::span<Transform> locals);

}  // namespace critter::creature
