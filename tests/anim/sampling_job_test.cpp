// SPDX-License-Identifier: MIT
#include "critter/anim/sampling_job.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "critter/anim/pose.h"
#include "critter/io/load.h"
#include "support/math_helpers.h"

namespace critter::anim {
namespace {

using critter::testing::axis_angle;
using critter::testing::expect_quat_near;
using critter::testing::kPi;

RawTrack track(TrackTarget target, int index, Interpolation interp, std::vector<float> times,
               std::vector<float> values) {
  RawTrack t;
  t.target = target;
  t.index = index;
  t.interpolation = interp;
  t.components = target == TrackTarget::kRotation ? 4u : 3u;
  t.times = std::move(times);
  t.values = std::move(values);
  return t;
}

RawTrack weights_track(int mesh, std::uint32_t components, Interpolation interp,
                       std::vector<float> times, std::vector<float> values) {
  RawTrack t = track(TrackTarget::kWeights, mesh, interp, std::move(times), std::move(values));
  t.components = components;
  return t;
}

Clip make_clip(std::vector<RawTrack> tracks, int joints, std::vector<std::size_t> morphs = {}) {
  RawClip raw;
  raw.name = "test";
  raw.tracks = std::move(tracks);
  auto clip = build_clip(raw, joints, morphs);
  EXPECT_TRUE(clip) << clip.error().to_string();
  return clip ? std::move(*clip) : Clip{};
}

// A sampler over a clip for `joints` joints and meshes with the given weight counts. Rest pose:
// joint j translated by (j, 0, 0) with identity rotation and scale 2; default weights 0.1·(i+1).
struct Fixture {
  std::vector<Transform> rest;
  std::vector<std::uint32_t> offsets{0};
  std::vector<float> defaults;
  std::vector<Transform> out;
  std::vector<float> out_weights;
  SamplingContext context;

  explicit Fixture(int joints, std::vector<std::uint32_t> weight_counts = {}) {
    for (int j = 0; j < joints; ++j) {
      Transform t;
      t.translation = vec3(static_cast<float>(j), 0.0f, 0.0f);
      t.scale = vec3(2.0f);
      rest.push_back(t);
    }
    for (std::uint32_t c : weight_counts) {
      for (std::uint32_t i = 0; i < c; ++i)
        defaults.push_back(0.1f * static_cast<float>(defaults.size() + 1));
      offsets.push_back(static_cast<std::uint32_t>(defaults.size()));
    }
    out.resize(rest.size());
    out_weights.resize(defaults.size());
  }

  SamplingJob job(const Clip& clip, float time) {
    SamplingJob j;
    j.clip = &clip;
    j.time = time;
    j.context = &context;
    j.rest = rest;
    j.default_weights = defaults;
    j.weight_offsets = offsets;
    j.output = out;
    j.output_weights = out_weights;
    return j;
  }

  // Samples and returns the pose; fails the test when the job fails.
  const std::vector<Transform>& sample(const Clip& clip, float time) {
    auto ok = job(clip, time).run();
    EXPECT_TRUE(ok) << ok.error().to_string();
    return out;
  }
  float x(const Clip& clip, float time, int joint = 0) {
    return sample(clip, time)[static_cast<std::size_t>(joint)].translation.x;
  }
};

// --- validity: each case breaks exactly one rule of an otherwise valid job -----------------------

struct ValidityCase {
  const char* name;
  const char* location;
};

class SamplingJobValidity : public ::testing::Test {
 protected:
  SamplingJobValidity()
      : clip_(make_clip({track(TrackTarget::kTranslation, 2, Interpolation::kLinear, {0, 1},
                               {0, 0, 0, 1, 0, 0}),
                         weights_track(1, 2, Interpolation::kLinear, {0}, {0.5f, 0.5f})},
                        3, {1, 2})),
        f_(3, {1, 2}) {}

  void expect_fails(const SamplingJob& job, const std::string& location) {
    auto v = job.validate();
    ASSERT_FALSE(v) << "expected a failure at " << location;
    EXPECT_EQ(v.error().code, ErrorCode::kUsage);
    EXPECT_EQ(v.error().path, "SamplingJob");
    EXPECT_EQ(v.error().location, location) << v.error().to_string();
    auto r = job.run();
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().location, location);
  }

