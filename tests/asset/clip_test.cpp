// SPDX-License-Identifier: MIT
#include "critter/asset/clip.h"

#include <gtest/gtest.h>

#include <array>

namespace critter {
namespace {

RawClip valid_clip() {
  RawClip c;
  c.name = "walk";
  c.source_location = "/animations/0";
  RawTrack t;
  t.target = TrackTarget::kTranslation;
  t.index = 1;
  t.components = 3;
  t.times = {0.0f, 0.5f, 1.0f};
  t.values = {0, 0, 0, 1, 0, 0, 2, 0, 0};
  c.tracks.push_back(t);
  RawTrack r;
  r.target = TrackTarget::kRotation;
  r.index = 0;
  r.components = 4;
  r.interpolation = Interpolation::kCubicSpline;
  r.times = {0.0f, 2.0f};
  r.values = {0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0,   // key 0: in, value (0,0,0,2), out
              0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0};  // key 1
  c.tracks.push_back(r);
  RawTrack w;
  w.target = TrackTarget::kWeights;
  w.index = 0;
  w.components = 2;
  w.interpolation = Interpolation::kStep;
  w.times = {0.25f};
  w.values = {0.5f, 1.0f};
  c.tracks.push_back(w);
  return c;
}

const std::array<std::size_t, 1> kMorphCounts{2};

TEST(BuildClip, BuildsFlatPoolsAndDuration) {
  auto clip = build_clip(valid_clip(), 2, kMorphCounts);
  ASSERT_TRUE(clip) << clip.error().to_string();
  EXPECT_EQ(clip->name(), "walk");
  EXPECT_FLOAT_EQ(clip->duration(), 2.0f);
  ASSERT_EQ(clip->tracks().size(), 3u);
  EXPECT_EQ(clip->times().size(), 6u);
  const Track& rot = clip->tracks()[1];
  EXPECT_EQ(rot.stride(), 12u);
  auto v = clip->track_values(rot);
  ASSERT_EQ(v.size(), 24u);
  EXPECT_FLOAT_EQ(v[7], 1.0f);  // (0,0,0,2) normalised
  EXPECT_FLOAT_EQ(v[17], 1.0f);
  EXPECT_EQ(clip->track_times(clip->tracks()[2]).front(), 0.25f);
}

TEST(BuildClip, EmptyClipHasZeroDuration) {
  RawClip c;
  auto clip = build_clip(c, 1, {});
  ASSERT_TRUE(clip);
  EXPECT_EQ(clip->duration(), 0.0f);
}

TEST(BuildClip, EqualConsecutiveTimesAreAccepted) {
  RawClip c = valid_clip();
  c.tracks[0].times = {0.0f, 0.5f, 0.5f};
  EXPECT_TRUE(build_clip(c, 2, kMorphCounts));
}

struct Breaker {
  const char* name;
  void (*breaks)(RawClip&);
  ErrorCode code;
  const char* location;
};

class BuildClipValidity : public ::testing::TestWithParam<Breaker> {};

TEST_P(BuildClipValidity, ReportsTheBrokenRule) {
  RawClip c = valid_clip();
  c.tracks[0].source_location = "/animations/0/channels/0";
  GetParam().breaks(c);
  auto clip = build_clip(c, 2, kMorphCounts, "x.gltf");
  ASSERT_FALSE(clip);
  EXPECT_EQ(clip.error().code, GetParam().code) << clip.error().to_string();
  EXPECT_EQ(clip.error().location, GetParam().location) << clip.error().to_string();
  EXPECT_EQ(clip.error().path, "x.gltf");
}

INSTANTIATE_TEST_SUITE_P(
    Rules, BuildClipValidity,
    ::testing::Values(
        Breaker{"JointOutOfRange", [](RawClip& c) { c.tracks[0].index = 2; },
                ErrorCode::kOutOfRange, "/animations/0/channels/0"},
        Breaker{"NegativeJoint", [](RawClip& c) { c.tracks[0].index = -1; }, ErrorCode::kOutOfRange,
                "/animations/0/channels/0"},
        Breaker{"WrongComponents", [](RawClip& c) { c.tracks[1].components = 3; },
                ErrorCode::kInvalid, "/animations/0/tracks/1"},
        Breaker{"NoKeys",
                [](RawClip& c) {
                  c.tracks[0].times.clear();
                  c.tracks[0].values.clear();
                },
                ErrorCode::kInvalid, "/animations/0/channels/0"},
        Breaker{"ValueCount", [](RawClip& c) { c.tracks[0].values.pop_back(); },
                ErrorCode::kInvalid, "/animations/0/channels/0"},
        Breaker{"DecreasingTime", [](RawClip& c) { c.tracks[0].times[2] = 0.1f; },
                ErrorCode::kInvalid, "/animations/0/channels/0"},
        Breaker{"NegativeTime", [](RawClip& c) { c.tracks[0].times[0] = -1.0f; },
                ErrorCode::kInvalid, "/animations/0/channels/0"},
        Breaker{"NanTime",
                [](RawClip& c) { c.tracks[0].times[1] = std::numeric_limits<float>::quiet_NaN(); },
                ErrorCode::kInvalid, "/animations/0/channels/0"},
        Breaker{"InfValue",
                [](RawClip& c) { c.tracks[0].values[4] = std::numeric_limits<float>::infinity(); },
                ErrorCode::kInvalid, "/animations/0/channels/0"},
        Breaker{"ZeroRotation", [](RawClip& c) { c.tracks[1].values[7] = 0.0f; },
                ErrorCode::kInvalid, "/animations/0/tracks/1"},
        Breaker{"WeightsMeshOutOfRange", [](RawClip& c) { c.tracks[2].index = 1; },
                ErrorCode::kOutOfRange, "/animations/0/tracks/2"},
        Breaker{"WeightsCountMismatch",
                [](RawClip& c) {
                  c.tracks[2].components = 1;
                  c.tracks[2].values = {0.5f};
                },
                ErrorCode::kInvalid, "/animations/0/tracks/2"}),
    [](const auto& p) { return std::string(p.param.name); });

}  // namespace
}  // namespace critter
