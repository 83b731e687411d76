// SPDX-License-Identifier: MIT
#include "critter/anim/blending_job.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "anim/exact_slerp.h"
#include "critter/anim/transform_blend.h"
#include "support/allocation_counter.h"
#include "support/math_helpers.h"

namespace critter::anim {
namespace {

using critter::anim::test::exact_slerp;
using critter::testing::axis_angle;
using critter::testing::expect_quat_near;
using critter::testing::expect_vec_near;
using critter::testing::kIdentityRotation;
using critter::testing::kPi;
using critter::testing::trs;

// Every blending path, for the tests that run a job on each (skip those the CPU lacks with
// blending_path_available).
constexpr BlendingPath kEveryPath[] = {BlendingPath::kScalar, BlendingPath::kAuto,
                                       BlendingPath::kSse2, BlendingPath::kAvx2,
                                       BlendingPath::kAvx512};

// A job of `layers` over `rest` into `out` on `path`, rotations by kLerp.
BlendingJob lerp_job(std::span<const BlendingLayer> layers, std::span<const Transform> rest,
                     std::span<Transform> out, BlendingPath path) {
  BlendingJob job;
  job.layers = layers;
  job.rest = rest;
  job.output = out;
  job.path = path;
  job.rotations = RotationBlend::kLerp;
  return job;
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
      rest.push_back(trs(vec3(0, static_cast<float>(j), 0), kIdentityRotation, vec3(1)));
    out.resize(rest.size());
    out_weights.resize(defaults.size());
  }

  BlendingJob job(std::span<const BlendingLayer> layers) {
    BlendingJob j;
    j.layers = layers;
    j.rest = rest;
    j.default_weights = defaults;
    j.output = out;
    j.output_weights = out_weights;
    return j;
  }

  void run(std::span<const BlendingLayer> layers) {
    auto ok = job(layers).run();
    ASSERT_TRUE(ok) << ok.error().to_string();
  }
};

std::vector<Transform> uniform_pose(const Transform& t) {
  return std::vector<Transform>(3, t);
}

// --- validity -------------------------------------------------------------------------------

constexpr LayerBlendMode kOverride = LayerBlendMode::kOverride;
constexpr LayerBlendMode kAdditive = LayerBlendMode::kAdditive;

BlendingLayer layer(LayerBlendMode mode, std::span<const Transform> pose, float weight,
                    std::span<const float> mask = {}, std::span<const float> weights = {}) {
  BlendingLayer l;
  l.mode = mode;
  l.pose = pose;
  l.weight = weight;
  l.joint_weights = mask;
  l.weights = weights;
  return l;
}

// A valid job with every optional field in use (two meshes of one weight each); each test
// breaks one field.
class BlendingJobValidity : public ::testing::Test {
 protected:
  BlendingJobValidity()
      : pose_(uniform_pose(Transform{})),
        weights_{1.0f, 1.0f},
        mask_(3, 1.0f),
        sampled_(3, 1),
        coverage_{1.0f, 0.5f} {
    BlendingLayer over = layer(kOverride, pose_, 1.0f, mask_, weights_);
    over.sampled = sampled_;
    over.morph_coverage = coverage_;
    layers_.push_back(over);
    layers_.push_back(layer(kAdditive, pose_, 0.5f, mask_, weights_));
  }

  BlendingJob valid() {
    BlendingJob j = f_.job(layers_);
    j.mesh_offsets = offsets_;
    return j;
  }

  void expect_fails(const BlendingJob& job, const std::string& location) {
    auto v = job.validate();
    ASSERT_FALSE(v);
    EXPECT_EQ(v.error().code, ErrorCode::kUsage);
    EXPECT_EQ(v.error().path, "BlendingJob");
    EXPECT_EQ(v.error().location, location);
    EXPECT_FALSE(job.run());  // run() validates first
  }

  Fixture f_;
  std::vector<Transform> pose_;
  std::vector<float> weights_, mask_;
  std::vector<std::uint8_t> sampled_;
  std::vector<float> coverage_;
  std::vector<std::uint32_t> offsets_{0, 1, 2};
  std::vector<BlendingLayer> layers_;
};

TEST_F(BlendingJobValidity, ValidJobPasses) {
  EXPECT_TRUE(valid().validate());
  EXPECT_TRUE(valid().run());
}

TEST_F(BlendingJobValidity, OutputSize) {
  BlendingJob j = valid();
  j.output = std::span<Transform>(f_.out).first(2);
  expect_fails(j, "output");
}

TEST_F(BlendingJobValidity, RestSize) {
  BlendingJob j = valid();
  j.rest = std::span<const Transform>(f_.rest).first(2);
  expect_fails(j, "output");
}

TEST_F(BlendingJobValidity, OutputWeightsSize) {
  BlendingJob j = valid();
  j.output_weights = std::span<float>(f_.out_weights).first(1);
  expect_fails(j, "output_weights");
}

TEST_F(BlendingJobValidity, MeshOffsetsNotFromZero) {
  offsets_ = {1, 1, 2};
  expect_fails(valid(), "mesh_offsets");
}

TEST_F(BlendingJobValidity, MeshOffsetsDescending) {
  offsets_ = {0, 2, 1, 2};
  expect_fails(valid(), "mesh_offsets");
}

TEST_F(BlendingJobValidity, MeshOffsetsNotEndingAtTheWeightCount) {
  offsets_ = {0, 1};
  expect_fails(valid(), "mesh_offsets");
}

TEST_F(BlendingJobValidity, NegativeLayerWeight) {
  layers_[1].weight = -0.5f;
  expect_fails(valid(), "layers/1/weight");
}

TEST_F(BlendingJobValidity, NonFiniteLayerWeight) {
  layers_[0].weight = std::nanf("");
  expect_fails(valid(), "layers/0/weight");
}

TEST_F(BlendingJobValidity, LayerPoseSize) {
  layers_[1].pose = std::span<const Transform>(pose_).first(2);
  expect_fails(valid(), "layers/1/pose");
}

TEST_F(BlendingJobValidity, LayerMaskSize) {
  layers_[0].joint_weights = std::span<const float>(mask_).first(2);
  expect_fails(valid(), "layers/0/joint_weights");
}

TEST_F(BlendingJobValidity, LayerSampledSize) {
  layers_[0].sampled = std::span<const std::uint8_t>(sampled_).first(1);
  expect_fails(valid(), "layers/0/sampled");
}

TEST_F(BlendingJobValidity, LayerWeightsSize) {
  layers_[1].weights = std::span<const float>(weights_).first(1);
  expect_fails(valid(), "layers/1/weights");
}

TEST_F(BlendingJobValidity, LayerCoverageSize) {
  layers_[0].morph_coverage = std::span<const float>(coverage_).first(1);
  expect_fails(valid(), "layers/0/morph_coverage");
}

// run() skips validate() for the jobs a frame usually builds (the automatic path, mesh offsets
// and coverage as a Controller gives them): every such job that breaks a rule must still fail in
// run(), at the location validate() names, in both pose forms.
// A job with one rule broken, and the location its error must name.
struct BrokenJob {
  const char* what;
  BlendingJob job;
  std::string location;
};

// Copies of a job with one of its fields, or one of its layers, changed. The changed layer stacks
// live as long as this (a moved vector keeps its elements in place).
class JobVariants {
 public:
  BlendingJob with_layer(const BlendingJob& base, std::size_t i, auto change) {
    keep_.push_back(std::vector<BlendingLayer>(base.layers.begin(), base.layers.end()));
    change(keep_.back()[i]);
    BlendingJob j = base;
    j.layers = keep_.back();
    return j;
  }
  BlendingJob with_job(BlendingJob j, auto change) const {
    change(j);
    return j;
  }

