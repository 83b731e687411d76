// SPDX-License-Identifier: MIT
// The scene of `critter demo`, built in code: the demo quadruped walking around a morphing blob
// on a round checkered ground.
#pragma once

#include "../common/morph_blob.h"
#include "critter/asset/model.h"

namespace critter::cli {

using tools::make_morph_blob;

// A flat round ground of checkered squares (vertex colours), radius `radius` metres, at y = 0.
RawModel make_ground(float radius);

}  // namespace critter::cli
