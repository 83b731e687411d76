// SPDX-License-Identifier: MIT
#include "bone_overlay.h"

#include <gtest/gtest.h>

#include <glm/gtc/matrix_transform.hpp>

namespace critter::viewer {
namespace {

Skeleton chain() {
  RawSkeleton raw;
  raw.joints.resize(3);
  raw.joints[0].name = "root";
  raw.joints[1].name = "spine";
  raw.joints[1].parent = 0;
  raw.joints[2].name = "head";
  raw.joints[2].parent = 1;
  auto built = build_skeleton(raw);
  EXPECT_TRUE(built.has_value());
  return std::move(*built);
}

TEST(BoneSegments, RunFromParentOriginToJointOrigin) {
  const Skeleton s = chain();
  const std::vector<mat4> m = {glm::translate(mat4(1.0f), vec3(0, 0, 0)),
                               glm::translate(mat4(1.0f), vec3(0, 1, 0)),
                               glm::translate(mat4(1.0f), vec3(0.5f, 2, 0))};
  const auto segs = bone_segments(s, m);
  ASSERT_EQ(segs.size(), 3u);
  EXPECT_EQ(segs[0].parent, -1);
  EXPECT_EQ(segs[0].from, segs[0].to);
  EXPECT_EQ(segs[1].parent, 0);
  EXPECT_EQ(segs[1].from, vec3(0, 0, 0));
  EXPECT_EQ(segs[1].to, vec3(0, 1, 0));
  EXPECT_EQ(segs[2].joint, 2);
  EXPECT_EQ(segs[2].from, vec3(0, 1, 0));
  EXPECT_EQ(segs[2].to, vec3(0.5f, 2, 0));
}

TEST(BoneSegments, FewerTransformsGiveFewerSegments) {
  const Skeleton s = chain();
  const std::vector<mat4> m(2, mat4(1.0f));
  EXPECT_EQ(bone_segments(s, m).size(), 2u);
}

TEST(ProjectToPixels, MapsNdcToTopLeftPixels) {
  const vec2 viewport(100.0f, 50.0f);
  auto centre = project_to_pixels(mat4(1.0f), vec3(0.0f), viewport);
  ASSERT_TRUE(centre.has_value());
  EXPECT_EQ(*centre, vec2(50.0f, 25.0f));
  auto corner = project_to_pixels(mat4(1.0f), vec3(1.0f, 1.0f, 0.0f), viewport);
  ASSERT_TRUE(corner.has_value());
  EXPECT_EQ(*corner, vec2(100.0f, 0.0f));
  auto low_left = project_to_pixels(mat4(1.0f), vec3(-0.5f, -1.0f, 0.0f), viewport);
  ASSERT_TRUE(low_left.has_value());
  EXPECT_EQ(*low_left, vec2(25.0f, 50.0f));
}

TEST(ProjectToPixels, RejectsPointsBehindTheEyeOrPastTheFarPlane) {
  const mat4 proj = glm::perspective(1.0f, 1.0f, 0.1f, 10.0f);
  EXPECT_TRUE(project_to_pixels(proj, vec3(0, 0, -1), vec2(10.0f)).has_value());
  EXPECT_FALSE(project_to_pixels(proj, vec3(0, 0, 1), vec2(10.0f)).has_value());
  EXPECT_FALSE(project_to_pixels(proj, vec3(0, 0, -20), vec2(10.0f)).has_value());
}

}  // namespace
}  // namespace critter::viewer