  Clip clip_;
  Fixture f_;
};

TEST_F(SamplingJobValidity, ValidJobPasses) {
  auto job = f_.job(clip_, 0.5f);
  EXPECT_TRUE(job.validate());
  EXPECT_TRUE(job.run());
}

TEST_F(SamplingJobValidity, NullClip) {
  auto job = f_.job(clip_, 0.5f);
  job.clip = nullptr;
  expect_fails(job, "clip");
}

TEST_F(SamplingJobValidity, NullContext) {
  auto job = f_.job(clip_, 0.5f);
  job.context = nullptr;
  expect_fails(job, "context");
}

TEST_F(SamplingJobValidity, NonFiniteTime) {
  auto job = f_.job(clip_, std::nanf(""));
  expect_fails(job, "time");
  job.time = std::numeric_limits<float>::infinity();
  expect_fails(job, "time");
  // Finite as a double but beyond the float range it is sampled in.
  job.time = -1e39;
  expect_fails(job, "time");
  job.time = static_cast<double>(std::numeric_limits<float>::max());
  EXPECT_TRUE(job.validate());
}

// A job built per call is cleared and filled field by field; with no padding after `time`
// (a double, 8 bytes) every field starts on an 8-byte boundary, so run() reads each one back
// from the single store that wrote it (docs/jobs.md, "Building a job per call").
TEST(SamplingJob, NoPaddingFollowsTheTime) {
  static_assert(offsetof(SamplingJob, context) == offsetof(SamplingJob, time) + sizeof(double));
  static_assert(std::is_same_v<decltype(SamplingJob::time), double>);
  // A double time samples as the float it rounds to: just below a jump (equal key times at 1,
  // the last wins) a time that rounds to 1.0f takes the value after the jump, which sampling
  // in double precision would not; one that rounds below 1 takes the value before it.
  const Clip clip = make_clip({track(TrackTarget::kTranslation, 0, Interpolation::kStep,
                                     {0, 1, 1, 2}, {0, 0, 0, 10, 0, 0, 20, 0, 0, 30, 0, 0})},
                              1);
  Fixture f(1);
  SamplingJob job = f.job(clip, 0.0f);
  job.time = 1.0 - 1e-9;
  ASSERT_EQ(static_cast<float>(job.time), 1.0f);
  ASSERT_TRUE(job.run());
  EXPECT_EQ(f.out[0].translation.x, 20.0f);
  job.time = 1.0 - 1e-6;
  ASSERT_TRUE(job.run());
  EXPECT_EQ(f.out[0].translation.x, 0.0f);  // still the step's first key
}

TEST_F(SamplingJobValidity, OutputTooSmall) {
  auto job = f_.job(clip_, 0.5f);
  job.output = std::span<Transform>(f_.out).first(2);
  expect_fails(job, "output");
}

TEST_F(SamplingJobValidity, RestTooSmallForOutput) {
  auto job = f_.job(clip_, 0.5f);
  job.rest = std::span<const Transform>(f_.rest).first(2);
  expect_fails(job, "output");
}

TEST_F(SamplingJobValidity, RestTooSmallForTrack) {
  // Rest and output agree on 2 joints, but the clip animates joint 2.
  auto job = f_.job(clip_, 0.5f);
  job.rest = std::span<const Transform>(f_.rest).first(2);
  job.output = std::span<Transform>(f_.out).first(2);
  expect_fails(job, "tracks/0");
}

TEST_F(SamplingJobValidity, EmptyWeightOffsets) {
  auto job = f_.job(clip_, 0.5f);
  job.weight_offsets = {};
  expect_fails(job, "weight_offsets");
}

TEST_F(SamplingJobValidity, WeightOffsetsNotStartingAtZero) {
  std::vector<std::uint32_t> offsets{1, 1, 3};
  auto job = f_.job(clip_, 0.5f);
  job.weight_offsets = offsets;
  expect_fails(job, "weight_offsets");
}

TEST_F(SamplingJobValidity, DecreasingWeightOffsets) {
  std::vector<std::uint32_t> offsets{0, 2, 1, 3};
  auto job = f_.job(clip_, 0.5f);
  job.weight_offsets = offsets;
  expect_fails(job, "weight_offsets");
}

TEST_F(SamplingJobValidity, DefaultWeightsSizeDiffersFromOffsets) {
  auto job = f_.job(clip_, 0.5f);
  job.default_weights = std::span<const float>(f_.defaults).first(2);
  expect_fails(job, "default_weights");
}

TEST_F(SamplingJobValidity, OutputWeightsWrongSize) {
  std::vector<float> bigger(4);
  auto job = f_.job(clip_, 0.5f);
  job.output_weights = bigger;
  expect_fails(job, "output_weights");
}

TEST_F(SamplingJobValidity, WeightsTrackMeshOutOfRange) {
  // Only one mesh described: the clip's weights track targets mesh 1.
  std::vector<std::uint32_t> offsets{0, 3};
  auto job = f_.job(clip_, 0.5f);
  job.weight_offsets = offsets;
  expect_fails(job, "tracks/1");
}

TEST_F(SamplingJobValidity, WeightsTrackSizeDiffersFromMesh) {
  // Mesh 1 described with 1 weight; the track has 2 components.
  std::vector<std::uint32_t> offsets{0, 2, 3};
  auto job = f_.job(clip_, 0.5f);
  job.weight_offsets = offsets;
  expect_fails(job, "tracks/1");
}

// --- interpolation against hand-computed values
// -----------------------------------------------------

TEST(SamplingJob, StepHoldsKeyUntilNext) {
  Clip clip = make_clip({track(TrackTarget::kTranslation, 0, Interpolation::kStep, {0, 1, 2},
                               {0, 0, 0, 10, 0, 0, 20, 0, 0})},
                        1);
  Fixture f(1);
  EXPECT_EQ(f.x(clip, -1.0f), 0.0f);
  EXPECT_EQ(f.x(clip, 0.0f), 0.0f);
  EXPECT_EQ(f.x(clip, 0.5f), 0.0f);
  EXPECT_EQ(f.x(clip, 0.999f), 0.0f);
  EXPECT_EQ(f.x(clip, 1.0f), 10.0f);
  EXPECT_EQ(f.x(clip, 1.99f), 10.0f);
  EXPECT_EQ(f.x(clip, 2.0f), 20.0f);
  EXPECT_EQ(f.x(clip, 7.0f), 20.0f);
}

TEST(SamplingJob, LinearLerpsAndClampsOutsideKeys) {
  Clip clip = make_clip(
      {track(TrackTarget::kTranslation, 0, Interpolation::kLinear, {1, 3}, {2, 4, -6, 6, 8, 10})},
      1);
  Fixture f(1);
  const auto& before = f.sample(clip, 0.25f)[0].translation;
  EXPECT_EQ(before, vec3(2, 4, -6));
  const auto& mid = f.sample(clip, 1.5f)[0].translation;  // s = 0.25
  EXPECT_FLOAT_EQ(mid.x, 3.0f);
  EXPECT_FLOAT_EQ(mid.y, 5.0f);
  EXPECT_FLOAT_EQ(mid.z, -2.0f);
  const auto& after = f.sample(clip, 9.0f)[0].translation;
  EXPECT_EQ(after, vec3(6, 8, 10));
}

TEST(SamplingJob, LinearScale) {
  Clip clip = make_clip(
      {track(TrackTarget::kScale, 0, Interpolation::kLinear, {0, 2}, {1, 1, 1, 3, 5, 0})}, 1);
  Fixture f(1);
  const vec3 s = f.sample(clip, 0.5f)[0].scale;  // s = 0.25
  EXPECT_FLOAT_EQ(s.x, 1.5f);
  EXPECT_FLOAT_EQ(s.y, 2.0f);
  EXPECT_FLOAT_EQ(s.z, 0.75f);
}

std::vector<float> quat_values(std::initializer_list<quat> qs) {
  std::vector<float> v;
  for (const quat& q : qs) v.insert(v.end(), {q.x, q.y, q.z, q.w});
  return v;
}

TEST(SamplingJob, LinearRotationSlerpsNarrowArc) {
  // 0° -> 60° about Y; at s = 0.3 the slerp is 18° about Y (exact, not nlerp: nlerp gives ~17.6°).
  const vec3 y(0, 1, 0);
  Clip clip = make_clip({track(TrackTarget::kRotation, 0, Interpolation::kLinear, {0, 1},
                               quat_values({axis_angle(y, 0.0f), axis_angle(y, kPi / 3)}))},
                        1);
  Fixture f(1);
  expect_quat_near(f.sample(clip, 0.3f)[0].rotation, axis_angle(y, 0.3f * kPi / 3), 1e-6f);
}

TEST(SamplingJob, LinearRotationSlerpsWideArc) {
  // 0° -> 170° about X (quaternion dot cos(85°)); at s = 0.25 -> 42.5° about X.
  const vec3 x(1, 0, 0);
  const float a = 170.0f * kPi / 180.0f;
  Clip clip = make_clip({track(TrackTarget::kRotation, 0, Interpolation::kLinear, {0, 1},
                               quat_values({axis_angle(x, 0.0f), axis_angle(x, a)}))},
                        1);
  Fixture f(1);
  expect_quat_near(f.sample(clip, 0.25f)[0].rotation, axis_angle(x, 0.25f * a), 1e-6f);
}

TEST(SamplingJob, LinearRotationTakesShortestPath) {
  // Keys 10° and the negated quaternion of 30° about Y: the same orientation as 30°. The short
  // path passes 20° at s = 0.5; the long way round would pass about 200°.
  const vec3 y(0, 1, 0);
  const quat q30 = axis_angle(y, kPi / 6);
  Clip clip = make_clip({track(TrackTarget::kRotation, 0, Interpolation::kLinear, {0, 1},
                               quat_values({axis_angle(y, kPi / 18), -q30}))},
                        1);
  Fixture f(1);
  expect_quat_near(f.sample(clip, 0.5f)[0].rotation, axis_angle(y, kPi / 9), 1e-6f);
  // At the second key the stored value comes back as authored (same orientation as q30).
  expect_quat_near(f.sample(clip, 1.0f)[0].rotation, -q30, 1e-6f);
}

TEST(SamplingJob, StepRotation) {
  const vec3 z(0, 0, 1);
  Clip clip = make_clip({track(TrackTarget::kRotation, 0, Interpolation::kStep, {0, 1},
                               quat_values({axis_angle(z, 0.5f), axis_angle(z, 1.5f)}))},
                        1);
  Fixture f(1);
  expect_quat_near(f.sample(clip, 0.9f)[0].rotation, axis_angle(z, 0.5f), 1e-7f);
  expect_quat_near(f.sample(clip, 1.0f)[0].rotation, axis_angle(z, 1.5f), 1e-7f);
}

TEST(SamplingJob, CubicSplineUsesHermiteWithTangentsScaledByDelta) {
  // One component matters: keys at t = 0 and 2 (Δ = 2); v0 = 1, out-tangent b0 = 0.5,
  // v1 = 3, in-tangent a1 = -1. Per key: in-tangent, value, out-tangent.
  Clip clip = make_clip({track(TrackTarget::kTranslation, 0, Interpolation::kCubicSpline, {0, 2},
                               {/*a0*/ 9, 9, 9, /*v0*/ 1, 0, 0, /*b0*/ 0.5f, 0, 0,
                                /*a1*/ -1, 0, 0, /*v1*/ 3, 0, 0, /*b1*/ 9, 9, 9})},
                        1);
  Fixture f(1);
  // s = 0.5: h = (0.5, 0.125, 0.5, -0.125): 0.5 + 2·0.125·0.5 + 1.5 + 2·(-0.125)·(-1) = 2.375.
  EXPECT_NEAR(f.x(clip, 1.0f), 2.375f, 1e-6f);
  // s = 0.25: h = (0.84375, 0.140625, 0.15625, -0.046875) -> 1.546875.
  EXPECT_NEAR(f.x(clip, 0.5f), 1.546875f, 1e-6f);
  // Keys and clamping use the values, never the tangents.
  EXPECT_EQ(f.x(clip, 0.0f), 1.0f);
  EXPECT_EQ(f.x(clip, 2.0f), 3.0f);
  EXPECT_EQ(f.x(clip, 5.0f), 3.0f);
  EXPECT_EQ(f.x(clip, -5.0f), 1.0f);
}

TEST(SamplingJob, CubicSplineRotationIsNormalised) {
  // Identity -> 90° about Z, zero tangents: at s = 0.5 the curve is (0, 0, sin45/2, (1+cos45)/2),
  // which normalises to exactly 45° about Z.
  const vec3 z(0, 0, 1);
  const quat q0 = axis_angle(z, 0.0f), q1 = axis_angle(z, kPi / 2);
  std::vector<float> v;
  for (const quat& q : {q0, q1}) v.insert(v.end(), {0, 0, 0, 0, q.x, q.y, q.z, q.w, 0, 0, 0, 0});
  Clip clip =
      make_clip({track(TrackTarget::kRotation, 0, Interpolation::kCubicSpline, {0, 1}, v)}, 1);
  Fixture f(1);
  const quat r = f.sample(clip, 0.5f)[0].rotation;
  expect_quat_near(r, axis_angle(z, kPi / 4), 1e-6f);
  EXPECT_NEAR(glm::length(r), 1.0f, 1e-6f);
}

TEST(SamplingJob, SingleKeyTrackIsConstant) {
  Clip clip =
      make_clip({track(TrackTarget::kTranslation, 0, Interpolation::kLinear, {0.5f}, {4, 5, 6}),
                 track(TrackTarget::kScale, 0, Interpolation::kCubicSpline, {0.5f},
                       {1, 1, 1, 7, 8, 9, 1, 1, 1})},
                1);
  Fixture f(1);
  for (float t : {-1.0f, 0.0f, 0.5f, 0.75f, 100.0f}) {
    const Transform& p = f.sample(clip, t)[0];
    EXPECT_EQ(p.translation, vec3(4, 5, 6)) << "t = " << t;
    EXPECT_EQ(p.scale, vec3(7, 8, 9)) << "t = " << t;
  }
}

TEST(SamplingJob, EqualKeyTimesJumpWithoutDividingByZero) {
  for (Interpolation interp : {Interpolation::kStep, Interpolation::kLinear}) {
    Clip clip = make_clip({track(TrackTarget::kTranslation, 0, interp, {0, 1, 1, 2},
                                 {0, 0, 0, 10, 0, 0, 20, 0, 0, 30, 0, 0})},
                          1);
    Fixture f(1);
    const bool linear = interp == Interpolation::kLinear;
    EXPECT_EQ(f.x(clip, 0.5f), linear ? 5.0f : 0.0f);
    EXPECT_EQ(f.x(clip, 1.0f), 20.0f);  // the last of the keys at t = 1
    EXPECT_EQ(f.x(clip, 1.5f), linear ? 25.0f : 20.0f);
    EXPECT_LT(f.x(clip, 0.999999f), 10.0f);
  }
  std::vector<float> cubic;
  for (float v : {0.0f, 10.0f, 20.0f, 30.0f})
    cubic.insert(cubic.end(), {1, 1, 1, v, 0, 0, 1, 1, 1});
  Clip clip = make_clip(
      {track(TrackTarget::kTranslation, 0, Interpolation::kCubicSpline, {0, 1, 1, 2}, cubic)}, 1);
  Fixture f(1);
  EXPECT_EQ(f.x(clip, 1.0f), 20.0f);
  EXPECT_TRUE(std::isfinite(f.sample(clip, 1.0f)[0].translation.y));
}

TEST(SamplingJob, ChannelsOfDifferentLengthsInOneClip) {
  const vec3 y(0, 1, 0);
  Clip clip = make_clip(
      {track(TrackTarget::kTranslation, 1, Interpolation::kLinear, {0, 1}, {0, 0, 0, 1, 2, 3}),
       track(TrackTarget::kRotation, 1, Interpolation::kLinear, {0, 1, 2, 3, 4},
             quat_values({axis_angle(y, 0.0f), axis_angle(y, 0.1f), axis_angle(y, 0.2f),
                          axis_angle(y, 0.3f), axis_angle(y, 0.4f)})),
       track(TrackTarget::kScale, 1, Interpolation::kStep, {3}, {5, 5, 5})},
      2);
  EXPECT_FLOAT_EQ(clip.duration(), 4.0f);
  Fixture f(2);
  const Transform& p = f.sample(clip, 2.5f)[1];
  EXPECT_EQ(p.translation, vec3(1, 2, 3));                    // past its last key
  expect_quat_near(p.rotation, axis_angle(y, 0.25f), 1e-6f);  // between keys 2 and 3
  EXPECT_EQ(p.scale, vec3(5));                                // single key
}

TEST(SamplingJob, UnanimatedJointsTakeRestAndMeshesTheirDefaults) {
  // Joint 1 has only a rotation track; joint 0 and 2 have none. Mesh 0 (2 weights) has no track,
  // mesh 1 (3 weights) is animated.
  const vec3 x(1, 0, 0);
  Clip clip = make_clip({track(TrackTarget::kRotation, 1, Interpolation::kLinear, {0, 1},
                               quat_values({axis_angle(x, 0.0f), axis_angle(x, 1.0f)})),
                         weights_track(1, 3, Interpolation::kLinear, {0, 1}, {0, 1, 2, 1, 0, 4})},
                        3, {2, 3});
  Fixture f(3, {2, 3});
  // Dirty outputs must be fully overwritten.
  for (auto& t : f.out) t.translation = vec3(99.0f);
  for (auto& w : f.out_weights) w = 99.0f;
  const auto& pose = f.sample(clip, 0.25f);
  EXPECT_EQ(pose[0], f.rest[0]);
  EXPECT_EQ(pose[2], f.rest[2]);
  EXPECT_EQ(pose[1].translation, f.rest[1].translation);
  EXPECT_EQ(pose[1].scale, f.rest[1].scale);
  expect_quat_near(pose[1].rotation, axis_angle(x, 0.25f), 1e-6f);
  EXPECT_FLOAT_EQ(f.out_weights[0], 0.1f);
  EXPECT_FLOAT_EQ(f.out_weights[1], 0.2f);
  EXPECT_FLOAT_EQ(f.out_weights[2], 0.25f);
  EXPECT_FLOAT_EQ(f.out_weights[3], 0.75f);
  EXPECT_FLOAT_EQ(f.out_weights[4], 2.5f);
}

TEST(SamplingJob, CubicSplineWeightsPerComponent) {
  // Two weights, zero tangents, (0, 5) -> (2, 1); at s = 0.5 the Hermite value is the midpoint.
  Clip clip = make_clip({weights_track(0, 2, Interpolation::kCubicSpline, {0, 1},
                                       {0, 0, 0, 5, 0, 0, 0, 0, 2, 1, 0, 0})},
                        1, {2});
  Fixture f(1, {2});
  f.sample(clip, 0.5f);
  EXPECT_FLOAT_EQ(f.out_weights[0], 1.0f);
  EXPECT_FLOAT_EQ(f.out_weights[1], 3.0f);
  f.sample(clip, 0.25f);                       // h00 = 0.84375, h01 = 0.15625
  EXPECT_FLOAT_EQ(f.out_weights[0], 0.3125f);  // 0.15625·2
  EXPECT_FLOAT_EQ(f.out_weights[1], 4.375f);   // 0.84375·5 + 0.15625·1
}

// --- key cursors -------------------------------------------------------------------------------

Clip random_clip(std::mt19937& rng, int joints) {
  std::uniform_real_distribution<float> value(-1.0f, 1.0f);
  std::uniform_real_distribution<float> step(0.0f, 0.2f);
  std::vector<RawTrack> tracks;
  const Interpolation interps[] = {Interpolation::kStep, Interpolation::kLinear,
                                   Interpolation::kCubicSpline};
  for (int j = 0; j < joints; ++j) {
    for (TrackTarget target :
         {TrackTarget::kTranslation, TrackTarget::kRotation, TrackTarget::kScale}) {
      const Interpolation interp = interps[(j + static_cast<int>(target)) % 3];
      const std::uint32_t c = target == TrackTarget::kRotation ? 4u : 3u;
      const int keys = 1 + (j * 7 + static_cast<int>(target) * 3) % 23;
      std::vector<float> times, values;
      float t = step(rng);
      for (int k = 0; k < keys; ++k) {
        times.push_back(t);
        t += k % 5 == 3 ? 0.0f : step(rng);  // some repeated key times
        for (std::uint32_t v = 0; v < (interp == Interpolation::kCubicSpline ? 3 : 1) * c; ++v)
          values.push_back(value(rng));
      }
      tracks.push_back(track(target, j, interp, times, values));
    }
  }
  return make_clip(std::move(tracks), joints);
}

TEST(SamplingJob, ForwardPlaybackWithContextMatchesFreshContexts) {
  std::mt19937 rng(1234);
  const Clip clip = random_clip(rng, 12);
  Fixture playing(12);
  std::uniform_real_distribution<float> dt(0.0f, 0.05f);
  for (float t = -0.1f; t < clip.duration() + 0.2f; t += dt(rng)) {
    const std::vector<Transform> got = playing.sample(clip, t);
    Fixture fresh(12);
    const std::vector<Transform>& want = fresh.sample(clip, t);
    for (std::size_t j = 0; j < want.size(); ++j)
      ASSERT_EQ(got[j], want[j]) << "joint " << j << " at t = " << t;
  }
}

TEST(SamplingJob, SeeksAndWrapsWithContextMatchFreshContexts) {
  std::mt19937 rng(99);
  const Clip clip = random_clip(rng, 8);
  Fixture playing(8);
  std::uniform_real_distribution<float> any(-0.5f, clip.duration() + 0.5f);
  for (int i = 0; i < 300; ++i) {
    // Alternate random seeks with short forward runs (loop-like wraps happen at the seeks).
    const float t = i % 4 == 0 ? any(rng) : std::fmod(static_cast<float>(i) * 0.037f, 3.0f);
    const std::vector<Transform> got = playing.sample(clip, t);
    Fixture fresh(8);
    const std::vector<Transform>& want = fresh.sample(clip, t);
    for (std::size_t j = 0; j < want.size(); ++j)
      ASSERT_EQ(got[j], want[j]) << "joint " << j << " at t = " << t;
  }
}

// Linear tracks on one timeline for joints 1-35 (batches of four consecutive joints), on
// timelines of their own for some joints above (batches of scattered joints), step and cubic
// tracks on others, no track on the rest; 45 joints, so the last block is partly padding.
Clip mixed_clip(std::mt19937& rng, int joints) {
  std::uniform_real_distribution<float> value(-1.0f, 1.0f);
  std::vector<RawTrack> tracks;
  for (int j = 0; j < joints; ++j) {
    // Unanimated, rest: joint 0 (so the batches below start at joint 1, some inside a block,
    // some across two) and every fifth above 35.
    if (j == 0 || (j >= 36 && j % 5 == 0)) continue;
    for (TrackTarget target :
         {TrackTarget::kTranslation, TrackTarget::kRotation, TrackTarget::kScale}) {
      const std::uint32_t c = target == TrackTarget::kRotation ? 4u : 3u;
      const Interpolation interp = j < 36 || j % 3 != 0 ? Interpolation::kLinear
                                   : j % 2 == 0         ? Interpolation::kStep
                                                        : Interpolation::kCubicSpline;
      const int keys = j < 36 ? 9 : 3 + j % 4;
      std::vector<float> times, values;
      for (int k = 0; k < keys; ++k) {
        times.push_back(j < 36 ? 0.25f * static_cast<float>(k)
                               : 0.3f * static_cast<float>(k) + 0.01f * static_cast<float>(j));
        for (std::uint32_t v = 0; v < (interp == Interpolation::kCubicSpline ? 3 : 1) * c; ++v)
          values.push_back(value(rng));
      }
      tracks.push_back(track(target, j, interp, times, values));
    }
  }
  return make_clip(std::move(tracks), joints);
}

// Samples `sampled` into a structure-of-arrays pose from before the start of `reference` to past
// its end and checks every joint against `reference` sampled into Transforms, bit for bit; a
// padding lane of the rest pose is marked, to see that it reaches the output.
void expect_soa_sampling_equals(const Clip& reference, const Clip& sampled, int joints,
                                float step) {
  ASSERT_NE(joints % 16, 0);  // a padding lane to mark
  Fixture f(joints);
  std::vector<SoaTransform> soa_rest(soa_blocks(static_cast<std::size_t>(joints)));
  std::vector<SoaTransform> soa_out(soa_rest.size());
  ASSERT_TRUE(to_soa(f.rest, soa_rest));
  soa_rest.back().translation[0][15] = 42.0f;
  SamplingContext soa_context;
  for (float t = -0.1f; t < reference.duration() + 0.3f; t += step) {
    const std::vector<Transform> want = f.sample(reference, t);
    SamplingJob job = f.job(sampled, t);
    job.rest = {};
    job.output = {};
    job.context = &soa_context;
    job.soa_rest = soa_rest;
    job.soa_output = soa_out;
    job.soa_joints = static_cast<std::size_t>(joints);
    const auto ok = job.run();
    ASSERT_TRUE(ok) << ok.error().to_string();
    for (std::size_t j = 0; j < want.size(); ++j) {
      const Transform got = soa_get(soa_out, j);
      ASSERT_EQ(std::memcmp(&got, &want[j], sizeof(Transform)), 0) << "joint " << j << " at " << t;
    }
    EXPECT_EQ(soa_out.back().translation[0][15], 42.0f);
  }
}

TEST(SamplingJob, StructureOfArraysOutputHasTheTransformBits) {
  std::mt19937 rng(77);
  constexpr int kJoints = 45;
  for (const Clip& clip : {mixed_clip(rng, kJoints), random_clip(rng, kJoints)})
    expect_soa_sampling_equals(clip, clip, kJoints, 0.037f);
}

// Batches whose lanes come in another order (a file may hold them so), leave gaps or cross two
// blocks: each batch's Clip::LinearBatch::soa_in_row is derived from its joints, and the
// structure-of-arrays pose gets the same bits as the Transform one.
TEST(SamplingJob, StructureOfArraysOutputTakesLanesInAnyOrder) {
  std::mt19937 rng(78);
  constexpr int kJoints = 45;
  const Clip source = mixed_clip(rng, kJoints);
  ClipParts parts = source.parts();
  ASSERT_GE(parts.linear_batches.size(), 4u);
  // Every other batch reordered: lanes 1 and 2 swapped, or reversed when it has fewer than three.
  for (std::size_t i = 1; i < parts.linear_batches.size(); i += 2) {
    Clip::LinearBatch& b = parts.linear_batches[i];
    if (b.lanes >= 3)
      std::swap(b.joints[1], b.joints[2]);
    else
      std::reverse(b.joints, b.joints + b.lanes);
    for (int lane = b.lanes; lane < 4; ++lane) b.joints[lane] = b.joints[0];
  }
  auto reordered = Clip::from_parts(std::move(parts), kJoints, {});
  ASSERT_TRUE(reordered) << reordered.error().to_string();
  int in_row = 0, out_of_row = 0, crossing = 0;
  for (const Clip::LinearBatch& b : reordered->linear_batches()) {
    bool want = b.lanes == 4 && b.joints[0] % 16 <= 12;
    for (int lane = 1; lane < 4; ++lane) want = want && b.joints[lane] == b.joints[0] + lane;
    ASSERT_EQ(b.soa_in_row, want ? 1 : 0) << "batch at joint " << b.joints[0];
    (want ? in_row : out_of_row) += 1;
    const auto [lo, hi] = std::minmax_element(b.joints, b.joints + b.lanes);
    crossing += *lo / 16 != *hi / 16;
  }
  EXPECT_GT(in_row, 0);
  EXPECT_GT(out_of_row, 0);
  EXPECT_GT(crossing, 0);

  expect_soa_sampling_equals(source, *reordered, kJoints, 0.041f);
}

TEST(SamplingJob, StructureOfArraysFormIsValidated) {
  const Clip clip = make_clip(
      {track(TrackTarget::kTranslation, 2, Interpolation::kLinear, {0, 1}, {0, 0, 0, 1, 0, 0})}, 3);
  Fixture f(3);
  std::vector<SoaTransform> rest(1), out(1), two(2);
  SamplingJob job = f.job(clip, 0.5f);
  job.rest = {};
  job.output = {};
  job.soa_rest = rest;
  job.soa_output = out;
  job.soa_joints = 3;
  ASSERT_TRUE(job.run());
  const auto location = [](const SamplingJob& j) {
    const auto ok = j.validate();
    return ok ? std::string("ok") : ok.error().location;
  };
  SamplingJob bad = job;
  bad.soa_output = two;
  EXPECT_EQ(location(bad), "soa_output");
  bad = job;
  bad.soa_joints = 17;
  EXPECT_EQ(location(bad), "soa_rest");
  bad = job;
  bad.soa_joints = 2;  // the track targets joint 2
  EXPECT_EQ(location(bad), "tracks/0");
  bad = job;
  bad.rest = f.rest;
  EXPECT_EQ(location(bad), "rest");
  bad = f.job(clip, 0.5f);
  bad.soa_rest = rest;
  EXPECT_EQ(location(bad), "soa_rest");
}

TEST(SamplingJob, ContextFollowsAClipChange) {
  std::mt19937 rng(7);
  const Clip a = random_clip(rng, 5);
  const Clip b = random_clip(rng, 5);
  Fixture shared(5);
  shared.sample(a, a.duration());  // cursors at the end of every track of a
  const std::vector<Transform> got = shared.sample(b, 0.3f);
  Fixture fresh(5);
  const std::vector<Transform>& want = fresh.sample(b, 0.3f);
  for (std::size_t j = 0; j < want.size(); ++j) EXPECT_EQ(got[j], want[j]) << "joint " << j;
}

// output_untouched: a run that may trust its output leaves the channels no track drives as the
// last run left them; every change the context can see (clip, rest, output, form, invalidate)
// and a run without the promise copy the rest pose again. A mark in a channel the clip does not
// drive shows which happened.
TEST(SamplingJob, AnUntouchedOutputKeepsTheRestTheLastRunWrote) {
  const vec3 x(1, 0, 0);
  const Clip clip = make_clip({track(TrackTarget::kRotation, 1, Interpolation::kLinear, {0, 1},
                                     quat_values({axis_angle(x, 0.0f), axis_angle(x, 1.0f)}))},
                              3);
  const Clip other = make_clip({track(TrackTarget::kRotation, 2, Interpolation::kLinear, {0, 1},
                                      quat_values({axis_angle(x, 0.0f), axis_angle(x, 1.0f)}))},
                               3);
  Fixture f(3);
  const vec3 mark(-7.0f);
  const auto run = [&](const Clip& c, float t, bool untouched) {
    SamplingJob job = f.job(c, t);
    job.output_untouched = untouched;
    const auto ok = job.run();
    EXPECT_TRUE(ok) << ok.error().to_string();
  };
  const auto kept = [&] { return f.out[1].translation == mark; };

  run(clip, 0.25f, true);  // a fresh context: the rest is copied
  EXPECT_EQ(f.out[1].translation, f.rest[1].translation);
  f.out[1].translation = mark;
  run(clip, 0.5f, true);
  EXPECT_TRUE(kept());                                              // trusted: not copied again
  expect_quat_near(f.out[1].rotation, axis_angle(x, 0.5f), 1e-6f);  // the track still is

  run(clip, 0.5f, false);  // no promise
  EXPECT_FALSE(kept());
  f.out[1].translation = mark;
  run(clip, 0.6f, true);  // the run without the promise wrote the rest: trusted again
  EXPECT_TRUE(kept());

  run(other, 0.5f, true);  // another clip
  EXPECT_FALSE(kept());
  EXPECT_EQ(f.out[1].rotation, f.rest[1].rotation);
  f.out[1].translation = mark;
  run(clip, 0.5f, true);  // and back
  EXPECT_FALSE(kept());

  f.out[1].translation = mark;
  f.context.invalidate();
  run(clip, 0.5f, true);
  EXPECT_FALSE(kept());

  // Another output, then the first one again: each is a change the context sees.
  std::vector<Transform> second(3);
  f.out[1].translation = mark;
  f.out.swap(second);
  run(clip, 0.5f, true);
  EXPECT_EQ(f.out[1].translation, f.rest[1].translation);
  f.out.swap(second);
  run(clip, 0.5f, true);
  EXPECT_FALSE(kept());

  // Another rest pose (same values, another buffer).
  f.out[1].translation = mark;
  std::vector<Transform> rest_copy = f.rest;
  SamplingJob job = f.job(clip, 0.5f);
  job.rest = rest_copy;
  job.output_untouched = true;
  ASSERT_TRUE(job.run());
  EXPECT_FALSE(kept());

  // The structure-of-arrays form into the same context: a change of form.
  std::vector<SoaTransform> soa_rest(1), soa_out(1);
  ASSERT_TRUE(to_soa(f.rest, soa_rest));
  job = f.job(clip, 0.5f);
  job.rest = {};
  job.output = {};
  job.soa_rest = soa_rest;
  job.soa_output = soa_out;
  job.soa_joints = 3;
  job.output_untouched = true;
  ASSERT_TRUE(job.run());
  EXPECT_EQ(soa_get(soa_out, 1).translation, f.rest[1].translation);
  soa_out[0].translation[0][1] = mark.x;
  ASSERT_TRUE(job.run());
  EXPECT_EQ(soa_out[0].translation[0][1], mark.x);  // trusted in that form too
  job.output_untouched = false;
  ASSERT_TRUE(job.run());
  EXPECT_EQ(soa_get(soa_out, 1).translation, f.rest[1].translation);
}

// --- shared model files -----------------------------------------------------------------------

Model load_shared(const std::string& relative) {
  const std::string path = std::string(CRITTER_SHARED_MODELS) + "/" + relative;
  auto model = io::load(path);
  EXPECT_TRUE(model) << model.error().to_string();
  return model ? std::move(*model) : Model{};
}

TEST(SamplingJobModels, AssimpInterpolationSyntheticMatchesPublishedValues) {
  // playback.md §2: x goes 0 -> 1 over t in [0, 1], all tangents zero.
  struct Case {
    const char* file;
    float at_quarter, at_half;
  };
  const Case cases[] = {{"animation_interpolation_step.gltf", 0.0f, 0.0f},
                        {"animation_interpolation_linear.gltf", 0.25f, 0.5f},
                        {"animation_interpolation_cubic.gltf", 0.15625f, 0.5f}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.file);
    const Model model = load_shared(std::string("assimp_interpolation_synthetic/") + c.file);
    ASSERT_EQ(model.clips().size(), 1u);
    const int mover = model.find_bone("Mover");
    ASSERT_GE(mover, 0);
    const MorphLayout layout = MorphLayout::of(model);
    Pose pose = Pose::rest(model, layout);
    SamplingContext context;
    SamplingJob job;
    job.clip = &model.clips()[0];
    job.context = &context;
    job.rest = model.skeleton().rest_pose();
    job.default_weights = layout.defaults;
    job.weight_offsets = layout.offsets;
    job.output = pose.locals;
    job.output_weights = pose.weights;
    const auto x_at = [&](float t) {
      job.time = t;
      auto ok = job.run();
      EXPECT_TRUE(ok) << ok.error().to_string();
      return pose.locals[static_cast<std::size_t>(mover)].translation.x;
    };
    EXPECT_NEAR(x_at(0.25f), c.at_quarter, 1e-6f);
    EXPECT_NEAR(x_at(0.5f), c.at_half, 1e-6f);
    EXPECT_NEAR(x_at(1.0f), 1.0f, 1e-6f);
    EXPECT_NEAR(x_at(0.0f), 0.0f, 1e-6f);
  }
}