 private:
  std::vector<std::vector<BlendingLayer>> keep_;
};

TEST(BlendingJob, UsualJobsThatBreakARuleStillFailInRun) {
  Fixture f;
  const std::vector<Transform> pose = uniform_pose(Transform{});
  const std::vector<float> weights{1.0f, 1.0f}, mask(3, 0.5f), short_mask(2, 0.5f);
  const std::vector<std::uint8_t> sampled(3, 1), long_sampled(4, 1);
  const std::vector<SoaTransform> soa_rest(1), soa_pose(1), two_blocks(2);
  std::vector<SoaTransform> soa_out(1), soa_out_long(2);
  std::vector<BlendingLayer> layers{layer(kOverride, pose, 0.5f, mask, weights),
                                    layer(kAdditive, pose, 0.25f)};
  layers[0].sampled = sampled;

  std::vector<BrokenJob> cases;
  const BlendingJob aos = f.job(layers);
  ASSERT_TRUE(aos.run());
  JobVariants variants;
  cases.push_back(
      {"output size",
       variants.with_job(aos,
                         [&](BlendingJob& j) { j.output = std::span<Transform>(f.out).first(2); }),
       "output"});
  cases.push_back(
      {"rest size",
       variants.with_job(
           aos, [&](BlendingJob& j) { j.rest = std::span<const Transform>(f.rest).first(2); }),
       "output"});
  cases.push_back({"output weights",
                   variants.with_job(aos,
                                     [&](BlendingJob& j) {
                                       j.output_weights = std::span<float>(f.out_weights).first(1);
                                     }),
                   "output_weights"});
  cases.push_back({"soa_joints in the Transform form",
                   variants.with_job(aos, [](BlendingJob& j) { j.soa_joints = 3; }), "soa_joints"});
  cases.push_back({"soa_rest in the Transform form",
                   variants.with_job(aos, [&](BlendingJob& j) { j.soa_rest = soa_rest; }),
                   "soa_rest"});
  cases.push_back(
      {"rotations",
       variants.with_job(aos, [](BlendingJob& j) { j.rotations = static_cast<RotationBlend>(7); }),
       "rotations"});
  const std::pair<const char*, float> bad_weights[] = {
      {"negative weight", -0.5f},
      {"NaN weight", std::nanf("")},
      {"infinite weight", std::numeric_limits<float>::infinity()}};
  for (const auto& [what, w] : bad_weights)
    cases.push_back({what, variants.with_layer(aos, 1, [w](BlendingLayer& l) { l.weight = w; }),
                     "layers/1/weight"});
  cases.push_back({"layer pose size",
                   variants.with_layer(aos, 1, [&](BlendingLayer& l) { l.pose = l.pose.first(2); }),
                   "layers/1/pose"});
  cases.push_back({"structure-of-arrays layer in the Transform form",
                   variants.with_layer(aos, 1, [&](BlendingLayer& l) { l.soa_pose = soa_pose; }),
                   "layers/1/soa_pose"});
  cases.push_back(
      {"mask size",
       variants.with_layer(aos, 0, [&](BlendingLayer& l) { l.joint_weights = short_mask; }),
       "layers/0/joint_weights"});
  cases.push_back({"sampled size",
                   variants.with_layer(aos, 0, [&](BlendingLayer& l) { l.sampled = long_sampled; }),
                   "layers/0/sampled"});
  cases.push_back(
      {"morph weights size",
       variants.with_layer(aos, 0, [&](BlendingLayer& l) { l.weights = l.weights.first(1); }),
       "layers/0/weights"});

  // Two meshes of one morph weight each, the first layer covering them fully and half.
  const std::vector<std::uint32_t> offsets{0, 1, 2}, from_one{1, 2}, short_of_weights{0, 1},
      descending{0, 3, 2};
  const std::vector<float> coverage{1.0f, 0.5f}, one_coverage{1.0f};
  const BlendingJob meshed =
      variants.with_layer(variants.with_job(aos, [&](BlendingJob& j) { j.mesh_offsets = offsets; }),
                          0, [&](BlendingLayer& l) { l.morph_coverage = coverage; });
  ASSERT_TRUE(meshed.run());
  for (const auto& [what, bad] : {std::pair{"mesh offsets not from 0", &from_one},
                                  std::pair{"mesh offsets short of the weights", &short_of_weights},
                                  std::pair{"mesh offsets descending", &descending}})
    cases.push_back({what,
                     variants.with_job(meshed, [&](BlendingJob& j) { j.mesh_offsets = *bad; }),
                     "mesh_offsets"});
  cases.push_back(
      {"coverage size",
       variants.with_layer(meshed, 0, [&](BlendingLayer& l) { l.morph_coverage = one_coverage; }),
       "layers/0/morph_coverage"});
  cases.push_back({"coverage of two meshes without offsets (one mesh)",
                   variants.with_job(meshed, [](BlendingJob& j) { j.mesh_offsets = {}; }),
                   "layers/0/morph_coverage"});

  BlendingJob soa = aos;
  soa.rest = {};
  soa.output = {};
  soa.soa_rest = soa_rest;
  soa.soa_output = soa_out;
  soa.soa_joints = 3;
  std::vector<BlendingLayer> soa_layers = layers;
  for (BlendingLayer& l : soa_layers) {
    l.pose = {};
    l.soa_pose = soa_pose;
  }
  soa.layers = soa_layers;
  ASSERT_TRUE(soa.run());
  cases.push_back({"soa_joints beyond the blocks",
                   variants.with_job(soa, [](BlendingJob& j) { j.soa_joints = 17; }), "soa_rest"});
  cases.push_back({"soa_output blocks",
                   variants.with_job(soa, [&](BlendingJob& j) { j.soa_output = soa_out_long; }),
                   "soa_output"});
  cases.push_back({"rest in the structure-of-arrays form",
                   variants.with_job(soa, [&](BlendingJob& j) { j.rest = f.rest; }), "rest"});
  cases.push_back({"layer blocks",
                   variants.with_layer(soa, 1, [&](BlendingLayer& l) { l.soa_pose = two_blocks; }),
                   "layers/1/soa_pose"});
  cases.push_back({"Transform layer in the structure-of-arrays form",
                   variants.with_layer(soa, 0, [&](BlendingLayer& l) { l.pose = pose; }),
                   "layers/0/pose"});
  cases.push_back({"NaN weight, structure-of-arrays form",
                   variants.with_layer(soa, 0, [](BlendingLayer& l) { l.weight = std::nanf(""); }),
                   "layers/0/weight"});

  for (const BrokenJob& c : cases) {
    SCOPED_TRACE(c.what);
    const auto v = c.job.validate();
    ASSERT_FALSE(v);
    EXPECT_EQ(v.error().location, c.location);
    const auto r = c.job.run();
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().location, c.location);
  }
}

// --- the stack (§11) ---------------------------------------------------------------------------

TEST(BlendingJob, NoActiveLayerGivesRestAndDefaults) {
  Fixture f;
  f.out.assign(3, trs(vec3(9), axis_angle(vec3(0, 0, 1), 1.0f), vec3(9)));
  f.out_weights.assign(2, 9.0f);
  f.run({});
  for (int j = 0; j < 3; ++j) {
    expect_vec_near(f.out[j].translation, f.rest[j].translation, 0.0f);
    expect_quat_near(f.out[j].rotation, kIdentityRotation, 0.0f);
  }
  EXPECT_EQ(f.out_weights, f.defaults);
  // A layer at weight 0 is off.
  const auto a = uniform_pose(trs(vec3(5), kIdentityRotation, vec3(2)));
  const std::vector<BlendingLayer> zero{layer(kOverride, a, 0.0f)};
  f.run(zero);
  expect_vec_near(f.out[1].translation, vec3(0, 1, 0), 0.0f);
}

TEST(BlendingJob, FullWeightOverrideReplacesWhatIsBelow) {
  Fixture f;
  const vec3 z(0, 0, 1);
  const auto a = uniform_pose(trs(vec3(1, 2, 3), axis_angle(z, 0.5f), vec3(2)));
  const auto b = uniform_pose(trs(vec3(-4, 0, 1), axis_angle(z, -1.0f), vec3(3)));
  const std::vector<BlendingLayer> layers{layer(kOverride, a, 1.0f), layer(kOverride, b, 2.5f)};
  f.run(layers);
  for (int j = 0; j < 3; ++j) {
    expect_vec_near(f.out[j].translation, vec3(-4, 0, 1), 0.0f);
    expect_quat_near(f.out[j].rotation, axis_angle(z, -1.0f), 0.0f);
    expect_vec_near(f.out[j].scale, vec3(3), 0.0f);
  }
}

TEST(BlendingJob, PartialOverrideLerpsTowardsTheLayerInStackOrder) {
  Fixture f;
  const vec3 z(0, 0, 1);
  const auto a = uniform_pose(trs(vec3(0, 0, 0), axis_angle(z, 0.0f), vec3(1)));
  const auto b = uniform_pose(trs(vec3(4, 0, 0), axis_angle(z, 1.0f), vec3(3)));
  const std::vector<BlendingLayer> ab{layer(kOverride, a, 1.0f), layer(kOverride, b, 0.25f)};
  f.run(ab);
  expect_vec_near(f.out[0].translation, vec3(1, 0, 0), 1e-6f);
  expect_quat_near(f.out[0].rotation, axis_angle(z, 0.25f), 1e-6f);
  expect_vec_near(f.out[0].scale, vec3(1.5f), 1e-6f);
  // The other order: b at full weight, then a quarter of the way back to a.
  const std::vector<BlendingLayer> ba{layer(kOverride, b, 1.0f), layer(kOverride, a, 0.25f)};
  f.run(ba);
  expect_vec_near(f.out[0].translation, vec3(3, 0, 0), 1e-6f);
  expect_quat_near(f.out[0].rotation, axis_angle(z, 0.75f), 1e-6f);
  expect_vec_near(f.out[0].scale, vec3(2.5f), 1e-6f);
}

