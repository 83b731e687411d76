// SPDX-License-Identifier: MIT
#include "critter/core/math.h"

#include <algorithm>
#include <cmath>

namespace critter {

constinit const mat4 kIdentityMatrix{1.0f};

Aabb Aabb::transformed(const mat4& m) const {
  Aabb out;
  if (empty()) return out;
  for (int i = 0; i < 8; ++i) {
    const vec3 corner((i & 1) ? max.x : min.x, (i & 2) ? max.y : min.y, (i & 4) ? max.z : min.z);
    out.expand(vec3(m * vec4(corner, 1.0f)));
  }
  return out;
}

bool all_finite(const vec3& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}
bool all_finite(const vec4& v) {
  return all_finite(vec3(v)) && std::isfinite(v.w);
}
bool all_finite(const quat& q) {
  return all_finite(vec4(q.x, q.y, q.z, q.w));
}
bool normalize_in_place(float* xyzw) {
  float largest = 0.0f;
  for (int c = 0; c < 4; ++c) {
    if (!std::isfinite(xyzw[c])) return false;
    largest = std::max(largest, std::abs(xyzw[c]));
  }
  if (largest == 0.0f) return false;
  // After the division the largest component is 1, so the sum of squares lies in [1, 4]: neither
  // overflows to infinity nor underflows to zero.
  float scaled[4];
  for (int c = 0; c < 4; ++c) scaled[c] = xyzw[c] / largest;
  const float len = std::sqrt(scaled[0] * scaled[0] + scaled[1] * scaled[1] +
                              scaled[2] * scaled[2] + scaled[3] * scaled[3]);
  for (int c = 0; c < 4; ++c) xyzw[c] = scaled[c] / len;
  return true;
}

bool normalize_in_place(quat& q) {
  float v[4] = {q.x, q.y, q.z, q.w};
  if (!normalize_in_place(v)) return false;
  q = quat_xyzw(v[0], v[1], v[2], v[3]);
  return true;
}

bool all_finite(const mat4& m) {
  for (int c = 0; c < 4; ++c)
    if (!all_finite(m[c])) return false;
  return true;
}

}  // namespace critter