// The glTF 2.0 Appendix C cubic Hermite, evaluated directly in double precision: find the key
// interval by a linear scan, then apply the formula with tangents scaled by the interval.
std::vector<double> reference_cubic(std::span<const float> times, std::span<const float> values,
                                    std::size_t c, double t) {
  const std::size_t n = times.size();
  const auto value = [&](std::size_t k, std::size_t i) {
    return double{values[k * 3 * c + c + i]};
  };
  std::vector<double> out(c);
  if (t <= times[0] || n == 1) {
    for (std::size_t i = 0; i < c; ++i) out[i] = value(0, i);
    return out;
  }
  if (t >= times[n - 1]) {
    for (std::size_t i = 0; i < c; ++i) out[i] = value(n - 1, i);
    return out;
  }
  std::size_t k = 0;
  while (!(times[k] <= t && t < times[k + 1])) ++k;
  const double td = double{times[k + 1]} - double{times[k]};
  const double s = (t - times[k]) / td;
  for (std::size_t i = 0; i < c; ++i) {
    const double vk = value(k, i), vk1 = value(k + 1, i);
    const double bk = values[k * 3 * c + 2 * c + i];  // out-tangent of key k
    const double ak1 = values[(k + 1) * 3 * c + i];   // in-tangent of key k + 1
    out[i] = (2 * s * s * s - 3 * s * s + 1) * vk + td * (s * s * s - 2 * s * s + s) * bk +
             (-2 * s * s * s + 3 * s * s) * vk1 + td * (s * s * s - s * s) * ak1;
  }
  if (c == 4) {
    double len = 0;
    for (double v : out) len += v * v;
    len = std::sqrt(len);
    for (double& v : out) v /= len;
  }
  return out;
}

