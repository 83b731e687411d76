// SPDX-License-Identifier: MIT
// The bounds of a posed instance as the tools frame it (`critter render`'s camera, the viewer's
// creature).
#pragma once

#include "critter/anim/instance.h"
#include "critter/core/math.h"

namespace critter::tools {

// Model-space bounds of every mesh vertex in the instance's current pose (CPU skinning; the
// instance's root applied); the model's bounds when no vertex could be skinned.
Aabb posed_bounds(const anim::Instance& instance);

}  // namespace critter::tools