TEST(BlendingJob, PartialBottomLayerBlendsFromRest) {
  Fixture f;
  const vec3 x(1, 0, 0);
  const auto a = uniform_pose(trs(vec3(2, 1, 0), axis_angle(x, 1.0f), vec3(3)));
  const std::vector<BlendingLayer> layers{layer(kOverride, a, 0.5f)};
  f.run(layers);
  // Joint 2 rests at (0, 2, 0): halfway to (2, 1, 0).
  expect_vec_near(f.out[2].translation, vec3(1, 1.5f, 0), 1e-6f);
  expect_quat_near(f.out[2].rotation, axis_angle(x, 0.5f), 1e-6f);
  expect_vec_near(f.out[2].scale, vec3(2), 1e-6f);
}

TEST(BlendingJob, OverrideRotationTakesTheShortArc) {
  Fixture f;
  const vec3 z(0, 0, 1);
  const quat q = axis_angle(z, 0.5f);
  const std::vector<Transform> a = uniform_pose(trs(vec3(0), q, vec3(1)));
  const std::vector<Transform> b = uniform_pose(trs(vec3(0), -axis_angle(z, 1.5f), vec3(1)));
  const std::vector<BlendingLayer> layers{layer(kOverride, a, 1.0f), layer(kOverride, b, 0.5f)};
  f.run(layers);
  const quat got = f.out[0].rotation;
  const quat want = axis_angle(z, 1.0f);
  EXPECT_NEAR(std::abs(glm::dot(got, want)), 1.0f, 1e-6f);
}

TEST(BlendingJob, JointMaskScalesTheLayerPerJoint) {
  Fixture f;
  const auto a = uniform_pose(trs(vec3(0), kIdentityRotation, vec3(1)));
  const auto b = uniform_pose(trs(vec3(4, 0, 0), kIdentityRotation, vec3(1)));
  const std::vector<float> mask{0.0f, 0.5f, 1.0f};
  const std::vector<BlendingLayer> layers{layer(kOverride, a, 1.0f),
                                          layer(kOverride, b, 1.0f, mask)};
  f.run(layers);
  EXPECT_FLOAT_EQ(f.out[0].translation.x, 0.0f);
  EXPECT_FLOAT_EQ(f.out[1].translation.x, 2.0f);
  EXPECT_FLOAT_EQ(f.out[2].translation.x, 4.0f);
  // The mask multiplies the layer weight: 0.5 · 0.5 on joint 1.
  const std::vector<BlendingLayer> half{layer(kOverride, a, 1.0f), layer(kOverride, b, 0.5f, mask)};
  f.run(half);
  EXPECT_FLOAT_EQ(f.out[1].translation.x, 1.0f);
  EXPECT_FLOAT_EQ(f.out[2].translation.x, 2.0f);
}

TEST(BlendingJob, SampledJointsLimitTheLayer) {
  Fixture f;
  const auto a = uniform_pose(trs(vec3(1, 0, 0), kIdentityRotation, vec3(1)));
  const auto b = uniform_pose(trs(vec3(5, 0, 0), kIdentityRotation, vec3(1)));
  const std::vector<std::uint8_t> sampled{0, 1, 0};
  BlendingLayer top = layer(kOverride, b, 1.0f);
  top.sampled = sampled;
  const std::vector<BlendingLayer> layers{layer(kOverride, a, 1.0f), top};
  f.run(layers);
  EXPECT_FLOAT_EQ(f.out[0].translation.x, 1.0f);
  EXPECT_FLOAT_EQ(f.out[1].translation.x, 5.0f);
  EXPECT_FLOAT_EQ(f.out[2].translation.x, 1.0f);
}

TEST(BlendingJob, AdditiveActsOnTheLocalSideOfTheOutputSoFar) {
  Fixture f;
  const vec3 x(1, 0, 0), z(0, 0, 1);
  const quat turn = axis_angle(z, kPi / 2), tilt = axis_angle(x, kPi / 3);
  const auto base = uniform_pose(trs(vec3(1, 0, 0), turn, vec3(2)));
  const auto delta = uniform_pose(trs(vec3(0, 2, 0), tilt, vec3(1.5f)));
  const std::vector<BlendingLayer> layers{layer(kOverride, base, 1.0f),
                                          layer(kAdditive, delta, 1.0f)};
  f.run(layers);
  expect_quat_near(f.out[0].rotation, turn * tilt, 1e-6f);
  expect_vec_near(f.out[0].translation, vec3(1, 2, 0), 1e-6f);
  expect_vec_near(f.out[0].scale, vec3(3), 1e-6f);
  // Half weight: half the angle, half the translation, scale · (1 + 0.5 · 0.5).
  const std::vector<BlendingLayer> half{layer(kOverride, base, 1.0f),
                                        layer(kAdditive, delta, 0.5f)};
  f.run(half);
  expect_quat_near(f.out[0].rotation, turn * axis_angle(x, kPi / 6), 1e-6f);
  expect_vec_near(f.out[0].translation, vec3(1, 1, 0), 1e-6f);
  expect_vec_near(f.out[0].scale, vec3(2.5f), 1e-6f);
}

TEST(BlendingJob, AdditiveOnNothingActsOnRest) {
  Fixture f;
  const vec3 x(1, 0, 0);
  const auto delta = uniform_pose(trs(vec3(0, 0, 3), axis_angle(x, 0.4f), vec3(1)));
  const std::vector<BlendingLayer> layers{layer(kAdditive, delta, 1.0f)};
  f.run(layers);
  expect_vec_near(f.out[2].translation, vec3(0, 2, 3), 1e-6f);
  expect_quat_near(f.out[2].rotation, axis_angle(x, 0.4f), 1e-6f);
}

TEST(BlendingJob, AdditiveWeightAboveOneScalesTranslationButNotRotation) {
  Fixture f;
  const vec3 x(1, 0, 0);
  const auto delta = uniform_pose(trs(vec3(1, 0, 0), axis_angle(x, 0.4f), vec3(2)));
  const std::vector<BlendingLayer> layers{layer(kAdditive, delta, 2.0f)};
  f.run(layers);
  expect_vec_near(f.out[0].translation, vec3(2, 0, 0), 1e-6f);
  expect_quat_near(f.out[0].rotation, axis_angle(x, 0.4f), 1e-6f);
  expect_vec_near(f.out[0].scale, vec3(3), 1e-6f);
}

TEST(BlendingJob, OrderMattersBetweenAdditiveAndOverride) {
  Fixture f;
  const auto a = uniform_pose(trs(vec3(4, 0, 0), kIdentityRotation, vec3(1)));
  const auto delta = uniform_pose(trs(vec3(1, 0, 0), kIdentityRotation, vec3(1)));
  // An override at full weight above an additive layer hides it.
  const std::vector<BlendingLayer> hidden{layer(kAdditive, delta, 1.0f), layer(kOverride, a, 1.0f)};
  f.run(hidden);
  EXPECT_FLOAT_EQ(f.out[0].translation.x, 4.0f);
  const std::vector<BlendingLayer> shown{layer(kOverride, a, 1.0f), layer(kAdditive, delta, 1.0f)};
  f.run(shown);
  EXPECT_FLOAT_EQ(f.out[0].translation.x, 5.0f);
}

TEST(BlendingJob, AdditiveDeltaOnItsReferenceRestoresThePose) {
  Fixture f;
  const vec3 x(1, 0, 0), y(0, 1, 0);
  const auto reference = uniform_pose(trs(vec3(1, 2, 3), axis_angle(x, 0.3f), vec3(2, 2, 1)));
  const auto target = uniform_pose(trs(vec3(-1, 5, 3), axis_angle(y, 0.8f), vec3(4, 1, 3)));
  std::vector<Transform> delta(3);
  ASSERT_TRUE(make_additive_delta(target, reference, delta));
  const std::vector<BlendingLayer> layers{layer(kOverride, reference, 1.0f),
                                          layer(kAdditive, delta, 1.0f)};
  f.run(layers);
  expect_vec_near(f.out[0].translation, vec3(-1, 5, 3), 1e-5f);
  expect_quat_near(f.out[0].rotation, axis_angle(y, 0.8f), 1e-5f);
  expect_vec_near(f.out[0].scale, vec3(4, 1, 3), 1e-5f);
}

