// SPDX-License-Identifier: MIT
// Transform: a joint's local translation, rotation and scale (TRS), applied as T * R * S.
#pragma once

#include "critter/core/math.h"

namespace critter {

struct Transform {
  vec3 translation{0.0f};
  quat rotation{1.0f, 0.0f, 0.0f, 0.0f};  // identity (glm order w, x, y, z)
  vec3 scale{1.0f};

  static Transform identity() { return {}; }

  // The 4x4 matrix T * R * S (column-major, column vectors).
  mat4 to_matrix() const;

  // Decomposes an affine matrix into TRS. Shear is dropped; a negative determinant is folded into
  // the X scale. The rotation is normalised. Returns identity parts for degenerate axes.
  static Transform from_matrix(const mat4& m);

  friend bool operator==(const Transform&, const Transform&) = default;
};

}  // namespace critter
