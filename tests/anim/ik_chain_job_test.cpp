// SPDX-License-Identifier: MIT
#include "critter/anim/ik_chain_job.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "anim/ik_rig.h"

namespace critter::anim {
namespace {

using test::angle_between;
using test::axis_angle;
using test::chain_rig;
using test::kPi;
using test::Rig;
using test::trs;

IkChainJob job_for(Rig& rig, int end_joint, int length, IkAlgorithm algorithm) {
  IkChainJob job;
  job.parents = rig.parents;
  job.locals = rig.locals;
  job.models = rig.models;
  job.root = rig.root;
  job.end_joint = end_joint;
  job.max_chain_length = length;
  job.settings.algorithm = algorithm;
  return job;
}

// A point at distance in [lo, hi] from `center`, in a random direction.
vec3 random_point(std::mt19937& rng, vec3 center, float lo, float hi) {
  std::normal_distribution<float> n(0.0f, 1.0f);
  std::uniform_real_distribution<float> r(lo, hi);
  vec3 d(n(rng), n(rng), n(rng));
  while (glm::length(d) < 1e-3f) d = vec3(n(rng), n(rng), n(rng));
  return center + glm::normalize(d) * r(rng);
}

float chain_length(const Rig& rig, int first, int last) {
  float total = 0.0f;
  for (int j = first; j < last; ++j) total += glm::distance(rig.pos(j), rig.pos(j + 1));
  return total;
}

std::string algorithm_name(const ::testing::TestParamInfo<IkAlgorithm>& param) {
  return std::string(to_string(param.param));
}

// --- validity -------------------------------------------------------------------------------

class IkChainJobValidity : public ::testing::Test {
 protected:
  Rig rig_ = chain_rig(3);
  std::vector<JointLimit> limits_{JointLimit{2, EulerOrder::kYXZ, vec3(-10.0f), vec3(10.0f)}};
  IkChainState state_;

