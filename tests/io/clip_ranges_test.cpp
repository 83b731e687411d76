// SPDX-License-Identifier: MIT
// Named frame ranges: the command-line syntax (exact error texts) and cutting a clip, checked
// against hand-computed values and against sampling the uncut clip.
#include "critter/io/clip_ranges.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "critter/anim/sampling_job.h"

namespace critter {
namespace {

std::string parse_error(std::string_view text) {
  const auto r = io::parse_clip_ranges(text);
  if (r) return "parsed";
  EXPECT_EQ(r.error().code, ErrorCode::kUsage);
  return r.error().to_string();
}

TEST(ClipRangesParse, ReadsNamesAndFrames) {
  const auto r = io::parse_clip_ranges(" stand:0-79, lay : 162 - 166,walk:168-187,half:1.5-2.25");
  ASSERT_TRUE(r) << r.error().to_string();
  ASSERT_EQ(r->size(), 4u);
  EXPECT_EQ((*r)[0], (io::ClipRange{"stand", 0.0, 79.0}));
  EXPECT_EQ((*r)[1], (io::ClipRange{"lay", 162.0, 166.0}));
  EXPECT_EQ((*r)[2], (io::ClipRange{"walk", 168.0, 187.0}));
  EXPECT_EQ((*r)[3], (io::ClipRange{"half", 1.5, 2.25}));
}

TEST(ClipRangesParse, NameMayHoldColonsAndEqualFramesAreAllowed) {
  const auto r = io::parse_clip_ranges("mod:walk:3-3");
  ASSERT_TRUE(r) << r.error().to_string();
  ASSERT_EQ(r->size(), 1u);
  EXPECT_EQ((*r)[0], (io::ClipRange{"mod:walk", 3.0, 3.0}));
}

TEST(ClipRangesParse, ErrorsNameTheEntryAndTheRule) {
  EXPECT_EQ(parse_error("stand:0-79,walk:168-"), "--clips: entry 2 'walk:168-': missing end frame");
  EXPECT_EQ(parse_error("walk:-187"), "--clips: entry 1 'walk:-187': missing start frame");
  EXPECT_EQ(parse_error("walk 168-187"),
            "--clips: entry 1 'walk 168-187': missing ':' between clip name and frame range");
  EXPECT_EQ(parse_error(":1-2"), "--clips: entry 1 ':1-2': missing clip name");
  EXPECT_EQ(parse_error("walk:"), "--clips: entry 1 'walk:': missing frame range");
  EXPECT_EQ(parse_error("walk:168"),
            "--clips: entry 1 'walk:168': missing '-' between start and end frame");
  EXPECT_EQ(parse_error("walk:x1-5"),
            "--clips: entry 1 'walk:x1-5': start frame 'x1' is not a non-negative decimal number");
  EXPECT_EQ(parse_error("walk:1-inf"),
            "--clips: entry 1 'walk:1-inf': end frame 'inf' is not a non-negative decimal number");
  EXPECT_EQ(parse_error("walk:1e3-2e3"),
            "--clips: entry 1 'walk:1e3-2e3': start frame '1e3' is not a non-negative decimal "
            "number");
  EXPECT_EQ(parse_error("walk:187-168"),
            "--clips: entry 1 'walk:187-168': end frame 168 is before start frame 187");
  EXPECT_EQ(parse_error("a:1-2,b:3-4,a:5-6"),
            "--clips: entry 3 'a:5-6': clip name 'a' repeats entry 1");
  EXPECT_EQ(parse_error("a:1-2,,b:3-4"), "--clips: entry 2 '': empty entry");
  EXPECT_EQ(parse_error("a:1-2,"), "--clips: entry 2 '': empty entry");
  EXPECT_EQ(parse_error("  "),
            "--clips: no clip ranges (expected name:start-end[,name:start-end...])");
}

TEST(ClipRangesParse, OptionNameIsThePath) {
  const auto r = io::parse_clip_ranges("walk", "clips");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().path, "clips");
}

TEST(ClipRangesParse, FormatRoundTrips) {
  const std::vector<io::ClipRange> ranges = {{"stand", 0, 79}, {"half", 1.5, 2.25}};
  EXPECT_EQ(io::format_clip_ranges(ranges), "stand:0-79,half:1.5-2.25");
  const auto back = io::parse_clip_ranges(io::format_clip_ranges(ranges));
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, ranges);
}

