#include "critter/anim/instance.h"

#include <gtest/gtest.h>

#include <glm/gtc/matrix_transform.hpp>

#include "critter/asset/demo_creature.h"

namespace critter::anim {
namespace {

void expect_mat_near(const mat4& a, const mat4& b, float eps = 1e-4f) {
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r)
      EXPECT_NEAR(a[c][r], b[c][r], eps) << "column " << c << " row " << r;
}

class InstanceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto built = build_demo_quadruped();
    ASSERT_TRUE(built) << built.error().to_string();
    model_ = std::make_unique<Model>(std::move(*built));
  }
  std::unique_ptr<Model> model_;
};

TEST_F(InstanceTest, RestPosePaletteIsIdentity) {
  Instance inst(*model_);
  ASSERT_FALSE(model_->skins().empty());
  const auto palette = inst.palette(0);
  ASSERT_EQ(palette.size(), model_->skins()[0].joints.size());
  // The demo creature's inverse binds invert its rest model transforms.
  for (const mat4& m : palette) expect_mat_near(m, mat4(1.0f));
  EXPECT_TRUE(inst.palette(1).empty());
  EXPECT_TRUE(inst.palette(-1).empty());
}

TEST_F(InstanceTest, ModelTransformsChainTheLocalPose) {
  Instance inst(*model_);
  const int walk = model_->find_clip("walk");
  ASSERT_GE(walk, 0);
  ASSERT_TRUE(inst.player().play(walk, PlaybackMode::kLoopForward));
  inst.update(0.3f);
  const auto parents = model_->skeleton().parents();
  const auto locals = inst.local_pose();
  std::vector<mat4> expected(locals.size());
  for (std::size_t j = 0; j < locals.size(); ++j) {
    const mat4 local = locals[j].to_matrix();
    expected[j] = parents[j] < 0 ? local : expected[static_cast<std::size_t>(parents[j])] * local;
    expect_mat_near(inst.model_transforms()[j], expected[j]);
    expect_mat_near(inst.bone_transform(static_cast<int>(j)), expected[j]);
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
  expect_mat_near(inst.bone_transform(-1), mat4(1.0f));
}

TEST_F(InstanceTest, RootMatrixPlacesEveryBone) {
  Instance inst(*model_);
  const mat4 root = glm::translate(mat4(1.0f), vec3(5, 0, -2));
  inst.set_root(root);
  inst.refresh();
  for (std::size_t j = 0; j < inst.model_transforms().size(); ++j)
    expect_mat_near(inst.model_transforms()[j], root * model_->rest_model_transforms()[j]);
}

TEST_F(InstanceTest, RefreshFromAGivenPoseWithRootCorrection) {
  Instance inst(*model_);
  // A pose that is the rest pose except joint 0 moved up by 1: every bone rises by 1.
  std::vector<Transform> pose(model_->skeleton().rest_pose().begin(),
                              model_->skeleton().rest_pose().end());
  pose[0].translation += vec3(0, 1, 0);
  ASSERT_TRUE(inst.refresh(pose));
  for (std::size_t j = 0; j < pose.size(); ++j)
    expect_mat_near(inst.model_transforms()[j],
                    glm::translate(mat4(1.0f), vec3(0, 1, 0)) * model_->rest_model_transforms()[j]);
  // A correction after the root's local: for the root joint, model = local(root) · C.
  const mat4 c = glm::translate(mat4(1.0f), vec3(0, 0, 2));
  inst.set_root_correction(c);
  ASSERT_TRUE(inst.refresh(pose));
  expect_mat_near(inst.model_transforms()[0], pose[0].to_matrix() * c);
  // A pose of the wrong size is refused and leaves the matrices as they were.
  const mat4 before = inst.model_transforms()[0];
  const std::vector<Transform> short_pose(2);
  EXPECT_FALSE(inst.refresh(short_pose));
  expect_mat_near(inst.model_transforms()[0], before, 0.0f);
}

TEST_F(InstanceTest, InstancesShareTheModelButNotState) {
  Instance a(*model_);
  Instance b(*model_);
  ASSERT_TRUE(a.player().play(0, PlaybackMode::kLoopForward));
  a.update(0.2f);
  b.update(0.2f);  // b plays nothing: stays at rest
  for (std::size_t j = 0; j < b.model_transforms().size(); ++j)
    expect_mat_near(b.model_transforms()[j], model_->rest_model_transforms()[j]);
  EXPECT_EQ(&a.model(), &b.model());
}

}  // namespace
}  // namespace critter::anim