TEST(BlendingJob, AdditiveWeightAndMaskScaleTheDelta) {
  Fixture f;
  const vec3 x(1, 0, 0);
  const auto reference = uniform_pose(trs(vec3(0, 0, 0), axis_angle(x, kPi / 6), vec3(2)));
  const auto target = uniform_pose(trs(vec3(4, 0, 0), axis_angle(x, kPi / 2), vec3(4)));
  std::vector<Transform> delta(3);
  ASSERT_TRUE(make_additive_delta(target, reference, delta));
  const std::vector<float> mask{1.0f, 1.0f, 0.0f};
  const std::vector<BlendingLayer> layers{layer(kOverride, reference, 1.0f),
                                          layer(kAdditive, delta, 0.5f, mask)};
  f.run(layers);
  // Half of a (+4, +60°, ×2) delta on (0, 30°, 2): (2, 60°, 3).
  expect_vec_near(f.out[0].translation, vec3(2, 0, 0), 1e-6f);
  expect_quat_near(f.out[0].rotation, axis_angle(x, kPi / 3), 1e-6f);
  expect_vec_near(f.out[0].scale, vec3(3), 1e-6f);
  // The mask removes the additive layer on joint 2.
  expect_vec_near(f.out[2].translation, vec3(0), 0.0f);
  expect_quat_near(f.out[2].rotation, axis_angle(x, kPi / 6), 1e-6f);
}

// --- morph weights -----------------------------------------------------------------------------

TEST(BlendingJob, MorphOverrideLerpsByLayerWeightIgnoringMasksAndPoseOnlyLayers) {
  Fixture f;
  const auto pose = uniform_pose(Transform{});
  const std::vector<float> a{1.0f, 1.0f}, b{0.0f, 3.0f};
  const std::vector<float> no_joints(3, 0.0f);
  const std::vector<BlendingLayer> layers{layer(kOverride, pose, 1.0f, {}, a),
                                          layer(kOverride, pose, 0.25f, no_joints, b),
                                          layer(kOverride, pose, 1.0f)};  // drives no weights
  f.run(layers);
  EXPECT_FLOAT_EQ(f.out_weights[0], 0.75f);
  EXPECT_FLOAT_EQ(f.out_weights[1], 1.5f);
  // A weight above 1 counts as 1.
  const std::vector<BlendingLayer> heavy{layer(kOverride, pose, 3.0f, {}, b)};
  f.run(heavy);
  EXPECT_FLOAT_EQ(f.out_weights[0], 0.0f);
  EXPECT_FLOAT_EQ(f.out_weights[1], 3.0f);
}

TEST(BlendingJob, MorphCoveragePerMesh) {
  Fixture f;  // defaults (0, 0.5)
  const auto pose = uniform_pose(Transform{});
  const std::vector<std::uint32_t> offsets{0, 1, 2};
  const std::vector<float> below{1.0f, 1.5f}, in{0.0f, 0.5f};
  const std::vector<float> coverage{0.0f, 0.5f};
  BlendingLayer top = layer(kOverride, pose, 1.0f, {}, in);
  top.morph_coverage = coverage;
  const std::vector<BlendingLayer> layers{layer(kOverride, pose, 1.0f, {}, below), top};
  BlendingJob job = f.job(layers);
  job.mesh_offsets = offsets;
  ASSERT_TRUE(job.run());
  // Mesh 0 is not animated by the top layer: it keeps the value below.
  EXPECT_FLOAT_EQ(f.out_weights[0], 1.0f);
  // Mesh 1 at coverage 0.5: out + ((in - d) - 0.5 (out - d)) = 1.5 + (0 - 0.5) = 1.0.
  EXPECT_FLOAT_EQ(f.out_weights[1], 1.0f);
}

TEST(BlendingJob, MorphAdditiveAddsTheWeightedDeltaFromTheDefaults) {
  Fixture f;  // defaults (0, 0.5)
  const auto pose = uniform_pose(Transform{});
  const std::vector<float> base_w{1.0f, 1.0f}, add_w{2.0f, 4.5f};
  const std::vector<BlendingLayer> layers{layer(kOverride, pose, 1.0f, {}, base_w),
                                          layer(kAdditive, pose, 0.5f, {}, add_w)};
  f.run(layers);
  EXPECT_FLOAT_EQ(f.out_weights[0], 2.0f);
  EXPECT_FLOAT_EQ(f.out_weights[1], 3.0f);
}

// The job blends four joints at a time in vertical form; every joint must still equal the
// scalar TRS-blend of the public API bit for bit, whatever the pose size (a last group of one to
// three joints), the arc width (narrow, middle, wide, opposite hemispheres, antipodal), the mask,
// and whether the layer reads a pose or the output in place.
TEST(BlendingJob, OverrideEqualsTheScalarBlendBitForBit) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  const auto random_quat = [&] {
    return glm::normalize(quat_xyzw(normal(rng), normal(rng), normal(rng), normal(rng)));
  };
  const auto random_transform = [&](const quat& near, float spread) {
    Transform t;
    t.translation = vec3(normal(rng), normal(rng), normal(rng));
    t.scale = vec3(0.5f + unit(rng), 0.5f + unit(rng), 0.5f + unit(rng));
    quat r = random_quat();
    if (spread < 1.0f)
      r = glm::normalize(
          near * quat_xyzw(spread * normal(rng), spread * normal(rng), spread * normal(rng), 1.0f));
    t.rotation = unit(rng) < 0.5f ? r : -r;
    return t;
  };
  for (std::size_t joints = 1; joints <= 40; ++joints) {
    for (int round = 0; round < 8; ++round) {
      std::vector<Transform> rest(joints), a(joints), b(joints), c(joints), out(joints);
      std::vector<float> mask(joints);
      for (std::size_t j = 0; j < joints; ++j) {
        a[j] = random_transform(kIdentityRotation, 2.0f);
        // Spreads that put arcs in each band, and exact antipodes.
        const float spreads[4] = {0.05f, 0.3f, 0.8f, 2.0f};
        b[j] = random_transform(a[j].rotation, spreads[(j + static_cast<std::size_t>(round)) % 4]);
        if ((j + static_cast<std::size_t>(round)) % 7 == 0) b[j].rotation = -a[j].rotation;
        c[j] = random_transform(b[j].rotation, 0.5f);
        // Mostly partial, sometimes 0 or 1 and beyond, so groups mix blends, copies and skips;
        // in rounds 3 and 7 only partial, so whole groups of sixteen blend.
        const float m = unit(rng);
        mask[j] = round % 4 == 3 ? 0.1f + 0.8f * m : m < 0.1f ? 0.0f : m > 0.9f ? 1.5f : m;
      }
      const float w1 = 0.05f + 0.9f * unit(rng), w2 = 0.05f + 0.9f * unit(rng);
      const bool masked = round % 2 == 1;
      BlendingLayer layers[3];
      layers[0].pose = a;
      layers[0].weight = 1.0f;
      layers[1].pose = b;
      layers[1].weight = w1;
      if (masked) layers[1].joint_weights = mask;
      // The third layer blends the output in place.
      layers[2].pose = c;
      layers[2].weight = w2;
      BlendingJob job;
      job.layers = layers;
      job.rest = rest;
      job.output = out;
      ASSERT_TRUE(job.run());
      for (std::size_t j = 0; j < joints; ++j) {
        const float wj = masked ? w1 * mask[j] : w1;
        Transform want = wj >= 1.0f ? b[j] : wj > 0.0f ? blend_transforms(a[j], b[j], wj) : a[j];
        want = blend_transforms(want, c[j], w2);
        SCOPED_TRACE("joints " + std::to_string(joints) + ", round " + std::to_string(round) +
                     ", joint " + std::to_string(j));
        for (int k = 0; k < 3; ++k) {
          EXPECT_EQ(out[j].translation[k], want.translation[k]);
          EXPECT_EQ(out[j].scale[k], want.scale[k]);
        }
        EXPECT_EQ(out[j].rotation.x, want.rotation.x);
        EXPECT_EQ(out[j].rotation.y, want.rotation.y);
        EXPECT_EQ(out[j].rotation.z, want.rotation.z);
        EXPECT_EQ(out[j].rotation.w, want.rotation.w);
      }
    }
  }
}

// --- paths --------------------------------------------------------------------------------

// A random stack of one to four layers over random poses: override and additive layers, weights
// of 0, partial, exactly 1 and beyond, masks with 0, 1, partial and > 1 entries, sampled sets,
// sometimes a full-weight bottom layer; rotations of every arc width and either hemisphere.
struct RandomStack {
  std::vector<Transform> rest;
  std::vector<std::vector<Transform>> poses;
  std::vector<std::vector<float>> masks;
  std::vector<std::vector<std::uint8_t>> sampled;
  std::vector<BlendingLayer> layers;
  RotationBlend rotations = RotationBlend::kSlerp;

