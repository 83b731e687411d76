// SPDX-License-Identifier: MIT
#include "critter/anim/instance.h"

#include <gtest/gtest.h>

#include <glm/gtc/matrix_transform.hpp>

#include <vector>

#include "critter/anim/player.h"
#include "critter/anim/pose.h"
#include "critter/asset/demo_creature.h"
#include "support/math_helpers.h"

namespace critter::anim {
namespace {

using critter::testing::expect_mat_near;

constexpr float kMatTol = 1e-4f;

class InstanceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto built = build_demo_quadruped();
    ASSERT_TRUE(built) << built.error().to_string();
    model_ = std::make_unique<Model>(std::move(*built));
  }
  std::unique_ptr<Model> model_;
};

TEST_F(InstanceTest, StartsPosedAtRestWithTheDefaultWeights) {
  Instance inst(*model_);
  ASSERT_EQ(inst.model_transforms().size(),
            static_cast<std::size_t>(model_->skeleton().joint_count()));
  for (std::size_t j = 0; j < inst.model_transforms().size(); ++j)
    expect_mat_near(inst.model_transforms()[j], model_->rest_model_transforms()[j], kMatTol);
  const MorphLayout layout = MorphLayout::of(*model_);
  EXPECT_EQ(std::vector<float>(inst.morph_weights().begin(), inst.morph_weights().end()),
            layout.defaults);
}

TEST_F(InstanceTest, ModelTransformsChainTheLocalPose) {
  Instance inst(*model_);
  Player player(*model_);
  const int walk = model_->find_clip("walk");
  ASSERT_GE(walk, 0);
  ASSERT_TRUE(player.play(walk, PlaybackMode::kLoopForward));
  player.update(0.3f);
  ASSERT_TRUE(inst.pose(player.local_pose(), player.weights()));
  const auto parents = model_->skeleton().parents();
  const auto locals = player.local_pose();
  std::vector<mat4> expected(locals.size());
  for (std::size_t j = 0; j < locals.size(); ++j) {
    const mat4 local = locals[j].to_matrix();
    expected[j] = parents[j] < 0 ? local : expected[static_cast<std::size_t>(parents[j])] * local;
    expect_mat_near(inst.model_transforms()[j], expected[j], kMatTol);
    expect_mat_near(inst.bone_transform(static_cast<int>(j)), expected[j], kMatTol);
  }
  // Something moved away from rest.
  bool moved = false;
  for (std::size_t j = 0; j < locals.size(); ++j)
    moved = moved ||
            glm::length(vec3(inst.model_transforms()[j][3]) -
                        vec3(model_->rest_model_transforms()[j][3])) > 1e-3f ||
            std::abs(glm::dot(locals[j].rotation, model_->skeleton().rest_pose()[j].rotation)) <
                0.9999f;
  EXPECT_TRUE(moved);
  expect_mat_near(inst.bone_transform(-1), mat4(1.0f), kMatTol);
}

TEST_F(InstanceTest, RootMatrixPlacesEveryBone) {
  Instance inst(*model_);
  const mat4 root = glm::translate(mat4(1.0f), vec3(5, 0, -2));
  inst.set_root(root);
  ASSERT_TRUE(inst.pose(model_->skeleton().rest_pose()));
  for (std::size_t j = 0; j < inst.model_transforms().size(); ++j)
    expect_mat_near(inst.model_transforms()[j], root * model_->rest_model_transforms()[j], kMatTol);
}

TEST_F(InstanceTest, PoseWithRootCorrection) {
  Instance inst(*model_);
  // A pose that is the rest pose except joint 0 moved up by 1: every bone rises by 1.
  std::vector<Transform> pose(model_->skeleton().rest_pose().begin(),
                              model_->skeleton().rest_pose().end());
  pose[0].translation += vec3(0, 1, 0);
  ASSERT_TRUE(inst.pose(pose));
  for (std::size_t j = 0; j < pose.size(); ++j)
    expect_mat_near(inst.model_transforms()[j],
                    glm::translate(mat4(1.0f), vec3(0, 1, 0)) * model_->rest_model_transforms()[j],
                    kMatTol);
  // A correction after the root's local: for the root joint, model = local(root) · C.
  const mat4 c = glm::translate(mat4(1.0f), vec3(0, 0, 2));
  inst.set_root_correction(c);
  ASSERT_TRUE(inst.pose(pose));
  expect_mat_near(inst.model_transforms()[0], pose[0].to_matrix() * c, kMatTol);
  // A pose of the wrong size is refused and leaves the matrices as they were.
  const mat4 before = inst.model_transforms()[0];
  const std::vector<Transform> short_pose(2);
  EXPECT_FALSE(inst.pose(short_pose));
  expect_mat_near(inst.model_transforms()[0], before, 0.0f);
}

TEST_F(InstanceTest, MorphWeightsAreCopiedAndCheckedForSize) {
  Instance inst(*model_);
  const std::size_t count = MorphLayout::of(*model_).weight_count();
  const std::vector<Transform> pose(model_->skeleton().rest_pose().begin(),
                                    model_->skeleton().rest_pose().end());
  std::vector<float> weights(count, 0.25f);
  ASSERT_TRUE(inst.pose(pose, weights));
  weights.assign(count, 0.75f);  // the instance keeps its own copy
  for (float w : inst.morph_weights()) EXPECT_EQ(w, 0.25f);
  // Pose alone leaves the weights as they are.
  ASSERT_TRUE(inst.pose(pose));
  for (float w : inst.morph_weights()) EXPECT_EQ(w, 0.25f);
  // A wrong count is refused and changes nothing, matrices included.
  std::vector<Transform> moved = pose;
  moved[0].translation += vec3(0, 3, 0);
  const std::vector<float> wrong(count + 1, 1.0f);
  const Status s = inst.pose(moved, wrong);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().location, "morph_weights");
  expect_mat_near(inst.model_transforms()[0], model_->rest_model_transforms()[0], 0.0f);
  for (float w : inst.morph_weights()) EXPECT_EQ(w, 0.25f);
}

TEST_F(InstanceTest, WritableMatricesLastUntilTheNextPose) {
  Instance inst(*model_);
  const mat4 lifted = glm::translate(mat4(1.0f), vec3(0, 2, 0));
  inst.writable_model_transforms()[1] = lifted;
  expect_mat_near(inst.bone_transform(1), lifted, 0.0f);
  ASSERT_TRUE(inst.pose(model_->skeleton().rest_pose()));
  expect_mat_near(inst.bone_transform(1), model_->rest_model_transforms()[1], kMatTol);
}

TEST_F(InstanceTest, InstancesShareTheModelButNotState) {
  Instance a(*model_);
  Instance b(*model_);
  Player player(*model_);
  ASSERT_TRUE(player.play(0, PlaybackMode::kLoopForward));
  player.update(0.2f);
  ASSERT_TRUE(a.pose(player.local_pose(), player.weights()));
  // b was posed by nobody: it stays at rest.
  for (std::size_t j = 0; j < b.model_transforms().size(); ++j)
    expect_mat_near(b.model_transforms()[j], model_->rest_model_transforms()[j], kMatTol);
  EXPECT_EQ(&a.model(), &b.model());
}

}  // namespace
}  // namespace critter::anim
