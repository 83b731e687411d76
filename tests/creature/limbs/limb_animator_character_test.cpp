// SPDX-License-Identifier: MIT
// The limb animator on Minetest Game's character.b3d (Debian minetest-data, installed by
// scripts/deps.sh): the walk, landing and swim checks of the fixture (creatures.md §22 items 4-5)
// with ranges that fit its own walk (168-187 at 30 fps) and proportions, and inputs that are not
// usable (no limbs, an empty mesh) giving no NaN.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <numbers>
#include <vector>

#include "critter/anim/player.h"
#include "critter/creature/limbs/limb_animator.h"
#include "critter/creature/limbs/split_limbs.h"
#include "critter/io/load.h"

namespace critter::creature {
namespace {

constexpr float kDt = 1.0f / 60.0f;
constexpr float kPi = std::numbers::pi_v<float>;
const char* const kCharacter =
    "/usr/share/games/minetest/games/minetest_game/mods/player_api/models/character.b3d";

class CharacterLimbs : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(std::filesystem::exists(kCharacter)) << "scripts/deps.sh installs minetest-data";
    io::LoadOptions options;
    options.clips = {{"stand", 0.0, 79.0}, {"walk", 168.0, 187.0}};
    options.clips_fps = 30.0;
    Result<Model> loaded = io::load(kCharacter, options);
    ASSERT_TRUE(loaded) << loaded.error().to_string();
    Result<LimbSplit> split = split_limbs(*loaded);
    ASSERT_TRUE(split) << split.error().to_string();
    ASSERT_EQ(split->limbs.size(), 4u);
    model_ = std::make_unique<Model>(std::move(split->model));
    limbs_ = split->limbs;
    auto made = LimbAnimator::create(*model_, limbs_);
    ASSERT_TRUE(made);
    animator_ = std::move(*made);
    player_ = std::make_unique<anim::Player>(*model_);
    out_.resize(static_cast<std::size_t>(model_->skeleton().joint_count()));
  }
  void play(const char* clip) {
    ASSERT_TRUE(player_->play(model_->find_clip(clip), anim::PlaybackMode::kLoopForward));
  }
  void step(float dt = kDt) {
    player_->update(dt);
    LimbStepJob job{animator_.get(), player_->local_pose(), mat4(1.0f), mat4(1.0f), dt, out_};
    ASSERT_TRUE(job.run());
  }
  const LimbFrame& frame(std::size_t i) const { return animator_->limb_frames()[i]; }

  std::unique_ptr<Model> model_;
  std::vector<Limb> limbs_;
  std::unique_ptr<LimbAnimator> animator_;
  std::unique_ptr<anim::Player> player_;
  std::vector<mat4> out_;
};

TEST_F(CharacterLimbs, WalkBendsEveryLimbWithinItsRange) {
  play("walk");
  std::vector<float> lo(4, 1e9f), hi(4, -1e9f);
  for (int s = 0; s < 180; ++s) {
    step();
    if (s < 30) continue;
    for (std::size_t i = 0; i < 4; ++i) {
      ASSERT_TRUE(std::isfinite(frame(i).bend));
      lo[i] = std::min(lo[i], frame(i).bend);
      hi[i] = std::max(hi[i], frame(i).bend);
    }
  }
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_GT(hi[i] - lo[i], 8.0f) << limbs_[i].name;
    EXPECT_LT(hi[i], 80.0f) << limbs_[i].name;
    EXPECT_GE(lo[i], 0.0f) << limbs_[i].name;
  }
  for (const mat4& m : out_) EXPECT_TRUE(all_finite(m));
}

TEST_F(CharacterLimbs, HardLandingCrouchesWithFeetPlanted) {
  play("stand");
  BodyMotion m;
  m.known = true;
  ASSERT_TRUE(animator_->set_motion(m));
  step();
  std::vector<float> rest_y;
  for (std::size_t i = 0; i < 4; ++i) rest_y.push_back(frame(i).end.y);
  m.grounded = false;
  for (int s = 1; s <= 72; ++s) {
    m.vy = -std::min(11.0f, 9.81f * static_cast<float>(s) * kDt);
    ASSERT_TRUE(animator_->set_motion(m));
    step();
  }
  m.grounded = true;
  m.vy = 0.0f;
  ASSERT_TRUE(animator_->set_motion(m));
  float knee = 0.0f, drop = 0.0f, stray = 0.0f;
  for (int s = 0; s < 60; ++s) {
    step();
    if (frame(2).bend > knee) {
      knee = frame(2).bend;
      drop = animator_->drop();
      stray = std::max(std::abs(frame(2).end.y - rest_y[2]), std::abs(frame(3).end.y - rest_y[3]));
    }
  }
  EXPECT_GT(knee, 45.0f);
  EXPECT_GT(drop, 0.5f);
  EXPECT_LT(stray, 0.5f);  // the stand clip sways a little on its own
  EXPECT_LT(animator_->reactions().landing(), 0.1f);
}