  RandomStack(std::size_t joints, std::mt19937& rng) {
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    const auto random_quat = [&] {
      return glm::normalize(quat_xyzw(normal(rng), normal(rng), normal(rng), normal(rng)));
    };
    const auto random_transform = [&](const quat& near) {
      Transform t;
      t.translation = vec3(normal(rng), normal(rng), normal(rng));
      t.scale = vec3(0.5f + unit(rng), 0.5f + unit(rng), 0.5f + unit(rng));
      const float spreads[4] = {0.02f, 0.3f, 1.0f, 10.0f};
      const float spread = spreads[static_cast<int>(unit(rng) * 3.999f)];
      const quat r = glm::normalize(
          near * quat_xyzw(spread * normal(rng), spread * normal(rng), spread * normal(rng), 1.0f));
      t.rotation = unit(rng) < 0.5f ? r : -r;
      return t;
    };
    rest.resize(joints);
    for (Transform& t : rest) t = random_transform(random_quat());
    const int count = 1 + static_cast<int>(unit(rng) * 3.999f);
    poses.resize(static_cast<std::size_t>(count));
    masks.resize(poses.size());
    sampled.resize(poses.size());
    for (std::size_t i = 0; i < poses.size(); ++i) {
      for (std::size_t j = 0; j < joints; ++j)
        poses[i].push_back(random_transform(rest[j].rotation));
      BlendingLayer l;
      l.mode = unit(rng) < 0.3f ? LayerBlendMode::kAdditive : LayerBlendMode::kOverride;
      if (l.mode == LayerBlendMode::kAdditive) {
        // A delta: near identity, scales near 1.
        for (Transform& t : poses[i]) {
          t.translation *= 0.1f;
          t.scale = vec3(1.0f) + 0.1f * (t.scale - vec3(1.0f));
          t.rotation = glm::normalize(
              quat_xyzw(0.3f * normal(rng), 0.3f * normal(rng), 0.3f * normal(rng), 1.0f));
        }
      }
      l.pose = poses[i];
      const float pick = unit(rng);
      l.weight = pick < 0.1f ? 0.0f : pick < 0.3f ? 1.0f : pick < 0.4f ? 1.7f : unit(rng);
      if (unit(rng) < 0.5f) {
        for (std::size_t j = 0; j < joints; ++j) {
          const float m = unit(rng);
          masks[i].push_back(m < 0.15f ? 0.0f : m < 0.3f ? 1.0f : m < 0.35f ? 1.5f : unit(rng));
        }
        l.joint_weights = masks[i];
      }
      if (unit(rng) < 0.3f) {
        for (std::size_t j = 0; j < joints; ++j)
          sampled[i].push_back(unit(rng) < 0.7f ? std::uint8_t{1} : std::uint8_t{0});
        l.sampled = sampled[i];
      }
      layers.push_back(l);
    }
  }

  std::vector<Transform> run(BlendingPath path) const {
    std::vector<Transform> out(rest.size());
    BlendingJob job;
    job.layers = layers;
    job.rest = rest;
    job.output = out;
    job.path = path;
    job.rotations = rotations;
    auto ok = job.run();
    EXPECT_TRUE(ok) << ok.error().to_string();
    return out;
  }

  // The same stack on structure-of-arrays poses (padding lanes NaN: they must not reach a
  // joint), converted back.
  std::vector<Transform> run_soa(BlendingPath path) const {
    const std::size_t blocks = soa_blocks(rest.size());
    const auto convert = [&](const std::vector<Transform>& aos) {
      std::vector<SoaTransform> soa(blocks);
      EXPECT_TRUE(to_soa(aos, soa));
      Transform nan;
      nan.translation = nan.scale = vec3(std::numeric_limits<float>::quiet_NaN());
      nan.rotation = quat_xyzw(nan.scale.x, nan.scale.x, nan.scale.x, nan.scale.x);
      for (std::size_t j = aos.size(); j < blocks * SoaTransform::kLanes; ++j) soa_set(soa, j, nan);
      return soa;
    };
    const std::vector<SoaTransform> soa_rest = convert(rest);
    std::vector<std::vector<SoaTransform>> soa_poses;
    for (const auto& p : poses) soa_poses.push_back(convert(p));
    std::vector<BlendingLayer> soa_layers = layers;
    for (std::size_t i = 0; i < soa_layers.size(); ++i) {
      soa_layers[i].pose = {};
      soa_layers[i].soa_pose = soa_poses[i];
    }
    std::vector<SoaTransform> out(blocks);
    BlendingJob job;
    job.layers = soa_layers;
    job.soa_rest = soa_rest;
    job.soa_output = out;
    job.soa_joints = rest.size();
    job.path = path;
    job.rotations = rotations;
    auto ok = job.run();
    EXPECT_TRUE(ok) << ok.error().to_string();
    std::vector<Transform> aos(rest.size());
    EXPECT_TRUE(from_soa(out, aos));
    return aos;
  }
};

void expect_same_bits(const std::vector<Transform>& got, const std::vector<Transform>& want,
                      const std::string& where) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t j = 0; j < got.size(); ++j)
    ASSERT_EQ(std::memcmp(&got[j], &want[j], sizeof(Transform)), 0)
        << where << ", joint " << j << ": " << got[j].rotation.x << " " << want[j].rotation.x;
}

constexpr BlendingPath kSimdPaths[] = {BlendingPath::kAuto, BlendingPath::kSse2,
                                       BlendingPath::kAvx2, BlendingPath::kAvx512};

constexpr RotationBlend kRotationBlends[] = {RotationBlend::kSlerp, RotationBlend::kNlerp,
                                             RotationBlend::kLerp};

TEST(BlendingJob, EveryPathEqualsTheScalarReferenceBitForBit) {
  std::mt19937 rng(23);
  int compared = 0;
  for (const std::size_t joints :
       {1u, 2u, 3u, 4u, 5u, 7u, 8u, 9u, 13u, 15u, 16u, 17u, 24u, 26u, 31u, 33u, 40u, 67u}) {
    for (int round = 0; round < 24; ++round) {
      RandomStack stack(joints, rng);
      stack.rotations = kRotationBlends[round % 3];
      const std::vector<Transform> want = stack.run(BlendingPath::kScalar);
      for (const BlendingPath path : kSimdPaths) {
        if (!blending_path_available(path)) continue;
        const std::vector<Transform> got = stack.run(path);
        ++compared;
        for (std::size_t j = 0; j < joints; ++j) {
          SCOPED_TRACE("joints " + std::to_string(joints) + ", round " + std::to_string(round) +
                       ", path " + std::to_string(static_cast<int>(path)) + ", joint " +
                       std::to_string(j));
          for (int k = 0; k < 3; ++k) {
            ASSERT_EQ(got[j].translation[k], want[j].translation[k]);
            ASSERT_EQ(got[j].scale[k], want[j].scale[k]);
          }
          ASSERT_EQ(got[j].rotation.x, want[j].rotation.x);
          ASSERT_EQ(got[j].rotation.y, want[j].rotation.y);
          ASSERT_EQ(got[j].rotation.z, want[j].rotation.z);
          ASSERT_EQ(got[j].rotation.w, want[j].rotation.w);
          // Equal floats may still differ in bits (the sign of a zero).
          ASSERT_EQ(std::memcmp(&got[j], &want[j], sizeof(Transform)), 0);
        }
      }
    }
  }
  EXPECT_GT(compared, 0);
}

// The commonest stack, a crossfade (a full-weight layer and one uniform override over it at a
// weight in (0, 1), or that layer alone over rest), takes its own way through the kernels on
// Transform arrays; every path still gives the scalar reference's bits, on every joint count
// (blocks that overlap at the end included) and with each rotation blend.
TEST(BlendingJob, CrossfadesEqualTheScalarReferenceBitForBit) {
  std::mt19937 rng(29);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  int compared = 0;
  for (const std::size_t joints :
       {1u, 3u, 4u, 5u, 8u, 9u, 13u, 14u, 16u, 17u, 24u, 26u, 31u, 33u, 40u, 67u}) {
    for (int round = 0; round < 12; ++round) {
      RandomStack stack(joints, rng);
      while (stack.poses.size() < 2) stack.poses.push_back(stack.poses[0]);
      stack.layers.clear();
      stack.masks.clear();
      stack.sampled.clear();
      BlendingLayer bottom;
      bottom.pose = stack.poses[0];
      bottom.weight = 1.0f;
      BlendingLayer top;
      top.pose = stack.poses[1];
      top.weight = 0.05f + 0.9f * unit(rng);
      if (round % 4 != 3) stack.layers.push_back(bottom);
      stack.layers.push_back(top);
      stack.rotations = kRotationBlends[round % 3];
      const std::vector<Transform> want = stack.run(BlendingPath::kScalar);
      for (const BlendingPath path : kSimdPaths) {
        if (!blending_path_available(path)) continue;
        ++compared;
        const std::string where = "joints " + std::to_string(joints) + ", round " +
                                  std::to_string(round) + ", path " +
                                  std::to_string(static_cast<int>(path));
        expect_same_bits(stack.run(path), want, where);
        // The two-layer crossfade in structure-of-arrays form too (run_soa gives layer i pose i,
        // as here). Both forms take run()'s own way for this stack on every path (crossfade_stack,
        // and the crossfade kernels of structure-of-arrays poses).
        if (stack.layers.size() == 2) expect_same_bits(stack.run_soa(path), want, where + ", soa");
      }
    }
  }
  EXPECT_GT(compared, 0);
}

