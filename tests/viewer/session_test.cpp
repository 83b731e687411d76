// SPDX-License-Identifier: MIT
#include "session.h"

#include <gtest/gtest.h>

#include <string>

#include "support/cli_runner.h"

namespace critter::viewer {
namespace {

using anim::PlaybackMode;
using test_support::shared_model;

std::unique_ptr<Session> open_shared(const std::string& relative) {
  auto s = Session::open(shared_model(relative));
  EXPECT_TRUE(s.has_value()) << (s ? "" : s.error().to_string());
  return s ? std::move(*s) : nullptr;
}

TEST(Session, OpenFailsWithTheLoaderError) {
  auto s = Session::open(shared_model("does_not_exist.glb"));
  ASSERT_FALSE(s.has_value());
  EXPECT_NE(s.error().to_string().find("does_not_exist.glb"), std::string::npos);
}

TEST(Session, PlaysAClipInTheChosenModeAndRate) {
  auto s = open_shared("greenman/greenman.glb");
  ASSERT_TRUE(s);
  const int idle = s->model().find_clip("1_idle");
  ASSERT_GE(idle, 0);
  EXPECT_EQ(s->clip_label(idle), "1_idle");
  EXPECT_EQ(s->clip_label(99), "");
  s->set_rate(2.0f);
  ASSERT_TRUE(s->play(idle));
  EXPECT_EQ(s->clip(), idle);
  EXPECT_EQ(s->player().mode(), PlaybackMode::kLoopForward);
  const float d = s->player().clip()->duration();
  s->update(0.125f * d);  // rate 2: a quarter of the clip
  EXPECT_NEAR(s->player().cursor(), 0.25f, 1e-5f);
  EXPECT_FALSE(s->play(42));
  EXPECT_EQ(s->clip(), idle);
}

TEST(Session, PauseHoldsTheCursorAndScrubMovesIt) {
  auto s = open_shared("greenman/greenman.glb");
  ASSERT_TRUE(s);
  ASSERT_TRUE(s->play(1));
  const float d = s->player().clip()->duration();
  s->update(0.1f * d);
  s->set_paused(true);
  s->update(0.3f * d);
  EXPECT_NEAR(s->player().cursor(), 0.1f, 1e-5f);
  s->scrub(0.75f);
  s->update(0.3f * d);
  EXPECT_NEAR(s->player().cursor(), 0.75f, 1e-5f);
  s->scrub(3.0f);  // clamped to the end
  s->update(0.0f);
  EXPECT_NEAR(s->player().cursor(), 1.0f, 1e-5f);
}

TEST(Session, ChangingModeKeepsThePositionOnScreen) {
  auto s = open_shared("greenman/greenman.glb");
  ASSERT_TRUE(s);
  ASSERT_TRUE(s->play(2));
  const float d = s->player().clip()->duration();
  s->update(0.3f * d);
  ASSERT_NEAR(s->player().cursor(), 0.3f, 1e-5f);
  ASSERT_TRUE(s->set_mode(PlaybackMode::kLoopBackward));
  EXPECT_EQ(s->player().mode(), PlaybackMode::kLoopBackward);
  EXPECT_NEAR(s->player().cursor(), 0.3f, 1e-5f);
  s->update(0.1f * d);  // backward: the position falls
  EXPECT_NEAR(s->player().cursor(), 0.2f, 1e-5f);
  ASSERT_TRUE(s->set_mode(PlaybackMode::kNone));
  s->update(0.5f * d);  // None never advances
  EXPECT_NEAR(s->player().cursor(), 0.2f, 1e-5f);
  EXPECT_FALSE(s->set_mode(static_cast<PlaybackMode>(7)));
  EXPECT_EQ(s->mode(), PlaybackMode::kNone);
}

TEST(Session, NegativeRateCountsAsZero) {
  auto s = open_shared("greenman/greenman.glb");
  ASSERT_TRUE(s);
  ASSERT_TRUE(s->play(1));
  s->set_rate(-1.0f);
  EXPECT_EQ(s->rate(), 0.0f);
  EXPECT_EQ(s->player().rate(), 0.0f);
  s->update(1.0f);
  EXPECT_EQ(s->player().cursor(), 0.0f);
}

TEST(Session, CrossfadeBlendsForTheChosenTime) {
  auto s = open_shared("greenman/greenman.glb");
  ASSERT_TRUE(s);
  ASSERT_TRUE(s->play(1));
  s->update(0.1f);
  s->set_crossfade_seconds(0.5f);
  ASSERT_TRUE(s->crossfade_to(2));
  EXPECT_EQ(s->clip(), 2);
  s->update(0.25f);
  EXPECT_TRUE(s->player().crossfading());
  // Smoothstep at x = 0.5 is 0.5.
  EXPECT_NEAR(s->player().blend_weight(), 0.5f, 1e-5f);
  s->update(0.3f);
  EXPECT_FALSE(s->player().crossfading());
  s->set_crossfade_seconds(-2.0f);
  EXPECT_EQ(s->crossfade_seconds(), 0.0f);
}

TEST(Session, OnceModeCompletionIsLogged) {
  auto s = open_shared("AnimatedMorphSphere/AnimatedMorphSphere.gltf");
  ASSERT_TRUE(s);
  ASSERT_GE(s->model().clips().size(), 1u);
  ASSERT_TRUE(s->set_mode(PlaybackMode::kOnceForward));
  ASSERT_TRUE(s->play(0));
  s->update(100.0f);
  ASSERT_FALSE(s->log().empty());
  EXPECT_EQ(s->log().back(), "completed " + s->model().clips()[0].name());
  EXPECT_FALSE(s->player().playing());
}

TEST(Session, MorphSlidersPinOneTargetAndKeepTheOthers) {
  auto s = open_shared("AnimatedMorphSphere/AnimatedMorphSphere.gltf");
  ASSERT_TRUE(s);
  int mesh = -1;
  for (std::size_t m = 0; m < s->model().meshes().size(); ++m)
    if (s->model().meshes()[m].morph_target_count() == 2) mesh = static_cast<int>(m);
  ASSERT_GE(mesh, 0);
  ASSERT_TRUE(s->play(0));
  s->update(1.0f);
  const float shown0 = s->player().morph_weights(mesh)[0];
  ASSERT_TRUE(s->set_morph_weight(mesh, 1, 0.7f));
  EXPECT_TRUE(s->morph_pinned(mesh));
  s->update(1.0f);  // the animation moves on, the pinned weights stay
  auto w = s->player().morph_weights(mesh);
  ASSERT_EQ(w.size(), 2u);
  EXPECT_FLOAT_EQ(w[0], shown0);
  EXPECT_FLOAT_EQ(w[1], 0.7f);
  EXPECT_FALSE(s->set_morph_weight(mesh, 2, 0.5f));
  EXPECT_FALSE(s->set_morph_weight(-1, 0, 0.5f));
  s->clear_morph_weights();
  EXPECT_FALSE(s->morph_pinned(mesh));
}

}  // namespace
}  // namespace critter::viewer

