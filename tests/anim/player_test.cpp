// SPDX-License-Identifier: MIT
// Player (playback.md): sampling through the playhead, crossfades (live, frozen, interrupted,
// target completing), cancel/stop, completion and interrupt reporting with on_done callbacks, and
// morph weights (animation, crossfade, overrides). Clips are translation-only or simple rotations
// so the expected poses are computed by hand.
#include "critter/anim/player.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "critter/anim/transform_blend.h"
#include "critter/asset/model.h"
#include "critter/io/load.h"

#include "support/math_helpers.h"
#include "support/raw_track.h"
#include "support/test_models.h"

namespace critter::anim {
namespace {

using critter::testing::axis_angle;
using critter::testing::kPi;

using Mode = PlaybackMode;
constexpr float kTol = 1e-5f;

// Angle (radians) of a rotation about +Z.
float z_angle(const quat& q) {
  return 2.0f * std::atan2(q.z, q.w);
}

using critter::testing::raw_track;

// Two joints: root at the origin, child at (0, 1, 0). Meshes: 0 without morphs, 1 with two
// targets (defaults 0.25, 0), 2 with three (0.1, 0.2, 0.3). Clips:
//   0 "slide" (2 s): root x = t; mesh 1 weights go from (0, 0) to (1, 0.5).
//   1 "lift"  (1 s): root y = 4t; child rotates about Z from 0 to 90 degrees.
//   2 "short" (0.5 s): child y = 1 + 4t (1 to 3).
Model make_model() {
  RawModel raw;
  raw.name = "player-test";
  raw.format = "code";
  raw.skeleton.joints = critter::testing::two_joint_rig();
  raw.meshes.push_back(critter::testing::morph_triangle("plain", {}));
  raw.meshes.push_back(critter::testing::morph_triangle("face", {0.25f, 0.0f}));
  raw.meshes.push_back(critter::testing::morph_triangle("blob", {0.1f, 0.2f, 0.3f}));

  RawClip slide;
  slide.name = "slide";
  slide.tracks.push_back(raw_track(TrackTarget::kTranslation, 0, 3, {0, 2}, {0, 0, 0, 2, 0, 0}));
  slide.tracks.push_back(raw_track(TrackTarget::kWeights, 1, 2, {0, 2}, {0, 0, 1, 0.5f}));
  const quat q90 = axis_angle(vec3(0, 0, 1), kPi / 2);
  RawClip lift;
  lift.name = "lift";
  lift.tracks.push_back(raw_track(TrackTarget::kTranslation, 0, 3, {0, 1}, {0, 0, 0, 0, 4, 0}));
  lift.tracks.push_back(
      raw_track(TrackTarget::kRotation, 1, 4, {0, 1}, {0, 0, 0, 1, q90.x, q90.y, q90.z, q90.w}));
  RawClip short_clip;
  short_clip.name = "short";
  short_clip.tracks.push_back(
      raw_track(TrackTarget::kTranslation, 1, 3, {0, 0.5f}, {0, 1, 0, 0, 3, 0}));
  raw.clips = {slide, lift, short_clip};
  auto model = build_model(std::move(raw));
  EXPECT_TRUE(model) << model.error().to_string();
  return std::move(*model);
}

constexpr int kSlide = 0;
constexpr int kLift = 1;
constexpr int kShort = 2;

class PlayerTest : public ::testing::Test {
 protected:
  Model model_ = make_model();

  static vec3 root(const Player& p) { return p.local_pose()[0].translation; }
  static vec3 child(const Player& p) { return p.local_pose()[1].translation; }

  static int count(const Player& p, RecordKind kind) {
    int n = 0;
    for (const PlayerRecord& r : p.records()) n += r.kind == kind;
    return n;
  }
};

PlayOptions blend(float seconds, BlendCurve curve = BlendCurve::kLinear) {
  PlayOptions o;
  o.blend_duration = seconds;
  o.curve = curve;
  return o;
}

TEST_F(PlayerTest, StartsAtRestWithDefaultWeights) {
  Player p(model_);
  ASSERT_EQ(p.local_pose().size(), 2u);
  EXPECT_EQ(root(p), vec3(0, 0, 0));
  EXPECT_EQ(child(p), vec3(0, 1, 0));
  EXPECT_EQ(p.weights().size(), 5u);
  ASSERT_EQ(p.morph_weights().size(), 2u);  // first mesh with targets is mesh 1
  EXPECT_FLOAT_EQ(p.morph_weights()[0], 0.25f);
  EXPECT_TRUE(p.morph_weights(0).empty());
  EXPECT_EQ(p.morph_weights(2).size(), 3u);
  EXPECT_TRUE(p.morph_weights(3).empty());
  EXPECT_EQ(p.clip(), nullptr);
  EXPECT_FLOAT_EQ(p.cursor(), 0.0f);
  EXPECT_FLOAT_EQ(p.rate(), 1.0f);
  EXPECT_FALSE(p.playing());
  p.update(1.0f);  // nothing to play: the rest pose stays
  EXPECT_EQ(root(p), vec3(0, 0, 0));
}

TEST_F(PlayerTest, PlayRejectsBadArgumentsAndKeepsTheCurrentPlay) {
  Player p(model_);
  ASSERT_TRUE(p.play(kSlide, Mode::kLoopForward));
  p.update(0.5f);
  EXPECT_FALSE(p.play(3, Mode::kLoopForward));
  EXPECT_FALSE(p.play(-1, Mode::kLoopForward));
  EXPECT_FALSE(p.play(kLift, static_cast<Mode>(7)));
  PlayOptions o;
  o.start_phase = 1.5f;
  EXPECT_FALSE(p.play(kLift, Mode::kLoopForward, o));
  o = {};
  o.end_phase = -0.1f;
  EXPECT_FALSE(p.play(kLift, Mode::kLoopForward, o));
  o = {};
  o.rate = std::nanf("");
  auto r = p.play(kLift, Mode::kLoopForward, o);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kUsage);
  EXPECT_EQ(r.error().location, "options.rate");
  o = {};
  o.offset = INFINITY;
  EXPECT_FALSE(p.play(kLift, Mode::kLoopForward, o));
  o = {};
  o.blend_duration = std::nanf("");
  EXPECT_FALSE(p.play(kLift, Mode::kLoopForward, o));

