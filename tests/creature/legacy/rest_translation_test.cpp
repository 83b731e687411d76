// SPDX-License-Identifier: MIT
#include "critter/creature/legacy/rest_translation.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "critter/anim/local_to_model_job.h"
#include "support/math_helpers.h"

namespace critter::creature {
namespace {

using critter::testing::columns;
using critter::testing::expect_mat_near;
using critter::testing::kPi;
using critter::testing::trs;

Skeleton two_joints() {
  RawSkeleton raw;
  raw.joints.push_back({"root", -1, trs(vec3(0, 1, 0), quat_xyzw(0, 0, 0, 1), vec3(1)), -1});
  raw.joints.push_back({"child", 0, trs(vec3(2, 0, 0), quat_xyzw(0, 0, 0, 1), vec3(1)), -1});
  auto built = build_skeleton(raw);
  EXPECT_TRUE(built) << built.error().to_string();
  return std::move(*built);
}

TEST(LegacyRestTranslation, KeepsRestTranslationsAndThePoseRotationAndScale) {
  const Skeleton skeleton = two_joints();
  const float h = std::sin(kPi / 4.0f);
  const quat rz90 = quat_xyzw(0, 0, h, std::cos(kPi / 4.0f));
  std::vector<Transform> pose{trs(vec3(5, 5, 5), rz90, vec3(1)),
                              trs(vec3(7, 7, 7), quat_xyzw(0, 0, 0, 1), vec3(3))};
  ASSERT_TRUE(apply_legacy_rest_translation(skeleton, pose));
  EXPECT_EQ(pose[0].translation, vec3(0, 1, 0));
  EXPECT_EQ(pose[1].translation, vec3(2, 0, 0));
  EXPECT_EQ(pose[0].rotation, rz90);
  EXPECT_EQ(pose[1].scale, vec3(3));

  // Through local-to-model: joint 0 = T(rest 0, 1, 0)·Rz(90°); joint 1 = model0·T(rest 2, 0,
  // 0)·S(3) with origin (0, 1, 0) + Rz(90°)(2, 0, 0) = (0, 3, 0).
  std::vector<mat4> model(2);
  anim::LocalToModelJob job;
  job.parents = skeleton.parents();
  job.input = pose;
  job.output = model;
  ASSERT_TRUE(job.run());
  expect_mat_near(model[0], columns({0, 1, 0, 0}, {-1, 0, 0, 0}, {0, 0, 1, 0}, {0, 1, 0, 1}), 1e-6f,
                  "legacy joint 0");
  expect_mat_near(model[1], columns({0, 3, 0, 0}, {-3, 0, 0, 0}, {0, 0, 3, 0}, {0, 3, 0, 1}), 1e-6f,
                  "legacy joint 1");
}

TEST(LegacyRestTranslation, RefusesAPoseOfAnotherSize) {
  const Skeleton skeleton = two_joints();
  std::vector<Transform> pose(3, trs(vec3(9), quat_xyzw(0, 0, 0, 1), vec3(1)));
  const Status s = apply_legacy_rest_translation(skeleton, pose);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, ErrorCode::kUsage);
  EXPECT_EQ(s.error().location, "locals");
  EXPECT_EQ(pose[0].translation, vec3(9));
}

}  // namespace
}  // namespace critter::creature
