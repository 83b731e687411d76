// SPDX-License-Identifier: MIT
// The vectorised paths of the animation jobs against independent references: sampling (the
// clip's timelines and LINEAR batches, padded lanes, wide-arc fallback, overridden tracks)
// against a double-precision glTF sampler written here; the unmasked blend against the masked
// one with all-ones masks; local-to-model against products of Transform::to_matrix.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "critter/anim/blending_job.h"
#include "critter/anim/local_to_model_job.h"
#include "critter/anim/sampling_job.h"
#include "critter/anim/transform_blend.h"
#include "critter/asset/clip.h"

namespace critter::anim {
namespace {

// A Transform-form sampling job with no morph weights (its spans borrowed from the caller).
const std::vector<std::uint32_t> kNoMeshOffsets{0};
SamplingJob pose_job(const Clip& clip, float time, SamplingContext& context,
                     std::span<const Transform> rest, std::span<Transform> out) {
  SamplingJob job;
  job.clip = &clip;
  job.time = time;
  job.context = &context;
  job.rest = rest;
  job.weight_offsets = kNoMeshOffsets;
  job.output = out;
  return job;
}

// glTF sampling of one raw track at time t in double precision (playback.md §2): the last key
// at or before t, clamped at both ends; LINEAR rotations by exact shortest-path slerp.
std::vector<double> reference_sample(const RawTrack& track, double t) {
  const std::size_t n = track.times.size();
  const std::size_t c = track.components;
  const bool cubic = track.interpolation == Interpolation::kCubicSpline;
  const std::size_t stride = cubic ? 3 * c : c;
  std::size_t k = 0;
  while (k + 1 < n && track.times[k + 1] <= t) ++k;
  const auto value = [&](std::size_t key, std::size_t i) {
    return static_cast<double>(track.values[key * stride + (cubic ? c : 0) + i]);
  };
  std::vector<double> out(c);
  for (std::size_t i = 0; i < c; ++i) out[i] = value(k, i);
  if (k + 1 >= n || t <= track.times[k] || track.interpolation == Interpolation::kStep) return out;
  const double t0 = track.times[k], t1 = track.times[k + 1];
  const double s = (t - t0) / (t1 - t0);
  if (track.interpolation == Interpolation::kLinear) {
    if (track.target == TrackTarget::kRotation) {
      double d = 0.0;
      for (std::size_t i = 0; i < 4; ++i) d += value(k, i) * value(k + 1, i);
      const double sign = d < 0.0 ? -1.0 : 1.0;
      d = std::min(1.0, d * sign);
      const double theta = std::acos(d);
      double wa = 1.0 - s, wb = s;
      if (theta > 1e-9) {
        wa = std::sin((1.0 - s) * theta) / std::sin(theta);
        wb = std::sin(s * theta) / std::sin(theta);
      }
      double len2 = 0.0;
      for (std::size_t i = 0; i < 4; ++i) {
        out[i] = wa * value(k, i) + sign * wb * value(k + 1, i);
        len2 += out[i] * out[i];
      }
      for (double& v : out) v /= std::sqrt(len2);
    } else {
      for (std::size_t i = 0; i < c; ++i)
        out[i] = value(k, i) + (value(k + 1, i) - value(k, i)) * s;
    }
    return out;
  }
  const double dt = t1 - t0, s2 = s * s, s3 = s2 * s;
  const auto raw = [&](std::size_t key, std::size_t part, std::size_t i) {
    return static_cast<double>(track.values[key * stride + part * c + i]);
  };
  for (std::size_t i = 0; i < c; ++i)
    out[i] = (2 * s3 - 3 * s2 + 1) * raw(k, 1, i) + dt * (s3 - 2 * s2 + s) * raw(k, 2, i) +
             (-2 * s3 + 3 * s2) * raw(k + 1, 1, i) + dt * (s3 - s2) * raw(k + 1, 0, i);
  if (track.target == TrackTarget::kRotation) {
    double len2 = 0.0;
    for (double v : out) len2 += v * v;
    for (double& v : out) v /= std::sqrt(len2);
  }
  return out;
}

// The raw clip with rotation values normalised as build_clip stores them.
RawClip normalised(RawClip raw) {
  for (RawTrack& t : raw.tracks) {
    if (t.target != TrackTarget::kRotation) continue;
    const std::size_t stride = t.interpolation == Interpolation::kCubicSpline ? 12 : 4;
    const std::size_t at = t.interpolation == Interpolation::kCubicSpline ? 4 : 0;
    for (std::size_t k = 0; k < t.times.size(); ++k) {
      float* q = t.values.data() + k * stride + at;
      const float len = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
      for (int i = 0; i < 4; ++i) q[i] /= len;
    }
  }
  return raw;
}

// A random clip over `joints` joints: tracks on two shared timelines and on private ones, all
// three interpolations, single-key tracks, a repeated key time, rotations with sign flips and
// wide arcs between keys, and some joints animated twice (the later track must win).
RawClip random_clip(std::mt19937& rng, int joints) {
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  const std::vector<float> shared_a = {0.0f, 0.1f, 0.2f, 0.3f, 0.5f, 0.8f, 1.0f};
  const std::vector<float> shared_b = {0.05f, 0.25f, 0.25f, 0.6f, 1.2f};
  RawClip raw;
  raw.name = "random";
  const auto add = [&](TrackTarget target, int joint) {
    RawTrack t;
    t.target = target;
    t.index = joint;
    t.components = target == TrackTarget::kRotation ? 4u : 3u;
    const int pick = static_cast<int>(rng() % 10);
    t.interpolation = pick == 0   ? Interpolation::kStep
                      : pick == 1 ? Interpolation::kCubicSpline
                                  : Interpolation::kLinear;
    const int timeline = static_cast<int>(rng() % 6);
    if (timeline < 3) {
      t.times = shared_a;
    } else if (timeline < 5) {
      t.times = shared_b;
    } else {
      const int keys = 1 + static_cast<int>(rng() % 4);
      for (int k = 0; k < keys; ++k) t.times.push_back(0.3f * static_cast<float>(k) + 0.07f);
    }
    const bool wide = rng() % 3 == 0;
    std::vector<float> prev(4, 0.0f);
    for (std::size_t k = 0; k < t.times.size(); ++k) {
      const auto emit = [&](bool is_value) {
        for (std::uint32_t i = 0; i < t.components; ++i) {
          float v = unit(rng);
          if (target == TrackTarget::kRotation && is_value) {
            // Narrow arcs: small steps from the previous key, sometimes with the sign flipped
            // (same orientation); wide arcs: independent keys.
            if (!wide && k > 0) v = prev[i] + 0.05f * v;
            prev[i] = v;
          }
          t.values.push_back(v);
        }
      };
      if (t.interpolation == Interpolation::kCubicSpline) emit(false);
      emit(true);
      if (t.interpolation == Interpolation::kCubicSpline) emit(false);
      if (target == TrackTarget::kRotation && !wide && rng() % 4 == 0) {
        const std::size_t at =
            t.values.size() - (t.interpolation == Interpolation::kCubicSpline ? 8 : 4);
        for (std::size_t i = 0; i < 4; ++i) t.values[at + i] = -t.values[at + i];
      }
    }
    raw.tracks.push_back(std::move(t));
  };
  for (int j = 0; j < joints; ++j) {
    for (TrackTarget target :
         {TrackTarget::kTranslation, TrackTarget::kRotation, TrackTarget::kScale}) {
      if (rng() % 8 != 0) add(target, j);
    }
  }
  for (int extra = 0; extra < 5; ++extra) {
    const int j = static_cast<int>(rng() % static_cast<unsigned>(joints));
    add(static_cast<TrackTarget>(rng() % 3), j);
  }
  return raw;
}

// Expected pose: rest, then every track in input order (so a later track overwrites).
std::vector<std::vector<double>> reference_pose(const RawClip& raw,
                                                const std::vector<Transform>& rest, double t) {
  std::vector<std::vector<double>> pose;
  for (const Transform& r : rest)
    pose.push_back({r.translation.x, r.translation.y, r.translation.z, r.rotation.x, r.rotation.y,
                    r.rotation.z, r.rotation.w, r.scale.x, r.scale.y, r.scale.z});
  for (const RawTrack& track : raw.tracks) {
    const std::vector<double> v = reference_sample(track, t);
    const std::size_t at = track.target == TrackTarget::kTranslation ? 0
                           : track.target == TrackTarget::kRotation  ? 3
                                                                     : 7;
    std::copy(v.begin(), v.end(), pose[static_cast<std::size_t>(track.index)].begin() + at);
  }
  return pose;
}

// The interpolation of the track that sets component i (0-9: t, r, s) of joint j last; STEP
// when none does.
Interpolation last_interp(const RawClip& raw, int j, int i) {
  const TrackTarget target = i < 3   ? TrackTarget::kTranslation
                             : i < 7 ? TrackTarget::kRotation
                                     : TrackTarget::kScale;
  Interpolation r = Interpolation::kStep;
  for (const RawTrack& t : raw.tracks)
    if (t.index == j && t.target == target) r = t.interpolation;
  return r;
}

TEST(SamplingFastPath, RandomClipsMatchDoublePrecisionReference) {
  std::mt19937 rng(20240611);
  constexpr int kJoints = 13;  // three full batches of four and a padded one
  std::vector<Transform> rest(kJoints);
  for (int j = 0; j < kJoints; ++j) rest[static_cast<std::size_t>(j)].translation.y = 0.5f * j;
  int compared = 0;
  for (int c = 0; c < 20; ++c) {
    const RawClip raw = normalised(random_clip(rng, kJoints));
    auto clip = build_clip(raw, kJoints, {});
    ASSERT_TRUE(clip) << clip.error().to_string();
    SamplingContext context;
    std::vector<Transform> out(kJoints);
    std::vector<double> times;
    for (int f = 0; f <= 80; ++f) times.push_back(0.017 * f);  // forward playback past the end
    for (int s = 0; s < 20; ++s) times.push_back(1.4 * (rng() % 1000) / 1000.0);  // seeks
    times.push_back(0.25);  // exactly on a repeated key time
    for (const double t : times) {
      ASSERT_TRUE(pose_job(*clip, static_cast<float>(t), context, rest, out).run());
      const auto want = reference_pose(raw, rest, static_cast<float>(t));
      for (int j = 0; j < kJoints; ++j) {
        const Transform& o = out[static_cast<std::size_t>(j)];
        const float got[10] = {o.translation.x, o.translation.y, o.translation.z, o.rotation.x,
                               o.rotation.y,    o.rotation.z,    o.rotation.w,    o.scale.x,
                               o.scale.y,       o.scale.z};
        for (int i = 0; i < 10; ++i) {
          // A CUBICSPLINE rotation is normalised after the Hermite sum, whose length can be well
          // below 1 with random tangents: float rounding grows by the inverse of that length.
          const Interpolation interp = last_interp(raw, j, i);
          const bool cubic_rotation = interp == Interpolation::kCubicSpline && i >= 3 && i < 7;
          EXPECT_NEAR(got[i], want[static_cast<std::size_t>(j)][static_cast<std::size_t>(i)],
                      cubic_rotation ? 2e-5 : 2e-6)
              << "clip " << c << " time " << t << " joint " << j << " component " << i
              << " interpolation " << to_string(interp);
          ++compared;
        }
      }
    }
  }
  EXPECT_EQ(compared, 20 * 102 * kJoints * 10);
}

RawTrack linear(TrackTarget target, int joint, std::vector<float> times) {
  RawTrack t;
  t.target = target;
  t.index = joint;
  t.components = target == TrackTarget::kRotation ? 4u : 3u;
  for (std::size_t k = 0; k < times.size(); ++k) {
    for (std::uint32_t i = 0; i < t.components; ++i)
      t.values.push_back(i == 3 ? 1.0f : 0.1f * static_cast<float>(joint + 1));
  }
  t.times = std::move(times);
  return t;
}

TEST(SamplingFastPath, ClipIndexSharesTimelinesAndDropsOverriddenTracks) {
  RawClip raw;
  raw.tracks.push_back(linear(TrackTarget::kRotation, 4, {0.0f, 1.0f}));        // 0
  raw.tracks.push_back(linear(TrackTarget::kTranslation, 2, {0.0f, 1.0f}));     // 1: overridden
  raw.tracks.push_back(linear(TrackTarget::kRotation, 1, {0.0f, 0.5f, 1.0f}));  // 2
  raw.tracks.push_back(linear(TrackTarget::kTranslation, 2, {0.0f, 1.0f}));     // 3
  raw.tracks.push_back(linear(TrackTarget::kRotation, 0, {0.0f, 1.0f}));        // 4
  raw.tracks.back().interpolation = Interpolation::kStep;
  auto built = build_clip(raw, 5, {});
  ASSERT_TRUE(built) << built.error().to_string();
  const Clip& clip = *built;

  ASSERT_EQ(clip.timelines().size(), 2u);
  const std::vector<std::uint32_t> want_timelines{0, 0, 1, 0, 0};
  EXPECT_EQ(
      std::vector<std::uint32_t>(clip.track_timelines().begin(), clip.track_timelines().end()),
      want_timelines);
  EXPECT_EQ(clip.timelines()[1].key_count, 3u);
  EXPECT_EQ(clip.max_joint(), 4);
  EXPECT_EQ(clip.animated_joint_prefix(), 0u);  // joint 0 has no translation track

  // Batches: rotation on timeline 0 (joint 4), rotation on timeline 1 (joint 1), translation
  // (joint 2, from track 3), sorted by joint; the STEP track is elsewhere.
  ASSERT_EQ(clip.linear_batches().size(), 3u);
  EXPECT_EQ(clip.linear_batches()[0].joints[0], 1);
  EXPECT_EQ(clip.linear_batches()[1].joints[0], 2);
  EXPECT_EQ(clip.linear_batches()[1].target, TrackTarget::kTranslation);
  EXPECT_EQ(clip.linear_batches()[2].joints[0], 4);
  for (const Clip::LinearBatch& b : clip.linear_batches()) EXPECT_EQ(b.lanes, 1);
  ASSERT_EQ(clip.other_tracks().size(), 1u);
  EXPECT_EQ(clip.other_tracks()[0], 4u);
  // The translation batch's first key block: x of the four lanes (lane 0 repeated), then y, z.
  const Clip::LinearBatch& tb = clip.linear_batches()[1];
  for (int i = 0; i < 12; ++i)
    EXPECT_FLOAT_EQ(clip.batch_values()[tb.value_begin + static_cast<std::uint32_t>(i)], 0.3f);
}

TEST(SamplingFastPath, FullyAnimatedPrefixStillGivesRestBeyondIt) {
  RawClip raw;
  for (TrackTarget target :
       {TrackTarget::kTranslation, TrackTarget::kRotation, TrackTarget::kScale}) {
    raw.tracks.push_back(linear(target, 0, {0.0f, 1.0f}));
    raw.tracks.push_back(linear(target, 1, {0.0f, 1.0f}));
  }
  auto clip = build_clip(raw, 3, {});
  ASSERT_TRUE(clip);
  EXPECT_EQ(clip->animated_joint_prefix(), 2u);
  std::vector<Transform> rest(3);
  rest[2].translation = vec3(7.0f, 8.0f, 9.0f);
  rest[2].scale = vec3(3.0f);
  // Output starts as garbage: the sampler must write every field.
  std::vector<Transform> out(3);
  for (Transform& t : out) t.translation = t.scale = vec3(-99.0f);
  SamplingContext context;
  ASSERT_TRUE(pose_job(*clip, 0.5f, context, rest, out).run());
  EXPECT_EQ(out[0].translation, vec3(0.1f));
  EXPECT_EQ(out[1].scale, vec3(0.2f));
  EXPECT_EQ(out[2].translation, vec3(7.0f, 8.0f, 9.0f));
  EXPECT_EQ(out[2].scale, vec3(3.0f));
}

quat random_unit(std::mt19937& rng) {
  std::normal_distribution<float> n;
  const quat q = quat_xyzw(n(rng), n(rng), n(rng), n(rng));
  return glm::normalize(q);
}

TEST(BlendingFastPath, UnmaskedEqualsMaskedWithUnitMasks) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-2.0f, 2.0f);
  constexpr std::size_t kJoints = 9;
  std::vector<Transform> rest(kJoints), a(kJoints), b(kJoints), c(kJoints);
  for (auto* pose : {&rest, &a, &b, &c}) {
    for (Transform& t : *pose) {
      t.translation = vec3(u(rng), u(rng), u(rng));
      t.rotation = random_unit(rng);  // any hemisphere: the blend must take the short arc
      t.scale = vec3(1.0f + 0.2f * u(rng));
    }
  }
  const std::vector<float> ones(kJoints, 1.0f);
  const std::vector<float> none;
  constexpr auto kOverride = LayerBlendMode::kOverride;
  constexpr auto kAdditive = LayerBlendMode::kAdditive;
  // 1.0: the whole-pose copy of a full-weight unmasked override; 0.4: a fading bottom layer.
  for (const float bottom : {1.0f, 0.4f}) {
    const BlendingLayer plain[3] = {{kOverride, a, bottom, {}, {}, {}, {}},
                                    {kOverride, b, 0.3f, {}, {}, {}, {}},
                                    {kAdditive, c, 0.5f, {}, {}, {}, {}}};
    const BlendingLayer masked[3] = {{kOverride, a, bottom, ones, {}, {}, {}},
                                     {kOverride, b, 0.3f, ones, {}, {}, {}},
                                     {kAdditive, c, 0.5f, ones, {}, {}, {}}};
    std::vector<Transform> fast(kJoints), slow(kJoints);
    BlendingJob job;
    job.rest = rest;
    job.default_weights = none;
    job.output_weights = {};
    job.layers = plain;
    job.output = fast;
    ASSERT_TRUE(job.run());
    job.layers = masked;
    job.output = slow;
    ASSERT_TRUE(job.run());
    for (std::size_t j = 0; j < kJoints; ++j) {
      for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(fast[j].translation[i], slow[j].translation[i]);
        EXPECT_EQ(fast[j].scale[i], slow[j].scale[i]);
      }
      EXPECT_EQ(fast[j].rotation.x, slow[j].rotation.x);
      EXPECT_EQ(fast[j].rotation.y, slow[j].rotation.y);
      EXPECT_EQ(fast[j].rotation.z, slow[j].rotation.z);
      EXPECT_EQ(fast[j].rotation.w, slow[j].rotation.w);
      EXPECT_NEAR(glm::length(fast[j].rotation), 1.0f, 1e-6f);
    }
  }
}

