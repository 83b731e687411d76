// SPDX-License-Identifier: MIT
// Math shared by the test suites: π as a float, rotations and transforms built from their parts,
// and element-wise "near" expectations for vectors, quaternions and matrices (each component is
// checked with EXPECT_NEAR, so a failure names the component that is off).
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string_view>

#include "critter/core/math.h"
#include "critter/core/transform.h"

namespace critter::testing {

inline constexpr float kPi = std::numbers::pi_v<float>;
inline const quat kIdentityRotation = quat_xyzw(0, 0, 0, 1);

// The rotation of `radians` about `axis` (any length but zero; it is normalised).
inline quat axis_angle(vec3 axis, float radians) {
  const vec3 n = glm::normalize(axis);
  const float s = std::sin(radians * 0.5f);
  return quat_xyzw(n.x * s, n.y * s, n.z * s, std::cos(radians * 0.5f));
}

// The angle in radians (0..π) of the rotation that takes `a` to `b`; q and -q are the same
// rotation. atan2 of the relative rotation's vector and scalar parts stays precise near 0.
inline float angle_between(const quat& a, const quat& b) {
  const quat r = glm::conjugate(a) * b;
  return 2.0f * std::atan2(glm::length(vec3(r.x, r.y, r.z)), std::abs(r.w));
}

// A transform from translation, rotation and scale.
inline Transform trs(vec3 t, quat r = kIdentityRotation, vec3 s = vec3(1.0f)) {
  Transform x;
  x.translation = t;
  x.rotation = r;
  x.scale = s;
  return x;
}

// The column-major matrix with the four columns given.
inline mat4 columns(vec4 c0, vec4 c1, vec4 c2, vec4 c3) {
  mat4 m;
  m[0] = c0;
  m[1] = c1;
  m[2] = c2;
  m[3] = c3;
  return m;
}

// Each component of `got` within `tol` of `want`; `what` prefixes the failure messages.
inline void expect_vec_near(const vec3& got, const vec3& want, float tol,
                            std::string_view what = {}) {
  EXPECT_NEAR(got.x, want.x, tol) << what;
  EXPECT_NEAR(got.y, want.y, tol) << what;
  EXPECT_NEAR(got.z, want.z, tol) << what;
}

// Component-wise, so q and -q (the same rotation) are not near: tests that accept either compare
// rotations, not quaternions.
inline void expect_quat_near(const quat& got, const quat& want, float tol,
                             std::string_view what = {}) {
  EXPECT_NEAR(got.x, want.x, tol) << what;
  EXPECT_NEAR(got.y, want.y, tol) << what;
  EXPECT_NEAR(got.z, want.z, tol) << what;
  EXPECT_NEAR(got.w, want.w, tol) << what;
}

inline void expect_mat_near(const mat4& got, const mat4& want, float tol,
                            std::string_view what = {}) {
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r)
      EXPECT_NEAR(got[c][r], want[c][r], tol) << what << " column " << c << " row " << r;
}

}  // namespace critter::testing
