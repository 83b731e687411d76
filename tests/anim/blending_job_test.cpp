#include "critter/anim/blending_job.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace critter::anim {
namespace {

constexpr float kPi = 3.14159265358979f;
const quat kIdentity = quat_xyzw(0, 0, 0, 1);

quat axis_angle(vec3 axis, float angle) {
  const float s = std::sin(angle * 0.5f);
  return quat_xyzw(axis.x * s, axis.y * s, axis.z * s, std::cos(angle * 0.5f));
}

void expect_quat_near(const quat& got, const quat& want, float tol) {
  EXPECT_NEAR(got.x, want.x, tol);
  EXPECT_NEAR(got.y, want.y, tol);
  EXPECT_NEAR(got.z, want.z, tol);
  EXPECT_NEAR(got.w, want.w, tol);
}

void expect_vec_near(const vec3& got, const vec3& want, float tol) {
  EXPECT_NEAR(got.x, want.x, tol);
  EXPECT_NEAR(got.y, want.y, tol);
  EXPECT_NEAR(got.z, want.z, tol);
}

Transform trs(vec3 t, quat r, vec3 s) {
  Transform x;
  x.translation = t;
  x.rotation = r;
  x.scale = s;
  return x;
}

// Three joints; rest is translation (0, j, 0), identity rotation, scale 1. Two morph weights with
// defaults (0, 0.5).
struct Fixture {
  std::vector<Transform> rest;
  std::vector<float> defaults{0.0f, 0.5f};
  std::vector<Transform> out;
  std::vector<float> out_weights;

  Fixture() {
    for (int j = 0; j < 3; ++j)
      rest.push_back(trs(vec3(0, static_cast<float>(j), 0), kIdentity, vec3(1)));
    out.resize(rest.size());
    out_weights.resize(defaults.size());
  }

  BlendingJob job(std::span<const BlendingLayer> layers,
                  std::span<const BlendingLayer> additive = {}) {
    BlendingJob j;
    j.layers = layers;
    j.additive_layers = additive;
    j.rest = rest;
    j.default_weights = defaults;
    j.output = out;
    j.output_weights = out_weights;
    return j;
  }

  void run(std::span<const BlendingLayer> layers, std::span<const BlendingLayer> additive = {}) {
    auto ok = job(layers, additive).run();
    ASSERT_TRUE(ok) << ok.error().to_string();
  }
};

std::vector<Transform> uniform_pose(const Transform& t) {
  return std::vector<Transform>(3, t);
}

// --- validity -------------------------------------------------------------------------------

class BlendingJobValidity : public ::testing::Test {
 protected:
  BlendingJobValidity() : pose_(uniform_pose(Transform{})), weights_{1.0f, 1.0f}, mask_(3, 1.0f) {
    layers_.push_back(BlendingLayer{pose_, weights_, 1.0f, mask_});
    additive_.push_back(BlendingLayer{pose_, weights_, 0.5f, mask_});
  }

  void expect_fails(const BlendingJob& job, const std::string& location) {
    auto v = job.validate();
    ASSERT_FALSE(v) << "expected a failure at " << location;
    EXPECT_EQ(v.error().code, ErrorCode::kUsage);
    EXPECT_EQ(v.error().path, "BlendingJob");
    EXPECT_EQ(v.error().location, location) << v.error().to_string();
    EXPECT_FALSE(job.run());
  }