// LINEAR rotations sample four tracks at a time; every lane must equal the scalar slerp bit for
// bit whatever the arc between its keys: narrow, middle, wide, on the opposite hemisphere or
// antipodal, mixed within one batch.
TEST(SamplingFastPath, FourLaneSlerpEqualsTheScalarOneOnEveryArc) {
  std::mt19937 rng(5);
  constexpr int kJoints = 11;  // two batches of four and one of three
  // Quaternion arcs of half these angles: |cos| 1.0, 0.90, 0.54, 0.02, 0.72 (the middle band),
  // 0.70, 0.99 (far hemisphere), 0.93, 0.12, antipodal (joint 9), 0.63.
  const float angles[kJoints] = {0.05f, 0.9f,   2.0f, 3.1f, 1.534f, 1.6f,
                                 6.0f,  0.752f, 2.9f, 1.2f, 4.5f};
  RawClip raw;
  for (int j = 0; j < kJoints; ++j) {
    const quat a = random_unit(rng);
    // Turning by `angle` about a random axis (beyond 2π the quaternion is on the far hemisphere).
    const quat axis = random_unit(rng);
    const vec3 n = glm::normalize(vec3(axis.x, axis.y, axis.z));
    const float h = 0.5f * angles[j];
    quat b = glm::normalize(
        a * quat_xyzw(n.x * std::sin(h), n.y * std::sin(h), n.z * std::sin(h), std::cos(h)));
    if (j == 9) b = -a;  // antipodal: the same rotation
    RawTrack t;
    t.target = TrackTarget::kRotation;
    t.index = j;
    t.components = 4;
    t.times = {0.0f, 1.0f};
    t.values = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w};
    raw.tracks.push_back(std::move(t));
  }
  auto clip = build_clip(raw, kJoints, {});
  ASSERT_TRUE(clip) << clip.error().to_string();
  // The keys as the clip stores them (normalised): per batch and key, x of the four lanes, then
  // y, z and w.
  std::vector<quat> first(kJoints), second(kJoints);
  ASSERT_EQ(clip->linear_batches().size(), 3u);
  for (const Clip::LinearBatch& batch : clip->linear_batches()) {
    const float* v = clip->batch_values().data() + batch.value_begin;
    for (int lane = 0; lane < batch.lanes; ++lane) {
      const auto j = static_cast<std::size_t>(batch.joints[lane]);
      first[j] = quat_xyzw(v[lane], v[4 + lane], v[8 + lane], v[12 + lane]);
      second[j] = quat_xyzw(v[16 + lane], v[20 + lane], v[24 + lane], v[28 + lane]);
    }
  }
  std::vector<Transform> rest(kJoints), out(kJoints);
  SamplingContext context;
  for (const float t : {0.0f, 0.125f, 0.25f, 0.5f, 0.75f, 0.875f}) {
    ASSERT_TRUE(pose_job(*clip, t, context, rest, out).run());
    for (std::size_t j = 0; j < kJoints; ++j) {
      const quat want = t == 0.0f ? first[j] : slerp_shortest(first[j], second[j], t);
      EXPECT_EQ(out[j].rotation.x, want.x) << "joint " << j << " time " << t;
      EXPECT_EQ(out[j].rotation.y, want.y) << "joint " << j << " time " << t;
      EXPECT_EQ(out[j].rotation.z, want.z) << "joint " << j << " time " << t;
      EXPECT_EQ(out[j].rotation.w, want.w) << "joint " << j << " time " << t;
    }
  }
}

