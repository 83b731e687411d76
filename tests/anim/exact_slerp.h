// SPDX-License-Identifier: MIT
// The textbook slerp in double precision, the reference that the blending tests hold the float
// slerps to.
#pragma once

#include <algorithm>
#include <cmath>

#include "critter/core/math.h"

namespace critter::anim::test {

// Along the shorter arc, normalised; `a` and `b` as given (x y z w), f in [0, 1].
inline glm::dvec4 exact_slerp(const glm::dvec4& a, glm::dvec4 b, double f) {
  double d = glm::dot(a, b);
  if (d < 0.0) {
    b = -b;
    d = -d;
  }
  d = std::min(d, 1.0);
  const double theta = std::acos(d);
  const glm::dvec4 r =
      theta < 1e-12 ? a
                    : (std::sin((1.0 - f) * theta) * a + std::sin(f * theta) * b) / std::sin(theta);
  return r / glm::length(r);
}

}  // namespace critter::anim::test
