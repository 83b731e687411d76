// SPDX-License-Identifier: MIT
#include "critter/asset/skeleton.h"

#include <gtest/gtest.h>

namespace critter {
namespace {

RawJoint joint(std::string name, int parent, vec3 t = vec3(0.0f)) {
  RawJoint j;
  j.name = std::move(name);
  j.parent = parent;
  j.rest.translation = t;
  return j;
}

TEST(BuildSkeleton, KeepsParentsFirstInputInOrder) {
  RawSkeleton raw{{joint("root", -1), joint("a", 0), joint("b", 1), joint("c", 0)}};
  std::vector<int> remap;
  auto s = build_skeleton(raw, &remap);
  ASSERT_TRUE(s) << s.error().to_string();
  EXPECT_EQ(s->joint_count(), 4);
  EXPECT_EQ(remap, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(s->parents()[2], 1);
  EXPECT_EQ(s->names()[3], "c");
}

TEST(BuildSkeleton, SortsChildrenAfterParents) {
  // Child listed before its parent (glTF allows any node order).
  RawSkeleton raw{{joint("hand", 2), joint("root", -1), joint("arm", 1)}};
  std::vector<int> remap;
  auto s = build_skeleton(raw, &remap);
  ASSERT_TRUE(s) << s.error().to_string();
  for (int i = 0; i < s->joint_count(); ++i)
    EXPECT_LT(s->parents()[static_cast<std::size_t>(i)], i);
  EXPECT_EQ(s->names()[static_cast<std::size_t>(remap[1])], "root");
  EXPECT_EQ(s->names()[static_cast<std::size_t>(remap[0])], "hand");
  EXPECT_EQ(s->parents()[static_cast<std::size_t>(remap[0])], remap[2]);
}

TEST(BuildSkeleton, FindIsCaseSensitiveFirstThenInsensitive) {
  RawSkeleton raw{{joint("Hip", -1), joint("hip", 0), joint("Spine", 0)}};
  auto s = build_skeleton(raw);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->find("hip"), 1);
  EXPECT_EQ(s->find("Hip"), 0);
  EXPECT_EQ(s->find("SPINE"), 2);
  EXPECT_EQ(s->find("tail"), -1);
}

TEST(BuildSkeleton, NormalisesRotations) {
  RawSkeleton raw{{joint("r", -1)}};
  raw.joints[0].rest.rotation = quat_xyzw(0, 0, 0, 2);
  auto s = build_skeleton(raw);
  ASSERT_TRUE(s);
  EXPECT_FLOAT_EQ(s->rest_pose()[0].rotation.w, 1.0f);
}

// Validity: each test breaks exactly one rule of a valid skeleton.
TEST(BuildSkeletonValidity, ParentOutOfRange) {
  RawSkeleton raw{{joint("root", -1), joint("a", 7)}};
  auto s = build_skeleton(raw, nullptr, "f.gltf");
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, ErrorCode::kOutOfRange);
  EXPECT_EQ(s.error().location, "/joints/1 ('a')");
  EXPECT_EQ(s.error().path, "f.gltf");
}

TEST(BuildSkeletonValidity, SelfParent) {
  RawSkeleton raw{{joint("root", 0)}};
  auto s = build_skeleton(raw);
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message.find("own parent"), std::string::npos);
}

TEST(BuildSkeletonValidity, Cycle) {
  RawSkeleton raw{{joint("root", -1), joint("a", 2), joint("b", 1)}};
  auto s = build_skeleton(raw);
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message.find("cycle"), std::string::npos);
}

TEST(BuildSkeletonValidity, NonFiniteRest) {
  RawSkeleton raw{{joint("root", -1, vec3(0, std::numeric_limits<float>::quiet_NaN(), 0))}};
  auto s = build_skeleton(raw);
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message.find("non-finite"), std::string::npos);
}

TEST(BuildSkeletonValidity, ZeroRotation) {
  RawSkeleton raw{{joint("root", -1)}};
  raw.joints[0].rest.rotation = quat_xyzw(0, 0, 0, 0);
  EXPECT_FALSE(build_skeleton(raw));
}

TEST(BuildSkeletonValidity, TooManyJoints) {
  RawSkeleton raw;
  raw.joints.resize(static_cast<std::size_t>(Skeleton::kMaxJoints) + 1);
  auto s = build_skeleton(raw);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, ErrorCode::kLimit);
}

TEST(BuildSkeleton, LongChainDoesNotRecurse) {
  RawSkeleton raw;
  for (int i = 0; i < 20000; ++i) raw.joints.push_back(joint("j", i - 1));
  auto s = build_skeleton(raw);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->parents()[19999], 19998);
}

}  // namespace
}  // namespace critter