// Into Transform poses the AVX2 sampler takes LINEAR rotation batches up to four at a time, each
// with its own timeline's fraction, and what is left over as a pair or alone: every count of
// batches from one to seven, on two timelines whose fractions differ (one at a key at t = 0.5),
// must give the scalar slerp's bits; the structure-of-arrays form (one batch at a time) too.
TEST(SamplingFastPath, GroupedRotationBatchesEqualTheScalarSlerp) {
  std::mt19937 rng(11);
  for (int batches = 1; batches <= 7; ++batches) {
    // The first `first_count` joints on timeline {0, 1}, the others on {0, 0.5, 2}; the last
    // batch of each timeline may be partial.
    const int joints = 4 * batches - (batches > 1 ? 2 : 1);
    const int first_count = batches > 1 ? 4 * (batches / 2) - 1 : joints;
    RawClip raw;
    for (int j = 0; j < joints; ++j) {
      const quat a = random_unit(rng);
      quat b = random_unit(rng);
      if (j % 3 == 0) b = glm::normalize(a * quat_xyzw(0.1f, 0.05f, 0.0f, 1.0f));  // a narrow arc
      RawTrack t;
      t.target = TrackTarget::kRotation;
      t.index = j;
      t.components = 4;
      t.times =
          j < first_count ? std::vector<float>{0.0f, 1.0f} : std::vector<float>{0.0f, 0.5f, 2.0f};
      for (const float time : t.times) {
        const quat q = time == 0.0f ? a : time == 0.5f ? b : glm::normalize(a * b);
        t.values.insert(t.values.end(), {q.x, q.y, q.z, q.w});
      }
      raw.tracks.push_back(std::move(t));
    }
    auto clip = build_clip(raw, static_cast<std::size_t>(joints), {});
    ASSERT_TRUE(clip) << clip.error().to_string();
    std::size_t rotation_batches = 0;
    for (const Clip::LinearBatch& batch : clip->linear_batches())
      rotation_batches += batch.target == TrackTarget::kRotation ? 1 : 0;
    ASSERT_EQ(rotation_batches, static_cast<std::size_t>(batches));
    const auto n = static_cast<std::size_t>(joints);
    std::vector<Transform> rest(n), out(n);
    std::vector<SoaTransform> soa_rest(soa_blocks(n)), soa_out(soa_blocks(n));
    ASSERT_TRUE(to_soa(rest, soa_rest));
    SamplingContext context, soa_context;
    for (const float t : {0.0f, 0.3f, 0.5f, 0.8f, 1.7f}) {
      const SamplingJob job = pose_job(*clip, t, context, rest, out);
      ASSERT_TRUE(job.run());
      SamplingJob soa_job = job;
      soa_job.context = &soa_context;
      soa_job.rest = {};
      soa_job.output = {};
      soa_job.soa_rest = soa_rest;
      soa_job.soa_output = soa_out;
      soa_job.soa_joints = n;
      ASSERT_TRUE(soa_job.run());
      for (const Clip::LinearBatch& batch : clip->linear_batches()) {
        const auto& times = raw.tracks[static_cast<std::size_t>(batch.joints[0])].times;
        std::size_t key = 0;
        while (key + 1 < times.size() && times[key + 1] <= t) ++key;
        const float f =
            key + 1 < times.size() ? (t - times[key]) / (times[key + 1] - times[key]) : 0.0f;
        const float* v = clip->batch_values().data() + batch.value_begin + 16 * key;
        for (int lane = 0; lane < batch.lanes; ++lane) {
          const auto j = static_cast<std::size_t>(batch.joints[lane]);
          const quat a = quat_xyzw(v[lane], v[4 + lane], v[8 + lane], v[12 + lane]);
          const quat want =
              f == 0.0f
                  ? a
                  : slerp_shortest(
                        a, quat_xyzw(v[16 + lane], v[20 + lane], v[24 + lane], v[28 + lane]), f);
          const Transform soa = soa_get(soa_out, j);
          for (int c = 0; c < 4; ++c) {
            EXPECT_EQ(out[j].rotation[c], want[c])
                << batches << " batches, joint " << j << " time " << t << " component " << c;
            EXPECT_EQ(soa.rotation[c], want[c])
                << batches << " batches, joint " << j << " time " << t << " component " << c;
          }
        }
      }
    }
  }
}