TEST_F(CharacterLimbs, CrawlCirclesEachHand) {
  play("stand");
  animator_->set_water_pose(WaterPose::kSwim, 1.5f);
  std::vector<float> travelled(2, 0.0f), last(2, 0.0f);
  for (int s = 0; s <= 150; ++s) {
    step();
    for (std::size_t a = 0; a < 2; ++a) {
      const vec3 d = frame(a).end - vec3(out_[static_cast<std::size_t>(limbs_[a].joint)][3]);
      const float angle = std::atan2(d.z, -d.y);
      if (s > 0) {
        float delta = angle - last[a];
        if (delta > kPi) delta -= 2.0f * kPi;
        if (delta < -kPi) delta += 2.0f * kPi;
        travelled[a] += std::abs(delta);
      }
      last[a] = angle;
    }
  }
  EXPECT_GT(travelled[0], 1.8f * kPi);
  EXPECT_GT(travelled[1], 1.8f * kPi);
}

TEST(LimbAnimatorBadInput, EmptyMeshAndNoLimbsPassThePoseThrough) {
  RawModel raw;
  raw.name = "empty";
  raw.format = "code";
  raw.skeleton.joints.push_back(RawJoint{"Player", -1, Transform{}, -1});
  raw.skeleton.joints.push_back(RawJoint{"Leg_Left", 0, Transform{}, -1});
  // No geometry at all: models refuse mesh parts without vertices, so this is the emptiest mesh.
  Result<Model> model = build_model(std::move(raw));
  ASSERT_TRUE(model) << model.error().to_string();
  Result<LimbSplit> split = split_limbs(*model);
  ASSERT_TRUE(split);
  EXPECT_TRUE(split->limbs.empty());
  EXPECT_FALSE(split->warnings.empty());  // why the limb was left out
  auto animator = LimbAnimator::create(split->model, split->limbs);
  ASSERT_TRUE(animator);
  std::vector<Transform> pose(2);
  pose[1].translation = vec3(1.0f, 2.0f, 3.0f);
  std::vector<mat4> out(2);
  LimbStepJob job{animator->get(), pose, mat4(1.0f), mat4(1.0f), kDt, out};
  ASSERT_TRUE(job.run());
  EXPECT_EQ(vec3(out[1][3]), vec3(1.0f, 2.0f, 3.0f));
}

TEST(LimbAnimatorBadInput, DegenerateLimbIsLeftOutWithAWarning) {
  RawModel raw;
  raw.name = "flat";
  raw.format = "code";
  raw.skeleton.joints.push_back(RawJoint{"Player", -1, Transform{}, -1});
  Transform flat;
  flat.scale = vec3(0.0f);
  raw.skeleton.joints.push_back(RawJoint{"Leg_Left", 0, flat, -1});
  raw.skeleton.joints.push_back(RawJoint{"Leg_Left.lower", 1, Transform{}, -1});
  raw.skeleton.joints.push_back(RawJoint{"Leg_Left.seam", 1, Transform{}, -1});
  Result<Model> model = build_model(std::move(raw));
  ASSERT_TRUE(model);
  Limb limb;
  limb.name = "Leg_Left";
  limb.kind = LimbKind::Leg;
  limb.side = LimbSide::Left;
  limb.joint = 1;
  limb.bone = 2;
  limb.seam_bone = 3;
  std::vector<Warning> warnings;
  auto animator = LimbAnimator::create(*model, std::span<const Limb>(&limb, 1), {}, &warnings);
  ASSERT_TRUE(animator);
  EXPECT_TRUE((*animator)->limbs().empty());
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].location, "Leg_Left");
  EXPECT_NE(warnings[0].message.find("zero scale"), std::string::npos);
}

}  // namespace
}  // namespace critter::creature