  EXPECT_EQ(p.clip(), &model_.clips()[kSlide]);
  p.update(0.25f);
  EXPECT_NEAR(root(p).x, 0.75f, kTol);
}

TEST_F(PlayerTest, PlayRejectsAClipBuiltForAnotherSkeleton) {
  RawClip raw;
  raw.name = "alien";
  raw.tracks.push_back(raw_track(TrackTarget::kTranslation, 5, 3, {0, 1}, {0, 0, 0, 1, 1, 1}));
  auto alien = build_clip(raw, 8, {});
  ASSERT_TRUE(alien);
  Player p(model_);
  EXPECT_FALSE(p.play(*alien, Mode::kLoopForward));
  EXPECT_EQ(p.clip(), nullptr);
}

TEST_F(PlayerTest, SamplesTheClipAtTheCursor) {
  Player p(model_);
  ASSERT_TRUE(p.play(kSlide, Mode::kLoopForward));
  p.update(0.5f);
  EXPECT_NEAR(root(p).x, 0.5f, kTol);
  EXPECT_EQ(child(p), vec3(0, 1, 0));  // no track: rest value
  ASSERT_EQ(p.morph_weights().size(), 2u);
  EXPECT_NEAR(p.morph_weights()[0], 0.25f, kTol);  // track replaces the base weights
  EXPECT_NEAR(p.morph_weights()[1], 0.125f, kTol);
  EXPECT_NEAR(p.morph_weights(2)[2], 0.3f, kTol);  // no track for mesh 2: defaults
  p.update(2.0f);                                  // 2.5 s wraps to 0.5 s
  EXPECT_NEAR(root(p).x, 0.5f, kTol);
  EXPECT_NEAR(p.clip_time(), 0.5f, kTol);
}

// The Player trusts its own pose buffers (SamplingJob::output_untouched), so a channel that one
// clip drives and the next does not must still go back to rest: after a clip change, and after a
// compact clip of the model sampled into the same pose between two runs of an exact clip from
// outside the model, and the other way round.
TEST_F(PlayerTest, AChannelTheNextClipDoesNotDriveGoesBackToRest) {
  Player p(model_);
  ASSERT_TRUE(p.play(kShort, Mode::kLoopForward));
  p.update(0.25f);
  EXPECT_NEAR(child(p).y, 2.0f, kTol);
  ASSERT_TRUE(p.play(kLift, Mode::kLoopForward));  // drives the root and the child's rotation
  p.update(0.25f);
  p.update(0.25f);
  EXPECT_EQ(child(p), vec3(0, 1, 0));

  auto compact = with_compact_clips(make_model(), 1e-4f, nullptr);
  ASSERT_TRUE(compact) << compact.error().to_string();
  RawClip raw;
  raw.name = "outside";
  const quat q = axis_angle(vec3(1, 0, 0), 0.5f);
  raw.tracks.push_back(
      raw_track(TrackTarget::kRotation, 1, 4, {0, 1}, {0, 0, 0, 1, q.x, q.y, q.z, q.w}));
  const std::vector<std::size_t> morphs{0, 2, 3};  // the model's meshes' target counts
  auto outside = build_clip(raw, 2, morphs);
  ASSERT_TRUE(outside) << outside.error().to_string();
  Player c(*compact);
  ASSERT_TRUE(c.play(*outside, Mode::kLoopForward));  // exact: not one of the model's clips
  c.update(0.25f);
  EXPECT_EQ(child(c), vec3(0, 1, 0));
  ASSERT_TRUE(c.play(kShort, Mode::kLoopForward));  // compact, into the same pose
  c.update(0.25f);
  EXPECT_NEAR(child(c).y, 2.0f, 1e-3f);
  ASSERT_TRUE(c.play(*outside, Mode::kLoopForward));
  c.update(0.25f);
  EXPECT_EQ(child(c), vec3(0, 1, 0));
  ASSERT_NE(c.local_pose()[1].rotation, quat(1, 0, 0, 0));
  ASSERT_TRUE(c.play(kShort, Mode::kLoopForward));  // the outside clip's rotation goes too
  c.update(0.25f);
  EXPECT_EQ(c.local_pose()[1].rotation, model_.skeleton().rest_pose()[1].rotation);
}

TEST_F(PlayerTest, RangeAndReverseRange) {
  Player p(model_);
  PlayOptions o;
  o.start_phase = 0.25f;
  o.end_phase = 0.75f;
  ASSERT_TRUE(p.play(kSlide, Mode::kOnceForward, o));
  p.update(0.0f);
  EXPECT_NEAR(root(p).x, 0.5f, kTol);  // starts at 0.25 D
  p.update(0.5f);
  EXPECT_NEAR(root(p).x, 1.0f, kTol);
  p.update(5.0f);
  EXPECT_NEAR(root(p).x, 1.5f, kTol);  // ends at 0.75 D

  o.start_phase = 0.75f;
  o.end_phase = 0.25f;
  ASSERT_TRUE(p.play(kSlide, Mode::kOnceForward, o));
  p.update(0.25f);
  EXPECT_NEAR(root(p).x, 1.25f, kTol);  // clip time runs backward from 1.5
}

TEST_F(PlayerTest, OnceHoldsTheLastPoseAndCompletesOnce) {
  Player p(model_);
  ASSERT_TRUE(p.play(kSlide, Mode::kOnceForward));
  p.update(1.5f);
  EXPECT_TRUE(p.playing());
  p.update(1.5f);
  EXPECT_FALSE(p.playing());
  EXPECT_NEAR(root(p).x, 2.0f, kTol);
  EXPECT_NEAR(p.morph_weights()[0], 1.0f, kTol);
  p.update(1.0f);
  EXPECT_NEAR(root(p).x, 2.0f, kTol);
  EXPECT_EQ(count(p, RecordKind::kCompleted), 1);
  EXPECT_EQ(count(p, RecordKind::kInterrupted), 0);
  ASSERT_EQ(p.records().size(), 1u);
  EXPECT_EQ(p.records()[0].clip, &model_.clips()[kSlide]);
}

TEST_F(PlayerTest, PingPongAndBackwardPoses) {
  Player p(model_);
  ASSERT_TRUE(p.play(kSlide, Mode::kOncePingPong));
  p.update(3.0f);  // 0.75 of 2L: back at clip time 1
  EXPECT_NEAR(root(p).x, 1.0f, kTol);
  EXPECT_NEAR(p.cursor(), 0.5f, kTol);
  p.update(2.0f);
  EXPECT_NEAR(root(p).x, 0.0f, kTol);  // ends on u = 0
  EXPECT_FALSE(p.playing());

  PlayOptions o;
  o.offset = 0.25f;
  ASSERT_TRUE(p.play(kSlide, Mode::kLoopBackward, o));
  p.update(0.0f);
  EXPECT_NEAR(root(p).x, 1.5f, kTol);  // 0.75 D
  p.set_cursor(2.0f);
  p.update(0.0f);
  EXPECT_NEAR(root(p).x, 2.0f, kTol);  // the last frame
}

TEST_F(PlayerTest, RateZeroAndNegativeRatePauseInPlace) {
  Player p(model_);
  PlayOptions o;
  o.rate = -1.0f;
  ASSERT_TRUE(p.play(kSlide, Mode::kLoopForward, o));
  EXPECT_FLOAT_EQ(p.rate(), 0.0f);
  p.update(0.7f);
  EXPECT_NEAR(root(p).x, 0.0f, kTol);
  p.set_rate(2.0f);
  p.update(0.25f);
  EXPECT_NEAR(root(p).x, 0.5f, kTol);
  p.set_rate(0.0f);
  p.update(1.0f);
  EXPECT_NEAR(root(p).x, 0.5f, kTol);
  EXPECT_TRUE(p.records().empty());
}

TEST_F(PlayerTest, NegativeDtChangesNothing) {
  Player p(model_);
  ASSERT_TRUE(p.play(kSlide, Mode::kLoopForward));
  p.update(0.5f);
  p.update(-0.3f);
  EXPECT_NEAR(root(p).x, 0.5f, kTol);
  EXPECT_NEAR(p.cursor(), 0.25f, kTol);
}

TEST_F(PlayerTest, NoneModeScrubsWithTheCursor) {
  Player p(model_);
  ASSERT_TRUE(p.play(kSlide, Mode::kNone));
  p.set_cursor(0.75f);
  p.update(0.1f);
  EXPECT_NEAR(root(p).x, 1.5f, kTol);
  p.update(10.0f);
  EXPECT_NEAR(root(p).x, 1.5f, kTol);
  EXPECT_TRUE(p.playing());
}

TEST_F(PlayerTest, SetCursorOnCompletedPlayResamplesWithoutCompletingAgain) {
  Player p(model_);
  ASSERT_TRUE(p.play(kSlide, Mode::kOnceForward));
  p.update(5.0f);
  ASSERT_EQ(count(p, RecordKind::kCompleted), 1);
  p.set_cursor(0.25f);
  p.update(0.0f);
  EXPECT_NEAR(root(p).x, 0.5f, kTol);
  p.update(1.0f);
  EXPECT_NEAR(root(p).x, 0.5f, kTol);
  EXPECT_FALSE(p.playing());
  EXPECT_EQ(count(p, RecordKind::kCompleted), 1);
}

TEST_F(PlayerTest, CrossfadeBlendsALiveSourceLinearly) {
  Player p(model_);
  ASSERT_TRUE(p.play(kSlide, Mode::kLoopForward));
  p.update(1.0f);
  ASSERT_TRUE(p.play(kLift, Mode::kLoopForward, blend(1.0f)));
  EXPECT_TRUE(p.crossfading());

  p.update(0.25f);  // f = 0.25; source slide at 1.25 s, target lift at 0.25 s
  EXPECT_NEAR(p.blend_weight(), 0.25f, kTol);
  EXPECT_NEAR(root(p).x, 1.25f * 0.75f, kTol);
  EXPECT_NEAR(root(p).y, 1.0f * 0.25f, kTol);
  // child: rest rotation (source has no track) toward 22.5 degrees, a quarter of the way
  EXPECT_NEAR(z_angle(p.local_pose()[1].rotation), 0.25f * kPi / 8.0f, 1e-5f);
  // mesh 1 weights: source (0.625, 0.3125), target defaults (0.25, 0)
  EXPECT_NEAR(p.morph_weights()[0], 0.625f * 0.75f + 0.25f * 0.25f, kTol);
  EXPECT_NEAR(p.morph_weights()[1], 0.3125f * 0.75f, kTol);

  p.update(0.5f);  // f = 0.75; source at 1.75 s (x 1.75), target at 0.75 s (y 3)
  EXPECT_NEAR(root(p).x, 1.75f * 0.25f, kTol);
  EXPECT_NEAR(root(p).y, 3.0f * 0.75f, kTol);

  p.update(0.3f);  // timer 1.05 s: the source is dropped; target at 1.05 s wraps to 0.05 s
  EXPECT_FALSE(p.crossfading());
  EXPECT_FLOAT_EQ(p.blend_weight(), 1.0f);
  EXPECT_NEAR(root(p).x, 0.0f, kTol);
  EXPECT_NEAR(root(p).y, 0.2f, 1e-4f);
}

// The output pose is the sampled pose itself when no crossfade runs (no copy per update); a new
// play, with or without a crossfade, swaps or resamples the slots, and the pose shown must stay
// what the last update showed until the next update.
TEST_F(PlayerTest, ThePoseShownStaysUntilTheNextUpdate) {
  Player p(model_);
  ASSERT_TRUE(p.play(kSlide, Mode::kLoopForward));
  p.update(1.0f);
  EXPECT_NEAR(root(p).x, 1.0f, kTol);
  // A cut: the new play is sampled only by the next update.
  ASSERT_TRUE(p.play(kLift, Mode::kLoopForward));
  EXPECT_NEAR(root(p).x, 1.0f, kTol);
  EXPECT_NEAR(root(p).y, 0.0f, kTol);
  p.update(0.5f);
  EXPECT_NEAR(root(p).x, 0.0f, kTol);
  EXPECT_NEAR(root(p).y, 2.0f, kTol);
  // A crossfade from a live play swaps the slots: still the last update's pose.
  ASSERT_TRUE(p.play(kSlide, Mode::kLoopForward, blend(1.0f)));
  EXPECT_NEAR(root(p).x, 0.0f, kTol);
  EXPECT_NEAR(root(p).y, 2.0f, kTol);
  p.update(0.5f);  // f = 0.5: lift at 1.0 s wraps to 0 (y 0), slide at 0.5 s (x 0.5)
  EXPECT_NEAR(root(p).x, 0.25f, kTol);
  EXPECT_NEAR(root(p).y, 0.0f, 1e-4f);
  p.update(1.0f);  // the crossfade ends: slide at 1.5 s, shown as sampled
  EXPECT_FALSE(p.crossfading());
  EXPECT_NEAR(root(p).x, 1.5f, kTol);
  // Every sample of the same play lands in the same memory.
  const Transform* shown = p.local_pose().data();
  p.update(0.25f);
  EXPECT_EQ(p.local_pose().data(), shown);
  EXPECT_NEAR(root(p).x, 1.75f, kTol);
  p.stop();
  EXPECT_EQ(root(p), vec3(0, 0, 0));
  p.update(0.5f);
  EXPECT_EQ(root(p), vec3(0, 0, 0));
}

TEST_F(PlayerTest, CrossfadeSmoothstepCurve) {
  EXPECT_FLOAT_EQ(blend_curve(BlendCurve::kSmoothstep, 0.25f), 0.15625f);
  EXPECT_FLOAT_EQ(blend_curve(BlendCurve::kSmoothstep, 0.5f), 0.5f);
  EXPECT_FLOAT_EQ(blend_curve(BlendCurve::kLinear, 0.3f), 0.3f);
  EXPECT_FLOAT_EQ(blend_curve(BlendCurve::kLinear, 2.0f), 1.0f);
  EXPECT_FLOAT_EQ(blend_curve(BlendCurve::kLinear, -1.0f), 0.0f);

  Player p(model_);
  ASSERT_TRUE(p.play(kSlide, Mode::kLoopForward));
  p.update(1.0f);
  ASSERT_TRUE(p.play(kLift, Mode::kLoopForward, blend(2.0f, BlendCurve::kSmoothstep)));
  p.update(0.5f);  // x = 0.25: f = 0.15625; source x 1.5, target y 2
  EXPECT_NEAR(p.blend_weight(), 0.15625f, kTol);
  EXPECT_NEAR(root(p).x, 1.5f * (1.0f - 0.15625f), kTol);
  EXPECT_NEAR(root(p).y, 2.0f * 0.15625f, kTol);
}

TEST_F(PlayerTest, CrossfadeFromNothingStartsAtRest) {
  Player p(model_);
  ASSERT_TRUE(p.play(kSlide, Mode::kLoopForward, blend(1.0f)));
  p.update(0.5f);
  EXPECT_NEAR(root(p).x, 0.5f * 0.5f, kTol);
}

TEST_F(PlayerTest, InterruptedCrossfadeFreezesTheBlendedPose) {
  Player p(model_);
  ASSERT_TRUE(p.play(kSlide, Mode::kLoopForward));
  p.update(1.0f);
  ASSERT_TRUE(p.play(kLift, Mode::kLoopForward, blend(1.0f)));
  p.update(0.25f);  // shown: root (0.9375, 0.25, 0), child rotation 5.625 degrees
  const vec3 shown = root(p);
  const float shown_angle = z_angle(p.local_pose()[1].rotation);
  ASSERT_NEAR(shown.x, 0.9375f, kTol);

  ASSERT_TRUE(p.play(kShort, Mode::kLoopForward, blend(1.0f)));
  p.update(0.25f);  // f = 0.25 from the frozen pose; short at 0.25 s: child y 2, root at rest
  EXPECT_NEAR(root(p).x, shown.x * 0.75f, kTol);
  EXPECT_NEAR(root(p).y, shown.y * 0.75f, kTol);
  EXPECT_NEAR(child(p).y, 1.0f * 0.75f + 2.0f * 0.25f, kTol);
  EXPECT_NEAR(z_angle(p.local_pose()[1].rotation), shown_angle * 0.75f, 1e-5f);
  p.update(0.25f);  // the frozen source does not move: f = 0.5, short at 0.5 s wraps to 0
  EXPECT_NEAR(root(p).x, shown.x * 0.5f, kTol);
  EXPECT_NEAR(child(p).y, 1.0f * 0.5f + 1.0f * 0.5f, kTol);
}

TEST_F(PlayerTest, TargetCompletingDuringCrossfadeHolds) {
  Player p(model_);
  ASSERT_TRUE(p.play(kSlide, Mode::kLoopForward));
  ASSERT_TRUE(p.play(kShort, Mode::kOnceForward, blend(1.0f)));
  p.update(0.75f);  // short completes at 0.5 s and holds child y 3; source slide at 0.75 s
  EXPECT_FALSE(p.playing());
  EXPECT_TRUE(p.crossfading());
  EXPECT_EQ(count(p, RecordKind::kCompleted), 1);
  EXPECT_NEAR(root(p).x, 0.75f * 0.25f, kTol);
  EXPECT_NEAR(child(p).y, 1.0f * 0.25f + 3.0f * 0.75f, kTol);
  p.update(0.5f);  // the crossfade finishes; the held target pose remains
  EXPECT_FALSE(p.crossfading());
  EXPECT_NEAR(root(p).x, 0.0f, kTol);
  EXPECT_NEAR(child(p).y, 3.0f, kTol);
  EXPECT_EQ(count(p, RecordKind::kCompleted), 1);
}

TEST_F(PlayerTest, CrossfadeSourceReportsNoCompleted) {
  Player p(model_);
  ASSERT_TRUE(p.play(kSlide, Mode::kOnceForward));
  p.update(1.5f);
  ASSERT_TRUE(p.play(kLift, Mode::kLoopForward, blend(2.0f)));
  ASSERT_EQ(p.records().size(), 1u);
  EXPECT_EQ(p.records()[0].kind, RecordKind::kInterrupted);
  p.update(1.0f);  // the source passes its end (2 s) while fading: silent, and holds x = 2
  EXPECT_NEAR(root(p).x, 2.0f * 0.5f, kTol);
  p.update(2.0f);
  EXPECT_EQ(count(p, RecordKind::kCompleted), 0);
  EXPECT_EQ(count(p, RecordKind::kInterrupted), 1);
}

TEST_F(PlayerTest, ReplacedOncePlayReportsOneInterruptedAndItsCallback) {
  Player p(model_);
  int done_calls = 0;
  RecordKind done_kind = RecordKind::kEvent;
  PlayOptions o;
  o.on_done = [&](const PlayerRecord& r) {
    ++done_calls;
    done_kind = r.kind;
  };
  ASSERT_TRUE(p.play(kSlide, Mode::kOnceForward, o));
  p.update(0.5f);
  ASSERT_TRUE(p.play(kLift, Mode::kOnceForward));  // hard cut
  EXPECT_EQ(done_calls, 0);                        // only drain() invokes callbacks
  p.update(0.5f);
  EXPECT_EQ(count(p, RecordKind::kInterrupted), 1);
  std::vector<RecordKind> seen;
  p.drain([&](const PlayerRecord& r) { seen.push_back(r.kind); });
  EXPECT_EQ(done_calls, 1);
  EXPECT_EQ(done_kind, RecordKind::kInterrupted);
  EXPECT_EQ(seen, std::vector<RecordKind>{RecordKind::kInterrupted});
  EXPECT_TRUE(p.records().empty());
  p.update(1.0f);  // lift completes; it had no callback
  p.drain();
  EXPECT_EQ(done_calls, 1);
}

TEST_F(PlayerTest, CompletedCallbackRunsOnceWhenDrained) {
  Player p(model_);
  int done_calls = 0;
  PlayOptions o;
  o.on_done = [&](const PlayerRecord& r) {
    ++done_calls;
    EXPECT_EQ(r.kind, RecordKind::kCompleted);
  };
  ASSERT_TRUE(p.play(kShort, Mode::kOnceForward, o));
  p.update(1.0f);
  EXPECT_EQ(done_calls, 0);
  p.drain();
  EXPECT_EQ(done_calls, 1);
  p.update(1.0f);
  p.cancel();  // already completed: no Interrupted
  p.drain();
  EXPECT_EQ(done_calls, 1);
  EXPECT_TRUE(p.records().empty());
}

TEST_F(PlayerTest, LoopCallbacksNeverRun) {
  Player p(model_);
  int done_calls = 0;
  PlayOptions o;
  o.on_done = [&](const PlayerRecord&) { ++done_calls; };
  ASSERT_TRUE(p.play(kShort, Mode::kLoopForward, o));
  p.update(3.0f);
  p.cancel();
  ASSERT_TRUE(p.play(kSlide, Mode::kOnceForward));
  p.drain();
  EXPECT_EQ(done_calls, 0);
}

TEST_F(PlayerTest, CallbackMayStartAnotherPlay) {
  Player p(model_);
  PlayOptions o;
  o.on_done = [&](const PlayerRecord&) {
    PlayOptions next;
    next.on_done = [](const PlayerRecord&) {};
    ASSERT_TRUE(p.play(kLift, Mode::kOnceForward, next));
  };
  ASSERT_TRUE(p.play(kShort, Mode::kOnceForward, o));
  p.update(1.0f);
  p.drain();
  EXPECT_EQ(p.clip(), &model_.clips()[kLift]);
  EXPECT_TRUE(p.playing());
  EXPECT_TRUE(p.records().empty());
}

TEST_F(PlayerTest, CancelDuringCrossfadeHoldsTheBlendedPose) {
  Player p(model_);
  ASSERT_TRUE(p.play(kSlide, Mode::kLoopForward));
  p.update(1.0f);
  ASSERT_TRUE(p.play(kLift, Mode::kOnceForward, blend(1.0f)));
  p.update(0.25f);
  const vec3 shown = root(p);
  const float shown_weight = p.morph_weights()[0];
  p.cancel();
  EXPECT_EQ(count(p, RecordKind::kInterrupted), 1);
  EXPECT_FALSE(p.playing());
  EXPECT_FALSE(p.crossfading());
  p.update(0.5f);
  EXPECT_NEAR(root(p).x, shown.x, kTol);
  EXPECT_NEAR(root(p).y, shown.y, kTol);
  EXPECT_NEAR(p.morph_weights()[0], shown_weight, kTol);
  p.cancel();  // a second cancel reports nothing more
  EXPECT_EQ(count(p, RecordKind::kInterrupted), 1);
}

TEST_F(PlayerTest, CrossfadeFromACancelledPlayStartsFromTheHeldPose) {
  Player p(model_);
  ASSERT_TRUE(p.play(kSlide, Mode::kLoopForward));
  p.update(1.0f);
  p.cancel();
  ASSERT_TRUE(p.play(kLift, Mode::kLoopForward, blend(1.0f)));
  p.update(0.5f);  // held x = 1 fades toward lift (x 0, y 2)
  EXPECT_NEAR(root(p).x, 0.5f, kTol);
  EXPECT_NEAR(root(p).y, 1.0f, kTol);
}

TEST_F(PlayerTest, StopReturnsToRest) {
  Player p(model_);
  ASSERT_TRUE(p.play(kSlide, Mode::kOnceForward));
  p.update(1.0f);
  p.stop();
  EXPECT_EQ(count(p, RecordKind::kInterrupted), 1);
  EXPECT_EQ(p.clip(), nullptr);
  EXPECT_FLOAT_EQ(p.cursor(), 0.0f);
  EXPECT_FLOAT_EQ(p.rate(), 1.0f);
  EXPECT_EQ(root(p), vec3(0, 0, 0));
  EXPECT_FLOAT_EQ(p.morph_weights()[0], 0.25f);
  p.update(1.0f);
  EXPECT_EQ(root(p), vec3(0, 0, 0));
}

TEST_F(PlayerTest, EventsReachTheRecordListInOrder) {
  const std::vector<ClipEvent> events = {
      {0.0f, "start", ""}, {0.5f, "Footstep", "left"}, {1.0f, "end", ""}};
  Player p(model_);
  PlayOptions o;
  o.events = events;
  ASSERT_TRUE(p.play(kSlide, Mode::kOnceForward, o));
  std::vector<std::string> seen;
  const auto collect = [&](const PlayerRecord& r) {
    seen.push_back(r.kind == RecordKind::kEvent ? std::string(r.name) : "!done");
  };
  p.update(1.0f);
  p.drain(collect);
  EXPECT_EQ(seen, (std::vector<std::string>{"start", "Footstep"}));
  p.update(5.0f);
  p.drain(collect);
  EXPECT_EQ(seen, (std::vector<std::string>{"start", "Footstep", "end", "!done"}));
}

TEST_F(PlayerTest, CrossfadeSourceEventsAreSilent) {
  const std::vector<ClipEvent> source_events = {{0.9f, "source", ""}};
  const std::vector<ClipEvent> target_events = {{0.5f, "target", ""}};
  Player p(model_);
  PlayOptions o;
  o.events = source_events;
  ASSERT_TRUE(p.play(kSlide, Mode::kLoopForward, o));
  p.update(1.0f);
  PlayOptions b = blend(2.0f);
  b.events = target_events;
  ASSERT_TRUE(p.play(kLift, Mode::kLoopForward, b));
  p.update(1.0f);  // the source passes 0.9 D, the target passes 0.5 D
  ASSERT_EQ(p.records().size(), 1u);
  EXPECT_EQ(p.records()[0].name, "target");
}

TEST_F(PlayerTest, HugeDtReturnsCountedRecords) {
  const std::vector<ClipEvent> events = {{0.0f, "a", ""}, {0.5f, "b", ""}};
  Player p(model_);
  PlayOptions o;
  o.events = events;
  ASSERT_TRUE(p.play(kLift, Mode::kLoopForward, o));
  p.update(1.0e6f);
  EXPECT_LE(p.records().size(), 5 * events.size() + 1);
  std::uint64_t a = 0;
  std::uint64_t b = 0;
  for (const PlayerRecord& r : p.records()) (r.name == "a" ? a : b) += r.count;
  EXPECT_EQ(a, 1000001u);
  EXPECT_EQ(b, 1000000u);
  EXPECT_NEAR(root(p).y, 0.0f, 1e-3f);  // 10^6 s is a whole number of 1 s cycles
}

TEST_F(PlayerTest, RecordStorageIsReusedAcrossFrames) {
  const std::vector<ClipEvent> events = {{0.0f, "a", ""}, {0.5f, "b", ""}, {1.0f, "c", ""}};
  Player p(model_);
  PlayOptions o;
  o.events = events;
  ASSERT_TRUE(p.play(kLift, Mode::kLoopPingPong, o));
  p.update(0.1f);
  const PlayerRecord* storage = p.records().data();
  for (int i = 0; i < 500; ++i) {
    p.update(i % 7 == 0 ? 37.3f : 0.27f);
    EXPECT_EQ(p.records().data(), storage);
    p.drain();
  }
}

TEST_F(PlayerTest, MorphOverridesFollowDefoldRules) {
  Player p(model_);
  ASSERT_TRUE(p.play(kSlide, Mode::kLoopForward));
  p.update(1.0f);
  EXPECT_NEAR(p.morph_weights(1)[0], 0.5f, kTol);
  EXPECT_NEAR(p.morph_weights(1)[1], 0.25f, kTol);

  const std::vector<float> all = {0.9f};
  p.set_morph_weights(all);  // applies at once; missing entries count as 0
  EXPECT_FLOAT_EQ(p.morph_weights(1)[0], 0.9f);
  EXPECT_FLOAT_EQ(p.morph_weights(1)[1], 0.0f);
  EXPECT_FLOAT_EQ(p.morph_weights(2)[0], 0.9f);
  EXPECT_FLOAT_EQ(p.morph_weights(2)[1], 0.0f);
  EXPECT_FLOAT_EQ(p.morph_weights(2)[2], 0.0f);

  const std::vector<float> blob = {0.4f, 0.5f, 0.6f, 0.7f};  // the fourth is ignored
  ASSERT_TRUE(p.set_morph_weights(2, blob));
  EXPECT_FLOAT_EQ(p.morph_weights(2)[0], 0.4f);
  EXPECT_FLOAT_EQ(p.morph_weights(2)[2], 0.6f);
  EXPECT_FLOAT_EQ(p.morph_weights(1)[0], 0.9f);  // the all-mesh array still feeds mesh 1
  EXPECT_EQ(p.weights().size(), 5u);

  p.update(0.5f);  // overrides hold across updates
  EXPECT_FLOAT_EQ(p.morph_weights(1)[0], 0.9f);
  EXPECT_FLOAT_EQ(p.morph_weights(2)[1], 0.5f);
  EXPECT_FLOAT_EQ(p.morph_weights()[0], 0.9f);

  p.clear_morph_weights(2);  // back to the all-mesh array for mesh 2
  EXPECT_FLOAT_EQ(p.morph_weights(2)[0], 0.9f);
  EXPECT_FLOAT_EQ(p.morph_weights(2)[1], 0.0f);

  p.clear_morph_weights();  // animation (mesh 1 at 1.5 s) and defaults (mesh 2) again
  EXPECT_NEAR(p.morph_weights(1)[0], 0.75f, kTol);
  EXPECT_NEAR(p.morph_weights(1)[1], 0.375f, kTol);
  EXPECT_FLOAT_EQ(p.morph_weights(2)[1], 0.2f);

  p.set_morph_weights(std::span<const float>{});  // an empty override zeroes every target
  EXPECT_FLOAT_EQ(p.morph_weights(1)[0], 0.0f);
  EXPECT_FLOAT_EQ(p.morph_weights(2)[2], 0.0f);

  auto bad = p.set_morph_weights(3, blob);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, ErrorCode::kUsage);
  EXPECT_TRUE(p.set_morph_weights(0, blob));  // a mesh without targets: accepted, no effect
}

