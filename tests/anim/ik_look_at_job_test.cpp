// SPDX-License-Identifier: MIT
#include "critter/anim/ik_look_at_job.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "anim/ik_rig.h"

namespace critter::anim {
namespace {

using test::angle_between;
using test::axis_angle;
using test::kPi;
using test::Rig;
using test::trs;

// Body (0) at the origin, neck (1) 1 up, head (2) 0.3 above the neck, a jaw (3) on the head and a
// tail (4) on the body. All unrotated: the head looks along +Z with +Y up.
Rig head_rig() {
  Rig rig;
  rig.add(-1, trs({0, 0, 0}));
  rig.add(0, trs({0, 1, 0}));
  rig.add(1, trs({0, 0.3f, 0}));
  rig.add(2, trs({0, -0.1f, 0.2f}));
  rig.add(0, trs({0, 0, -1}));
  rig.refresh();
  return rig;
}

class IkLookAt : public ::testing::Test {
 protected:
  Rig rig_ = head_rig();
  std::vector<std::int16_t> bones_{1, 2};
  std::vector<float> shares_{0.6f, 0.4f};
  LookAtState state_;

  IkLookAtJob job() {
    IkLookAtJob j;
    j.parents = rig_.parents;
    j.locals = rig_.locals;
    j.models = rig_.models;
    j.root = rig_.root;
    j.bones = bones_;
    j.shares = shares_;
    return j;
  }
  vec3 head_forward() const { return rig_.axis(2, {0, 0, 1}); }
};

TEST_F(IkLookAt, ValidityNamesEachBrokenField) {
  EXPECT_TRUE(job().validate());
  const float nan = std::nanf("");
  std::vector<Transform> short_locals(2);
  std::vector<std::int16_t> bad_parents = rig_.parents;
  bad_parents[1] = 1;
  std::vector<std::int16_t> no_bones;
  std::vector<std::int16_t> outside{1, 9};
  std::vector<std::int16_t> unrelated{2, 4};
  std::vector<float> one_share{1.0f};
  std::vector<float> negative{-0.1f, 0.5f};
  std::vector<float> too_much{0.7f, 0.6f};
  auto expect = [](const IkLookAtJob& j, const std::string& location) {
    auto v = j.validate();
    ASSERT_FALSE(v) << location;
    EXPECT_EQ(v.error().path, "IkLookAtJob");
    EXPECT_EQ(v.error().location, location) << v.error().message;
    EXPECT_FALSE(j.run());
  };
  auto j = job();
  j.locals = short_locals;
  expect(j, "locals");
  j = job();
  j.models = {};
  expect(j, "models");
  j = job();
  j.parents = bad_parents;
  expect(j, "parents/1");
  j = job();
  j.bones = no_bones;
  expect(j, "bones");
  j = job();
  j.bones = outside;
  expect(j, "bones/1");
  j = job();
  j.bones = unrelated;
  expect(j, "bones/1");
  j = job();
  j.shares = one_share;
  expect(j, "shares");
  j = job();
  j.shares = negative;
  expect(j, "shares/0");
  j = job();
  j.shares = too_much;
  expect(j, "shares");
  j = job();
  j.settings.forward_axis = vec3(0.0f);
  expect(j, "settings/forward_axis");
  j = job();
  j.settings.up_axis = vec3(0, 0, 2);
  expect(j, "settings/up_axis");
  j = job();
  j.settings.max_yaw_degrees = 200.0f;
  expect(j, "settings/max_yaw_degrees");
  j = job();
  j.settings.max_pitch_degrees = -1.0f;
  expect(j, "settings/max_pitch_degrees");
  j = job();
  j.settings.smooth_time = nan;
  expect(j, "settings/smooth_time");
  j = job();
  j.dt = -1.0f;
  expect(j, "dt");
  j = job();
  j.target = vec3(nan);
  expect(j, "target");
  j = job();
  j.yaw = nan;
  expect(j, "yaw");
  j = job();
  j.pitch = std::numeric_limits<float>::infinity();
  expect(j, "pitch");
  j = job();
  j.weight = 2.0f;
  expect(j, "weight");
  j = job();
  j.root[0][0] = nan;
  expect(j, "root");
  j = job();
  j.settings.smooth_time = 0.1f;
  expect(j, "state");
}

TEST_F(IkLookAt, YawIsSharedBetweenTheBones) {
  auto j = job();
  j.yaw = 0.5f;
  ASSERT_TRUE(j.run());
  // Neck takes 0.6 of the yaw, the head the remaining 0.4 on top of it.
  EXPECT_LT(angle_between(rig_.locals[1].rotation, axis_angle({0, 1, 0}, 0.3f)), 1e-5f);
  EXPECT_LT(angle_between(rig_.locals[2].rotation, axis_angle({0, 1, 0}, 0.2f)), 1e-5f);
  EXPECT_LT(glm::distance(head_forward(), vec3(std::sin(0.5f), 0, std::cos(0.5f))), 1e-5f);
  rig_.expect_consistent();
}

TEST_F(IkLookAt, ABoneUnderAZeroScaledParentIsLeftAsItWas) {
  // The neck scaled to 0 has no model rotation, so neither it nor the head under it can be turned
  // by a model-space rotation: the head keeps its local and nothing becomes NaN.
  rig_.locals[1].scale = vec3(0.0f);
  rig_.refresh();
  const Transform head_before = rig_.locals[2];
  auto j = job();
  j.yaw = 0.5f;
  ASSERT_TRUE(j.run());
  EXPECT_EQ(rig_.locals[2].rotation, head_before.rotation);
  for (const Transform& t : rig_.locals) {
    EXPECT_TRUE(all_finite(t.rotation) && all_finite(t.translation) && all_finite(t.scale));
  }
}

TEST_F(IkLookAt, PositivePitchLooksUp) {
  auto j = job();
  j.pitch = 0.4f;
  ASSERT_TRUE(j.run());
  EXPECT_LT(glm::distance(head_forward(), vec3(0, std::sin(0.4f), std::cos(0.4f))), 1e-5f);
  EXPECT_LT(angle_between(rig_.locals[1].rotation, axis_angle({-1, 0, 0}, 0.24f)), 1e-5f);
}

TEST_F(IkLookAt, AnglesAreClampedToTheLimitsInDegrees) {
  auto j = job();
  j.yaw = 2.0f;
  j.pitch = -1.5f;
  j.settings.max_yaw_degrees = 40.0f;
  j.settings.max_pitch_degrees = 10.0f;
  ASSERT_TRUE(j.run());
  const float y = 40.0f * kPi / 180.0f, p = -10.0f * kPi / 180.0f;
  const vec3 want(std::sin(y) * std::cos(p), std::sin(p), std::cos(y) * std::cos(p));
  EXPECT_LT(glm::distance(head_forward(), want), 1e-5f);
}

TEST_F(IkLookAt, LooksAtATargetFromATurnedBody) {
  rig_.root = glm::mat4_cast(axis_angle({0, 1, 0}, 0.7f));
  rig_.locals[0].rotation = axis_angle({1, 0, 1}, 0.3f);
  rig_.locals[1].rotation = axis_angle({0, 1, 0}, -0.2f);
  rig_.refresh();
  const vec3 head = rig_.pos(2);
  const vec3 target = head + rig_.axis(2, {0, 0, 1}) * 2.0f + vec3(0.6f, 0.5f, 0.3f);
  auto j = job();
  j.root = rig_.root;
  j.target = target;
  ASSERT_TRUE(j.run());
  // The neck's share moves the head; the look is still measured from where the head ends up.
  EXPECT_GT(glm::distance(rig_.pos(2), head), 1e-3f);
  EXPECT_LT(glm::distance(head_forward(), glm::normalize(target - rig_.pos(2))), 1e-4f);
  rig_.expect_consistent();
}

TEST_F(IkLookAt, DefaultSharesTurnOnlyTheLastBone) {
  auto j = job();
  j.shares = {};
  j.yaw = -0.3f;
  ASSERT_TRUE(j.run());
  EXPECT_EQ(rig_.locals[1].rotation, quat_xyzw(0, 0, 0, 1));
  EXPECT_LT(angle_between(rig_.locals[2].rotation, axis_angle({0, 1, 0}, -0.3f)), 1e-5f);
}

TEST_F(IkLookAt, WeightBlendsFromThePose) {
  const auto before = rig_.locals;
  auto j = job();
  j.yaw = 0.5f;
  j.weight = 0.0f;
  ASSERT_TRUE(j.run());
  for (std::size_t i = 0; i < before.size(); ++i)
    EXPECT_LT(angle_between(rig_.locals[i].rotation, before[i].rotation), 1e-5f);
  j.weight = 0.5f;
  ASSERT_TRUE(j.run());
  EXPECT_LT(glm::distance(head_forward(), vec3(std::sin(0.25f), 0, std::cos(0.25f))), 1e-5f);
}

TEST_F(IkLookAt, KeepsTranslationAndScale) {
  rig_.locals[1].scale = vec3(1.3f);
  rig_.locals[2].translation = vec3(0.05f, 0.3f, 0.02f);
  rig_.locals[2].scale = vec3(0.8f);
  rig_.refresh();
  const auto before = rig_.locals;
  auto j = job();
  j.target = vec3(2, 3, 1);
  ASSERT_TRUE(j.run());
  for (std::size_t i = 0; i < before.size(); ++i) {
    EXPECT_EQ(rig_.locals[i].translation, before[i].translation);
    EXPECT_EQ(rig_.locals[i].scale, before[i].scale);
  }
  EXPECT_EQ(rig_.locals[3], before[3]);
  EXPECT_EQ(rig_.locals[4], before[4]);
  rig_.expect_consistent();
}

TEST_F(IkLookAt, SmoothingSnapsFirstThenLags) {
  auto j = job();
  j.settings.smooth_time = 0.3f;
  j.state = &state_;
  j.dt = 1.0f / 60.0f;
  j.yaw = 0.5f;
  ASSERT_TRUE(j.run());
  EXPECT_FLOAT_EQ(state_.yaw, 0.5f);
  // Back to the rest pose, then a new goal: the smoothed yaw moves a little toward it.
  rig_ = head_rig();
  j = job();
  j.settings.smooth_time = 0.3f;
  j.state = &state_;
  j.dt = 1.0f / 60.0f;
  j.yaw = -0.5f;
  ASSERT_TRUE(j.run());
  EXPECT_LT(state_.yaw, 0.5f);
  EXPECT_GT(state_.yaw, 0.0f);
  EXPECT_LT(glm::distance(head_forward(), vec3(std::sin(state_.yaw), 0, std::cos(state_.yaw))),
            1e-5f);
}

}  // namespace
}  // namespace critter::anim