// A crossfade's shape (two whole-pose overrides, the first at full weight, no morph weights) with
// one rule broken: run() does not take the crossfade's own way but validates and names the rule,
// in both pose forms.
TEST(BlendingJob, CrossfadeJobsThatBreakARuleStillFail) {
  const std::vector<Transform> rest(3), a(3), b(3), short_pose(2);
  std::vector<Transform> out(3), short_out(2);
  const std::vector<SoaTransform> soa_rest(1), soa_a(1), soa_b(1), two_blocks(2);
  std::vector<SoaTransform> soa_out(1), soa_out_long(2);
  std::vector<BlendingLayer> layers{layer(kOverride, a, 1.0f), layer(kOverride, b, 0.4f)};
  BlendingJob aos;
  aos.layers = layers;
  aos.rest = rest;
  aos.output = out;
  ASSERT_TRUE(aos.run());
  std::vector<BlendingLayer> soa_layers = layers;
  soa_layers[0].pose = soa_layers[1].pose = {};
  soa_layers[0].soa_pose = soa_a;
  soa_layers[1].soa_pose = soa_b;
  BlendingJob soa;
  soa.layers = soa_layers;
  soa.soa_rest = soa_rest;
  soa.soa_output = soa_out;
  soa.soa_joints = 3;
  ASSERT_TRUE(soa.run());

  JobVariants variants;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const BrokenJob cases[] = {
      {"output size", variants.with_job(aos, [&](BlendingJob& j) { j.output = short_out; }),
       "output"},
      {"NaN fading weight", variants.with_layer(aos, 1, [&](BlendingLayer& l) { l.weight = nan; }),
       "layers/1/weight"},
      {"infinite bottom weight",
       variants.with_layer(aos, 0, [&](BlendingLayer& l) { l.weight = inf; }), "layers/0/weight"},
      {"fading pose size",
       variants.with_layer(aos, 1, [&](BlendingLayer& l) { l.pose = short_pose; }),
       "layers/1/pose"},
      {"bottom pose in both forms",
       variants.with_layer(aos, 0, [&](BlendingLayer& l) { l.soa_pose = soa_a; }),
       "layers/0/soa_pose"},
      {"soa_output blocks",
       variants.with_job(soa, [&](BlendingJob& j) { j.soa_output = soa_out_long; }), "soa_output"},
      {"rest in the structure-of-arrays form",
       variants.with_job(soa, [&](BlendingJob& j) { j.rest = rest; }), "rest"},
      {"fading layer blocks",
       variants.with_layer(soa, 1, [&](BlendingLayer& l) { l.soa_pose = two_blocks; }),
       "layers/1/soa_pose"},
      {"NaN fading weight, structure-of-arrays form",
       variants.with_layer(soa, 1, [&](BlendingLayer& l) { l.weight = nan; }), "layers/1/weight"},
  };
  for (const BrokenJob& c : cases) {
    SCOPED_TRACE(c.what);
    const auto r = c.job.run();
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().location, c.location);
  }
}

TEST(BlendingJob, StructureOfArraysPosesGiveTheSameBitsOnEveryPath) {
  std::mt19937 rng(29);
  int compared = 0;
  for (const std::size_t joints : {1u, 3u, 4u, 8u, 15u, 16u, 17u, 31u, 32u, 33u, 40u, 48u, 67u}) {
    for (int round = 0; round < 20; ++round) {
      RandomStack stack(joints, rng);
      stack.rotations = kRotationBlends[round % 3];
      const std::vector<Transform> want = stack.run(BlendingPath::kScalar);
      for (const BlendingPath path : kEveryPath) {
        if (!blending_path_available(path)) continue;
        ++compared;
        expect_same_bits(stack.run_soa(path), want,
                         "joints " + std::to_string(joints) + ", round " + std::to_string(round) +
                             ", path " + std::to_string(static_cast<int>(path)));
      }
    }
  }
  EXPECT_GT(compared, 100);
}

TEST(BlendingJob, StructureOfArraysStacksDeeperThanOneKernelCall) {
  // 40 partial layers: the first 32 go to the kernel, the rest fold in place.
  std::mt19937 rng(31);
  const std::size_t joints = 21;
  RandomStack stack(joints, rng);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  stack.poses.resize(40);
  stack.masks.assign(40, {});
  stack.sampled.resize(40);
  stack.layers.clear();
  for (std::size_t i = 0; i < 40; ++i) {
    stack.poses[i].resize(joints);
    for (std::size_t j = 0; j < joints; ++j) {
      stack.poses[i][j].translation = vec3(normal(rng), normal(rng), normal(rng));
      stack.poses[i][j].rotation =
          glm::normalize(quat_xyzw(normal(rng), normal(rng), normal(rng), normal(rng)));
    }
    BlendingLayer l;
    l.pose = stack.poses[i];
    l.weight = 0.1f + 0.02f * static_cast<float>(i);
    l.mode = i % 5 == 4 ? LayerBlendMode::kAdditive : LayerBlendMode::kOverride;
    if (i % 3 == 0) {
      for (std::size_t j = 0; j < joints; ++j)
        stack.masks[i].push_back(0.05f * static_cast<float>(j));
      l.joint_weights = stack.masks[i];
    }
    stack.layers.push_back(l);
  }
  for (const RotationBlend rotations : kRotationBlends) {
    stack.rotations = rotations;
    const std::vector<Transform> want = stack.run(BlendingPath::kScalar);
    // The layers past the first kernel call fold in place on each path's own kernel.
    for (const BlendingPath path : kEveryPath) {
      if (!blending_path_available(path)) continue;
      expect_same_bits(stack.run_soa(path), want,
                       "path " + std::to_string(static_cast<int>(path)) + ", rotations " +
                           std::to_string(static_cast<int>(rotations)));
    }
  }
}

TEST(BlendingJob, StructureOfArraysFormIsValidated) {
  const std::vector<Transform> rest(20);
  std::vector<SoaTransform> soa_rest(2), pose(2), out(2), short_pose(1);
  std::vector<Transform> aos_out(20);
  BlendingLayer layer;
  layer.soa_pose = pose;
  layer.weight = 0.5f;
  BlendingJob job;
  job.layers = {&layer, 1};
  job.soa_rest = soa_rest;
  job.soa_output = out;
  job.soa_joints = 20;
  ASSERT_TRUE(job.validate());
  const auto location = [](const BlendingJob& j) {
    const auto ok = j.validate();
    return ok ? std::string("ok") : ok.error().location;
  };
  BlendingJob bad = job;
  bad.soa_joints = 33;
  EXPECT_EQ(location(bad), "soa_rest");
  bad = job;
  bad.rest = rest;
  EXPECT_EQ(location(bad), "rest");
  BlendingLayer short_layer = layer;
  short_layer.soa_pose = short_pose;
  bad = job;
  bad.layers = {&short_layer, 1};
  EXPECT_EQ(location(bad), "layers/0/soa_pose");
  BlendingLayer both = layer;
  both.pose = rest;
  bad.layers = {&both, 1};
  EXPECT_EQ(location(bad), "layers/0/pose");
  // A structure-of-arrays layer in a Transform job.
  bad = BlendingJob{};
  bad.layers = {&layer, 1};
  bad.rest = rest;
  bad.output = aos_out;
  EXPECT_EQ(location(bad), "layers/0/pose");
  bad.layers = {};
  bad.soa_joints = 20;
  EXPECT_EQ(location(bad), "soa_joints");
}

TEST(SoaTransform, ConversionsRoundTripAndPadWithTheIdentity) {
  std::vector<Transform> aos(19);
  for (std::size_t j = 0; j < aos.size(); ++j) {
    const float f = static_cast<float>(j);
    aos[j].translation = vec3(f, f + 0.5f, -f);
    aos[j].rotation = glm::normalize(quat_xyzw(f, 1.0f, 2.0f, 3.0f));
    aos[j].scale = vec3(1.0f + f, 2.0f, 3.0f);
  }
  std::vector<SoaTransform> soa(soa_blocks(aos.size()));
  ASSERT_EQ(soa.size(), 2u);
  ASSERT_TRUE(to_soa(aos, soa));
  EXPECT_EQ(soa[1].translation[1][2], aos[18].translation.y);
  EXPECT_EQ(soa[1].rotation[3][2], aos[18].rotation.w);
  EXPECT_EQ(soa[1].get(3), Transform{});
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(soa.data()) % 64, 0u);
  std::vector<Transform> back(aos.size());
  ASSERT_TRUE(from_soa(soa, back));
  EXPECT_EQ(back, aos);
  EXPECT_EQ(soa_get(soa, 5), aos[5]);
  std::vector<SoaTransform> wrong(3);
  const auto bad = to_soa(aos, wrong);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().location, "soa");
  EXPECT_FALSE(from_soa(wrong, back));
}