TEST_F(PlayerTest, MorphOverridesApplyOnTopOfACrossfade) {
  Player p(model_);
  ASSERT_TRUE(p.play(kSlide, Mode::kLoopForward));
  p.update(1.0f);
  const std::vector<float> all = {0.8f, 0.7f};
  p.set_morph_weights(all);
  ASSERT_TRUE(p.play(kLift, Mode::kLoopForward, blend(1.0f)));
  p.update(0.5f);
  EXPECT_FLOAT_EQ(p.morph_weights()[0], 0.8f);
  p.clear_morph_weights();
  // source slide at 1.5 s (0.75, 0.375), target defaults (0.25, 0), f = 0.5
  EXPECT_NEAR(p.morph_weights()[0], 0.5f, kTol);
  EXPECT_NEAR(p.morph_weights()[1], 0.1875f, kTol);
}

// --- shared models ---------------------------------------------------------------------------

std::string shared(const std::string& relative) {
  return std::string(CRITTER_SHARED_MODELS) + "/" + relative;
}

TEST(PlayerSharedModels, InterpolationValuesThroughThePlayer) {
  // playback.md §2: x goes 0 -> 1 over [0, 1] s with zero tangents.
  struct Case {
    const char* file;
    float at_quarter;
    float at_half;
  };
  for (const Case& c : {Case{"animation_interpolation_step.gltf", 0.0f, 0.0f},
                        Case{"animation_interpolation_linear.gltf", 0.25f, 0.5f},
                        Case{"animation_interpolation_cubic.gltf", 0.15625f, 0.5f}}) {
    SCOPED_TRACE(c.file);
    auto model = io::load(shared(std::string("assimp_interpolation_synthetic/") + c.file));
    ASSERT_TRUE(model) << model.error().to_string();
    const int mover = model->find_bone("Mover");
    ASSERT_GE(mover, 0);
    ASSERT_EQ(model->clips().size(), 1u);
    ASSERT_FLOAT_EQ(model->clips()[0].duration(), 1.0f);
    Player p(*model);
    ASSERT_TRUE(p.play(0, Mode::kNone));
    p.set_cursor(0.25f);
    p.update(0.0f);
    EXPECT_NEAR(p.local_pose()[static_cast<std::size_t>(mover)].translation.x, c.at_quarter, 1e-6f);
    p.set_cursor(0.5f);
    p.update(0.0f);
    EXPECT_NEAR(p.local_pose()[static_cast<std::size_t>(mover)].translation.x, c.at_half, 1e-6f);
  }
}

