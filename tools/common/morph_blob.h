// SPDX-License-Identifier: MIT
// The demo's morphing sphere, built in code: `critter demo` shows it and every tool opens it as
// "builtin:blob" (builtin_models.h).
#pragma once

#include "critter/asset/model.h"

namespace critter::tools {

// A UV sphere (radius 0.35 m, resting on y = 0) with two morph targets, "stretch" (taller and
// thinner) and "ripple" (waves around the equator), and a looping 2 s weights clip "pulse" that
// raises each in turn. One joint "root"; the mesh hangs from no bone.
RawModel make_morph_blob();

}  // namespace critter::tools