// The sampled value of a T/R/S target in file order: x, y, z (, w).
std::array<float, 4> components_of(const Transform& t, TrackTarget target) {
  switch (target) {
    case TrackTarget::kRotation:
      return {t.rotation.x, t.rotation.y, t.rotation.z, t.rotation.w};
    case TrackTarget::kScale:
      return {t.scale.x, t.scale.y, t.scale.z, 0.0f};
    default:
      return {t.translation.x, t.translation.y, t.translation.z, 0.0f};
  }
}

TEST(SamplingJobModels, OzzCubicSplineMatchesTheGltfFormula) {
  const Model model = load_shared("ozz_cubicspline/cubicspline.gltf");
  ASSERT_FALSE(model.clips().empty());
  const Clip& clip = model.clips()[0];
  const MorphLayout layout = MorphLayout::of(model);
  Pose pose = Pose::rest(model, layout);
  SamplingContext context;
  SamplingJob job;
  job.clip = &clip;
  job.context = &context;
  job.rest = model.skeleton().rest_pose();
  job.default_weights = layout.defaults;
  job.weight_offsets = layout.offsets;
  job.output = pose.locals;
  job.output_weights = pose.weights;
  int cubic_tracks = 0;
  for (const Track& t : clip.tracks())
    cubic_tracks += t.interpolation == Interpolation::kCubicSpline;
  ASSERT_GE(cubic_tracks, 2);
  const int steps = 240;
  for (int i = -5; i <= steps + 5; ++i) {
    const float time = clip.duration() * static_cast<float>(i) / steps;
    job.time = time;
    ASSERT_TRUE(job.run());
    for (const Track& t : clip.tracks()) {
      if (t.interpolation != Interpolation::kCubicSpline) continue;
      const auto want =
          reference_cubic(clip.track_times(t), clip.track_values(t), t.components, time);
      const Transform& got = pose.locals[static_cast<std::size_t>(t.index)];
      const std::array<float, 4> g = components_of(got, t.target);
      for (std::size_t c = 0; c < t.components; ++c)
        EXPECT_NEAR(g[c], want[c], 1e-6)
            << "joint " << t.index << " component " << c << " at t = " << time;
    }
  }
}

}  // namespace
}  // namespace critter::anim