TEST(PlayerSharedModels, CrossfadeMatchesSampledAndBlendedPoses) {
  // girl.glb: IdleTrack (1.67 s) crossfades into RunTrack (1.0 s). The Player's pose must equal
  // sampling both clips where their playheads are and blending with f by hand.
  auto model = io::load(shared("girl/girl.glb"));
  ASSERT_TRUE(model) << model.error().to_string();
  ASSERT_GE(model->clips().size(), 2u);
  Player p(*model);
  ASSERT_TRUE(p.play(0, Mode::kLoopForward));
  p.update(0.3f);
  PlayOptions o;
  o.blend_duration = 0.5f;
  ASSERT_TRUE(p.play(1, Mode::kLoopForward, o));
  p.update(0.2f);
  ASSERT_NEAR(p.blend_weight(), 0.4f, 1e-6f);

  const MorphLayout layout = MorphLayout::of(*model);
  const auto rest = model->skeleton().rest_pose();
  const auto sample = [&](int clip, float time) {
    Pose pose = Pose::rest(*model, layout);
    SamplingContext context;
    const SamplingJob job{.clip = &model->clips()[static_cast<std::size_t>(clip)],
                          .time = time,
                          .context = &context,
                          .rest = rest,
                          .default_weights = layout.defaults,
                          .weight_offsets = layout.offsets,
                          .output = pose.locals,
                          .output_weights = pose.weights};
    EXPECT_TRUE(job.run());
    return pose;
  };
  const Pose source = sample(0, 0.5f);
  const Pose target = sample(1, 0.2f);
  ASSERT_EQ(p.local_pose().size(), source.locals.size());
  for (std::size_t j = 0; j < source.locals.size(); ++j) {
    const Transform want = blend_transforms(source.locals[j], target.locals[j], 0.4f);
    const Transform& got = p.local_pose()[j];
    for (int k = 0; k < 3; ++k) {
      EXPECT_NEAR(got.translation[k], want.translation[k], 1e-5f) << "joint " << j;
      EXPECT_NEAR(got.scale[k], want.scale[k], 1e-5f) << "joint " << j;
    }
    EXPECT_NEAR(std::abs(glm::dot(got.rotation, want.rotation)), 1.0f, 1e-5f) << "joint " << j;
  }
}