namespace critter::viewer {
namespace {

TEST(Session, LimbsBendTheSplitCharacterAfterTheClip) {
  io::LoadOptions options;
  options.clips = {{"walk", 168.0, 187.0}};
  options.clips_fps = 30.0;
  auto s = Session::open(
      "/usr/share/games/minetest/games/minetest_game/mods/player_api/models/character.b3d", nullptr,
      options);
  ASSERT_TRUE(s) << s.error().to_string();
  const int joints = (*s)->model().skeleton().joint_count();
  tools::LimbMotion motion;
  motion.water = creature::WaterPose::kTread;
  ASSERT_TRUE((*s)->enable_limbs(motion));
  EXPECT_EQ((*s)->model().skeleton().joint_count(), joints + 8);
  ASSERT_TRUE((*s)->play(0));
  for (int i = 0; i < 30; ++i) (*s)->update(1.0f / 60.0f);
  ASSERT_NE((*s)->limbs(), nullptr);
  const creature::LimbAnimator& a = (*s)->limbs()->animator();
  EXPECT_EQ(a.water_pose(), creature::WaterPose::kTread);
  EXPECT_GT(a.limb_frames()[2].bend, 45.0f);  // the egg-beater knee
  const creature::Limb& leg = a.limbs()[2];
  EXPECT_NE((*s)->instance().model_transforms()[static_cast<std::size_t>(leg.bone)],
            (*s)->instance().model_transforms()[static_cast<std::size_t>(leg.joint)]);
}

TEST(Session, LimbsNeedLimbs) {
  auto s = Session::open("builtin:four-legged");
  ASSERT_TRUE(s);
  const int joints = (*s)->model().skeleton().joint_count();
  Diagnostics diag;
  ASSERT_TRUE((*s)->enable_limbs({}, &diag));
  EXPECT_EQ((*s)->limbs(), nullptr);
  EXPECT_FALSE(diag.empty());  // why nothing was split
  EXPECT_EQ((*s)->model().skeleton().joint_count(), joints);
}

}  // namespace
}  // namespace critter::viewer
