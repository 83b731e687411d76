// SPDX-License-Identifier: MIT
// Skin: which skeleton joints deform a mesh, and their inverse bind matrices.
// Joint (palette) matrix i = model_from_joint[joints[i]] * inverse_bind[i].
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "critter/core/math.h"

namespace critter {

struct Skin {
  std::string name;
  std::vector<std::int16_t> joints;  // skeleton joint indices
  std::vector<mat4> inverse_bind;    // one per joint (identity when the source has none)
  std::int32_t skeleton_root = -1;   // glTF skin.skeleton as a joint index, -1 when unset
};

}  // namespace critter
