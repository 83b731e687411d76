// SPDX-License-Identifier: MIT
// Math vocabulary shared by every module: glm types, axis-aligned boxes, spheres.
// Conventions (DESIGN.md): right-handed, +Y up, metres, column vectors (p' = M * p),
// column-major matrices, quaternions stored (x, y, z, w) and kept normalised.
#pragma once

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/gtc/type_ptr.hpp>

#include <cmath>
#include <limits>

namespace critter {

using glm::mat4;
using glm::quat;
using glm::vec2;
using glm::vec3;
using glm::vec4;

// Builds a quaternion from components in glTF order (x, y, z, w). glm's own constructor takes
// (w, x, y, z); this helper keeps the order of files and APIs in one place.
inline quat quat_xyzw(float x, float y, float z, float w) {
  return quat(w, x, y, z);
}

// The normalised lerp of unit quaternions a and b along the shorter arc, f in [0, 1]:
// d = (a.x·b.x + a.y·b.y) + (a.z·b.z + a.w·b.w), f' = −f where d's sign bit is set and f elsewhere,
// q = a·(1 − f) + b·f' component by component, then q·(1 / sqrt(|q|²)) with
// |q|² = (q.x·q.x + q.y·q.y) + (q.z·q.z + q.w·q.w) (a correctly rounded square root and division:
// the same bits on every CPU). How compact clips interpolate rotations between their kept keys:
// their builder measures its error with this, and the sampler's vector paths do the same
// operations in the same order. For unit inputs |q| >= cos 45°, never 0.
inline quat nlerp_shortest(const quat& a, const quat& b, float f) {
  const float d = (a.x * b.x + a.y * b.y) + (a.z * b.z + a.w * b.w);
  const float fb = std::signbit(d) ? -f : f, fa = 1.0f - f;
  const float x = a.x * fa + b.x * fb, y = a.y * fa + b.y * fb, z = a.z * fa + b.z * fb,
              w = a.w * fa + b.w * fb;
  const float inv = 1.0f / std::sqrt((x * x + y * y) + (z * z + w * w));
  return quat_xyzw(x * inv, y * inv, z * inv, w * inv);
}

// Axis-aligned bounding box. Empty when min > max on any axis (the default state).
struct Aabb {
  vec3 min{std::numeric_limits<float>::max()};
  vec3 max{std::numeric_limits<float>::lowest()};

  bool empty() const { return min.x > max.x || min.y > max.y || min.z > max.z; }
  void expand(const vec3& p) {
    min = glm::min(min, p);
    max = glm::max(max, p);
  }
  void expand(const Aabb& b) {
    if (b.empty()) return;
    expand(b.min);
    expand(b.max);
  }
  vec3 center() const { return empty() ? vec3(0.0f) : (min + max) * 0.5f; }
  vec3 extent() const { return empty() ? vec3(0.0f) : (max - min); }
  // The box enclosing this box after transforming its eight corners by m.
  Aabb transformed(const mat4& m) const;
};

// Bounding sphere: centre and radius (radius 0 for an empty model).
struct Sphere {
  vec3 center{0.0f};
  float radius = 0.0f;
};

// True when every component is finite (no NaN, no infinity).
bool all_finite(const vec3& v);
bool all_finite(const vec4& v);
bool all_finite(const quat& q);
bool all_finite(const mat4& m);

// True when x is finite and within the float range, so that it converts to a finite float
// (the jobs' clip times are doubles sampled as floats).
inline bool finite_float(double x) {
  return x >= -static_cast<double>(std::numeric_limits<float>::max()) &&
         x <= static_cast<double>(std::numeric_limits<float>::max());
}

// The identity matrix, defined in the library. Every job's matrix fields (LocalToModelJob's root
// and root_correction, the IK jobs' and LimbStepJob's root, ...) start as copies of it rather
// than as mat4{1.0f}: a caller's compiler builds that constant in place, in the caller's code, as
// a cleared block and single-float stores of the ones, and a job whose run() reads the matrix
// in 16-byte rows (or copies it on, into another job) then waits for each row's several stores
// to reach the cache. A copy is written in whole rows, which the reads take directly
// (docs/jobs.md, "Building a job per call").
extern const mat4 kIdentityMatrix;

// Normalises q in place without overflow or underflow: the components are divided by the largest
// magnitude first, so any finite non-zero quaternion (even with components near 1e38 or 1e-40)
// becomes unit length. Returns false, leaving q unchanged, when q is zero or has a NaN or
// infinite component.
bool normalize_in_place(quat& q);
// The same for four floats in (x, y, z, w) order, as stored in clips and files.
bool normalize_in_place(float* xyzw);

}  // namespace critter