// The crossfade above with each rotation blend: slerp gives blend_transforms()'s bits, nlerp the
// normalised lerp of the two rotations (checked in double precision), and the two differ.
TEST(PlayerSharedModels, CrossfadeBlendsRotationsAsSetRotationBlendSays) {
  auto model = io::load(shared("girl/girl.glb"));
  ASSERT_TRUE(model) << model.error().to_string();
  ASSERT_GE(model->clips().size(), 2u);
  const auto crossfade = [&](RotationBlend rotations) {
    Player p(*model);
    EXPECT_EQ(p.rotation_blend(), RotationBlend::kSlerp);
    p.set_rotation_blend(rotations);
    EXPECT_EQ(p.rotation_blend(), rotations);
    EXPECT_TRUE(p.play(0, Mode::kLoopForward));
    p.update(0.3f);
    PlayOptions o;
    o.blend_duration = 0.5f;
    EXPECT_TRUE(p.play(1, Mode::kLoopForward, o));
    p.update(0.2f);
    EXPECT_NEAR(p.blend_weight(), 0.4f, 1e-6f);
    return std::vector<Transform>(p.local_pose().begin(), p.local_pose().end());
  };
  const std::vector<Transform> slerped = crossfade(RotationBlend::kSlerp);
  const std::vector<Transform> nlerped = crossfade(RotationBlend::kNlerp);
  // A crossfade is one layer: lerp normalised once is nlerp, bit for bit.
  const std::vector<Transform> lerped = crossfade(RotationBlend::kLerp);
  ASSERT_EQ(lerped.size(), nlerped.size());
  for (std::size_t j = 0; j < lerped.size(); ++j)
    EXPECT_EQ(std::memcmp(&lerped[j], &nlerped[j], sizeof(Transform)), 0) << "joint " << j;
  // The poses the two plays show at that moment, from a player without a crossfade.
  const auto shown = [&](int clip, float first, float second) {
    Player p(*model);
    EXPECT_TRUE(p.play(clip, Mode::kLoopForward));
    p.update(first);
    p.update(second);
    return std::vector<Transform>(p.local_pose().begin(), p.local_pose().end());
  };
  const std::vector<Transform> source = shown(0, 0.3f, 0.2f), target = shown(1, 0.0f, 0.2f);
  ASSERT_EQ(slerped.size(), source.size());
  double most = 0.0;
  for (std::size_t j = 0; j < source.size(); ++j) {
    const Transform want = blend_transforms(source[j], target[j], 0.4f);
    EXPECT_EQ(std::memcmp(&slerped[j], &want, sizeof(Transform)), 0) << "joint " << j;
    glm::dvec4 a(source[j].rotation.x, source[j].rotation.y, source[j].rotation.z,
                 source[j].rotation.w);
    glm::dvec4 b(target[j].rotation.x, target[j].rotation.y, target[j].rotation.z,
                 target[j].rotation.w);
    if (glm::dot(a, b) < 0.0) b = -b;
    const glm::dvec4 q = glm::normalize(a + (b - a) * 0.4);
    const glm::dvec4 got(nlerped[j].rotation.x, nlerped[j].rotation.y, nlerped[j].rotation.z,
                         nlerped[j].rotation.w);
    EXPECT_LT(glm::length(got - q), 1e-6) << "joint " << j;
    EXPECT_EQ(nlerped[j].translation, slerped[j].translation) << "joint " << j;
    EXPECT_EQ(nlerped[j].scale, slerped[j].scale) << "joint " << j;
    most =
        std::max(most, glm::length(got - glm::dvec4(slerped[j].rotation.x, slerped[j].rotation.y,
                                                    slerped[j].rotation.z, slerped[j].rotation.w)));
  }
  EXPECT_GT(most, 1e-5);
}