glm::dvec4 as_dvec(const quat& q) {
  return {q.x, q.y, q.z, q.w};
}

glm::dvec4 exact_nlerp(const glm::dvec4& a, const glm::dvec4& b, double w) {
  const glm::dvec4 bb = glm::dot(a, b) < 0.0 ? -b : b;
  return glm::normalize(a + (bb - a) * w);
}

// The stack of RandomStack in double precision, slerp, nlerp or lerp, against the scalar
// reference. Lerp: override rotations lerp unnormalised and are normalised at the end unless a
// full override or an additive layer (normalised) came after the last lerp.
void expect_stack_follows_double_precision(RotationBlend rotations) {
  const bool nlerp = rotations != RotationBlend::kSlerp;
  const bool lerp = rotations == RotationBlend::kLerp;
  const auto blend = [&](const glm::dvec4& a, const glm::dvec4& b, double w) {
    if (lerp) return a * (1.0 - w) + (glm::dot(a, b) < 0.0 ? -b : b) * w;
    return nlerp ? exact_nlerp(a, b, w) : exact_slerp(a, b, w);
  };
  std::mt19937 rng(29);
  double worst_rotation = 0.0, worst_other = 0.0;
  for (int round = 0; round < 200; ++round) {
    RandomStack stack(9, rng);
    stack.rotations = rotations;
    const std::vector<Transform> got = stack.run(BlendingPath::kScalar);
    for (std::size_t j = 0; j < stack.rest.size(); ++j) {
      glm::dvec3 t = stack.rest[j].translation, s = stack.rest[j].scale;
      glm::dvec4 r = as_dvec(stack.rest[j].rotation);
      bool pending = false;
      for (const BlendingLayer& l : stack.layers) {
        if (!l.sampled.empty() && l.sampled[j] == 0) continue;
        const double w =
            static_cast<double>(l.joint_weights.empty() ? l.weight : l.weight * l.joint_weights[j]);
        if (!(w > 0.0)) continue;
        const Transform& in = l.pose[j];
        const glm::dvec3 it = in.translation, is = in.scale;
        if (l.mode == LayerBlendMode::kAdditive) {
          const glm::dvec4 q = blend({0, 0, 0, 1}, as_dvec(in.rotation), std::min(w, 1.0));
          const glm::dquat p = glm::dquat(r.w, r.x, r.y, r.z) * glm::dquat(q.w, q.x, q.y, q.z);
          r = glm::normalize(glm::dvec4(p.x, p.y, p.z, p.w));
          pending = false;
          t += w * it;
          s *= glm::dvec3(1.0) + w * (is - glm::dvec3(1.0));
        } else if (w >= 1.0) {
          t = it;
          s = is;
          r = as_dvec(in.rotation);
          pending = false;
        } else {
          t += (it - t) * w;
          s += (is - s) * w;
          r = blend(r, as_dvec(in.rotation), w);
          pending = lerp;
        }
      }
      if (pending) r = glm::normalize(r);
      for (int k = 0; k < 3; ++k) {
        worst_other = std::max({worst_other, std::abs(got[j].translation[k] - t[k]),
                                std::abs(got[j].scale[k] - s[k])});
      }
      const glm::dvec4 g = as_dvec(got[j].rotation);
      worst_rotation = std::max(worst_rotation, glm::length(g - r));
      EXPECT_NEAR(glm::length(g), 1.0, 1e-6);
    }
  }
  // Up to four slerps or products in a row, each within 3e-7 (nlerps: rounding only).
  EXPECT_LT(worst_rotation, 1.5e-6);
  EXPECT_LT(worst_other, 2e-5);
}

TEST(BlendingJob, ScalarReferenceFollowsTheStackInDoublePrecision) {
  expect_stack_follows_double_precision(RotationBlend::kSlerp);
}

TEST(BlendingJob, NlerpStackFollowsTheStackInDoublePrecision) {
  expect_stack_follows_double_precision(RotationBlend::kNlerp);
}

TEST(BlendingJob, LerpStackFollowsTheStackInDoublePrecision) {
  expect_stack_follows_double_precision(RotationBlend::kLerp);
}

// nlerp is slerp at the weights 0, ½ and 1 and close to it for nearby rotations; far apart it
// differs by as much as the header says, which tells the two blends apart.
TEST(BlendingJob, NlerpStaysWithinItsStatedDistanceOfSlerp) {
  const vec3 axis = glm::normalize(vec3(1.0f, 2.0f, -0.5f));
  const auto angle_between = [](const quat& a, const quat& b) {
    // The angle of a⁻¹b from its vector part, which stays accurate for small angles.
    const glm::dvec4 x = as_dvec(a), y = as_dvec(b);
    const double w = std::abs(glm::dot(x, y));
    const glm::dvec3 v =
        x.w * glm::dvec3(y) - y.w * glm::dvec3(x) - glm::cross(glm::dvec3(x), glm::dvec3(y));
    return 2.0 * std::atan2(glm::length(v), w) * 180.0 / 3.14159265358979323846;
  };
  // Poses `degrees` apart about one axis; the layer crossfades from a to b at weight w.
  const auto worst = [&](float degrees) {
    double most = 0.0;
    for (int i = 0; i <= 20; ++i) {
      const float w = static_cast<float>(i) / 20.0f;
      const std::vector<Transform> a(3, trs(vec3(1, 2, 3), axis_angle(axis, 0.2f), vec3(1))),
          b(3, trs(vec3(-1, 0, 5), axis_angle(axis, 0.2f + glm::radians(degrees)), vec3(2)));
      std::vector<Transform> slerped(3), nlerped(3);
      BlendingLayer layers[2];
      layers[0].pose = a;
      layers[0].weight = 1.0f;
      layers[1].pose = b;
      layers[1].weight = w;
      BlendingJob job;
      job.layers = layers;
      job.rest = a;
      job.output = slerped;
      EXPECT_TRUE(job.run());
      job.rotations = RotationBlend::kNlerp;
      job.output = nlerped;
      EXPECT_TRUE(job.run());
      for (std::size_t j = 0; j < 3; ++j) {
        EXPECT_EQ(nlerped[j].translation, slerped[j].translation);
        EXPECT_EQ(nlerped[j].scale, slerped[j].scale);
        EXPECT_NEAR(glm::length(nlerped[j].rotation), 1.0f, 1e-6f);
        const double apart = angle_between(nlerped[j].rotation, slerped[j].rotation);
        if (i == 0 || i == 10 || i == 20) {
          EXPECT_LT(apart, 0.01) << degrees << " at w " << w;
        }
        most = std::max(most, apart);
      }
    }
    return most;
  };
  EXPECT_LT(worst(30.0f), 0.04);
  EXPECT_LT(worst(60.0f), 0.28);
  EXPECT_LT(worst(90.0f), 0.93);
  const double far = worst(179.0f);
  EXPECT_GT(far, 6.0);
  EXPECT_LT(far, 8.2);
}

// The angle in degrees between two rotations, from the vector part of a⁻¹b (accurate for small
// angles).
double degrees_between(const quat& a, const quat& b) {
  const glm::dvec4 x = as_dvec(a), y = as_dvec(b);
  const double w = std::abs(glm::dot(x, y));
  const glm::dvec3 v =
      x.w * glm::dvec3(y) - y.w * glm::dvec3(x) - glm::cross(glm::dvec3(x), glm::dvec3(y));
  return 2.0 * std::atan2(glm::length(v), w) * 180.0 / 3.14159265358979323846;
}

