// SPDX-License-Identifier: MIT
// Small model parts built in test code, shared by the suites that need the same tiny rig.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "critter/asset/mesh.h"
#include "critter/asset/skeleton.h"

namespace critter::testing {

// Two joints: "root" at the origin and "child" at (0, 1, 0) under it, both with identity rotation
// and unit scale.
std::vector<RawJoint> two_joint_rig();

// One triangle (0,0,0) (1,0,0) (0,1,0) named `name` with one morph target per default weight,
// each moving every vertex by (0, 0, 1).
Mesh morph_triangle(std::string name, std::vector<float> default_weights);

// The bytes of a 2x2 RGB PNG (red, green / blue, white), small enough to spell out.
const std::vector<std::uint8_t>& tiny_png();

}  // namespace critter::testing