RawTrack track(TrackTarget target, Interpolation interp, std::uint32_t components,
               std::vector<float> times, std::vector<float> values, std::int32_t index = 0) {
  RawTrack t;
  t.target = target;
  t.index = index;
  t.interpolation = interp;
  t.components = components;
  t.times = std::move(times);
  t.values = std::move(values);
  return t;
}

RawClip one_track_clip(RawTrack t) {
  RawClip c;
  c.name = "long";
  c.tracks.push_back(std::move(t));
  return c;
}

void expect_floats(const std::vector<float>& got, const std::vector<float>& want, float tol) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], tol) << "at " << i;
}

TEST(SplitClip, LinearTranslationGetsInterpolatedBoundaryKeysAndRebasedTimes) {
  // x: 0 at 0 s, 10 at 1 s, 40 at 2 s. Frames 5-15 at 10 fps = 0.5 s .. 1.5 s:
  // 5 at the start (half of 0..10), the key 10 at 0.5 s, 25 at the end (half of 10..40).
  const RawClip src = one_track_clip(track(TrackTarget::kTranslation, Interpolation::kLinear, 3,
                                           {0, 1, 2}, {0, 0, 0, 10, 1, 0, 40, 2, 0}));
  const std::vector<io::ClipRange> ranges = {{"mid", 5, 15}};
  const auto cut = io::split_clip(src, 10.0, ranges);
  ASSERT_TRUE(cut) << cut.error().to_string();
  ASSERT_EQ(cut->size(), 1u);
  const RawClip& c = (*cut)[0];
  EXPECT_EQ(c.name, "mid");
  ASSERT_EQ(c.tracks.size(), 1u);
  expect_floats(c.tracks[0].times, {0.0f, 0.5f, 1.0f}, 1e-6f);
  expect_floats(c.tracks[0].values, {5, 0.5f, 0, 10, 1, 0, 25, 1.5f, 0}, 1e-5f);
  EXPECT_EQ(c.tracks[0].interpolation, Interpolation::kLinear);
  EXPECT_EQ(c.tracks[0].target, TrackTarget::kTranslation);
}

TEST(SplitClip, RotationBoundariesSlerp) {
  // Identity at 0 s, 90 degrees about +Y at 1 s; cut 0.25 s .. 0.75 s (fps 4: frames 1-3).
  const float s45 = std::sqrt(0.5f);
  const RawClip src = one_track_clip(track(TrackTarget::kRotation, Interpolation::kLinear, 4,
                                           {0, 1}, {0, 0, 0, 1, 0, s45, 0, s45}));
  const std::vector<io::ClipRange> ranges = {{"turn", 1, 3}};
  const auto cut = io::split_clip(src, 4.0, ranges);
  ASSERT_TRUE(cut) << cut.error().to_string();
  const RawTrack& t = (*cut)[0].tracks[0];
  expect_floats(t.times, {0.0f, 0.5f}, 1e-6f);
  // 22.5 and 67.5 degrees about +Y: (0, sin(a/2), 0, cos(a/2)).
  const float a0 = glm::radians(22.5f) / 2, a1 = glm::radians(67.5f) / 2;
  expect_floats(t.values, {0, std::sin(a0), 0, std::cos(a0), 0, std::sin(a1), 0, std::cos(a1)},
                1e-5f);
}

TEST(SplitClip, StepHoldsAndWeightsLerp) {
  RawClip src;
  src.tracks.push_back(
      track(TrackTarget::kScale, Interpolation::kStep, 3, {0, 1, 2}, {1, 1, 1, 2, 2, 2, 3, 3, 3}));
  src.tracks.push_back(
      track(TrackTarget::kWeights, Interpolation::kLinear, 2, {0, 2}, {0, 1, 1, 0}));
  const std::vector<io::ClipRange> ranges = {{"a", 0.5, 1.5}};
  const auto cut = io::split_clip(src, 1.0, ranges);
  ASSERT_TRUE(cut) << cut.error().to_string();
  const RawClip& c = (*cut)[0];
  expect_floats(c.tracks[0].times, {0.0f, 0.5f, 1.0f}, 1e-6f);
  expect_floats(c.tracks[0].values, {1, 1, 1, 2, 2, 2, 2, 2, 2}, 0.0f);
  expect_floats(c.tracks[1].times, {0.0f, 1.0f}, 1e-6f);
  expect_floats(c.tracks[1].values, {0.25f, 0.75f, 0.75f, 0.25f}, 1e-6f);
}

