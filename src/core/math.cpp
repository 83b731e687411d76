#include "critter/core/math.h"

#include <cmath>

namespace critter {

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
bool all_finite(const mat4& m) {
  for (int c = 0; c < 4; ++c)
    if (!all_finite(m[c])) return false;
  return true;
}

}  // namespace critter