  IkChainJob job() {
    IkChainJob j = job_for(rig_, 3, 3, IkAlgorithm::kTwoBone);
    j.target = vec3(1, 1, 1);
    j.joint_limits = limits_;
    return j;
  }
  void expect_fails(const IkChainJob& j, const std::string& location) {
    auto v = j.validate();
    ASSERT_FALSE(v) << "expected a failure at " << location;
    EXPECT_EQ(v.error().code, ErrorCode::kUsage);
    EXPECT_EQ(v.error().path, "IkChainJob");
    EXPECT_EQ(v.error().location, location) << v.error().message;
    EXPECT_FALSE(j.run());
  }
};

TEST_F(IkChainJobValidity, DefaultJobIsValid) {
  EXPECT_TRUE(job().validate());
}

TEST_F(IkChainJobValidity, EachBrokenFieldIsNamed) {
  const float nan = std::nanf("");
  std::vector<Transform> short_locals(2);
  std::vector<mat4> short_models(2);
  std::vector<std::int16_t> bad_parents = rig_.parents;
  bad_parents[2] = 3;
  {
    auto j = job();
    j.locals = short_locals;
    expect_fails(j, "locals");
  }
  {
    auto j = job();
    j.models = short_models;
    expect_fails(j, "models");
  }
  {
    auto j = job();
    j.parents = bad_parents;
    expect_fails(j, "parents/2");
  }
  {
    auto j = job();
    j.end_joint = 7;
    expect_fails(j, "end_joint");
  }
  {
    auto j = job();
    j.end_joint = 0;  // the body is a root
    expect_fails(j, "end_joint");
  }
  {
    auto j = job();
    j.max_chain_length = 1;
    expect_fails(j, "max_chain_length");
  }
  {
    auto j = job();
    j.max_chain_length = 33;
    expect_fails(j, "max_chain_length");
  }
  {
    auto j = job();
    j.max_chain_length = 2;  // TwoBone on two bones
    expect_fails(j, "settings/algorithm");
  }
  {
    auto j = job();
    j.settings.aim_axis = vec3(0.0f);
    expect_fails(j, "settings/aim_axis");
  }
  {
    auto j = job();
    j.settings.iterations = 0;
    expect_fails(j, "settings/iterations");
  }
  {
    auto j = job();
    j.settings.tolerance = -1.0f;
    expect_fails(j, "settings/tolerance");
  }
  {
    auto j = job();
    j.settings.max_step_degrees = 0.0f;
    expect_fails(j, "settings/max_step_degrees");
  }
  {
    auto j = job();
    j.settings.position_smooth_time = -0.1f;
    expect_fails(j, "settings/position_smooth_time");
  }
  {
    auto j = job();
    j.settings.aim_smooth_time = nan;
    expect_fails(j, "settings/aim_smooth_time");
  }
  {
    auto j = job();
    j.dt = -0.01f;
    expect_fails(j, "dt");
  }
  {
    auto j = job();
    j.target = vec3(nan, 0, 0);
    expect_fails(j, "target");
  }
  {
    auto j = job();
    j.aim = vec3(0, std::numeric_limits<float>::infinity(), 0);
    expect_fails(j, "aim");
  }
  {
    auto j = job();
    j.hint = vec3(0, 0, nan);
    expect_fails(j, "hint");
  }
  {
    auto j = job();
    j.weight = 1.5f;
    expect_fails(j, "weight");
  }
  {
    auto j = job();
    j.position_weight = -0.1f;
    expect_fails(j, "position_weight");
  }
  {
    auto j = job();
    j.aim_weight = nan;
    expect_fails(j, "aim_weight");
  }
  {
    auto j = job();
    j.root[3][0] = nan;
    expect_fails(j, "root");
  }
  {
    auto j = job();
    limits_[0].min_degrees.x = 20.0f;  // above max
    expect_fails(j, "joint_limits/0/min_degrees");
  }
  {
    auto j = job();
    limits_[0] = JointLimit{};
    limits_[0].joint = 99;
    expect_fails(j, "joint_limits/0/joint");
  }
  {
    auto j = job();
    j.joint_limits = {};
    j.settings.position_smooth_time = 0.1f;
    expect_fails(j, "state");
    j.state = &state_;
    EXPECT_TRUE(j.validate());
  }
  {
    auto j = job();
    j.joint_limits = {};
    j.settings.unreachable = IkUnreachable::kUseLastValidResult;
    expect_fails(j, "state");
  }
}

// --- TwoBone ----------------------------------------------------------------------------------

// Chain root at the origin, two unit segments along +Y: the §18 formula by hand.
Rig straight_two_bone() {
  Rig rig;
  rig.add(-1, trs({0, 0, 0}));
  rig.add(0, trs({0, 1, 0}));
  rig.add(1, trs({0, 1, 0}));
  rig.refresh();
  return rig;
}

TEST(IkChainJobTwoBone, PoleHintDecidesTheBendPlaneByHand) {
  // d = √2, cos B = (1 + 2 − 1) / (2·√2) = 1/√2; the pole side of the hint is +Z or −Z, so the
  // middle joint lands at dir·cos B + p·sin B = (0.5, 0.5, ±1/√2).
  for (float side : {1.0f, -1.0f}) {
    Rig rig = straight_two_bone();
    auto job = job_for(rig, 2, 3, IkAlgorithm::kTwoBone);
    job.target = vec3(1, 1, 0);
    job.hint = vec3(0, 0, 5.0f * side);
    ASSERT_TRUE(job.run());
    EXPECT_NEAR(rig.pos(1).x, 0.5f, 1e-5f);
    EXPECT_NEAR(rig.pos(1).y, 0.5f, 1e-5f);
    EXPECT_NEAR(rig.pos(1).z, side * 0.70710678f, 1e-5f);
    EXPECT_NEAR(glm::distance(rig.pos(2), vec3(1, 1, 0)), 0.0f, 1e-5f);
  }
}

TEST(IkChainJobTwoBone, ReachesRandomReachableTargets) {
  std::mt19937 rng(1234);
  for (int trial = 0; trial < 200; ++trial) {
    Rig rig = chain_rig(3, trial % 2 ? 1.0f : 0.7f);
    const float l1 = glm::distance(rig.pos(1), rig.pos(2));
    const float l2 = glm::distance(rig.pos(2), rig.pos(3));
    const vec3 target = random_point(rng, rig.pos(1), std::abs(l1 - l2) + 0.02f, l1 + l2 - 0.02f);
    std::optional<vec3> hint;
    if (trial % 3 == 0) hint = random_point(rng, rig.pos(1), 1.0f, 2.0f);
    auto job = job_for(rig, 3, 3, IkAlgorithm::kTwoBone);
    job.target = target;
    job.hint = hint;
    IkChainReport report;
    job.report = &report;
    ASSERT_TRUE(job.run());
    EXPECT_TRUE(report.reachable);
    EXPECT_TRUE(report.solved);
    EXPECT_LT(glm::distance(rig.pos(3), target), 1e-4f) << "trial " << trial;
    EXPECT_LT(report.distance, 1e-4f);
    rig.expect_consistent();
  }
}

TEST(IkChainJobTwoBone, HintPutsTheMiddleJointOnItsSide) {
  std::mt19937 rng(77);
  for (int trial = 0; trial < 50; ++trial) {
    Rig rig = chain_rig(3);
    const vec3 root = rig.pos(1);
    const vec3 target = random_point(rng, root, 0.5f, 1.8f);
    const vec3 hint = random_point(rng, root, 1.0f, 3.0f);
    auto job = job_for(rig, 3, 3, IkAlgorithm::kTwoBone);
    job.target = target;
    job.hint = hint;
    ASSERT_TRUE(job.run());
    const vec3 dir = glm::normalize(target - root);
    const vec3 plane_normal = glm::cross(hint - root, target - root);
    if (glm::length(plane_normal) < 1e-2f) continue;
    // In the plane of root, target and hint, on the hint's side of the root-target line.
    EXPECT_NEAR(glm::dot(rig.pos(2) - root, glm::normalize(plane_normal)), 0.0f, 1e-4f);
    const vec3 hint_side = (hint - root) - glm::dot(hint - root, dir) * dir;
    EXPECT_GT(glm::dot(rig.pos(2) - root, hint_side), 0.0f);
  }
}

TEST(IkChainJobTwoBone, LongerChainsUseFirstSecondAndLast) {
  Rig rig = chain_rig(4);
  const quat third_before = rig.locals[3].rotation;
  auto job = job_for(rig, 4, 4, IkAlgorithm::kTwoBone);
  job.target = rig.pos(1) + vec3(1.2f, 0.8f, 0.3f);
  ASSERT_TRUE(job.run());
  EXPECT_EQ(rig.locals[3].rotation, third_before);
  EXPECT_LT(glm::distance(rig.pos(4), *job.target), 1e-4f);
}

// --- CCD and FABRIK -----------------------------------------------------------------------------

class IkIterative : public ::testing::TestWithParam<IkAlgorithm> {};

TEST_P(IkIterative, ReachesRandomReachableTargetsWithThreeToFiveBones) {
  std::mt19937 rng(99);
  for (int bones = 3; bones <= 5; ++bones) {
    for (int trial = 0; trial < 40; ++trial) {
      Rig rig = chain_rig(bones);
      const float reach = chain_length(rig, 1, bones);
      const vec3 target = random_point(rng, rig.pos(1), 0.3f * reach, 0.9f * reach);
      auto job = job_for(rig, bones, bones, GetParam());
      job.target = target;
      job.settings.iterations = 500;
      job.settings.tolerance = 1e-5f;
      IkChainReport report;
      job.report = &report;
      ASSERT_TRUE(job.run());
      EXPECT_LT(glm::distance(rig.pos(bones), target), 1e-4f)
          << bones << " bones, trial " << trial << ", " << report.iterations << " iterations";
      rig.expect_consistent();
    }
  }
}

TEST_P(IkIterative, StopsAtTheToleranceAndHonoursIterations) {
  Rig rig = chain_rig(4);
  auto job = job_for(rig, 4, 4, GetParam());
  job.target = rig.pos(1) + vec3(1.0f, 1.0f, 0.5f);
  job.settings.iterations = 1;
  IkChainReport report;
  job.report = &report;
  ASSERT_TRUE(job.run());
  EXPECT_EQ(report.iterations, 1);
  // Already there: a second run needs no pass at all.
  Rig at = chain_rig(4);
  auto again = job_for(at, 4, 4, GetParam());
  again.target = at.pos(4);
  again.report = &report;
  ASSERT_TRUE(again.run());
  EXPECT_EQ(report.iterations, 0);
}

TEST_P(IkIterative, JointLimitsAreNeverExceeded) {
  std::mt19937 rng(5);
  std::vector<JointLimit> limits;
  for (int j = 1; j <= 4; ++j)
    limits.push_back(JointLimit{j, EulerOrder::kYXZ, vec3(-30, -20, -25), vec3(40, 20, 25)});
  for (int trial = 0; trial < 30; ++trial) {
    Rig rig = chain_rig(4);
    auto job = job_for(rig, 4, 4, GetParam());
    job.target = random_point(rng, rig.pos(1), 0.5f, 3.0f);
    job.joint_limits = limits;
    ASSERT_TRUE(job.run());
    for (const JointLimit& l : limits)
      EXPECT_TRUE(l.contains(rig.locals[static_cast<std::size_t>(l.joint)].rotation, 0.01f))
          << "joint " << l.joint << ", trial " << trial;
  }
}

INSTANTIATE_TEST_SUITE_P(Solvers, IkIterative,
                         ::testing::Values(IkAlgorithm::kCcd, IkAlgorithm::kFabrik),
                         algorithm_name);

TEST(IkChainJobCcd, StepIsCappedByMaxStepDegrees) {
  // One pass, one joint turning: the target is 90° away around the chain root, the cap is 10°.
  Rig rig = straight_two_bone();
  auto job = job_for(rig, 1, 2, IkAlgorithm::kCcd);
  job.target = vec3(1, 0, 0);
  job.settings.iterations = 1;
  job.settings.max_step_degrees = 10.0f;
  ASSERT_TRUE(job.run());
  EXPECT_NEAR(angle_between(rig.locals[0].rotation, quat_xyzw(0, 0, 0, 1)), 10.0f * kPi / 180.0f,
              1e-5f);
}

// --- unreachable strategies ---------------------------------------------------------------------

class IkUnreachableTest : public ::testing::TestWithParam<IkAlgorithm> {};

TEST_P(IkUnreachableTest, ExtendTowardTargetStraightensTheChain) {
  Rig rig = chain_rig(4);
  const int first = GetParam() == IkAlgorithm::kTwoBone ? 2 : 1;
  const float reach = chain_length(rig, first, 4);
  const vec3 root = rig.pos(first);
  const vec3 dir = glm::normalize(vec3(0.3f, -1.0f, 0.6f));
  auto job = job_for(rig, 4, 5 - first, GetParam());
  job.target = root + dir * (2.0f * reach);
  job.settings.iterations = 200;
  IkChainReport report;
  job.report = &report;
  ASSERT_TRUE(job.run());
  EXPECT_FALSE(report.reachable);
  EXPECT_TRUE(report.solved);
  const vec3 chain_root = rig.pos(first);
  const float chain_reach = chain_length(rig, first, 4);
  for (int j = first + 1; j <= 4; ++j) {
    const vec3 to = rig.pos(j) - chain_root;
    EXPECT_LT(glm::length(glm::cross(to, dir)), 2e-3f) << "joint " << j << " off the line";
    EXPECT_GT(glm::dot(to, dir), 0.0f);
  }
  EXPECT_NEAR(glm::distance(rig.pos(4), chain_root), chain_reach, 2e-3f);
}

TEST_P(IkUnreachableTest, KeepCurrentPoseLeavesThePose) {
  Rig rig = chain_rig(4);
  const auto before = rig.locals;
  const auto models_before = rig.models;
  auto job = job_for(rig, 4, GetParam() == IkAlgorithm::kTwoBone ? 3 : 4, GetParam());
  job.target = rig.pos(1) + vec3(10, 0, 0);
  job.settings.unreachable = IkUnreachable::kKeepCurrentPose;
  IkChainReport report;
  job.report = &report;
  ASSERT_TRUE(job.run());
  EXPECT_FALSE(report.reachable);
  EXPECT_FALSE(report.solved);
  EXPECT_EQ(rig.locals, before);
  EXPECT_EQ(rig.models, models_before);
}

TEST_P(IkUnreachableTest, UseLastValidResultRestoresTheLastSolve) {
  Rig rig = chain_rig(4);
  const int length = GetParam() == IkAlgorithm::kTwoBone ? 3 : 4;
  const auto rest = rig.locals;
  IkChainState state;
  // No solve yet: nothing to restore, the pose stays.
  auto job = job_for(rig, 4, length, GetParam());
  job.settings.unreachable = IkUnreachable::kUseLastValidResult;
  job.settings.iterations = 100;
  job.state = &state;
  IkChainReport report;
  job.report = &report;
  job.target = rig.pos(1) + vec3(10, 0, 0);
  ASSERT_TRUE(job.run());
  EXPECT_FALSE(report.restored);
  EXPECT_EQ(rig.locals, rest);
  // A reachable solve, then back to rest and an unreachable target: the solve comes back.
  job.target = rig.pos(5 - length) + vec3(0.5f, 0.6f, 0.3f);
  ASSERT_TRUE(job.run());
  ASSERT_TRUE(report.solved);
  const auto solved = rig.locals;
  rig.locals = rest;
  rig.refresh();
  job.target = rig.pos(1) + vec3(10, 0, 0);
  ASSERT_TRUE(job.run());
  EXPECT_TRUE(report.restored);
  EXPECT_FALSE(report.solved);
  EXPECT_EQ(rig.locals, solved);
  rig.expect_consistent();
}

INSTANTIATE_TEST_SUITE_P(Solvers, IkUnreachableTest,
                         ::testing::Values(IkAlgorithm::kTwoBone, IkAlgorithm::kCcd,
                                           IkAlgorithm::kFabrik),
                         algorithm_name);

// --- weights ------------------------------------------------------------------------------------

class IkWeights : public ::testing::TestWithParam<IkAlgorithm> {
 protected:
  int length() const { return GetParam() == IkAlgorithm::kTwoBone ? 3 : 4; }
  IkChainJob job(Rig& rig) {
    auto j = job_for(rig, 4, length(), GetParam());
    j.target = rig.pos(5 - length()) + vec3(0.9f, 0.6f, 0.7f);
    j.settings.iterations = 300;
    j.settings.tolerance = 1e-5f;
    return j;
  }
};

TEST_P(IkWeights, ZeroWeightLeavesThePose) {
  for (int which = 0; which < 2; ++which) {
    Rig rig = chain_rig(4);
    const auto before = rig.locals;
    auto j = job(rig);
    (which == 0 ? j.weight : j.position_weight) = 0.0f;
    ASSERT_TRUE(j.run());
    for (std::size_t i = 0; i < before.size(); ++i)
      EXPECT_LT(angle_between(rig.locals[i].rotation, before[i].rotation), 1e-3f)
          << (which == 0 ? "weight" : "position_weight") << " joint " << i;
  }
}

TEST_P(IkWeights, HalfWeightTurnsEachBoneHalfWay) {
  Rig full = chain_rig(4);
  Rig half = chain_rig(4);
  const auto before = full.locals;
  ASSERT_TRUE(job(full).run());
  auto j = job(half);
  j.weight = 0.5f;
  ASSERT_TRUE(j.run());
  EXPECT_LT(glm::distance(full.pos(4), *job(full).target), 1e-4f);
  for (int b = 5 - length(); b <= 4; ++b) {
    const auto i = static_cast<std::size_t>(b);
    EXPECT_NEAR(angle_between(before[i].rotation, half.locals[i].rotation),
                0.5f * angle_between(before[i].rotation, full.locals[i].rotation), 1e-4f)
        << "bone " << b;
  }
}

TEST_P(IkWeights, HalfPositionWeightReachesTheMidpoint) {
  Rig rig = chain_rig(4);
  const vec3 end_before = rig.pos(4);
  auto j = job(rig);
  const vec3 target = *j.target;
  j.position_weight = 0.5f;
  ASSERT_TRUE(j.run());
  EXPECT_LT(glm::distance(rig.pos(4), 0.5f * (end_before + target)), 1e-4f);
}

INSTANTIATE_TEST_SUITE_P(Solvers, IkWeights,
                         ::testing::Values(IkAlgorithm::kTwoBone, IkAlgorithm::kCcd,
                                           IkAlgorithm::kFabrik),
                         algorithm_name);

// --- SingleBone and aim -------------------------------------------------------------------------

TEST(IkChainJobSingleBone, AimsTheEndBoneAxisAtTheTarget) {
  Rig rig = chain_rig(2);
  auto job = job_for(rig, 2, 2, IkAlgorithm::kAuto);
  job.settings.aim_axis = vec3(0, 1, 0);
  job.target = vec3(2, 1, -1);
  IkChainReport report;
  job.report = &report;
  ASSERT_TRUE(job.run());
  EXPECT_EQ(report.algorithm, IkAlgorithm::kSingleBone);
  const vec3 want = glm::normalize(*job.target - rig.pos(1));
  EXPECT_LT(glm::distance(rig.axis(2, {0, 1, 0}), want), 1e-5f);
}

TEST(IkChainJobSingleBone, AimWeightSlerpsTheTurn) {
  // Root at the origin, end along +Y; aiming +Y at +X is a 90° turn about −Z, half of it is 45°.
  Rig rig = straight_two_bone();
  auto job = job_for(rig, 1, 2, IkAlgorithm::kSingleBone);
  job.settings.aim_axis = vec3(0, 1, 0);
  job.aim = vec3(1, 0, 0);
  job.aim_weight = 0.5f;
  ASSERT_TRUE(job.run());
  const float h = 0.70710678f;
  EXPECT_LT(glm::distance(rig.axis(1, {0, 1, 0}), vec3(h, h, 0)), 1e-5f);
  EXPECT_NEAR(angle_between(rig.locals[0].rotation, quat_xyzw(0, 0, 0, 1)), kPi / 4, 1e-5f);
}

TEST(IkChainJobSingleBone, HugeAimComponentsAimLikeTheUnitDirection) {
  // (1e30, 0, 0) has an infinite float length; the job must still aim along +X, not write NaN.
  Rig rig = straight_two_bone();
  auto job = job_for(rig, 1, 2, IkAlgorithm::kSingleBone);
  job.settings.aim_axis = vec3(0, 1, 0);
  job.aim = vec3(1e30f, 0, 0);
  ASSERT_TRUE(job.run());
  EXPECT_LT(glm::distance(rig.axis(1, {0, 1, 0}), vec3(1, 0, 0)), 1e-5f);
  rig.expect_consistent();
}

TEST(IkChainJobAim, TwoBoneAimTurnsTheEndBoneAfterReaching) {
  Rig rig = chain_rig(3);
  auto job = job_for(rig, 3, 3, IkAlgorithm::kTwoBone);
  job.target = rig.pos(1) + vec3(0.9f, 0.9f, 0.2f);
  job.aim = vec3(0, 0, -1);
  ASSERT_TRUE(job.run());
  EXPECT_LT(glm::distance(rig.pos(3), *job.target), 1e-4f);
  EXPECT_LT(glm::distance(rig.axis(3, {0, 0, 1}), vec3(0, 0, -1)), 1e-5f);
}

TEST(IkChainJobAim, AimOnlyFabrikPointsTheChainAlongTheAim) {
  Rig rig = chain_rig(4);
  const vec3 root = rig.pos(1);
  const float reach = chain_length(rig, 1, 4);
  auto job = job_for(rig, 4, 4, IkAlgorithm::kFabrik);
  job.aim = vec3(1, 0, 0);
  job.settings.aim_axis = vec3(0, 1, 0);
  ASSERT_TRUE(job.run());
  // The synthesised target root + aim·length sits at full extension: the chain lies along +X.
  EXPECT_LT(glm::distance(rig.pos(4), root + vec3(reach, 0, 0)), 1e-3f);
}

TEST(IkChainJob, NoTargetAndNoAimSkipsAndResetsSmoothing) {
  Rig rig = chain_rig(3);
  const auto before = rig.locals;
  IkChainState state;
  state.has_target = true;
  state.target_velocity = vec3(1.0f);
  auto job = job_for(rig, 3, 3, IkAlgorithm::kTwoBone);
  job.aim = vec3(0.0f);
  job.state = &state;
  IkChainReport report;
  job.report = &report;
  ASSERT_TRUE(job.run());
  EXPECT_TRUE(report.skipped);
  EXPECT_FALSE(state.has_target);
  EXPECT_EQ(state.target_velocity, vec3(0.0f));
  EXPECT_EQ(rig.locals, before);
}

// --- limits, translation and scale --------------------------------------------------------------

TEST(IkChainJobLimits, TwoBoneKneeStaysInsideItsRange) {
  // The target asks for a knee bend of about 120°; the limit allows 0..60° about X.
  Rig rig = straight_two_bone();
  std::vector<JointLimit> limits{JointLimit{1, EulerOrder::kYXZ, vec3(-60, -1, -1), vec3(0, 1, 1)}};
  auto job = job_for(rig, 2, 3, IkAlgorithm::kTwoBone);
  job.target = vec3(0, 1, 0.05f);
  job.hint = vec3(0, 1, 5);
  job.joint_limits = limits;
  ASSERT_TRUE(job.run());
  EXPECT_TRUE(limits[0].contains(rig.locals[1].rotation, 1e-3f));
  EXPECT_NEAR(angle_between(rig.locals[1].rotation, quat_xyzw(0, 0, 0, 1)), kPi / 3, 1e-4f);
  rig.expect_consistent();
}

TEST(IkChainJob, KeepsTranslationAndScaleOfEveryBone) {
  for (IkAlgorithm a : {IkAlgorithm::kTwoBone, IkAlgorithm::kCcd, IkAlgorithm::kFabrik}) {
    Rig rig = chain_rig(4);
    rig.locals[2].scale = vec3(1.5f);
    rig.locals[3].translation = vec3(0.1f, 0.8f, -0.2f);
    rig.locals[4].scale = vec3(0.7f);
    rig.refresh();
    const auto before = rig.locals;
    std::vector<JointLimit> limits{JointLimit{3, EulerOrder::kXYZ, vec3(-45), vec3(45)}};
    auto job = job_for(rig, 4, a == IkAlgorithm::kTwoBone ? 3 : 4, a);
    job.target = rig.pos(1) + vec3(1.0f, 1.5f, 0.5f);
    job.joint_limits = limits;
    ASSERT_TRUE(job.run());
    for (std::size_t i = 0; i < before.size(); ++i) {
      EXPECT_EQ(rig.locals[i].translation, before[i].translation) << "joint " << i;
      EXPECT_EQ(rig.locals[i].scale, before[i].scale) << "joint " << i;
    }
    // Joints outside the chain keep their whole local; the tail's model is untouched.
    EXPECT_EQ(rig.locals[0], before[0]);
    EXPECT_EQ(rig.locals[5], before[5]);
    EXPECT_EQ(rig.locals[6], before[6]);
    rig.expect_consistent();
  }
}

// --- smoothing ----------------------------------------------------------------------------------

TEST(IkChainJobSmoothing, FirstFrameSnapsThenTheTargetLags) {
  Rig rig = chain_rig(3);
  IkChainState state;
  auto job = job_for(rig, 3, 3, IkAlgorithm::kTwoBone);
  job.settings.position_smooth_time = 0.2f;
  job.state = &state;
  job.dt = 1.0f / 60.0f;
  const vec3 a = rig.pos(1) + vec3(0.8f, 0.8f, 0.3f);
  const vec3 b = rig.pos(1) + vec3(-0.8f, 0.9f, 0.3f);
  job.target = a;
  ASSERT_TRUE(job.run());
  EXPECT_LT(glm::distance(rig.pos(3), a), 1e-4f);
  job.target = b;
  ASSERT_TRUE(job.run());
  // One frame later the smoothed target has moved a little toward b, no further.
  const float moved = glm::distance(state.target, a);
  EXPECT_GT(moved, 0.0f);
  EXPECT_LT(moved, 0.5f * glm::distance(a, b));
  EXPECT_LT(glm::distance(rig.pos(3), state.target), 1e-4f);
  for (int frame = 0; frame < 300; ++frame) ASSERT_TRUE(job.run());
  EXPECT_LT(glm::distance(rig.pos(3), b), 1e-4f);
}

}  // namespace
}  // namespace critter::anim