TEST(SplitClip, CubicBoundaryKeysCarryTheSlope) {
  // One segment 0 s .. 2 s: value 0 -> 4, out-tangent 2, in-tangent 0. At 0.5 s (s = 1/4):
  // p = h10*2*2 + h01*4 = 0.140625*4 + 0.15625*4 = 1.1875;
  // dp/dt = (d10*2*2 + d01*4) / 2 = (0.1875*4 + 1.125*4) / 2 = 2.625.
  const RawClip src = one_track_clip(
      track(TrackTarget::kWeights, Interpolation::kCubicSpline, 1, {0, 2}, {0, 0, 2, 0, 4, 0}));
  const std::vector<io::ClipRange> ranges = {{"c", 0.5, 1.5}};
  const auto cut = io::split_clip(src, 1.0, ranges);
  ASSERT_TRUE(cut) << cut.error().to_string();
  const RawTrack& t = (*cut)[0].tracks[0];
  expect_floats(t.times, {0.0f, 1.0f}, 1e-6f);
  ASSERT_EQ(t.values.size(), 6u);
  EXPECT_NEAR(t.values[0], 2.625f, 1e-5f);  // in-tangent
  EXPECT_NEAR(t.values[1], 1.1875f, 1e-5f);
  EXPECT_NEAR(t.values[2], 2.625f, 1e-5f);  // out-tangent
}

// Samples a one-joint clip (T, R, S tracks on joint 0) at `time`.
Transform sample(const Clip& clip, float time) {
  anim::SamplingContext ctx;
  std::vector<Transform> rest(1), out(1);
  const std::vector<std::uint32_t> offsets{0};
  anim::SamplingJob job;
  job.clip = &clip;
  job.time = time;
  job.context = &ctx;
  job.rest = rest;
  job.weight_offsets = offsets;
  job.output = out;
  EXPECT_TRUE(job.run());
  return out[0];
}

TEST(SplitClip, CutClipSamplesLikeTheSourceShifted) {
  // Every interpolation at once, ranges on and between keys.
  RawClip src;
  src.tracks.push_back(track(TrackTarget::kTranslation, Interpolation::kCubicSpline, 3, {0, 1, 3},
                             {0, 0, 0, 1,  2, 3, 1, -1, 0,  //
                              0, 1, 0, 4,  0, 1, 2, 2,  2,  //
                              1, 1, 1, -2, 5, 0, 0, 0,  0}));
  const float s = std::sqrt(0.5f);
  src.tracks.push_back(track(TrackTarget::kRotation, Interpolation::kLinear, 4, {0.5f, 1.5f, 2.5f},
                             {0, 0, 0, 1, s, 0, 0, s, 0, 0, 1, 0}));
  src.tracks.push_back(
      track(TrackTarget::kScale, Interpolation::kStep, 3, {0, 2}, {1, 1, 1, 2, 3, 4}));
  const auto whole = build_clip(src, 1, {});
  ASSERT_TRUE(whole) << whole.error().to_string();
  const double fps = 24.0;
  const std::vector<io::ClipRange> ranges = {{"a", 6, 30}, {"b", 24, 24}, {"c", 13, 71}};
  const auto cut = io::split_clip(src, fps, ranges);
  ASSERT_TRUE(cut) << cut.error().to_string();
  for (std::size_t r = 0; r < ranges.size(); ++r) {
    const auto clip = build_clip((*cut)[r], 1, {});
    ASSERT_TRUE(clip) << clip.error().to_string();
    const float start = static_cast<float>(ranges[r].start_frame / fps);
    const float length = static_cast<float>((ranges[r].end_frame - ranges[r].start_frame) / fps);
    EXPECT_NEAR(clip->duration(), length, 1e-6f);
    for (int i = 0; i <= 16; ++i) {
      const float t = length * static_cast<float>(i) / 16.0f;
      const Transform a = sample(*clip, t);
      const Transform b = sample(*whole, start + t);
      for (int k = 0; k < 3; ++k) {
        EXPECT_NEAR(a.translation[k], b.translation[k], 2e-5f) << "range " << r << " t " << t;
        EXPECT_NEAR(a.scale[k], b.scale[k], 1e-6f) << "range " << r << " t " << t;
      }
      EXPECT_NEAR(std::abs(glm::dot(a.rotation, b.rotation)), 1.0f, 1e-5f)
          << "range " << r << " t " << t;
    }
  }
}

