// SPDX-License-Identifier: MIT
// MorphSet: the morph target deltas of one mesh part (glTF morph targets). Deltas are added in
// mesh space before skinning: p = position + sum_i(w_i * dp_i).
#pragma once

#include <vector>

#include "critter/core/math.h"

namespace critter {

// One target's deltas. Each stream is empty (the target does not move it) or one entry per vertex.
struct MorphTarget {
  std::vector<vec3> positions;
  std::vector<vec3> normals;
  std::vector<vec3> tangents;  // xyz only: glTF tangent deltas have no w
};

struct MorphSet {
  std::vector<MorphTarget> targets;

  std::size_t target_count() const { return targets.size(); }
  bool empty() const { return targets.empty(); }
};

}  // namespace critter