  Fixture f_;
  std::vector<Transform> pose_;
  std::vector<float> weights_;
  std::vector<float> mask_;
  std::vector<BlendingLayer> layers_, additive_;
};

TEST_F(BlendingJobValidity, ValidJobPasses) {
  EXPECT_TRUE(f_.job(layers_, additive_).validate());
  EXPECT_TRUE(f_.job({}, {}).run());
}

TEST_F(BlendingJobValidity, Threshold) {
  auto job = f_.job(layers_, additive_);
  job.threshold = 0.0f;
  expect_fails(job, "threshold");
  job.threshold = std::nanf("");
  expect_fails(job, "threshold");
}

TEST_F(BlendingJobValidity, OutputSize) {
  auto job = f_.job(layers_, additive_);
  job.output = std::span<Transform>(f_.out).first(2);
  expect_fails(job, "output");
}

TEST_F(BlendingJobValidity, RestSize) {
  auto job = f_.job(layers_, additive_);
  job.rest = std::span<const Transform>(f_.rest).first(2);
  expect_fails(job, "output");
}

TEST_F(BlendingJobValidity, OutputWeightsSize) {
  auto job = f_.job(layers_, additive_);
  job.output_weights = std::span<float>(f_.out_weights).first(1);
  expect_fails(job, "output_weights");
}

TEST_F(BlendingJobValidity, LayerPoseSize) {
  layers_[0].pose = std::span<const Transform>(pose_).first(2);
  expect_fails(f_.job(layers_, additive_), "layers/0/pose");
}

TEST_F(BlendingJobValidity, LayerWeightsSize) {
  layers_[0].weights = std::span<const float>(weights_).first(1);
  expect_fails(f_.job(layers_, additive_), "layers/0/weights");
}

TEST_F(BlendingJobValidity, LayerMaskSize) {
  layers_[0].joint_weights = std::span<const float>(mask_).first(2);
  expect_fails(f_.job(layers_, additive_), "layers/0/joint_weights");
}

TEST_F(BlendingJobValidity, NegativeLayerWeight) {
  layers_[0].weight = -0.5f;
  expect_fails(f_.job(layers_, additive_), "layers/0/weight");
}

TEST_F(BlendingJobValidity, NonFiniteAdditiveWeight) {
  additive_[0].weight = std::numeric_limits<float>::infinity();
  expect_fails(f_.job(layers_, additive_), "additive_layers/0/weight");
}

TEST_F(BlendingJobValidity, AdditivePoseSize) {
  additive_[0].pose = {};
  expect_fails(f_.job(layers_, additive_), "additive_layers/0/pose");
}

// --- override layers
// ------------------------------------------------------------------------------

TEST(BlendingJob, OverrideLayersAverageByWeight) {
  Fixture f;
  const vec3 y(0, 1, 0);
  const auto a = uniform_pose(trs(vec3(0, 0, 0), kIdentity, vec3(1)));
  const auto b = uniform_pose(trs(vec3(4, 8, 0), axis_angle(y, kPi / 2), vec3(5)));
  const std::vector<BlendingLayer> layers{{a, {}, 1.0f, {}}, {b, {}, 3.0f, {}}};
  f.run(layers);
  for (const Transform& o : f.out) {
    expect_vec_near(o.translation, vec3(3, 6, 0), 1e-6f);
    expect_vec_near(o.scale, vec3(4), 1e-6f);
    // 1·(0, 0, 0, 1) + 3·(0, sin45°, 0, cos45°), normalised.
    const float sy = 3.0f * std::sqrt(0.5f), sw = 1.0f + 3.0f * std::sqrt(0.5f);
    const float len = std::sqrt(sy * sy + sw * sw);
    expect_quat_near(o.rotation, quat_xyzw(0, sy / len, 0, sw / len), 1e-6f);
  }
}

TEST(BlendingJob, OverrideRotationsAreHemisphereAligned) {
  Fixture f;
  const vec3 x(1, 0, 0);
  const auto a = uniform_pose(trs(vec3(0), axis_angle(x, 0.2f), vec3(1)));
  const auto b = uniform_pose(trs(vec3(0), -axis_angle(x, 0.6f), vec3(1)));  // same as +0.6 rad
  const std::vector<BlendingLayer> layers{{a, {}, 1.0f, {}}, {b, {}, 1.0f, {}}};
  f.run(layers);
  // Equal weights of 0.2 and 0.6 rad about X: the normalised sum is 0.4 rad exactly.
  expect_quat_near(f.out[1].rotation, axis_angle(x, 0.4f), 1e-6f);
}

TEST(BlendingJob, JointMaskScalesLayerPerJoint) {
  Fixture f;
  const auto a = uniform_pose(trs(vec3(0, 0, 0), kIdentity, vec3(1)));
  const auto b = uniform_pose(trs(vec3(6, 0, 0), kIdentity, vec3(1)));
  const std::vector<float> mask{0.0f, 1.0f, 0.5f};
  const std::vector<BlendingLayer> layers{{a, {}, 1.0f, {}}, {b, {}, 1.0f, mask}};
  f.run(layers);
  EXPECT_FLOAT_EQ(f.out[0].translation.x, 0.0f);  // b masked out
  EXPECT_FLOAT_EQ(f.out[1].translation.x, 3.0f);  // (0 + 6) / 2
  EXPECT_FLOAT_EQ(f.out[2].translation.x, 2.0f);  // (0·1 + 6·0.5) / 1.5
}

TEST(BlendingJob, NoActiveLayerGivesRestAndDefaults) {
  Fixture f;
  for (auto& t : f.out) t.translation = vec3(42.0f);
  f.run({});
  for (std::size_t j = 0; j < f.rest.size(); ++j) {
    expect_vec_near(f.out[j].translation, f.rest[j].translation, 0.0f);
    expect_quat_near(f.out[j].rotation, f.rest[j].rotation, 1e-7f);
  }
  EXPECT_FLOAT_EQ(f.out_weights[0], 0.0f);
  EXPECT_FLOAT_EQ(f.out_weights[1], 0.5f);

  const auto a = uniform_pose(trs(vec3(9), kIdentity, vec3(9)));
  const std::vector<BlendingLayer> zero{{a, {}, 0.0f, {}}};
  f.run(zero);
  EXPECT_EQ(f.out[2].translation, f.rest[2].translation);
}

TEST(BlendingJob, BelowThresholdBlendsWithRest) {
  Fixture f;
  const vec3 z(0, 0, 1);
  const auto a = uniform_pose(trs(vec3(4, 0, 0), axis_angle(z, 1.0f), vec3(3)));
  const std::vector<float> w{1.0f, 1.0f};
  const std::vector<BlendingLayer> layers{{a, w, 0.05f, {}}};
  // threshold 0.1: the rest pose fills in with weight 0.05, so the result is half way.
  f.run(layers);
  expect_vec_near(f.out[2].translation, vec3(2, 1, 0), 1e-6f);  // rest (0, 2, 0)
  expect_vec_near(f.out[2].scale, vec3(2), 1e-6f);
  // (identity + rotation of 1 rad) normalised = rotation of 0.5 rad.
  expect_quat_near(f.out[2].rotation, axis_angle(z, 0.5f), 1e-6f);
  EXPECT_FLOAT_EQ(f.out_weights[0], 0.5f);   // (1 + 0) / 2
  EXPECT_FLOAT_EQ(f.out_weights[1], 0.75f);  // (1 + 0.5) / 2
}

TEST(BlendingJob, MorphWeightsLerpByLayerWeightIgnoringMasksAndPoseOnlyLayers) {
  Fixture f;
  const auto pose = uniform_pose(Transform{});
  const std::vector<float> wa{0.0f, 4.0f}, wb{4.0f, 0.0f}, mask{0.0f, 0.0f, 0.0f};
  const std::vector<BlendingLayer> layers{
      {pose, wa, 1.0f, {}}, {pose, wb, 3.0f, mask}, {pose, {}, 10.0f, {}}};
  f.run(layers);
  EXPECT_FLOAT_EQ(f.out_weights[0], 3.0f);
  EXPECT_FLOAT_EQ(f.out_weights[1], 1.0f);
}

// --- additive layers
// ------------------------------------------------------------------------------

TEST(BlendingJob, AdditiveDeltaOnItsReferenceRestoresThePose) {
  Fixture f;
  const vec3 x(1, 0, 0), y(0, 1, 0);
  const auto reference = uniform_pose(trs(vec3(1, 2, 3), axis_angle(x, 0.3f), vec3(2, 2, 1)));
  const auto target = uniform_pose(trs(vec3(-1, 5, 3), axis_angle(y, 0.8f), vec3(4, 1, 3)));
  std::vector<Transform> delta(3);
  ASSERT_TRUE(make_additive_delta(target, reference, delta));
  const std::vector<BlendingLayer> base{{reference, {}, 1.0f, {}}};
  const std::vector<BlendingLayer> add{{delta, {}, 1.0f, {}}};
  f.run(base, add);
  expect_vec_near(f.out[0].translation, vec3(-1, 5, 3), 1e-5f);
  expect_quat_near(f.out[0].rotation, axis_angle(y, 0.8f), 1e-5f);
  expect_vec_near(f.out[0].scale, vec3(4, 1, 3), 1e-5f);
}

TEST(BlendingJob, AdditiveWeightScalesTheDelta) {
  Fixture f;
  const vec3 x(1, 0, 0);
  const auto reference = uniform_pose(trs(vec3(0, 0, 0), axis_angle(x, kPi / 6), vec3(2)));
  const auto target = uniform_pose(trs(vec3(4, 0, 0), axis_angle(x, kPi / 2), vec3(4)));
  std::vector<Transform> delta(3);
  ASSERT_TRUE(make_additive_delta(target, reference, delta));
  const std::vector<float> mask{1.0f, 1.0f, 0.0f};
  const std::vector<BlendingLayer> base{{reference, {}, 1.0f, {}}};
  const std::vector<BlendingLayer> add{{delta, {}, 0.5f, mask}};
  f.run(base, add);
  // Half of a (+4, +60°, ×2) delta on (0, 30°, 2): (2, 60°, 3).
  expect_vec_near(f.out[0].translation, vec3(2, 0, 0), 1e-6f);
  expect_quat_near(f.out[0].rotation, axis_angle(x, kPi / 3), 1e-6f);
  expect_vec_near(f.out[0].scale, vec3(3), 1e-6f);
  // The mask removes the additive layer on joint 2.
  expect_vec_near(f.out[2].translation, vec3(0), 0.0f);
  expect_quat_near(f.out[2].rotation, axis_angle(x, kPi / 6), 1e-6f);
}

TEST(BlendingJob, AdditiveMorphWeightsAdd) {
  Fixture f;
  const auto pose = uniform_pose(Transform{});
  const std::vector<float> base_w{1.0f, 1.0f}, add_w{2.0f, 4.0f};
  const std::vector<BlendingLayer> base{{pose, base_w, 1.0f, {}}};
  const std::vector<BlendingLayer> add{{pose, add_w, 0.5f, {}}};
  f.run(base, add);
  EXPECT_FLOAT_EQ(f.out_weights[0], 2.0f);
  EXPECT_FLOAT_EQ(f.out_weights[1], 3.0f);
}

TEST(MakeAdditiveDelta, ComponentsAndSizes) {
  const vec3 z(0, 0, 1);
  const std::vector<Transform> pose{trs(vec3(3, 2, 1), axis_angle(z, 1.0f), vec3(6, 5, 4))};
  const std::vector<Transform> ref{trs(vec3(1, 1, 1), axis_angle(z, 0.25f), vec3(2, 0, 4))};
  std::vector<Transform> out(1);
  ASSERT_TRUE(make_additive_delta(pose, ref, out));
  expect_vec_near(out[0].translation, vec3(2, 1, 0), 0.0f);
  expect_quat_near(out[0].rotation, axis_angle(z, 0.75f), 1e-6f);
  expect_vec_near(out[0].scale, vec3(3, 1, 1), 0.0f);  // zero reference scale -> 1
  std::vector<Transform> wrong(2);
  auto bad = make_additive_delta(pose, ref, wrong);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, ErrorCode::kUsage);
}

}  // namespace
}  // namespace critter::anim
