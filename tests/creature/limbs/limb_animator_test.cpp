// SPDX-License-Identifier: MIT
// The limb animator on the limb fixture of creatures.md §22 (items 2, 4 and 5).
#include "critter/creature/limbs/limb_animator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <vector>

#include "critter/anim/player.h"
#include "critter/creature/creature_model.h"
#include "critter/creature/limbs/limb_bend.h"
#include "critter/creature/limbs/split_limbs.h"
#include "support/allocation_counter.h"
#include "support/limb_fixture.h"

namespace critter::creature {
namespace {

constexpr float kDt = 1.0f / 60.0f;
constexpr float kPi = std::numbers::pi_v<float>;
constexpr std::size_t kArmRight = 0, kArmLeft = 1, kLegRight = 2, kLegLeft = 3;

// The split fixture with an animator stepped on a rest pose or the walk clip.
struct Rig {
  explicit Rig(LimbAnimatorOptions options = {}) {
    auto split = split_limbs(testing::limb_fixture());
    EXPECT_TRUE(split.has_value());
    model = std::make_unique<Model>(std::move(split->model));
    limbs = split->limbs;
    auto made = LimbAnimator::create(*model, limbs, options);
    EXPECT_TRUE(made.has_value());
    animator = std::move(*made);
    const auto rest = model->skeleton().rest_pose();
    pose.assign(rest.begin(), rest.end());
    out.assign(rest.size(), mat4(1.0f));
    player = std::make_unique<anim::Player>(*model);
    step(0.0f);
    for (std::size_t i = 0; i < limbs.size(); ++i) rest_end.push_back(frame(i).end);
  }
  void step(float dt = kDt) {
    if (walking) {
      player->update(dt);
      const auto local = player->local_pose();
      std::copy(local.begin(), local.end(), pose.begin());
    }
    LimbStepJob job;
    job.animator = animator.get();
    job.local_pose = pose;
    job.dt = dt;
    job.output = out;
    ASSERT_TRUE(job.run().has_value());
  }
  void walk() {
    ASSERT_TRUE(player->play(model->find_clip("walk"), anim::PlaybackMode::kLoopForward));
    walking = true;
  }
  void motion(const BodyMotion& m) { ASSERT_TRUE(animator->set_motion(m).has_value()); }
  const LimbFrame& frame(std::size_t i) const { return animator->limb_frames()[i]; }
  vec3 joint_position(int joint) const { return vec3(out[static_cast<std::size_t>(joint)][3]); }

