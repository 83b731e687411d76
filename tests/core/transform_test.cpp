// SPDX-License-Identifier: MIT
#include "critter/core/transform.h"

#include <gtest/gtest.h>

#include <glm/gtc/matrix_transform.hpp>
#include "support/math_helpers.h"

namespace critter {
namespace {

using critter::testing::expect_mat_near;

constexpr float kMatTol = 1e-5f;

TEST(Transform, IdentityIsIdentityMatrix) {
  expect_mat_near(Transform::identity().to_matrix(), mat4(1.0f), kMatTol);
}

TEST(Transform, ToMatrixAppliesScaleThenRotationThenTranslation) {
  Transform t;
  t.translation = vec3(1, 2, 3);
  t.rotation = glm::angleAxis(glm::radians(90.0f), vec3(0, 0, 1));
  t.scale = vec3(2, 1, 1);
  // (1,0,0) scaled to (2,0,0), rotated 90 degrees about Z to (0,2,0), then moved by (1,2,3).
  const vec4 p = t.to_matrix() * vec4(1, 0, 0, 1);
  EXPECT_NEAR(p.x, 1.0f, 1e-5f);
  EXPECT_NEAR(p.y, 4.0f, 1e-5f);
  EXPECT_NEAR(p.z, 3.0f, 1e-5f);
}

TEST(Transform, FromMatrixRoundTrips) {
  Transform t;
  t.translation = vec3(-4, 0.5f, 9);
  t.rotation = glm::normalize(quat_xyzw(0.1f, 0.7f, -0.2f, 0.6f));
  t.scale = vec3(0.5f, 2.0f, 3.0f);
  const Transform back = Transform::from_matrix(t.to_matrix());
  expect_mat_near(back.to_matrix(), t.to_matrix(), kMatTol);
  EXPECT_NEAR(back.scale.y, 2.0f, 1e-5f);
}

TEST(Transform, FromMatrixFoldsMirrorIntoNegativeScale) {
  const mat4 m = glm::scale(mat4(1.0f), vec3(-1, 1, 1));
  const Transform t = Transform::from_matrix(m);
  expect_mat_near(t.to_matrix(), m, kMatTol);
  EXPECT_LT(t.scale.x, 0.0f);
}

TEST(Aabb, TransformedEnclosesRotatedBox) {
  Aabb b;
  b.expand(vec3(-1, -1, -1));
  b.expand(vec3(1, 1, 1));
  const Aabb r = b.transformed(glm::rotate(mat4(1.0f), glm::radians(45.0f), vec3(0, 1, 0)));
  EXPECT_NEAR(r.max.x, std::sqrt(2.0f), 1e-5f);
  EXPECT_NEAR(r.max.y, 1.0f, 1e-5f);
  EXPECT_TRUE(Aabb{}.empty());
  EXPECT_TRUE(Aabb{}.transformed(mat4(1.0f)).empty());
}

}  // namespace
}  // namespace critter