TEST(BlendingFastPath, FourJointBlocksEqualTheScalarBlend) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  constexpr std::size_t kJoints = 11;  // two blocks of four and a tail
  std::vector<Transform> rest(kJoints), a(kJoints), b(kJoints);
  for (std::size_t j = 0; j < kJoints; ++j) {
    a[j].translation = vec3(u(rng), u(rng), u(rng));
    a[j].rotation = random_unit(rng);
    a[j].scale = vec3(1.0f + 0.2f * u(rng));
    b[j].translation = vec3(u(rng), u(rng), u(rng));
    // Narrow arcs, and joint 5 turning far (the wide band of the four-lane slerp).
    const float angle = j == 5 ? 2.5f : 0.3f * u(rng);
    b[j].rotation = glm::normalize(a[j].rotation *
                                   quat_xyzw(std::sin(angle / 2), 0.0f, 0.0f, std::cos(angle / 2)));
    b[j].scale = vec3(1.0f + 0.2f * u(rng));
  }
  const std::vector<float> none;
  const BlendingLayer layers[2] = {{LayerBlendMode::kOverride, a, 1.0f, {}, {}, {}, {}},
                                   {LayerBlendMode::kOverride, b, 0.35f, {}, {}, {}, {}}};
  std::vector<Transform> out(kJoints);
  BlendingJob job;
  job.rest = rest;
  job.default_weights = none;
  job.layers = layers;
  job.output = out;
  ASSERT_TRUE(job.run());
  for (std::size_t j = 0; j < kJoints; ++j) {
    const Transform want = blend_transforms(a[j], b[j], 0.35f);
    for (int i = 0; i < 3; ++i) {
      EXPECT_EQ(out[j].translation[i], want.translation[i]) << j;
      EXPECT_EQ(out[j].scale[i], want.scale[i]) << j;
    }
    EXPECT_EQ(out[j].rotation.x, want.rotation.x) << j;
    EXPECT_EQ(out[j].rotation.y, want.rotation.y) << j;
    EXPECT_EQ(out[j].rotation.z, want.rotation.z) << j;
    EXPECT_EQ(out[j].rotation.w, want.rotation.w) << j;
  }
}