TEST(SplitClip, ZeroLengthRangeGivesOneKey) {
  const RawClip src = one_track_clip(
      track(TrackTarget::kTranslation, Interpolation::kLinear, 3, {0, 1}, {0, 0, 0, 2, 4, 6}));
  const std::vector<io::ClipRange> ranges = {{"pose", 5, 5}};
  const auto cut = io::split_clip(src, 10.0, ranges);
  ASSERT_TRUE(cut);
  expect_floats((*cut)[0].tracks[0].times, {0.0f}, 0.0f);
  expect_floats((*cut)[0].tracks[0].values, {1, 2, 3}, 1e-6f);
}

TEST(SplitClip, RangePastTheLastKeyHoldsAndWarns) {
  const RawClip src = one_track_clip(
      track(TrackTarget::kTranslation, Interpolation::kLinear, 3, {0, 1}, {0, 0, 0, 2, 4, 6}));
  const std::vector<io::ClipRange> ranges = {{"late", 5, 20}};
  Diagnostics diag;
  const auto cut = io::split_clip(src, 10.0, ranges, "m.b3d", &diag);
  ASSERT_TRUE(cut);
  expect_floats((*cut)[0].tracks[0].times, {0.0f, 0.5f, 1.5f}, 1e-6f);
  expect_floats((*cut)[0].tracks[0].values, {1, 2, 3, 2, 4, 6, 2, 4, 6}, 1e-6f);
  ASSERT_EQ(diag.size(), 1u);
  EXPECT_EQ(diag.items()[0].to_string(),
            "m.b3d:clips/0 'late': warning: frames 5-20 end after the last key (frame 10); the "
            "last key's values are held");
}

TEST(SplitClip, RejectsBadInput) {
  const RawClip src = one_track_clip(
      track(TrackTarget::kTranslation, Interpolation::kLinear, 3, {0, 1}, {0, 0, 0, 2, 4, 6}));
  const std::vector<io::ClipRange> ok = {{"a", 0, 1}};
  EXPECT_EQ(io::split_clip(src, 0.0, ok).error().code, ErrorCode::kUsage);
  EXPECT_EQ(io::split_clip(src, std::nan(""), ok).error().code, ErrorCode::kUsage);
  const std::vector<io::ClipRange> backwards = {{"a", 5, 1}};
  EXPECT_EQ(io::split_clip(src, 10.0, backwards).error().to_string(),
            "<memory>:clips/0 'a': frame range 5-1 must satisfy 0 <= start <= end");
  const std::vector<io::ClipRange> twice = {{"a", 0, 1}, {"a", 1, 2}};
  EXPECT_EQ(io::split_clip(src, 10.0, twice).error().to_string(),
            "<memory>:clips/1 'a': clip name repeats range 0");
  const std::vector<io::ClipRange> unnamed = {{"", 0, 1}};
  EXPECT_EQ(io::split_clip(src, 10.0, unnamed).error().code, ErrorCode::kUsage);
  RawClip broken = src;
  broken.tracks[0].values.pop_back();
  EXPECT_EQ(io::split_clip(broken, 10.0, ok).error().code, ErrorCode::kInvalid);
}

// Twice as long: times double, values stay, cubic slopes per second halve.
TEST(ScaleClipTime, StretchesTimesAndScalesCubicTangents) {
  RawClip clip = one_track_clip(
      track(TrackTarget::kWeights, Interpolation::kCubicSpline, 1, {0, 2}, {1, 0, 2, 3, 4, 5}));
  clip.tracks.push_back(
      track(TrackTarget::kWeights, Interpolation::kLinear, 1, {0.5f, 1.5f}, {0.25f, 0.75f}));
  io::scale_clip_time(clip, 2.0);
  expect_floats(clip.tracks[0].times, {0.0f, 4.0f}, 1e-6f);
  expect_floats(clip.tracks[0].values, {0.5f, 0.0f, 1.0f, 1.5f, 4.0f, 2.5f}, 1e-6f);
  expect_floats(clip.tracks[1].times, {1.0f, 3.0f}, 1e-6f);
  expect_floats(clip.tracks[1].values, {0.25f, 0.75f}, 1e-6f);
}

}  // namespace
}  // namespace critter
