// SPDX-License-Identifier: MIT
#include "critter/anim/local_to_model_job.h"

#include <gtest/gtest.h>
#include <glm/gtc/matrix_transform.hpp>

#include <cmath>
#include <random>
#include <string>
#include <vector>
#include "support/math_helpers.h"

namespace critter::anim {
namespace {

using critter::testing::axis_angle;
using critter::testing::columns;
using critter::testing::expect_mat_near;
using critter::testing::kIdentityRotation;
using critter::testing::kPi;
using critter::testing::trs;

// --- validity -------------------------------------------------------------------------------

class LocalToModelJobValidity : public ::testing::Test {
 protected:
  LocalToModelJob job() {
    LocalToModelJob j;
    j.parents = parents_;
    j.input = input_;
    j.output = output_;
    return j;
  }
  void expect_fails(const LocalToModelJob& j, const std::string& location) {
    auto v = j.validate();
    ASSERT_FALSE(v) << "expected a failure at " << location;
    EXPECT_EQ(v.error().code, ErrorCode::kUsage);
    EXPECT_EQ(v.error().path, "LocalToModelJob");
    EXPECT_EQ(v.error().location, location) << v.error().to_string();
    EXPECT_FALSE(j.run());
  }

  std::vector<std::int16_t> parents_{-1, 0, 0, 2};
  std::vector<Transform> input_ = std::vector<Transform>(4);
  std::vector<mat4> output_ = std::vector<mat4>(4);
};

TEST_F(LocalToModelJobValidity, ValidJobPasses) {
  EXPECT_TRUE(job().run());
}

TEST_F(LocalToModelJobValidity, InputSize) {
  auto j = job();
  j.input = std::span<const Transform>(input_).first(3);
  expect_fails(j, "input");
}

TEST_F(LocalToModelJobValidity, OutputSize) {
  auto j = job();
  j.output = std::span<mat4>(output_).first(3);
  expect_fails(j, "output");
}

TEST_F(LocalToModelJobValidity, ParentNotBeforeChild) {
  parents_[2] = 2;
  expect_fails(job(), "parents/2");
  parents_[2] = 3;
  expect_fails(job(), "parents/2");
}

TEST_F(LocalToModelJobValidity, ParentBelowMinusOne) {
  parents_[3] = -2;
  expect_fails(job(), "parents/3");
}

TEST_F(LocalToModelJobValidity, MisorderedParentFoundPastTheFirstEightJoints) {
  // Joints 0..19 in one chain; the checks of eight parents at a time must still name joint 13.
  parents_.resize(20);
  for (std::size_t i = 0; i < parents_.size(); ++i) parents_[i] = static_cast<std::int16_t>(i) - 1;
  input_.resize(20);
  output_.resize(20);
  EXPECT_TRUE(job().run());
  parents_[13] = 13;
  expect_fails(job(), "parents/13");
  parents_[13] = -3;
  expect_fails(job(), "parents/13");
  parents_[13] = 12;
  parents_[19] = 25;
  expect_fails(job(), "parents/19");
}

TEST_F(LocalToModelJobValidity, SkeletonParentsReplaceTheSpan) {
  RawSkeleton raw;
  raw.joints.resize(4);
  raw.joints[1].parent = 0;
  raw.joints[2].parent = 0;
  raw.joints[3].parent = 2;
  auto skeleton = build_skeleton(raw);
  ASSERT_TRUE(skeleton) << skeleton.error().to_string();
  auto j = job();
  j.parents = {};
  j.skeleton = &*skeleton;
  EXPECT_TRUE(j.run());
  j.output = std::span<mat4>(output_).first(3);
  expect_fails(j, "output");
}

TEST_F(LocalToModelJobValidity, NonFiniteRoot) {
  auto j = job();
  j.root[3][1] = std::nanf("");
  expect_fails(j, "root");
}

TEST_F(LocalToModelJobValidity, RootCorrectionNotFiniteOrNotAffine) {
  auto j = job();
  j.root_correction[1][1] = std::nanf("");
  expect_fails(j, "root_correction");
  j = job();
  j.root_correction[0][3] = 0.5f;  // a projective last row
  expect_fails(j, "root_correction");
}

// --- results ----------------------------------------------------------------------------------

TEST(LocalToModelJob, ChainMatchesHandBuiltMatrices) {
  const vec3 z(0, 0, 1);
  const std::vector<std::int16_t> parents{-1, 0, 1};
  const std::vector<Transform> local{
      trs(vec3(1, 0, 0), kIdentityRotation, vec3(1)),
      trs(vec3(0, 2, 0), axis_angle(z, kPi / 2), vec3(1)),
      trs(vec3(3, 0, 0), kIdentityRotation, vec3(2)),
  };
  std::vector<mat4> model(3);
  LocalToModelJob job;
  job.parents = parents;
  job.input = local;
  job.output = model;
  ASSERT_TRUE(job.run());
  // Joint 0: T(1, 0, 0).
  expect_mat_near(model[0], columns({1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {1, 0, 0, 1}), 1e-6f,
                  "joint 0");
  // Joint 1: T(1, 0, 0)·T(0, 2, 0)·Rz(90°): x -> y, y -> -x, origin (1, 2, 0).
  expect_mat_near(model[1], columns({0, 1, 0, 0}, {-1, 0, 0, 0}, {0, 0, 1, 0}, {1, 2, 0, 1}), 1e-6f,
                  "joint 1");
  // Joint 2: model1·T(3, 0, 0)·S(2): origin (1, 2, 0) + Rz(90°)(3, 0, 0) = (1, 5, 0).
  expect_mat_near(model[2], columns({0, 2, 0, 0}, {-2, 0, 0, 0}, {0, 0, 2, 0}, {1, 5, 0, 1}), 1e-6f,
                  "joint 2");
}

TEST(LocalToModelJob, RootMatrixSitsAboveEveryRoot) {
  // Two roots (a forest), root matrix T(0, 10, 0)·S(2).
  const std::vector<std::int16_t> parents{-1, 0, -1};
  const std::vector<Transform> local{trs(vec3(1, 0, 0), kIdentityRotation, vec3(1)),
                                     trs(vec3(0, 0, 1), kIdentityRotation, vec3(1)),
                                     trs(vec3(0, 3, 0), kIdentityRotation, vec3(1))};
  std::vector<mat4> model(3);
  LocalToModelJob job;
  job.parents = parents;
  job.input = local;
  job.output = model;
  job.root = columns({2, 0, 0, 0}, {0, 2, 0, 0}, {0, 0, 2, 0}, {0, 10, 0, 1});
  ASSERT_TRUE(job.run());
  expect_mat_near(model[0], columns({2, 0, 0, 0}, {0, 2, 0, 0}, {0, 0, 2, 0}, {2, 10, 0, 1}), 0.0f,
                  "root joint 0");
  expect_mat_near(model[1], columns({2, 0, 0, 0}, {0, 2, 0, 0}, {0, 0, 2, 0}, {2, 10, 2, 1}), 0.0f,
                  "child 1");
  expect_mat_near(model[2], columns({2, 0, 0, 0}, {0, 2, 0, 0}, {0, 0, 2, 0}, {0, 16, 0, 1}), 0.0f,
                  "root joint 2");
}

TEST(LocalToModelJob, RootCorrectionSitsAfterEveryRootLocal) {
  // Root joint 0 at T(1, 0, 0) with child 1 at T(0, 2, 0); a second root 2 at T(0, 0, 3).
  // Correction C = T(0, 0, 1)·Rz(90°): model[root] = local(root)·C, children follow.
  const vec3 z(0, 0, 1);
  const std::vector<std::int16_t> parents{-1, 0, -1};
  const std::vector<Transform> local{trs(vec3(1, 0, 0), kIdentityRotation, vec3(1)),
                                     trs(vec3(0, 2, 0), kIdentityRotation, vec3(1)),
                                     trs(vec3(0, 0, 3), kIdentityRotation, vec3(1))};
  std::vector<mat4> model(3);
  LocalToModelJob job;
  job.parents = parents;
  job.input = local;
  job.output = model;
  job.root_correction =
      glm::translate(mat4(1.0f), vec3(0, 0, 1)) * glm::mat4_cast(axis_angle(z, kPi / 2));
  ASSERT_TRUE(job.run());
  // Root 0: T(1, 0, 0)·T(0, 0, 1)·Rz: x -> y, y -> -x, origin (1, 0, 1).
  expect_mat_near(model[0], columns({0, 1, 0, 0}, {-1, 0, 0, 0}, {0, 0, 1, 0}, {1, 0, 1, 1}), 1e-6f,
                  "root joint 0");
  // Child 1: origin (1, 0, 1) + Rz(0, 2, 0) = (-1, 0, 1).
  expect_mat_near(model[1], columns({0, 1, 0, 0}, {-1, 0, 0, 0}, {0, 0, 1, 0}, {-1, 0, 1, 1}),
                  1e-6f, "child 1");
  // Root 2: origin (0, 0, 3) + (0, 0, 1).
  expect_mat_near(model[2], columns({0, 1, 0, 0}, {-1, 0, 0, 0}, {0, 0, 1, 0}, {0, 0, 4, 1}), 1e-6f,
                  "root joint 2");
}

TEST(LocalToModelJob, MatchesReferenceProductOfToMatrix) {
  // Scalar reference: model = model[parent] · Transform::to_matrix(), through glm's 4x4 product.
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::uniform_real_distribution<float> pos(0.5f, 1.5f);
  const int n = 40;
  std::vector<std::int16_t> parents(n);
  std::vector<Transform> local(n);
  for (int i = 0; i < n; ++i) {
    parents[static_cast<std::size_t>(i)] =
        i == 0 ? -1 : static_cast<std::int16_t>(std::uniform_int_distribution<int>(-1, i - 1)(rng));
    local[static_cast<std::size_t>(i)] =
        trs(vec3(u(rng), u(rng), u(rng)), glm::normalize(quat_xyzw(u(rng), u(rng), u(rng), u(rng))),
            vec3(pos(rng), pos(rng), pos(rng)));
  }
  std::vector<mat4> model(n);
  LocalToModelJob job;
  job.parents = parents;
  job.input = local;
  job.output = model;
  job.root = glm::translate(mat4(1.0f), vec3(0.5f, -2.0f, 1.0f));
  ASSERT_TRUE(job.run());
  std::vector<mat4> want(n);
  for (int i = 0; i < n; ++i) {
    const int p = parents[static_cast<std::size_t>(i)];
    const mat4 parent = p < 0 ? job.root : want[static_cast<std::size_t>(p)];
    want[static_cast<std::size_t>(i)] = parent * local[static_cast<std::size_t>(i)].to_matrix();
    expect_mat_near(model[static_cast<std::size_t>(i)], want[static_cast<std::size_t>(i)], 1e-4f,
                    "joint " + std::to_string(i));
  }
}

TEST(LocalToModelJob, FourJointBlocksEqualOneJointAtATime) {
  // Joints in blocks of four convert their quaternions on four lanes; a one-joint job converts
  // its joint alone. Placing that joint under its parent's model matrix (the job's root) must
  // give the same bits, for every position in a block and for the joints after the last block.
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::uniform_real_distribution<float> pos(0.5f, 1.5f);
  const int n = 43;
  std::vector<std::int16_t> parents(n);
  std::vector<Transform> local(n);
  for (int i = 0; i < n; ++i) {
    parents[static_cast<std::size_t>(i)] =
        i == 0 ? -1 : static_cast<std::int16_t>(std::uniform_int_distribution<int>(-1, i - 1)(rng));
    local[static_cast<std::size_t>(i)] =
        trs(vec3(u(rng), u(rng), u(rng)), glm::normalize(quat_xyzw(u(rng), u(rng), u(rng), u(rng))),
            vec3(pos(rng), pos(rng), pos(rng)));
  }
  std::vector<mat4> model(n);
  LocalToModelJob job;
  job.parents = parents;
  job.input = local;
  job.output = model;
  job.root = glm::rotate(glm::translate(mat4(1.0f), vec3(0.5f, -2.0f, 1.0f)), 0.3f, vec3(0, 1, 0));
  ASSERT_TRUE(job.run());
  const std::int16_t root_only[1] = {-1};
  for (int i = 0; i < n; ++i) {
    const int p = parents[static_cast<std::size_t>(i)];
    mat4 one[1];
    LocalToModelJob single;
    single.parents = root_only;
    single.input = std::span(local).subspan(static_cast<std::size_t>(i), 1);
    single.output = one;
    single.root = p < 0 ? job.root : model[static_cast<std::size_t>(p)];
    ASSERT_TRUE(single.run());
    EXPECT_EQ(one[0], model[static_cast<std::size_t>(i)]) << "joint " << i;
  }
}

}  // namespace
}  // namespace critter::anim
