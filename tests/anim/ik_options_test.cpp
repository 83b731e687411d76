// SPDX-License-Identifier: MIT
#include "critter/anim/ik_options.h"

#include <gtest/gtest.h>

namespace critter::anim {
namespace {

TEST(IkOptions, ParsesAlgorithmsWithAndWithoutTheIkSuffix) {
  EXPECT_EQ(parse_ik_algorithm("SingleBone"), IkAlgorithm::kSingleBone);
  EXPECT_EQ(parse_ik_algorithm("twobone"), IkAlgorithm::kTwoBone);
  EXPECT_EQ(parse_ik_algorithm("TwoBoneIK"), IkAlgorithm::kTwoBone);
  EXPECT_EQ(parse_ik_algorithm("ccd"), IkAlgorithm::kCcd);
  EXPECT_EQ(parse_ik_algorithm("CCDIK"), IkAlgorithm::kCcd);
  EXPECT_EQ(parse_ik_algorithm("Fabrik"), IkAlgorithm::kFabrik);
  EXPECT_EQ(parse_ik_algorithm("FABRIKik"), IkAlgorithm::kFabrik);
  EXPECT_EQ(parse_ik_algorithm("auto"), IkAlgorithm::kAuto);
  EXPECT_FALSE(parse_ik_algorithm("AutoIK"));
  EXPECT_FALSE(parse_ik_algorithm("IK"));
  EXPECT_FALSE(parse_ik_algorithm("TwoBones"));
  EXPECT_FALSE(parse_ik_algorithm(""));
  EXPECT_EQ(to_string(IkAlgorithm::kFabrik), "FABRIK");
}

TEST(IkOptions, ParsesUnreachableStrategies) {
  EXPECT_EQ(parse_ik_unreachable("ExtendTowardTarget"), IkUnreachable::kExtendTowardTarget);
  EXPECT_EQ(parse_ik_unreachable("keepcurrentpose"), IkUnreachable::kKeepCurrentPose);
  EXPECT_EQ(parse_ik_unreachable("USELASTVALIDRESULT"), IkUnreachable::kUseLastValidResult);
  EXPECT_FALSE(parse_ik_unreachable("Stretch"));
  EXPECT_EQ(to_string(IkUnreachable::kKeepCurrentPose), "KeepCurrentPose");
}

TEST(IkOptions, DefaultAlgorithmFollowsTheChainLength) {
  EXPECT_EQ(default_ik_algorithm(2), IkAlgorithm::kSingleBone);
  EXPECT_EQ(default_ik_algorithm(3), IkAlgorithm::kTwoBone);
  EXPECT_EQ(default_ik_algorithm(4), IkAlgorithm::kCcd);
  EXPECT_EQ(default_ik_algorithm(32), IkAlgorithm::kCcd);
}

TEST(IkOptions, DefaultsMatchTheSpec) {
  const IkChainSettings c;
  EXPECT_EQ(c.aim_axis, vec3(0, 0, 1));
  EXPECT_EQ(c.iterations, 10);
  EXPECT_FLOAT_EQ(c.tolerance, 0.001f);
  EXPECT_FLOAT_EQ(c.max_step_degrees, 45.0f);
  EXPECT_EQ(c.unreachable, IkUnreachable::kExtendTowardTarget);
  const LookAtSettings l;
  EXPECT_FLOAT_EQ(l.max_yaw_degrees, 65.0f);
  EXPECT_FLOAT_EQ(l.max_pitch_degrees, 55.0f);
  EXPECT_EQ(l.forward_axis, vec3(0, 0, 1));
  EXPECT_EQ(l.up_axis, vec3(0, 1, 0));
}

}  // namespace
}  // namespace critter::anim
