// The scene of `critter demo`, built in code: the demo quadruped walking around a morphing blob
// on a round checkered ground.
#pragma once

#include "critter/asset/model.h"

namespace critter::cli {

// A UV sphere (radius 0.35 m, resting on y = 0) with two morph targets, "stretch" (taller and
// thinner) and "ripple" (waves around the equator), and a looping 2 s weights clip "pulse" that
// raises each in turn. One joint "root"; the mesh hangs from no bone.
RawModel make_morph_blob();

// A flat round ground of checkered squares (vertex colours), radius `radius` metres, at y = 0.
RawModel make_ground(float radius);

}  // namespace critter::cli
