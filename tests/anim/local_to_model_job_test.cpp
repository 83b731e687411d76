// SPDX-License-Identifier: MIT
#include "critter/anim/local_to_model_job.h"
#include "critter/anim/ik_chain_job.h"
#include "critter/anim/ik_look_at_job.h"

#include <gtest/gtest.h>
#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
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

TEST_F(LocalToModelJobValidity, StructureOfArraysInputSize) {
  std::vector<SoaTransform> two(2), one(1);
  LocalToModelJob j = job();
  j.input = {};
  j.soa_input = one;
  EXPECT_TRUE(j.validate());
  j.soa_input = two;
  expect_fails(j, "soa_input");
  j.soa_input = one;
  j.input = input_;
  expect_fails(j, "soa_input");
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

TEST_F(LocalToModelJobValidity, PathThisCpuCannotRun) {
  for (LocalToModelPath path :
       {LocalToModelPath::kAuto, LocalToModelPath::kScalar, LocalToModelPath::kSse2,
        LocalToModelPath::kAvx2, LocalToModelPath::kAvx512}) {
    auto j = job();
    j.path = path;
    if (local_to_model_path_available(path)) {
      EXPECT_TRUE(j.run()) << "path " << static_cast<int>(path);
    } else {
      expect_fails(j, "path");
    }
  }
  EXPECT_TRUE(local_to_model_path_available(LocalToModelPath::kAuto));
  EXPECT_TRUE(local_to_model_path_available(LocalToModelPath::kScalar));
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

// Every path must give the scalar reference's bits, on poses that reach each branch of the
// passes: joint counts around the four- and sixteen-lane blocks, chains (parent = previous
// joint, kept in registers) and parents further back, many roots, non-uniform and negative
// scales, unnormalised quaternions, a projective root matrix and a root correction.
class LocalToModelPaths : public ::testing::TestWithParam<LocalToModelPath> {};

struct RandomPose {
  std::vector<std::int16_t> parents;
  std::vector<Transform> local;
};

RandomPose random_pose(int n, std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::uniform_real_distribution<float> pick(0.0f, 1.0f);
  RandomPose pose;
  for (int i = 0; i < n; ++i) {
    const float kind = pick(rng);
    std::int16_t parent = -1;
    if (i > 0 && kind < 0.5f) {
      parent = static_cast<std::int16_t>(i - 1);
    } else if (i > 0 && kind < 0.85f) {
      parent = static_cast<std::int16_t>(std::uniform_int_distribution<int>(0, i - 1)(rng));
    }
    pose.parents.push_back(parent);
    // Scales in [-2, -0.25] or [0.25, 2] per axis; some rotations left unnormalised.
    auto scale = [&] {
      const float m = 0.25f + 1.75f * pick(rng);
      return pick(rng) < 0.3f ? -m : m;
    };
    quat q = quat_xyzw(u(rng), u(rng), u(rng), u(rng));
    if (pick(rng) < 0.8f) q = glm::normalize(q);
    pose.local.push_back(
        trs(vec3(u(rng), u(rng), u(rng)) * 3.0f, q, vec3(scale(), scale(), scale())));
  }
  return pose;
}

TEST_P(LocalToModelPaths, GiveTheScalarReferenceBits) {
  const LocalToModelPath path = GetParam();
  ASSERT_TRUE(local_to_model_path_available(path))
      << "path " << static_cast<int>(path) << " is not available on this machine";
  std::mt19937 rng(23);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  int compared = 0;
  for (int n : {0, 1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 33, 67, 130}) {
    for (int variant = 0; variant < 4; ++variant) {
      const RandomPose pose = random_pose(n, rng);
      LocalToModelJob job;
      job.parents = pose.parents;
      job.input = pose.local;
      if (variant & 1) {
        // Any finite 4x4 root: a projective last row is carried along.
        for (int c = 0; c < 4; ++c)
          for (int r = 0; r < 4; ++r) job.root[c][r] = u(rng) * 2.0f;
      }
      if (variant & 2) {
        job.root_correction =
            glm::translate(mat4(1.0f), vec3(u(rng), u(rng), u(rng))) *
            glm::mat4_cast(glm::normalize(quat_xyzw(u(rng), u(rng), u(rng), u(rng)))) *
            glm::scale(mat4(1.0f), vec3(1.5f, -0.5f, 0.75f));
      }
      std::vector<mat4> want(static_cast<std::size_t>(n)), got(static_cast<std::size_t>(n));
      job.path = LocalToModelPath::kScalar;
      job.output = want;
      ASSERT_TRUE(job.run());
      job.path = path;
      job.output = got;
      ASSERT_TRUE(job.run());
      // The same pose in structure-of-arrays form (chains cross the sixteen-joint blocks).
      std::vector<SoaTransform> soa(soa_blocks(pose.local.size()));
      ASSERT_TRUE(to_soa(pose.local, soa));
      std::vector<mat4> from_soa(static_cast<std::size_t>(n));
      LocalToModelJob soa_job = job;
      soa_job.input = {};
      soa_job.soa_input = soa;
      soa_job.output = from_soa;
      ASSERT_TRUE(soa_job.run());
      for (int i = 0; i < n; ++i) {
        const mat4& a = got[static_cast<std::size_t>(i)];
        const mat4& b = want[static_cast<std::size_t>(i)];
        ASSERT_EQ(std::memcmp(&a, &b, sizeof(mat4)), 0)
            << "n " << n << " variant " << variant << " joint " << i << " parent "
            << pose.parents[static_cast<std::size_t>(i)];
        ASSERT_EQ(std::memcmp(&from_soa[static_cast<std::size_t>(i)], &b, sizeof(mat4)), 0)
            << "structure-of-arrays input, n " << n << " variant " << variant << " joint " << i;
        ++compared;
      }
    }
  }
  EXPECT_GT(compared, 1000);
}

// A matrix array starts wherever its allocator put it (a std::vector<mat4> is 16-byte aligned):
// outputs at each 16-byte offset inside a cache line, Transform and structure-of-arrays inputs,
// give the scalar reference's bits (the wide passes store a matrix across two cache lines there,
// and read a parent's columns back from such stores).
TEST_P(LocalToModelPaths, AnyOutputAlignmentGivesTheSameBits) {
  std::mt19937 rng(29);
  for (int n : {1, 5, 16, 33, 67}) {
    const RandomPose pose = random_pose(n, rng);
    std::vector<SoaTransform> soa(soa_blocks(pose.local.size()));
    ASSERT_TRUE(to_soa(pose.local, soa));
    LocalToModelJob job;
    job.parents = pose.parents;
    job.input = pose.local;
    std::vector<mat4> want(static_cast<std::size_t>(n));
    job.path = LocalToModelPath::kScalar;
    job.output = want;
    ASSERT_TRUE(job.run());
    job.path = GetParam();
    alignas(64) static float buffer[16 * 68 + 16];
    for (std::size_t offset = 0; offset < 16; offset += 4) {
      std::span<mat4> out(reinterpret_cast<mat4*>(buffer + offset), static_cast<std::size_t>(n));
      for (const bool structure_of_arrays : {false, true}) {
        std::fill(std::begin(buffer), std::end(buffer), -1.0f);
        LocalToModelJob j = job;
        if (structure_of_arrays) {
          j.input = {};
          j.soa_input = soa;
        }
        j.output = out;
        ASSERT_TRUE(j.run());
        ASSERT_EQ(std::memcmp(out.data(), want.data(), want.size() * sizeof(mat4)), 0)
            << "n " << n << " offset " << offset * 4 << " bytes, soa " << structure_of_arrays;
      }
    }
  }
}

std::vector<LocalToModelPath> available_paths() {
  std::vector<LocalToModelPath> paths;
  for (LocalToModelPath p :
       {LocalToModelPath::kAuto, LocalToModelPath::kScalar, LocalToModelPath::kSse2,
        LocalToModelPath::kAvx2, LocalToModelPath::kAvx512})
    if (local_to_model_path_available(p)) paths.push_back(p);
  return paths;
}

std::string path_name(const ::testing::TestParamInfo<LocalToModelPath>& param) {
  static constexpr const char* kNames[] = {"Auto", "Scalar", "Sse2", "Avx2", "Avx512"};
  return kNames[static_cast<int>(param.param)];
}

INSTANTIATE_TEST_SUITE_P(Available, LocalToModelPaths, ::testing::ValuesIn(available_paths()),
                         path_name);

TEST(LocalToModelJob, ScalarReferenceMatchesGlmProducts) {
  // The reference against glm: model = model[parent] · Transform::to_matrix() (· correction
  // after a root), with negative and non-uniform scales and several roots.
  std::mt19937 rng(31);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  RandomPose pose = random_pose(67, rng);
  for (Transform& t : pose.local) t.rotation = glm::normalize(t.rotation);
  LocalToModelJob job;
  job.parents = pose.parents;
  job.input = pose.local;
  job.path = LocalToModelPath::kScalar;
  job.root = glm::rotate(glm::translate(mat4(1.0f), vec3(0.5f, -2.0f, 1.0f)), 0.7f, vec3(1, 1, 0));
  job.root_correction = glm::translate(mat4(1.0f), vec3(0.0f, 0.1f, 0.2f)) *
                        glm::scale(mat4(1.0f), vec3(1.0f, -1.0f, 2.0f));
  std::vector<mat4> model(pose.local.size());
  job.output = model;
  ASSERT_TRUE(job.run());
  std::vector<mat4> want(model.size());
  for (std::size_t i = 0; i < model.size(); ++i) {
    const int p = pose.parents[i];
    want[i] = p < 0 ? job.root * pose.local[i].to_matrix() * job.root_correction
                    : want[static_cast<std::size_t>(p)] * pose.local[i].to_matrix();
    // Entries grow along chains of scales up to 2: compare relative to the largest one.
    float size = 1.0f;
    for (int c = 0; c < 4; ++c)
      for (int r = 0; r < 4; ++r) size = std::max(size, std::abs(want[i][c][r]));
    expect_mat_near(model[i], want[i], 2e-5f * size, "joint " + std::to_string(i));
  }
}

}  // namespace
}  // namespace critter::anim

// Every job's matrix fields start as the library's identity matrix (copied, not built in the
// caller: docs/jobs.md, "Building a job per call"), which is the identity.
TEST(JobMatrixDefaults, StartAsTheLibrarysIdentity) {
  EXPECT_EQ(critter::kIdentityMatrix, critter::mat4(1.0f));
  const critter::anim::LocalToModelJob ltm;
  EXPECT_EQ(ltm.root, critter::kIdentityMatrix);
  EXPECT_EQ(ltm.root_correction, critter::kIdentityMatrix);
  const critter::anim::IkChainJob chain;
  EXPECT_EQ(chain.root, critter::kIdentityMatrix);
  const critter::anim::IkLookAtJob look;
  EXPECT_EQ(look.root, critter::kIdentityMatrix);
}