TEST(LocalToModelFastPath, BranchingSkeletonMatchesMatrixProducts) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  // Chains, siblings, a parent far back and a second root.
  const std::vector<std::int16_t> parents{-1, 0, 1, 2, 1, 4, 0, -1, 7, 3, 8};
  std::vector<Transform> local(parents.size());
  for (Transform& t : local) {
    t.translation = vec3(u(rng), u(rng), u(rng));
    t.rotation = random_unit(rng);
    t.scale = vec3(1.0f + 0.3f * u(rng), 1.0f + 0.3f * u(rng), 1.0f + 0.3f * u(rng));
  }
  mat4 root(1.0f);
  root[3] = vec4(1.0f, 2.0f, 3.0f, 1.0f);
  root[0][0] = 2.0f;
  root[1][3] = 0.25f;  // projective root row: carried through
  std::vector<mat4> got(parents.size());
  LocalToModelJob job;
  job.parents = parents;
  job.input = local;
  job.root = root;
  job.output = got;
  ASSERT_TRUE(job.run());
  std::vector<mat4> want(parents.size());
  for (std::size_t i = 0; i < parents.size(); ++i) {
    const mat4& parent = parents[i] < 0 ? root : want[static_cast<std::size_t>(parents[i])];
    want[i] = parent * local[i].to_matrix();
    for (int c = 0; c < 4; ++c)
      for (int r = 0; r < 4; ++r) EXPECT_NEAR(got[i][c][r], want[i][c][r], 2e-5f) << "joint " << i;
  }
}

}  // namespace
}  // namespace critter::anim