TEST_F(PlayerTest, SetModeSwitchesTheRunningPlayWithoutAPop) {
  Player p(model_);
  ASSERT_TRUE(p.play(kSlide, Mode::kLoopForward));
  p.update(1.5f);
  EXPECT_NEAR(root(p).x, 1.5f, kTol);
  ASSERT_TRUE(p.set_mode(Mode::kOnceForward));
  EXPECT_NEAR(root(p).x, 1.5f, kTol);  // the pose is not touched
  p.update(0.0f);
  EXPECT_NEAR(root(p).x, 1.5f, kTol);
  p.update(1.0f);  // a loop would wrap to 0.5 s; the Once play holds 2 s and completes
  EXPECT_NEAR(root(p).x, 2.0f, kTol);
  EXPECT_FALSE(p.playing());
  EXPECT_EQ(count(p, RecordKind::kCompleted), 1);
  EXPECT_FALSE(p.set_mode(static_cast<Mode>(7)));
}

TEST_F(PlayerTest, SetModeDecidesWhetherOnDoneRuns) {
  Player p(model_);
  int done = 0;
  PlayOptions o;
  o.on_done = [&](const PlayerRecord&) { ++done; };
  ASSERT_TRUE(p.play(kLift, Mode::kOnceForward, o));
  p.update(0.5f);
  ASSERT_TRUE(p.set_mode(Mode::kLoopForward));
  p.update(1.0f);  // wraps to 0.5 s instead of completing
  EXPECT_TRUE(p.playing());
  EXPECT_NEAR(root(p).y, 2.0f, kTol);
  EXPECT_EQ(count(p, RecordKind::kCompleted), 0);
  ASSERT_TRUE(p.play(kSlide, Mode::kLoopForward));  // a loop ends silently: on_done dropped
  p.drain();
  EXPECT_EQ(done, 0);

  // Switched away and back: the play ends in a Once mode, so its callback runs once.
  ASSERT_TRUE(p.play(kLift, Mode::kOnceForward, o));
  ASSERT_TRUE(p.set_mode(Mode::kLoopForward));
  ASSERT_TRUE(p.set_mode(Mode::kOnceForward));
  p.update(2.0f);
  EXPECT_EQ(count(p, RecordKind::kCompleted), 1);
  p.drain();
  EXPECT_EQ(done, 1);
}

}  // namespace
}  // namespace critter::anim