// kLerp on the harness's stack (rest, then a at 0.6, then b at 0.4): the weighted sum
// 0.24·rest + 0.36·a + 0.4·b normalised, joints no layer touches left bit for bit, a full-weight
// top layer's rotation bit for bit, one layer the bits of kNlerp; and how far from kSlerp and
// kNlerp it lands where the three rotations are far apart (docs/jobs.md quotes these).
TEST(BlendingJob, LerpIsTheWeightedSumNormalisedOnce) {
  std::mt19937 rng(37);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  const auto random_quat = [&] {
    return glm::normalize(quat_xyzw(normal(rng), normal(rng), normal(rng), normal(rng)));
  };
  const std::size_t joints = 67;
  std::vector<Transform> rest(joints), a(joints), b(joints), out(joints), one(joints),
      nlerp_one(joints);
  for (std::size_t j = 0; j < joints; ++j) {
    rest[j] = trs(vec3(normal(rng)), random_quat(), vec3(1.0f));
    a[j] = trs(vec3(normal(rng)), random_quat(), vec3(2.0f));
    b[j] = trs(vec3(normal(rng)), random_quat(), vec3(0.5f));
  }
  std::vector<std::uint8_t> sampled(joints, 1);
  for (std::size_t j = 0; j < joints; j += 5) sampled[j] = 0;
  for (const BlendingPath path : kEveryPath) {
    if (!blending_path_available(path)) continue;
    SCOPED_TRACE("path " + std::to_string(static_cast<int>(path)));
    BlendingLayer layers[2];
    layers[0].pose = a;
    layers[0].weight = 0.6f;
    layers[0].sampled = sampled;
    layers[1].pose = b;
    layers[1].weight = 0.4f;
    layers[1].sampled = sampled;
    BlendingJob job = lerp_job(layers, rest, out, path);
    ASSERT_TRUE(job.run());
    for (std::size_t j = 0; j < joints; ++j) {
      if (sampled[j] == 0) {
        EXPECT_EQ(std::memcmp(&out[j], &rest[j], sizeof(Transform)), 0) << j;
        continue;
      }
      glm::dvec4 sum = as_dvec(rest[j].rotation);
      for (const auto& [q, w] : {std::pair{a[j].rotation, 0.6}, std::pair{b[j].rotation, 0.4}}) {
        const glm::dvec4 x = as_dvec(q);
        sum = sum * (1.0 - w) + (glm::dot(sum, x) < 0.0 ? -x : x) * w;
      }
      const glm::dvec4 want = glm::normalize(sum);
      EXPECT_LT(glm::length(as_dvec(out[j].rotation) - want), 1e-6) << j;
    }
    // A full-weight layer on top: its rotation, bit for bit.
    BlendingLayer top[3] = {layers[0], layers[1], {}};
    top[2].pose = a;
    top[2].weight = 1.0f;
    top[2].sampled = sampled;
    job.layers = top;
    ASSERT_TRUE(job.run());
    for (std::size_t j = 0; j < joints; ++j)
      EXPECT_EQ(std::memcmp(&out[j].rotation, sampled[j] != 0 ? &a[j].rotation : &rest[j].rotation,
                            sizeof(quat)),
                0)
          << j;
    // One layer: kNlerp's bits.
    job.layers = {layers, 1};
    job.output = one;
    ASSERT_TRUE(job.run());
    job.rotations = RotationBlend::kNlerp;
    job.output = nlerp_one;
    ASSERT_TRUE(job.run());
    expect_same_bits(one, nlerp_one, "one layer");
  }

  // Three rotations `degrees` apart pairwise about three axes: the angle between kLerp's and
  // kSlerp's (and kNlerp's and kSlerp's) results of the stack at 0.6 then 0.4.
  const auto apart = [&](float degrees, RotationBlend rotations) {
    const float r = glm::radians(degrees);
    const std::vector<Transform> r0(1), r1(1, trs(vec3(0), axis_angle(vec3(1, 0, 0), r), vec3(1))),
        r2(1, trs(vec3(0), axis_angle(glm::normalize(vec3(0.5f, 0.866f, 0)), r), vec3(1)));
    std::vector<Transform> slerped(1), other(1);
    BlendingLayer layers[2];
    layers[0].pose = r1;
    layers[0].weight = 0.6f;
    layers[1].pose = r2;
    layers[1].weight = 0.4f;
    BlendingJob job;
    job.layers = layers;
    job.rest = r0;
    job.output = slerped;
    EXPECT_TRUE(job.run());
    job.rotations = rotations;
    job.output = other;
    EXPECT_TRUE(job.run());
    return degrees_between(slerped[0].rotation, other[0].rotation);
  };
  // Measured: lerp 0.002, 0.041, 0.338, 1.189 degrees; nlerp 0.001, 0.015, 0.122, 0.407.
  const float degrees[4] = {10.0f, 30.0f, 60.0f, 90.0f};
  const double lerp_at_most[4] = {0.003, 0.045, 0.36, 1.25};
  const double nlerp_at_most[4] = {0.002, 0.017, 0.13, 0.43};
  for (int i = 0; i < 4; ++i) {
    const double lerp = apart(degrees[i], RotationBlend::kLerp);
    const double nlerp = apart(degrees[i], RotationBlend::kNlerp);
    EXPECT_LT(lerp, lerp_at_most[i]) << degrees[i];
    EXPECT_LT(nlerp, nlerp_at_most[i]) << degrees[i];
    if (degrees[i] >= 30.0f) {
      EXPECT_GT(lerp, 2.0 * nlerp) << degrees[i];
    }
  }
}

// docs/jobs.md: the weighted average of two poses a and b with weights wa and wb, as engines that
// average their layers compute it, is this stack's a at weight 1 and b at wb / (wa + wb), with
// rotations by kLerp (their weighted sum, b on a's side, normalised once).
TEST(BlendingJob, CrossfadeAtTheSecondWeightsShareIsTheWeightedAverage) {
  std::mt19937 rng(41);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  const auto random_quat = [&] {
    return glm::normalize(quat_xyzw(normal(rng), normal(rng), normal(rng), normal(rng)));
  };
  const std::size_t joints = 14;
  std::vector<Transform> rest(joints), a(joints), b(joints), out(joints);
  for (std::size_t j = 0; j < joints; ++j) {
    rest[j] = trs(vec3(normal(rng)), random_quat(), vec3(1.0f));
    a[j] = trs(vec3(normal(rng)), random_quat(), vec3(0.5f + std::abs(normal(rng))));
    b[j] = trs(vec3(normal(rng)), random_quat(), vec3(0.5f + std::abs(normal(rng))));
  }
  for (const auto& [wa, wb] : {std::pair{0.6, 0.4}, std::pair{1.0, 3.0}, std::pair{0.2, 0.05}}) {
    for (const BlendingPath path : kEveryPath) {
      if (!blending_path_available(path)) continue;
      SCOPED_TRACE("weights " + std::to_string(wa) + ", " + std::to_string(wb) + ", path " +
                   std::to_string(static_cast<int>(path)));
      BlendingLayer layers[2];
      layers[0].pose = a;
      layers[0].weight = 1.0f;
      layers[1].pose = b;
      layers[1].weight = static_cast<float>(wb / (wa + wb));
      ASSERT_TRUE(lerp_job(layers, rest, out, path).run());
      for (std::size_t j = 0; j < joints; ++j) {
        for (int c = 0; c < 3; ++c) {
          const double t = (wa * a[j].translation[c] + wb * b[j].translation[c]) / (wa + wb);
          const double sc = (wa * a[j].scale[c] + wb * b[j].scale[c]) / (wa + wb);
          EXPECT_NEAR(out[j].translation[c], t, 1e-5 * (1.0 + std::abs(t))) << j;
          EXPECT_NEAR(out[j].scale[c], sc, 1e-5 * (1.0 + std::abs(sc))) << j;
        }
        const glm::dvec4 qa = as_dvec(a[j].rotation), qb = as_dvec(b[j].rotation);
        const glm::dvec4 want = glm::normalize(wa * qa + wb * (glm::dot(qa, qb) < 0.0 ? -qb : qb));
        EXPECT_LT(glm::length(as_dvec(out[j].rotation) - want), 1e-6) << j;
      }
    }
  }
}

TEST(BlendingJob, UnknownRotationBlendIsRefused) {
  Fixture f;
  const std::vector<BlendingLayer> none;
  BlendingJob job = f.job(none);
  job.rotations = static_cast<RotationBlend>(7);
  const auto v = job.validate();
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().location, "rotations");
}

TEST(BlendingJob, PathsThisCpuLacksAreRefused) {
  Fixture f;
  const std::vector<BlendingLayer> none;
  for (const BlendingPath path : {BlendingPath::kAuto, BlendingPath::kScalar, BlendingPath::kSse2,
                                  BlendingPath::kAvx2, BlendingPath::kAvx512}) {
    BlendingJob job = f.job(none);
    job.path = path;
    auto v = job.validate();
    EXPECT_EQ(static_cast<bool>(v), blending_path_available(path));
    if (!v) {
      EXPECT_EQ(v.error().location, "path");
    }
  }
  EXPECT_TRUE(blending_path_available(BlendingPath::kAuto));
  EXPECT_TRUE(blending_path_available(BlendingPath::kScalar));
}

TEST(BlendingJob, RunAllocatesNothing) {
  Fixture f;
  const vec3 x(1, 0, 0);
  const auto a = uniform_pose(trs(vec3(1, 0, 0), axis_angle(x, 0.3f), vec3(1)));
  const std::vector<float> mask{0.2f, 0.5f, 1.0f}, w{1.0f, 2.0f}, coverage{0.5f, 1.0f};
  const std::vector<std::uint32_t> offsets{0, 1, 2};
  BlendingLayer over = layer(kOverride, a, 0.7f, mask, w);
  over.morph_coverage = coverage;
  const std::vector<BlendingLayer> layers{over, layer(kAdditive, a, 0.4f, mask, w)};
  BlendingJob job = f.job(layers);
  job.mesh_offsets = offsets;
  ASSERT_TRUE(critter::testing::AllocationCounter::works());
  critter::testing::AllocationCounter counter;
  ASSERT_TRUE(job.run());
  EXPECT_EQ(counter.count(), 0);
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
