// SPDX-License-Identifier: MIT
// The animation jobs take and give denormal floats as zero while they run (so that tiny
// components in exported clips cost no microcode assists) and leave the caller's floating-point
// control state as they found it; a DenormalScope sets that mode once for a batch of jobs.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "critter/anim/blending_job.h"
#include "critter/anim/denormal_scope.h"
#include "critter/anim/local_to_model_job.h"
#include "critter/anim/sampling_job.h"
#include "critter/asset/clip.h"

#if defined(__SSE2__)
#include <xmmintrin.h>
#endif

namespace critter::anim {
namespace {

constexpr float kDenormal = 1e-39f;

// Joints whose rotations and translations hold denormal components, and the same with zeros.
std::vector<Transform> pose(float tiny, float turn) {
  std::vector<Transform> p(19);
  for (std::size_t j = 0; j < p.size(); ++j) {
    p[j].translation = vec3(tiny, 1.0f + static_cast<float>(j), -tiny);
    p[j].rotation = glm::normalize(quat_xyzw(tiny, turn * static_cast<float>(j), 0.2f, 1.0f));
    p[j].rotation.x = tiny;
  }
  return p;
}

std::vector<Transform> blend(const std::vector<Transform>& a, const std::vector<Transform>& b,
                             BlendingPath path) {
  const std::vector<Transform> rest(a.size());
  std::vector<Transform> out(a.size());
  BlendingLayer layers[2];
  layers[0].pose = a;
  layers[0].weight = 1.0f;
  layers[1].pose = b;
  layers[1].weight = 0.3f;
  BlendingJob job;
  job.layers = layers;
  job.rest = rest;
  job.output = out;
  job.path = path;
  EXPECT_TRUE(job.run());
  return out;
}

TEST(Denormals, BlendingTakesThemAsZeroOnEveryPath) {
  const auto a = pose(kDenormal, 0.1f), b = pose(-kDenormal, -0.05f);
  const auto a0 = pose(0.0f, 0.1f), b0 = pose(0.0f, -0.05f);
  const std::vector<Transform> want = blend(a0, b0, BlendingPath::kScalar);
  for (const BlendingPath path :
       {BlendingPath::kScalar, BlendingPath::kSse2, BlendingPath::kAvx2, BlendingPath::kAvx512}) {
    if (!blending_path_available(path)) continue;
    const std::vector<Transform> got = blend(a, b, path);
    for (std::size_t j = 0; j < got.size(); ++j) {
#if defined(__SSE2__)
      EXPECT_EQ(got[j].translation, want[j].translation) << "joint " << j;
      EXPECT_EQ(got[j].rotation, want[j].rotation) << "joint " << j;
#else
      EXPECT_NEAR(got[j].rotation.y, want[j].rotation.y, 1e-7f);
#endif
    }
  }
}

#if defined(__SSE2__)
// The control bits of the SSE control register (the low six bits are sticky exception flags,
// which any arithmetic sets).
unsigned control() {
  return _mm_getcsr() & ~0x3Fu;
}

// A clip whose one rotation track lerps between keys with a denormal component, sampled half way
// over `rest`.
std::vector<Transform> sample_tiny(const std::vector<Transform>& rest) {
  RawClip raw;
  raw.name = "tiny";
  RawTrack t;
  t.target = TrackTarget::kRotation;
  t.index = 0;
  t.interpolation = Interpolation::kLinear;
  t.components = 4;
  t.times = {0.0f, 1.0f};
  t.values = {kDenormal, 0, 0, 1, 0, kDenormal, 0, 1};
  raw.tracks.push_back(t);
  auto clip = build_clip(raw, static_cast<int>(rest.size()), {});
  EXPECT_TRUE(clip);
  if (!clip) return {};
  SamplingContext context;
  std::vector<Transform> out(rest.size());
  const std::uint32_t offsets[] = {0};
  SamplingJob sample;
  sample.clip = &*clip;
  sample.time = 0.5f;
  sample.context = &context;
  sample.rest = rest;
  sample.weight_offsets = offsets;
  sample.output = out;
  EXPECT_TRUE(sample.run());
  return out;
}

TEST(Denormals, JobsLeaveTheControlRegisterAsTheyFoundIt) {
  const unsigned before = _mm_getcsr();
  const auto a = pose(kDenormal, 0.1f), b = pose(kDenormal, 0.2f);
  for (const unsigned mode : {before & ~0x8040u & ~0x3Fu, (before | 0x8040u) & ~0x3Fu}) {
    _mm_setcsr(mode);
    (void)blend(a, b, BlendingPath::kAuto);
    EXPECT_EQ(control(), mode);
    std::vector<std::int16_t> parents(a.size(), -1);
    std::vector<mat4> model(a.size());
    LocalToModelJob ltm;
    ltm.parents = parents;
    ltm.input = a;
    ltm.output = model;
    ASSERT_TRUE(ltm.run());
    EXPECT_EQ(control(), mode);
    const std::vector<Transform> out = sample_tiny(a);
    EXPECT_EQ(control(), mode);
    EXPECT_EQ(out[0].rotation.x, 0.0f);  // the tiny component lerped: flushed
    EXPECT_EQ(out[0].rotation.w, 1.0f);
  }
  _mm_setcsr(before);
}

TEST(DenormalScope, SetsTheModeForItsLifeAndPutsBackWhatItFound) {
  const unsigned before = _mm_getcsr();
  for (const unsigned mode : {before & ~0x8040u & ~0x3Fu, (before | 0x8040u) & ~0x3Fu}) {
    _mm_setcsr(mode);
    EXPECT_FALSE(DenormalScope::active());
    {
      const DenormalScope outer;
      EXPECT_TRUE(DenormalScope::active());
      EXPECT_EQ(control(), mode | 0x8040u);
      {
        const DenormalScope inner;
        EXPECT_EQ(control(), mode | 0x8040u);
      }
      // The inner scope found the bits set: it leaves them for the outer one.
      EXPECT_TRUE(DenormalScope::active());
      EXPECT_EQ(control(), mode | 0x8040u);
    }
    EXPECT_FALSE(DenormalScope::active());
    EXPECT_EQ(control(), mode);
  }
  _mm_setcsr(before);
}

TEST(DenormalScope, JobsInsideGiveTheSameBitsAndLeaveTheScopesMode) {
  const unsigned before = _mm_getcsr();
  _mm_setcsr(before & ~0x8040u);
  const auto a = pose(kDenormal, 0.1f), b = pose(-kDenormal, -0.05f);
  const std::vector<Transform> blended = blend(a, b, BlendingPath::kAuto);
  const std::vector<Transform> sampled = sample_tiny(a);
  {
    const DenormalScope scope;
    EXPECT_EQ(blend(a, b, BlendingPath::kAuto), blended);
    EXPECT_EQ(sample_tiny(a), sampled);
    EXPECT_EQ(control() & 0x8040u, 0x8040u);
  }
  EXPECT_EQ(control() & 0x8040u, 0u);
  _mm_setcsr(before);
}

// The jobs trust a live scope and leave the register alone: with the bits cleared against the
// scope's contract, a denormal goes through unflushed (what shows that they skip their switch).
TEST(DenormalScope, JobsInsideAScopeDoNotSwitchTheModeThemselves) {
  const unsigned before = _mm_getcsr();
  const auto a = pose(0.0f, 0.1f);
  {
    const DenormalScope scope;
    _mm_setcsr(_mm_getcsr() & ~0x8040u);
    const std::vector<Transform> out = sample_tiny(a);
    EXPECT_NE(out[0].rotation.x, 0.0f);
    EXPECT_EQ(control() & 0x8040u, 0u);
    _mm_setcsr(_mm_getcsr() | 0x8040u);
  }
  EXPECT_EQ(sample_tiny(a)[0].rotation.x, 0.0f);  // outside: flushed again
  _mm_setcsr(before);
}
#endif

}  // namespace
}  // namespace critter::anim
