// SPDX-License-Identifier: MIT
// The knee and elbow bend of creatures.md §13 as a rest-space matrix: a turn of the lower half
// about the limb's bend axis through its pivot. The limb animator writes lower joint =
// skin·limb_bend(limb, θ) and seam joint = skin·limb_bend(limb, θ/2) (the half-turn mitre).
//
//   mat4 knee = creature::limb_bend(limb, 60.0f, limb_bend_axis(kDefaultLimbForward));
//   vec3 foot = vec3(knee * vec4(limb.end, 1.0f));  // 60° knee: the foot swings back
#pragma once

#include "critter/core/math.h"
#include "critter/creature/limbs/limb.h"

namespace critter::creature {

// T(pivot)·R_axis(a)·T(−pivot) with a = +degrees for arms (the hand swings forward) and −degrees
// for legs (the foot swings back), `axis` = limb_bend_axis(forward) (unit length).
// `mitre_degrees` > 0 makes it the seam joint of an exact mitre for a full bend of that many
// degrees: R·Scale_forward(1/cos(θ/2)) with θ = min(|mitre_degrees|, 120°), so the seam keeps the
// limb's full thickness along `forward` (unit, horizontal); 0 gives the rigid turn.
mat4 limb_bend(const Limb& limb, float degrees, const vec3& axis, const vec3& forward = {},
               float mitre_degrees = 0.0f);

}  // namespace critter::creature