  std::unique_ptr<Model> model;
  std::vector<Limb> limbs;
  std::unique_ptr<LimbAnimator> animator;
  std::unique_ptr<anim::Player> player;
  std::vector<Transform> pose;
  std::vector<mat4> out;
  std::vector<vec3> rest_end;
  bool walking = false;
};

BodyMotion known_motion() {
  BodyMotion m;
  m.known = true;
  return m;
}

TEST(LimbAnimator, FixtureLimbsInOrder) {
  Rig rig;
  ASSERT_EQ(rig.animator->limbs().size(), 4u);
  EXPECT_EQ(rig.limbs[kArmRight].name, "Arm_Right");
  EXPECT_EQ(rig.limbs[kLegLeft].name, "Leg_Left");
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(rig.animator->pitch_sign(static_cast<int>(i)), 1) << i;
    EXPECT_EQ(rig.animator->spread_sign(static_cast<int>(i)),
              i == kArmRight || i == kLegRight ? -1 : 1)
        << i;
  }
}

// §22 item 2.
TEST(LimbAnimator, BendDirectionAndSeamWidth) {
  Rig rig;
  const vec3 axis = limb_bend_axis(kDefaultLimbForward);
  const Limb& knee = rig.limbs[kLegRight];
  const Limb& elbow = rig.limbs[kArmLeft];
  const vec3 foot = vec3(limb_bend(knee, 60.0f, axis) * vec4(knee.end, 1.0f));
  EXPECT_GT(foot.z - knee.end.z, 1.0f);  // the foot swings back
  const vec3 hand = vec3(limb_bend(elbow, 60.0f, axis) * vec4(elbow.end, 1.0f));
  EXPECT_LT(hand.z - elbow.end.z, -1.0f);  // the hand swings forward
  const vec3 pivot = vec3(limb_bend(knee, 60.0f, axis) * vec4(knee.pivot, 1.0f));
  EXPECT_LT(glm::length(pivot - knee.pivot), 1e-4f);

  // The seam under the 45° half-turn of a 90° knee keeps its rest width 2.1.
  const mat4 seam = limb_bend(knee, 45.0f, axis);
  const vec3 front = vec3(seam * vec4(knee.pivot + vec3(0, 0, -1.05f), 1.0f));
  const vec3 back = vec3(seam * vec4(knee.pivot + vec3(0, 0, 1.05f), 1.0f));
  EXPECT_NEAR(glm::length(front - back), 2.1f, 1e-3f);
  // A seam blended 50/50 between the two halves pinches to cos(45°) of it.
  const mat4 full = limb_bend(knee, 90.0f, axis);
  const auto blend = [&](vec3 p) { return (p + vec3(full * vec4(p, 1.0f))) * 0.5f; };
  const float pinched =
      glm::length(blend(knee.pivot + vec3(0, 0, -1.05f)) - blend(knee.pivot + vec3(0, 0, 1.05f)));
  std::printf("seam width at a 90° knee: half-turn %.4f, 50/50 blend %.4f\n",
              glm::length(front - back), pinched);
  EXPECT_NEAR(pinched, 2.1f * std::cos(kPi / 4.0f), 1e-3f);

  // The exact mitre keeps the seam's distance from the thigh's axis at the rest half-width.
  const mat4 mitre = limb_bend(knee, 45.0f, axis, kDefaultLimbForward, 90.0f);
  const vec3 m = vec3(mitre * vec4(knee.pivot + vec3(0, 0, 1.05f), 1.0f)) - knee.pivot;
  EXPECT_NEAR(std::abs(m.z), 1.05f, 1e-3f);
}

// §22 item 4: walking.
TEST(LimbAnimator, WalkBendsKneesAndElbows) {
  Rig rig;
  rig.walk();
  std::vector<float> lo(4, 1e9f), hi(4, -1e9f);
  for (int s = 0; s < 180; ++s) {
    rig.step();
    if (s < 30) continue;
    for (std::size_t i = 0; i < 4; ++i) {
      lo[i] = std::min(lo[i], rig.frame(i).bend);
      hi[i] = std::max(hi[i], rig.frame(i).bend);
    }
  }
  for (std::size_t i = 0; i < 4; ++i) {
    std::printf("%s bend %.1f..%.1f\n", rig.limbs[i].name.c_str(), lo[i], hi[i]);
    EXPECT_GT(hi[i] - lo[i], 10.0f) << i;
    EXPECT_LT(hi[i], 80.0f) << i;
    EXPECT_GE(lo[i], 0.0f) << i;
  }
}

TEST(LimbAnimator, FirstPersonElbowsStayNearlyStraight) {
  Rig rig;
  rig.animator->set_first_person(true);
  rig.walk();
  for (int s = 0; s < 180; ++s) {
    rig.step();
    if (s < 30) continue;
    EXPECT_LT(rig.frame(kArmLeft).bend, 10.0f);
    EXPECT_LT(rig.frame(kArmRight).bend, 10.0f);
  }
}

// §14 step 5: the host's first-person swing turns the arm about its own local axes on top of
// the animation, and that arm stays nearly straight; out of first person it does nothing.
TEST(LimbAnimator, FirstPersonSwingTurnsTheArmAndKeepsItStraight) {
  Rig plain;
  plain.animator->set_first_person(true);
  Rig swung;
  swung.animator->set_first_person(true);
  swung.animator->set_first_person_swing(swung.limbs[kArmRight].joint, {-40.0f, 0.0f, 0.0f});
  plain.walk();
  swung.walk();
  for (int s = 0; s < 120; ++s) {
    plain.step();
    swung.step();
  }
  EXPECT_NEAR(swung.frame(kArmRight).bend, 5.0f, 0.01f);
  EXPECT_GT(glm::length(swung.frame(kArmRight).end - plain.frame(kArmRight).end), 2.0f);
  // The other arm is untouched by the swing.
  EXPECT_NEAR(glm::length(swung.frame(kArmLeft).end - plain.frame(kArmLeft).end), 0.0f, 1e-4f);

  Rig third;
  third.animator->set_first_person_swing(third.limbs[kArmRight].joint, {-40.0f, 0.0f, 0.0f});
  third.step();
  EXPECT_NEAR(glm::length(third.frame(kArmRight).end - third.rest_end[kArmRight]), 0.0f, 0.3f);
  // A non-finite swing clears it.
  swung.animator->set_first_person_swing(swung.limbs[kArmRight].joint, {std::nanf(""), 0.0f, 0.0f});
  for (int s = 0; s < 60; ++s) {
    plain.step();
    swung.step();
  }
  EXPECT_NEAR(glm::length(swung.frame(kArmRight).end - plain.frame(kArmRight).end), 0.0f, 0.05f);
}

// §14 step 7: in first person the head shrinks to 1 % about its origin; the shadow pose keeps it.
TEST(LimbAnimator, FirstPersonShrinksTheHeadButNotItsShadow) {
  Rig rig;
  const auto head = static_cast<std::size_t>(rig.model->find_bone("Head"));
  const auto body = static_cast<std::size_t>(rig.model->find_bone("Body"));
  rig.step();
  EXPECT_NEAR(glm::length(vec3(rig.out[head][0])), 1.0f, 1e-4f);
  EXPECT_EQ(rig.animator->shadow_model_transforms()[head], rig.out[head]);
  rig.animator->set_first_person(true);
  rig.step();
  EXPECT_NEAR(glm::length(vec3(rig.out[head][0])), 0.01f, 1e-5f);
  EXPECT_NEAR(glm::length(vec3(rig.out[head][1])), 0.01f, 1e-5f);
  const mat4& shadow = rig.animator->shadow_model_transforms()[head];
  EXPECT_NEAR(glm::length(vec3(shadow[0])), 1.0f, 1e-4f);
  // Shrunk about its own origin: the neck stays where it was; the body is untouched.
  EXPECT_NEAR(glm::length(vec3(rig.out[head][3]) - vec3(shadow[3])), 0.0f, 1e-4f);
  EXPECT_EQ(rig.out[body], rig.animator->shadow_model_transforms()[body]);
}

TEST(LimbAnimator, OverriddenArmStaysNearlyStraight) {
  Rig rig;
  rig.animator->set_bone_override(rig.limbs[kArmLeft].joint, true);
  rig.walk();
  for (int s = 0; s < 120; ++s) rig.step();
  EXPECT_NEAR(rig.frame(kArmLeft).bend, 5.0f, 0.01f);
  EXPECT_GT(rig.frame(kArmRight).bend, 5.5f);
}

TEST(LimbAnimator, SwimCrawlCirclesEachHand) {
  Rig rig;
  rig.animator->set_water_pose(WaterPose::kSwim, 1.5f);
  std::vector<float> travelled(2, 0.0f), last(2, 0.0f);
  for (int s = 0; s <= 150; ++s) {  // 2.5 s
    rig.step();
    for (std::size_t a = 0; a < 2; ++a) {
      const vec3 shoulder = rig.joint_position(rig.limbs[a].joint);
      const vec3 d = rig.frame(a).end - shoulder;
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
  EXPECT_EQ(rig.animator->water_pose(), WaterPose::kSwim);
}

TEST(LimbAnimator, WieldItemFollowsTheForearm) {
  Rig rig;
  const int wield = testing::LimbFixtureJoint::kWieldItem;
  const float rest_distance = glm::length(rig.joint_position(wield) - rig.rest_end[kArmLeft]);
  rig.animator->set_water_pose(WaterPose::kPaddle, 1.0f);
  bool checked = false;
  for (int s = 0; s < 120; ++s) {
    rig.step();
    if (rig.frame(kArmLeft).bend > 20.0f) {
      checked = true;
      EXPECT_NEAR(glm::length(rig.joint_position(wield) - rig.frame(kArmLeft).end), rest_distance,
                  0.05f);
    }
  }
  EXPECT_TRUE(checked);
}

TEST(LimbAnimator, PaddleTreadAndBackToNone) {
  Rig rig;
  rig.animator->set_water_pose(WaterPose::kPaddle, 1.0f);
  bool reached = false;
  for (int s = 0; s < 180; ++s) {
    rig.step();
    reached = reached || (rig.frame(kArmRight).end.z < -3.0f && rig.frame(kArmLeft).end.z < -3.0f);
  }
  EXPECT_TRUE(reached);

  rig.animator->set_water_pose(WaterPose::kTread, 0.0f);
  for (int s = 0; s < 90; ++s) rig.step();
  for (std::size_t a = 0; a < 2; ++a) {
    EXPECT_GT(std::abs(rig.frame(a).end.x), std::abs(rig.rest_end[a].x) + 1.0f) << a;
  }
  rig.animator->set_water_pose(WaterPose::kNone, 0.0f);
  for (int s = 0; s < 120; ++s) rig.step();
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_LT(glm::length(rig.frame(i).end - rig.rest_end[i]), 1.2f) << i;
  }
}

// A fall of `seconds` (vy = -min(11, 9.81 t)), then grounded for 1 s. Returns the deepest knee,
// the drop there and how far a foot strayed from the ground there.
struct Landing {
  float knee = 0.0f, drop = 0.0f, stray = 0.0f, landing_after = 0.0f;
};
Landing fall_and_land(float seconds) {
  Rig rig;
  BodyMotion m = known_motion();
  rig.motion(m);
  rig.step();
  m.grounded = false;
  const int steps = static_cast<int>(std::lround(seconds * 60.0f));
  for (int s = 1; s <= steps; ++s) {
    m.vy = -std::min(11.0f, 9.81f * static_cast<float>(s) * kDt);
    rig.motion(m);
    rig.step();
  }
  m.grounded = true;
  m.vy = 0.0f;
  rig.motion(m);
  Landing out;
  for (int s = 0; s < 60; ++s) {
    rig.step();
    const float knee = std::max(rig.frame(kLegRight).bend, rig.frame(kLegLeft).bend);
    if (knee > out.knee) {
      out.knee = knee;
      out.drop = rig.animator->drop();
      out.stray = std::max(std::abs(rig.frame(kLegRight).end.y - rig.rest_end[kLegRight].y),
                           std::abs(rig.frame(kLegLeft).end.y - rig.rest_end[kLegLeft].y));
    }
  }
  out.landing_after = rig.animator->reactions().landing();
  return out;
}

// §22 item 5.
TEST(LimbAnimator, HardLandingCrouchesWithFeetPlanted) {
  const Landing hard = fall_and_land(1.2f);
  std::printf("hard landing: knee %.1f, drop %.3f, feet stray %.3f\n", hard.knee, hard.drop,
              hard.stray);
  EXPECT_GT(hard.knee, 45.0f);
  EXPECT_GT(hard.drop, 0.5f);
  EXPECT_LT(hard.stray, 0.35f);
  EXPECT_LT(hard.landing_after, 0.1f);
  const Landing soft = fall_and_land(0.45f);
  EXPECT_GT(soft.knee, 5.0f);
  EXPECT_LT(soft.knee, hard.knee);
}

TEST(LimbAnimator, FallingFlailsTheArms) {
  Rig rig;
  BodyMotion m = known_motion();
  m.grounded = false;
  m.vy = -9.0f;
  rig.motion(m);
  for (int s = 0; s < 90; ++s) rig.step();
  for (std::size_t a = 0; a < 2; ++a) {
    EXPECT_GT(std::abs(rig.frame(a).end.x), std::abs(rig.rest_end[a].x) + 2.0f) << a;
  }
}

TEST(LimbAnimator, StepUpLiftsOneKnee) {
  Rig rig;
  BodyMotion m = known_motion();
  rig.motion(m);
  rig.step();
  m.y = 0.55f;
  rig.motion(m);
  float one = 0.0f, other = 1e9f;
  for (int s = 0; s < 12; ++s) {
    rig.step();
    const float a = rig.frame(kLegRight).bend, b = rig.frame(kLegLeft).bend;
    one = std::max(one, std::max(a, b));
    other = std::min(other, std::min(a, b));
  }
  EXPECT_GT(one, 40.0f);
  EXPECT_LT(other, 15.0f);
}

TEST(LimbAnimator, ClimbReachesAboveTheShoulders) {
  Rig rig;
  rig.animator->set_water_pose(WaterPose::kClimb, 2.0f);
  for (int s = 0; s < 120; ++s) rig.step();
  float lowest = 1e9f;
  for (int s = 0; s < 60; ++s) {
    rig.step();
    lowest = std::min({lowest, rig.frame(kArmRight).end.y, rig.frame(kArmLeft).end.y});
  }
  EXPECT_GT(rig.frame(kArmRight).end.y, 13.0f);
  EXPECT_GT(rig.frame(kArmLeft).end.y, 13.0f);
  static_cast<void>(lowest);

  Rig still;
  still.animator->set_water_pose(WaterPose::kClimb, 0.0f);
  for (int s = 0; s < 120; ++s) still.step();
  const vec3 before = still.frame(kArmLeft).end;
  for (int s = 0; s < 30; ++s) still.step();
  EXPECT_LT(glm::length(still.frame(kArmLeft).end - before), 0.05f);
}

TEST(LimbAnimator, LeanAndBank) {
  Rig rig;
  BodyMotion m = known_motion();
  m.speed = 2.0f;
  m.accel = 8.0f;
  rig.motion(m);
  for (int s = 0; s < 60; ++s) rig.step();
  EXPECT_GT(rig.animator->lean(), 5.0f);
  EXPECT_LT(rig.frame(kArmLeft).end.z, rig.rest_end[kArmLeft].z - 0.3f);

  Rig back;
  m.accel = -8.0f;
  back.motion(m);
  for (int s = 0; s < 60; ++s) back.step();
  EXPECT_LT(back.animator->lean(), -5.0f);
  EXPECT_GT(back.frame(kArmLeft).end.z, back.rest_end[kArmLeft].z + 0.3f);

  Rig turn;
  m.accel = 0.0f;
  m.speed = 5.0f;
  m.yaw_rate = 90.0f;
  turn.motion(m);
  for (int s = 0; s < 60; ++s) turn.step();
  EXPECT_GT(turn.animator->bank(), 5.0f);
  EXPECT_LT(turn.frame(kArmLeft).end.x, turn.rest_end[kArmLeft].x - 0.3f);

  Rig first;
  first.animator->set_first_person(true);
  first.motion(m);
  for (int s = 0; s < 60; ++s) first.step();
  EXPECT_EQ(first.animator->lean(), 0.0f);
  EXPECT_EQ(first.animator->bank(), 0.0f);
}

TEST(LimbAnimator, StrokeEventsCrossingTheSurface) {
  Rig rig;
  const float surface = 9.0f;  // model units: between the shoulders and the waist
  rig.animator->set_liquid_query([surface](const vec3& p) { return p.y < surface; });
  rig.animator->set_in_water(true);
  rig.animator->set_water_pose(WaterPose::kTread, 0.0f);
  for (int s = 0; s < 240; ++s) rig.step();
  StrokeEvents events = rig.animator->take_stroke_events();
  ASSERT_FALSE(events.empty());
  bool in = false, out = false;
  for (const StrokeEvent& e : events.events()) {
    EXPECT_TRUE(e.hand);  // the feet stay under the surface
    EXPECT_GT(e.speed, 0.0f);
    EXPECT_NEAR(e.pos.y, surface, 1.0f);
    in = in || e.into;
    out = out || !e.into;
  }
  EXPECT_TRUE(in && out);
  EXPECT_TRUE(rig.animator->take_stroke_events().empty());
  // Out of the water the states are forgotten: re-entering fires nothing on the first sample.
  rig.animator->set_in_water(false);
  rig.step();
  rig.animator->set_in_water(true);
  rig.step();
  EXPECT_TRUE(rig.animator->pending_stroke_events().empty());
  // At most 64 queued.
  for (int s = 0; s < 6000; ++s) rig.step();
  EXPECT_EQ(rig.animator->pending_stroke_events().size(), StrokeEvents::kCapacity);
}

TEST(LimbAnimator, StepAllocatesNothing) {
  ASSERT_TRUE(testing::AllocationCounter::works());
  Rig rig;
  rig.walk();
  rig.animator->set_liquid_query([](const vec3& p) { return p.y < 9.0f; });
  rig.animator->set_in_water(true);
  rig.animator->set_water_pose(WaterPose::kSwim, 1.0f);
  rig.step();
  testing::AllocationCounter counter;
  for (int s = 0; s < 60; ++s) rig.step();
  static_cast<void>(rig.animator->take_stroke_events());
  EXPECT_EQ(counter.count(), 0);
}

TEST(LimbAnimator, RunsInACreatureModelChainWithoutChangingTheClip) {
  auto split = split_limbs(testing::limb_fixture());
  ASSERT_TRUE(split.has_value());
  const Model& model = split->model;
  auto animator = LimbAnimator::create(model, split->limbs);
  ASSERT_TRUE(animator.has_value());
  LimbAnimator* limbs = animator->get();
  CreatureModel creature(model, {.model_space = true});
  creature.add_pose_modifier(std::move(*animator));
  CreatureState state;
  for (int s = 0; s < 60; ++s) ASSERT_TRUE(creature.update(kDt, state).has_value());
  const auto& player = creature.player();
  // The clip's own pose is untouched; the lower halves moved.
  const Limb& leg = limbs->limbs()[kLegRight];
  EXPECT_EQ(creature.local_pose()[static_cast<std::size_t>(leg.bone)], Transform{});
  const mat4 upper = creature.model_transforms()[static_cast<std::size_t>(leg.joint)];
  const mat4 lower = creature.model_transforms()[static_cast<std::size_t>(leg.bone)];
  EXPECT_GT(limbs->limb_frames()[kLegRight].bend, 1.0f);
  EXPECT_GT(glm::length(vec3(upper[2]) - vec3(lower[2])), 1e-3f);
  EXPECT_TRUE(player.playing());
}

TEST(LimbAnimator, BadInputGivesNoNaN) {
  Rig rig;
  // A zero-scaled limb joint: left unbent, reported, nothing NaN.
  rig.pose[static_cast<std::size_t>(rig.limbs[kArmLeft].joint)].scale = vec3(0.0f);
  rig.step();
  EXPECT_EQ(rig.animator->degenerate_joint(), rig.limbs[kArmLeft].joint);
  for (const mat4& m : rig.out) EXPECT_TRUE(all_finite(m));
  for (const LimbFrame& f : rig.animator->limb_frames()) EXPECT_TRUE(all_finite(f.end));

  BodyMotion nan = known_motion();
  nan.vy = std::nanf("");
  const Status bad = rig.animator->set_motion(nan);
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().path, "BodyMotion");
  EXPECT_NE(bad.error().to_string().find("vy"), std::string::npos);

  LimbStepJob job;
  job.animator = rig.animator.get();
  job.local_pose = rig.pose;
  job.output = rig.out;
  job.dt = -1.0f;
  ASSERT_FALSE(job.validate().has_value());
  job.dt = kDt;
  job.output = std::span<mat4>(rig.out).first(3);
  ASSERT_FALSE(job.validate().has_value());
  job.animator = nullptr;
  ASSERT_FALSE(job.validate().has_value());

  // Limbs that do not belong to the model.
  std::vector<Limb> wrong = rig.limbs;
  wrong[1].bone = 500;
  const auto made = LimbAnimator::create(*rig.model, wrong);
  ASSERT_FALSE(made.has_value());
  EXPECT_NE(made.error().to_string().find("limbs/1"), std::string::npos);
  // No limbs at all: the step passes the pose through.
  auto none = LimbAnimator::create(*rig.model, {});
  ASSERT_TRUE(none.has_value());
}

// The step job's placement starts as the library's identity matrix (copied, not built in the
// caller: docs/jobs.md, "Building a job per call"); JobMatrixDefaults in the anim tests checks
// that the constant is the identity.
TEST(LimbStepJobDefaults, PlacementStartsAsTheLibrarysIdentity) {
  const LimbStepJob job;
  EXPECT_EQ(job.root, kIdentityMatrix);
  EXPECT_EQ(job.root_correction, kIdentityMatrix);
}

}  // namespace
}  // namespace critter::creature
