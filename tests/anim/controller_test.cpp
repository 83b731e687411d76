// SPDX-License-Identifier: MIT
#include "critter/anim/controller.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "critter/anim/blending_job.h"
#include "critter/anim/player.h"
#include "critter/asset/demo_creature.h"

#include "support/controller_builders.h"
#include "support/math_helpers.h"
#include "support/raw_track.h"
#include "support/test_models.h"

namespace critter::anim {
namespace {

using critter::testing::angle_between;
using critter::testing::axis_angle;
using critter::testing::kPi;

constexpr float kDt = 1.0f / 60.0f;

// Largest per-joint change between two poses: rotation angle (radians) or translation (metres).
float pose_jump(std::span<const Transform> a, std::span<const Transform> b) {
  float m = 0.0f;
  for (std::size_t j = 0; j < a.size(); ++j) {
    m = std::max(m, angle_between(a[j].rotation, b[j].rotation));
    m = std::max(m, glm::length(a[j].translation - b[j].translation));
  }
  return m;
}

using critter::testing::clip_anim;
using critter::testing::compile_or_die;
using critter::testing::group;
using critter::testing::layer;
using critter::testing::leaf;
using critter::testing::raw_track;

// Two joints: root, and child at (0, 1, 0). Constant clips (1 s): "turn" rotates the child 90
// degrees about Y; "tilt" rotates the child 60 degrees about X and moves the root to x = 2.
Model make_two_joint_model() {
  RawModel raw;
  raw.name = "controller-test";
  raw.format = "code";
  raw.skeleton.joints = critter::testing::two_joint_rig();
  const quat turn = axis_angle(vec3(0, 1, 0), kPi / 2);
  const quat tilt = axis_angle(vec3(1, 0, 0), kPi / 3);
  RawClip c_turn;
  c_turn.name = "turn";
  c_turn.tracks.push_back(
      raw_track(TrackTarget::kRotation, 1, 4, {0, 1},
                {turn.x, turn.y, turn.z, turn.w, turn.x, turn.y, turn.z, turn.w}));
  RawClip c_tilt;
  c_tilt.name = "tilt";
  c_tilt.tracks.push_back(
      raw_track(TrackTarget::kRotation, 1, 4, {0, 1},
                {tilt.x, tilt.y, tilt.z, tilt.w, tilt.x, tilt.y, tilt.z, tilt.w}));
  c_tilt.tracks.push_back(raw_track(TrackTarget::kTranslation, 0, 3, {0, 1}, {2, 0, 0, 2, 0, 0}));
  raw.clips = {c_turn, c_tilt};
  auto model = build_model(std::move(raw));
  EXPECT_TRUE(model) << model.error().to_string();
  return std::move(*model);
}

int count(const Controller& c, ControllerRecord::Kind kind, std::string_view name) {
  int n = 0;
  for (const auto& r : c.records()) n += (r.kind == kind && r.name == name) ? 1 : 0;
  return n;
}

class ControllerTest : public testing::DemoQuadrupedTest {};

// Rules: IsDead -> null; group [IsOnGround] { [SpeedXZ] > 0.2 -> walk }; true -> idle.
ControllerDesc gait_desc(int walk, int idle, float blend = 0.0f) {
  ControllerDesc d;
  d.layers.push_back(layer("Base"));
  ControllerStateDesc s;
  s.name = "gait";
  s.layer = 0;
  ControllerAnimationDesc none;
  s.rules.push_back(leaf("IsDead", none));
  s.rules.push_back(group("[IsOnGround]", {leaf("[SpeedXZ] > 0.2", clip_anim(walk, blend))}));
  s.rules.push_back(leaf("true", clip_anim(idle, blend)));
  d.states.push_back(s);
  return d;
}

TEST_F(ControllerTest, RejectsBadDescriptions) {
  ControllerDesc bad_expr = gait_desc(walk_, idle_);
  bad_expr.states[0].rules[0].condition = "[SpeedXZ] >";
  auto p = ControllerProgram::compile(*demo_, std::move(bad_expr));
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error().location, "states/0/rules/0/condition");

  ControllerDesc bad_clip = gait_desc(99, idle_);
  p = ControllerProgram::compile(*demo_, std::move(bad_clip));
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error().location, "states/0/rules/1/rules/0/animation/clip");

  ControllerDesc bad_mask = gait_desc(walk_, idle_);
  bad_mask.layers[0].joint_weights = {1.0f, 1.0f};
  EXPECT_FALSE(ControllerProgram::compile(*demo_, std::move(bad_mask)));
}

TEST_F(ControllerTest, FirstMatchingRuleWithGroupsAndBacktracking) {
  Controller c(compile_or_die(*demo_, gait_desc(walk_, idle_)));
  auto& v = c.parameters();
  const Clip* walk = &demo_->clips()[static_cast<std::size_t>(walk_)];
  const Clip* idle = &demo_->clips()[static_cast<std::size_t>(idle_)];

  v.set_bool("IsOnGround", true);
  v.set_float("SpeedXZ", 1.0);
  c.update(kDt);
  EXPECT_EQ(c.layer_player(0).clip(), walk);

  // The group matches but its only child does not: the walk backtracks to the group's sibling.
  v.set_float("SpeedXZ", 0.1);
  c.update(kDt);
  EXPECT_EQ(c.layer_player(0).clip(), idle);

  // The group's condition fails although its child would match.
  v.set_bool("IsOnGround", false);
  v.set_float("SpeedXZ", 1.0);
  c.update(kDt);
  EXPECT_EQ(c.layer_player(0).clip(), idle);

  v.set_bool("IsOnGround", true);
  c.update(kDt);
  EXPECT_EQ(c.layer_player(0).clip(), walk);
}

TEST_F(ControllerTest, SameRuleDoesNotRestartAndRulesRunOnlyOnChange) {
  Controller c(compile_or_die(*demo_, gait_desc(walk_, idle_)));
  auto& v = c.parameters();
  v.set_bool("IsOnGround", true);
  v.set_float("SpeedXZ", 1.0);
  c.update(0.0f);
  const std::uint32_t id = c.layer_player(0).playhead().play_id();
  for (int i = 0; i < 30; ++i) {
    v.set_float("Health", 1.0 - 0.01 * i);  // a change: rules run, same leaf matches
    c.update(0.01f);
  }
  EXPECT_EQ(c.layer_player(0).playhead().play_id(), id);
  EXPECT_NEAR(c.layer_player(0).clip_time(), 0.30f, 1e-4f);

  // Without a parameter change the rules are not evaluated, so a new match waits for a change.
  c.update(0.01f);
  EXPECT_EQ(c.layer_player(0).playhead().play_id(), id);
}

TEST_F(ControllerTest, NullSourceFadesTheLayerOutOverPointTwoSeconds) {
  Controller c(compile_or_die(*demo_, gait_desc(walk_, idle_)));
  auto& v = c.parameters();
  c.update(0.0f);  // idle, hard cut, weight 1 at once
  EXPECT_FLOAT_EQ(c.layer_weight(0), 1.0f);
  v.set_bool("IsDead", true);
  c.update(0.0f);
  c.update(0.1f);
  EXPECT_NEAR(c.layer_weight(0), 0.5f, 1e-5f);  // linear: 1 - 0.1 / 0.2
  EXPECT_TRUE(c.layer_active(0));
  c.update(0.1f);
  EXPECT_FALSE(c.layer_active(0));
  EXPECT_EQ(c.layer_player(0).clip(), nullptr);
  const auto pose = c.compute_pose();
  const auto rest = demo_->skeleton().rest_pose();
  for (std::size_t j = 0; j < pose.size(); ++j) EXPECT_EQ(pose[j], rest[j]) << j;
}

TEST_F(ControllerTest, WeightFadeInOnAnEmptyLayerFollowsTheCurve) {
  ControllerDesc d = gait_desc(walk_, idle_, 1.0f);
  d.layers[0].blend_curve = BlendCurve::kSmoothstep;
  Controller c(compile_or_die(*demo_, std::move(d)));
  c.update(0.0f);
  EXPECT_FLOAT_EQ(c.layer_weight(0), 0.0f);
  c.update(0.25f);
  EXPECT_NEAR(c.layer_weight(0), 0.15625f, 1e-5f);  // 3x^2 - 2x^3 at x = 0.25
  c.update(0.25f);
  EXPECT_NEAR(c.layer_weight(0), 0.5f, 1e-5f);
  c.update(0.5f);
  EXPECT_FLOAT_EQ(c.layer_weight(0), 1.0f);
  // The clip started at once (no crossfade from rest): it is 1 s in.
  EXPECT_NEAR(c.layer_player(0).clip_time(), 1.0f, 1e-4f);
}

// The layer stack blends rotations the way set_rotation_blend() says: mid fade-in the pose is the
// BlendingJob's of the player's pose over rest with that rotation blend.
TEST_F(ControllerTest, RotationBlendChoosesHowTheLayerStackBlends) {
  std::vector<Transform> poses[3];
  const RotationBlend blends[3] = {RotationBlend::kSlerp, RotationBlend::kNlerp,
                                   RotationBlend::kLerp};
  for (int b = 0; b < 3; ++b) {
    ControllerDesc d = gait_desc(walk_, idle_, 1.0f);
    d.layers[0].blend_curve = BlendCurve::kSmoothstep;
    Controller c(compile_or_die(*demo_, std::move(d)));
    EXPECT_EQ(c.rotation_blend(), RotationBlend::kSlerp);
    c.set_rotation_blend(blends[b]);
    EXPECT_EQ(c.rotation_blend(), blends[b]);
    c.parameters().set_float("SpeedXZ", 1.0);
    c.parameters().set_bool("IsOnGround", true);
    c.update(0.0f);
    c.update(0.25f);
    ASSERT_NEAR(c.layer_weight(0), 0.15625f, 1e-5f);
    const std::span<const Transform> pose = c.compute_pose();
    poses[b].assign(pose.begin(), pose.end());
    BlendingLayer layer;
    layer.pose = c.layer_player(0).local_pose();
    layer.weight = c.layer_weight(0);
    std::vector<Transform> want(pose.size());
    BlendingJob job;
    job.layers = {&layer, 1};
    job.rest = demo_->skeleton().rest_pose();
    job.output = want;
    job.rotations = blends[b];
    ASSERT_TRUE(job.run());
    for (std::size_t j = 0; j < want.size(); ++j) {
      EXPECT_LT(angle_between(pose[j].rotation, want[j].rotation), 1e-5f) << j;
      EXPECT_LT(glm::length(pose[j].translation - want[j].translation), 1e-6f) << j;
    }
  }
  // The two blends differ where the walk turns a joint away from rest (a weight other than ½).
  float most = 0.0f;
  for (std::size_t j = 0; j < poses[0].size(); ++j)
    most = std::max(most, angle_between(poses[0][j].rotation, poses[1][j].rotation));
  EXPECT_GT(most, 1e-5f);
  EXPECT_LT(most, 0.02f);
  // One layer over rest: lerp is nlerp, bit for bit.
  for (std::size_t j = 0; j < poses[1].size(); ++j)
    EXPECT_EQ(std::memcmp(&poses[1][j], &poses[2][j], sizeof(Transform)), 0) << j;
  // A value that is none of the blends counts as slerp.
  Controller c(compile_or_die(*demo_, gait_desc(walk_, idle_)));
  c.set_rotation_blend(static_cast<RotationBlend>(9));
  EXPECT_EQ(c.rotation_blend(), RotationBlend::kSlerp);
}

TEST_F(ControllerTest, CrossfadeTimingAndInterruptionHaveNoPops) {
  Controller c(compile_or_die(*demo_, gait_desc(walk_, idle_, 0.4f)));
  auto& v = c.parameters();
  v.set_bool("IsOnGround", true);
  c.update(0.0f);  // idle fades in over 0.4 s
  for (int i = 0; i < 60; ++i) c.update(kDt);
  EXPECT_FLOAT_EQ(c.layer_weight(0), 1.0f);
  std::vector<Transform> last(c.compute_pose().begin(), c.compute_pose().end());

  float worst = 0.0f;
  auto step = [&] {
    c.update(kDt);
    const auto pose = c.compute_pose();
    worst = std::max(worst, pose_jump(last, pose));
    last.assign(pose.begin(), pose.end());
  };
  v.set_float("SpeedXZ", 1.0);  // idle -> walk over 0.4 s
  step();
  EXPECT_TRUE(c.layer_player(0).crossfading());
  for (int i = 0; i < 11; ++i) step();  // 0.2 s in
  EXPECT_NEAR(c.layer_player(0).blend_weight(), 0.5f, 1e-3f);
  v.set_float("SpeedXZ", 0.0);  // interrupted mid-crossfade: back to idle
  for (int i = 0; i < 30; ++i) step();
  EXPECT_FALSE(c.layer_player(0).crossfading());
  EXPECT_EQ(c.layer_player(0).clip(), &demo_->clips()[static_cast<std::size_t>(idle_)]);

  // The same switches with hard cuts jump visibly, so the bound below can fail.
  Controller hard(compile_or_die(*demo_, gait_desc(walk_, idle_, 0.0f)));
  hard.parameters().set_bool("IsOnGround", true);
  hard.update(0.0f);
  for (int i = 0; i < 60; ++i) hard.update(kDt);
  std::vector<Transform> before(hard.compute_pose().begin(), hard.compute_pose().end());
  hard.parameters().set_float("SpeedXZ", 1.0);
  hard.update(kDt);
  const float cut = pose_jump(before, hard.compute_pose());
  EXPECT_GT(cut, 0.1f);
  EXPECT_LT(worst, 0.05f);
  EXPECT_LT(worst, cut / 2.0f);
}

TEST_F(ControllerTest, OverrideAndAdditiveLayersWithMasks) {
  Model model = make_two_joint_model();
  const quat turn = axis_angle(vec3(0, 1, 0), kPi / 2);
  const quat tilt = axis_angle(vec3(1, 0, 0), kPi / 3);
  auto make = [&](LayerBlendMode mode, float weight, std::vector<float> mask) {
    ControllerDesc d;
    d.layers.push_back(layer("Base"));
    d.layers.push_back(layer("Top", mode));
    d.layers[1].weight = weight;
    d.layers[1].joint_weights = std::move(mask);
    ControllerStateDesc base;
    base.layer = 0;
    base.rules.push_back(leaf("true", clip_anim(0)));
    ControllerStateDesc top;
    top.layer = 1;
    top.rules.push_back(leaf("true", clip_anim(1)));
    d.states = {base, top};
    auto c = std::make_unique<Controller>(compile_or_die(model, std::move(d)));
    c->update(0.0f);
    c->update(0.5f);
    return c;
  };
  auto near = [](const quat& a, const quat& b) { return angle_between(a, b) < 1e-4f; };

  // Override at full weight replaces both joints; the root takes tilt's translation.
  auto over = make(LayerBlendMode::kOverride, 1.0f, {});
  auto p = over->compute_pose();
  EXPECT_TRUE(near(p[1].rotation, tilt));
  EXPECT_NEAR(p[0].translation.x, 2.0f, 1e-5f);

  // Override at half weight: halfway between turn and tilt; root halfway between 0 and 2.
  auto half = make(LayerBlendMode::kOverride, 0.5f, {});
  p = half->compute_pose();
  EXPECT_NEAR(angle_between(p[1].rotation, turn), angle_between(turn, tilt) / 2.0f, 1e-4f);
  EXPECT_NEAR(p[0].translation.x, 1.0f, 1e-5f);

  // Mask with only the child: the root keeps the base layer's (rest) translation.
  auto masked = make(LayerBlendMode::kOverride, 1.0f, {0.0f, 1.0f});
  p = masked->compute_pose();
  EXPECT_TRUE(near(p[1].rotation, tilt));
  EXPECT_NEAR(p[0].translation.x, 0.0f, 1e-6f);

  // Additive at full weight: turn · tilt on the local side; root moves by +2.
  auto add = make(LayerBlendMode::kAdditive, 1.0f, {});
  p = add->compute_pose();
  EXPECT_TRUE(near(p[1].rotation, turn * tilt));
  EXPECT_NEAR(p[0].translation.x, 2.0f, 1e-5f);
  EXPECT_NEAR(p[1].translation.y, 1.0f, 1e-5f);  // child translation untouched (identity delta)

  // Additive at half weight, masked to the child: turn · (30 degrees about X), root unmoved.
  auto add_half = make(LayerBlendMode::kAdditive, 0.5f, {0.0f, 1.0f});
  p = add_half->compute_pose();
  EXPECT_TRUE(near(p[1].rotation, turn * axis_angle(vec3(1, 0, 0), kPi / 6)));
  EXPECT_NEAR(p[0].translation.x, 0.0f, 1e-6f);
}

// walk, non-looping, event Footstep at 0.5, onComplete Done, onInterrupt Cut.
ControllerDesc once_desc(int walk, int idle, bool preserve) {
  ControllerDesc d = gait_desc(walk, idle);
  auto& w = d.states[0].rules[1].rules[0].animation;
  w.loop.value = false;
  w.preserve_pose = preserve;
  w.events.push_back(ClipEvent{0.5f, "Footstep", "left"});
  w.on_complete.type = ControllerActionDesc::Type::kTrigger;
  w.on_complete.name = "Done";
  w.on_interrupt.type = ControllerActionDesc::Type::kTrigger;
  w.on_interrupt.name = "Cut";
  return d;
}

TEST_F(ControllerTest, EventsAndCompletionFireExactlyOnce) {
  Controller c(compile_or_die(*demo_, once_desc(walk_, idle_, false)));
  int footsteps = 0;
  std::string data;
  double seen_at = -1.0;
  ControllerHooks hooks;
  hooks.event = [&](const ControllerRecord& r, ParameterValues&, double time) {
    ++footsteps;
    data = r.name == "Footstep" ? r.data : "?";
    seen_at = time;
  };
  c.set_hooks(std::move(hooks));
  auto& v = c.parameters();
  v.set_bool("IsOnGround", true);
  v.set_float("SpeedXZ", 1.0);
  std::vector<ControllerRecord> all;
  for (int i = 0; i < 20; ++i) {  // 2 s of a 1 s clip
    c.update(0.1f);
    all.insert(all.end(), c.records().begin(), c.records().end());
    c.clear_records();
  }
  int events = 0, done = 0, cut = 0;
  for (const auto& r : all) {
    events += r.kind == ControllerRecord::Kind::kEvent && r.name == "Footstep";
    done += r.kind == ControllerRecord::Kind::kComplete && r.name == "Done";
    cut += r.kind == ControllerRecord::Kind::kInterrupt;
  }
  EXPECT_EQ(events, 1);
  EXPECT_EQ(done, 1);
  EXPECT_EQ(cut, 0);
  EXPECT_EQ(footsteps, 1);
  EXPECT_EQ(data, "left");
  EXPECT_NEAR(seen_at, 0.5, 1e-6);  // the update that crossed 0.5 s of the clip
  // Without preservePose the finished clip faded out over 0.2 s.
  EXPECT_FALSE(c.layer_active(0));
}

TEST_F(ControllerTest, PreservePoseHoldsTheLastFrame) {
  Controller c(compile_or_die(*demo_, once_desc(walk_, idle_, true)));
  c.parameters().set_bool("IsOnGround", true);
  c.parameters().set_float("SpeedXZ", 1.0);
  for (int i = 0; i < 20; ++i) c.update(0.1f);
  EXPECT_TRUE(c.layer_active(0));
  EXPECT_FLOAT_EQ(c.layer_weight(0), 1.0f);
  EXPECT_FLOAT_EQ(c.layer_player(0).clip_time(), 1.0f);
  EXPECT_EQ(count(c, ControllerRecord::Kind::kComplete, "Done"), 1);
}

TEST_F(ControllerTest, InterruptFiresOnceWhenReplacedAndNotAgainOnDeactivation) {
  Controller c(compile_or_die(*demo_, once_desc(walk_, idle_, false)));
  auto& v = c.parameters();
  v.set_bool("IsOnGround", true);
  v.set_float("SpeedXZ", 1.0);
  c.update(0.1f);
  c.update(0.1f);
  v.set_float("SpeedXZ", 0.0);  // idle replaces the running walk
  c.update(0.1f);
  EXPECT_EQ(count(c, ControllerRecord::Kind::kInterrupt, "Cut"), 1);
  v.set_bool("IsDead", true);  // deactivation of a looping idle: no action
  for (int i = 0; i < 20; ++i) c.update(0.1f);
  EXPECT_EQ(count(c, ControllerRecord::Kind::kInterrupt, "Cut"), 1);
  EXPECT_EQ(count(c, ControllerRecord::Kind::kComplete, "Done"), 0);
}

TEST_F(ControllerTest, SetStateActionAndTriggersDriveRules) {
  ControllerDesc d;
  d.layers.push_back(layer("Base"));
  ControllerStateDesc s;
  s.layer = 0;
  ControllerAnimationDesc once = clip_anim(walk_);
  once.loop.value = false;
  once.on_complete.type = ControllerActionDesc::Type::kSetState;
  once.on_complete.parameter = "Mode";
  once.on_complete.value = ParameterValue::of_string("rest");
  s.rules.push_back(leaf("[Mode] = 'go'", once));
  s.rules.push_back(leaf("[Mode] = 'rest'", clip_anim(idle_)));
  d.states.push_back(s);
  d.schema.declare("Mode", ParameterValue::of_string("go")).value();
  Controller c(compile_or_die(*demo_, std::move(d)));
  c.update(0.0f);
  EXPECT_EQ(c.layer_player(0).clip(), &demo_->clips()[static_cast<std::size_t>(walk_)]);
  c.update(1.5f);  // completes: Mode becomes 'rest'
  EXPECT_EQ(c.parameters().text(c.program().schema().find("Mode")), "rest");
  c.update(0.0f);
  EXPECT_EQ(c.layer_player(0).clip(), &demo_->clips()[static_cast<std::size_t>(idle_)]);
}

TEST_F(ControllerTest, SpeedExpressionReEvaluatesEveryFrame) {
  ControllerDesc d = gait_desc(walk_, idle_);
  d.states[0].rules[1].rules[0].animation.speed.expression = "[SpeedXZ] * 0.5";
  Controller c(compile_or_die(*demo_, std::move(d)));
  c.parameters().set_bool("IsOnGround", true);
  c.parameters().set_float("SpeedXZ", 1.0);
  c.update(0.0f);
  c.update(0.2f);
  EXPECT_NEAR(c.layer_player(0).clip_time(), 0.1f, 1e-4f);
  c.parameters().set_float("SpeedXZ", 1.6);
  c.update(0.25f);
  EXPECT_NEAR(c.layer_player(0).clip_time(), 0.3f, 1e-4f);
}

// once_desc's walk (1 s, Footstep at 0.5) whose loop is the bool parameter Looping.
ControllerDesc loop_expression_desc(int walk, int idle, bool looping) {
  ControllerDesc d = once_desc(walk, idle, true);
  d.states[0].rules[1].rules[0].animation.loop = DynamicBoolDesc{false, "[Looping]"};
  d.schema.declare("Looping", ParameterValue::of_bool(looping)).value();
  return d;
}

TEST_F(ControllerTest, LoopExpressionTurnedOffCompletesOnceAtTheEndWithoutAJump) {
  Controller c(compile_or_die(*demo_, loop_expression_desc(walk_, idle_, true)));
  auto& v = c.parameters();
  v.set_bool("IsOnGround", true);
  v.set_float("SpeedXZ", 1.0);
  std::vector<ControllerRecord> all;
  auto step = [&](float dt) {
    c.update(dt);
    all.insert(all.end(), c.records().begin(), c.records().end());
    c.clear_records();
  };
  auto tally = [&](ControllerRecord::Kind kind, std::string_view name) {
    int n = 0;
    for (const auto& r : all) n += (r.kind == kind && r.name == name) ? 1 : 0;
    return n;
  };
  step(0.0f);
  EXPECT_EQ(c.layer_player(0).mode(), PlaybackMode::kLoopForward);
  step(0.6f);
  step(0.6f);  // wrapped once: 1.2 s of a 1 s loop
  EXPECT_NEAR(c.layer_player(0).clip_time(), 0.2f, 1e-5f);
  EXPECT_EQ(tally(ControllerRecord::Kind::kEvent, "Footstep"), 1);
  const std::vector<Transform> before(c.compute_pose().begin(), c.compute_pose().end());

  v.set_bool("Looping", false);
  step(0.0f);  // the same rule: no restart, the cursor stays at 0.2 s
  EXPECT_EQ(c.layer_player(0).mode(), PlaybackMode::kOnceForward);
  EXPECT_NEAR(c.layer_player(0).clip_time(), 0.2f, 1e-5f);
  EXPECT_NEAR(pose_jump(before, c.compute_pose()), 0.0f, 1e-6f);
  step(0.5f);  // 0.7 s: the second footstep
  EXPECT_EQ(tally(ControllerRecord::Kind::kEvent, "Footstep"), 2);
  EXPECT_EQ(tally(ControllerRecord::Kind::kComplete, "Done"), 0);
  step(0.5f);  // 1.2 s would wrap; the play ends on 1 s and completes in this update
  EXPECT_EQ(tally(ControllerRecord::Kind::kComplete, "Done"), 1);
  EXPECT_FLOAT_EQ(c.layer_player(0).clip_time(), 1.0f);
  for (int i = 0; i < 10; ++i) step(0.1f);
  v.set_bool("Looping", true);  // a completed play is not revived
  for (int i = 0; i < 10; ++i) step(0.1f);
  EXPECT_FLOAT_EQ(c.layer_player(0).clip_time(), 1.0f);
  EXPECT_TRUE(c.layer_active(0));  // preservePose holds the last frame
  EXPECT_EQ(tally(ControllerRecord::Kind::kComplete, "Done"), 1);
  EXPECT_EQ(tally(ControllerRecord::Kind::kEvent, "Footstep"), 2);
  v.set_float("SpeedXZ", 0.0);  // replaced after completing: no interrupt
  step(0.1f);
  EXPECT_EQ(tally(ControllerRecord::Kind::kInterrupt, "Cut"), 0);
}

TEST_F(ControllerTest, LoopExpressionTurnedOnKeepsPlayingPastTheEnd) {
  Controller c(compile_or_die(*demo_, loop_expression_desc(walk_, idle_, false)));
  auto& v = c.parameters();
  v.set_bool("IsOnGround", true);
  v.set_float("SpeedXZ", 1.0);
  c.update(0.0f);
  EXPECT_EQ(c.layer_player(0).mode(), PlaybackMode::kOnceForward);
  c.update(0.7f);
  v.set_bool("Looping", true);
  c.update(0.5f);  // wraps to 0.2 s instead of completing
  EXPECT_NEAR(c.layer_player(0).clip_time(), 0.2f, 1e-5f);
  for (int i = 0; i < 30; ++i) c.update(0.1f);
  EXPECT_TRUE(c.layer_player(0).playing());
  EXPECT_NEAR(c.layer_player(0).clip_time(), 0.2f, 1e-4f);  // 3.2 s into a 1 s loop
  EXPECT_EQ(count(c, ControllerRecord::Kind::kComplete, "Done"), 0);
  EXPECT_EQ(count(c, ControllerRecord::Kind::kEvent, "Footstep"), 4);  // at 0.5, 1.5, 2.5, 3.5 s
  c.clear_records();

  // Looping when replaced: no onInterrupt. Non-looping again, then replaced: exactly one.
  v.set_float("SpeedXZ", 0.0);
  c.update(0.1f);
  EXPECT_EQ(count(c, ControllerRecord::Kind::kInterrupt, "Cut"), 0);
  v.set_float("SpeedXZ", 1.0);
  c.update(0.1f);  // a new walk play, looping (Looping is true)
  v.set_bool("Looping", false);
  c.update(0.1f);
  v.set_float("SpeedXZ", 0.0);
  c.update(0.1f);
  v.set_bool("IsDead", true);
  for (int i = 0; i < 5; ++i) c.update(0.1f);
  EXPECT_EQ(count(c, ControllerRecord::Kind::kInterrupt, "Cut"), 1);
  EXPECT_EQ(count(c, ControllerRecord::Kind::kComplete, "Done"), 0);
}

TEST_F(ControllerTest, RootBoneCorrectionBlendsOnAnimationChange) {
  ControllerDesc d = gait_desc(walk_, idle_, 0.5f);
  d.root_bone_rotation = axis_angle(vec3(0, 1, 0), kPi);
  d.states[0].rules[1].rules[0].animation.root_bone_rotation = quat(1, 0, 0, 0);
  Controller c(compile_or_die(*demo_, std::move(d)));
  EXPECT_NEAR(angle_between(c.root_bone_rotation(), axis_angle(vec3(0, 1, 0), kPi)), 0.0f, 1e-4f);
  c.parameters().set_bool("IsOnGround", true);
  c.parameters().set_float("SpeedXZ", 1.0);
  c.update(0.0f);
  c.update(0.25f);  // smoothstep(0.5) = 0.5: halfway, 90 degrees
  EXPECT_NEAR(angle_between(c.root_bone_rotation(), quat(1, 0, 0, 0)), kPi / 2, 1e-3f);
  c.update(0.25f);
  EXPECT_NEAR(angle_between(c.root_bone_rotation(), quat(1, 0, 0, 0)), 0.0f, 1e-3f);
  // A null source on Base blends back to the top-level value over 0.2 s.
  c.parameters().set_bool("IsDead", true);
  c.update(0.0f);
  c.update(0.1f);  // smoothstep(0.5) = 0.5
  EXPECT_NEAR(angle_between(c.root_bone_rotation(), axis_angle(vec3(0, 1, 0), kPi)), kPi / 2,
              1e-3f);
  c.update(0.1f);
  EXPECT_NEAR(angle_between(c.root_bone_rotation(), axis_angle(vec3(0, 1, 0), kPi)), 0.0f, 1e-3f);
}

}  // namespace
}  // namespace critter::anim

namespace critter::anim {
namespace {

TEST_F(ControllerTest, LookAtDriverPresetTurnsOnlyItsBoneWithinTheLimits) {
  ControllerDesc d;
  ControllerLayerDesc head = layer("Head");
  head.driver.type = "LookAtDriver";
  head.driver.target_bone = demo_->find_bone("head");
  head.driver.yaw_axis = 1;
  head.driver.max_yaw_degrees = 40.0f;
  d.layers.push_back(head);
  Controller c(compile_or_die(*demo_, std::move(d)));
  EXPECT_TRUE(c.layer_active(0));
  c.parameters().set_float("LookAngleX", 0.5);
  c.parameters().set_float("LookAngleY", 0.25);
  c.update(kDt);
  auto pose = c.compute_pose();
  const auto rest = demo_->skeleton().rest_pose();
  const std::size_t h = static_cast<std::size_t>(demo_->find_bone("head"));
  // Yaw about Y by -0.5, then pitch about X (the default pitch axis) by 0.25; rest rotation is
  // identity and the rest translation is kept.
  const quat expected = axis_angle(vec3(0, 1, 0), -0.5f) * axis_angle(vec3(1, 0, 0), 0.25f);
  EXPECT_LT(angle_between(pose[h].rotation, expected), 1e-4f);
  EXPECT_EQ(pose[h].translation, rest[h].translation);
  for (std::size_t j = 0; j < pose.size(); ++j) {
    if (j != h) {
      EXPECT_EQ(pose[j], rest[j]) << j;
    }
  }
  c.parameters().set_float("LookAngleX", -2.0);  // beyond 40 degrees: clamped
  c.parameters().set_float("LookAngleY", 0.0);
  c.update(kDt);
  pose = c.compute_pose();
  EXPECT_LT(angle_between(pose[h].rotation, axis_angle(vec3(0, 1, 0), 40.0f * kPi / 180.0f)),
            1e-4f);
}

TEST_F(ControllerTest, ExpressionDriverFromARuleAndItsDeactivation) {
  ControllerDesc d;
  d.layers.push_back(layer("Body"));
  d.layers[0].weight = 1.0f;
  ControllerAnimationDesc drive;
  drive.source = ControllerAnimationDesc::Source::kDriver;
  drive.driver.type = "Expression";
  ControllerDriverDesc::Bone bone;
  bone.bone = demo_->find_bone("body");
  bone.channels[1].expression = "[H] * 2";
  bone.channels[5].value = 90.0f;  // rotation about Z, degrees
  bone.channels[6].value = 0.5f;   // scale x
  drive.driver.bones.push_back(bone);
  ControllerStateDesc s;
  s.layer = 0;
  s.rules.push_back(leaf("[On]", drive));
  s.rules.push_back(leaf("true", ControllerAnimationDesc{}));
  d.states.push_back(s);
  Controller c(compile_or_die(*demo_, std::move(d)));
  c.parameters().set_bool("On", true);
  c.parameters().set_float("H", 0.35);
  c.update(kDt);
  EXPECT_FLOAT_EQ(c.layer_weight(0), 1.0f);  // at once, no fade
  auto pose = c.compute_pose();
  const std::size_t b = static_cast<std::size_t>(demo_->find_bone("body"));
  EXPECT_NEAR(pose[b].translation.y, 0.7f, 1e-6f);
  EXPECT_NEAR(pose[b].translation.x, 0.0f, 1e-6f);
  const quat z90 = quat_xyzw(0, 0, std::sin(kPi / 4), std::cos(kPi / 4));
  EXPECT_LT(angle_between(pose[b].rotation, z90), 1e-4f);
  EXPECT_NEAR(pose[b].scale.x, 0.5f, 1e-6f);
  EXPECT_NEAR(pose[b].scale.y, 1.0f, 1e-6f);
  c.parameters().set_bool("On", false);
  c.update(kDt);
  EXPECT_FALSE(c.layer_active(0));
  EXPECT_EQ(c.compute_pose()[b], demo_->skeleton().rest_pose()[b]);
}

}  // namespace
}  // namespace critter::anim

namespace critter::anim {
namespace {

vec3 model_position(const Model& model, std::span<const Transform> pose, int joint) {
  const auto parents = model.skeleton().parents();
  mat4 m(1.0f);
  for (int j = joint; j >= 0; j = parents[static_cast<std::size_t>(j)]) {
    m = pose[static_cast<std::size_t>(j)].to_matrix() * m;
  }
  return vec3(m[3]);
}

TEST_F(ControllerTest, IkChainReachesItsTargetWhenEnabled) {
  ControllerDesc d;
  d.layers.push_back(layer("Base"));
  ControllerIkChainDesc chain;
  chain.name = "footFL";
  const int paw = demo_->find_bone("leg_front_left_paw");
  chain.end_joint = paw;
  chain.target = "FootTarget";
  chain.enabled.expression = "[IkOn]";
  d.ik_chains.push_back(chain);
  Controller c(compile_or_die(*demo_, std::move(d)));
  const auto rest = demo_->skeleton().rest_pose();
  const vec3 start = model_position(*demo_, rest, paw);

  // No target set yet: the chain is skipped and the pose stays at rest.
  c.parameters().set_bool("IkOn", true);
  c.update(kDt);
  auto pose = c.compute_pose();
  EXPECT_LT(glm::length(model_position(*demo_, pose, paw) - start), 1e-6f);

  // A reachable target a little up and forward: the paw gets there.
  const vec3 goal = start + vec3(0.0f, 0.08f, 0.06f);
  c.parameters().set_vec3(c.program().schema().find("FootTarget"), goal);
  c.update(kDt);
  pose = c.compute_pose();
  EXPECT_LT(glm::length(model_position(*demo_, pose, paw) - goal), 1e-3f);

  // Disabled by its expression: back to the blended (rest) pose.
  c.parameters().set_bool("IkOn", false);
  c.update(kDt);
  pose = c.compute_pose();
  EXPECT_LT(glm::length(model_position(*demo_, pose, paw) - start), 1e-6f);
}

}  // namespace
}  // namespace critter::anim

namespace critter::anim {
namespace {

TEST_F(ControllerTest, IkLookAtTurnsTheLastBoneByTheYawExpression) {
  ControllerDesc d;
  ControllerIkLookAtDesc look;
  look.name = "head";
  look.bones = {static_cast<std::int16_t>(demo_->find_bone("neck")),
                static_cast<std::int16_t>(demo_->find_bone("head"))};
  look.yaw.expression = "[LookAngleX]";
  d.ik_look_ats.push_back(look);
  Controller c(compile_or_die(*demo_, std::move(d)));
  c.parameters().set_float("LookAngleX", 0.5);
  c.update(kDt);
  const auto pose = c.compute_pose();
  const auto rest = demo_->skeleton().rest_pose();
  const std::size_t neck = static_cast<std::size_t>(demo_->find_bone("neck"));
  const std::size_t head = static_cast<std::size_t>(demo_->find_bone("head"));
  // Rest rotations are identity; all of the turn is on the head (no shares): yaw about +Y takes
  // the +Z forward toward +X.
  EXPECT_LT(angle_between(pose[head].rotation, axis_angle(vec3(0, 1, 0), 0.5f)), 1e-4f);
  EXPECT_EQ(pose[neck], rest[neck]);
  EXPECT_EQ(pose[head].translation, rest[head].translation);
}

}  // namespace
}  // namespace critter::anim

namespace critter::anim {
namespace {

TEST_F(ControllerTest, DeathDriverRollsTowardTheCauseAndDrops) {
  ControllerDesc d;
  d.layers.push_back(layer("Base"));
  ControllerLayerDesc death = layer("Death");
  death.driver.type = "Death";
  death.driver.body_drop = 0.4f;
  d.layers.push_back(death);
  ControllerStateDesc base;
  base.layer = 0;
  base.rules.push_back(leaf("true", clip_anim(walk_)));
  d.states.push_back(base);
  Controller c(compile_or_die(*demo_, std::move(d)));
  auto& v = c.parameters();
  v.set_float("BodyHeight", 0.5);
  v.set_vec3(c.program().schema().find("BodyRight"), vec3(1, 0, 0));
  v.set_vec3(c.program().schema().find("DeathCauseOffset"), vec3(-2, 0, 0));
  c.update(0.25f);
  // DeathPhase 0: the Death layer shows nothing; the root is the walk's.
  Player walk(*demo_);
  ASSERT_TRUE(walk.play(walk_, PlaybackMode::kLoopForward));
  walk.update(0.0f);
  walk.update(0.25f);
  auto pose = c.compute_pose();
  EXPECT_EQ(pose[0], walk.local_pose()[0]);

  // Half way: roll 45 degrees about Z on the side of the cause (-1), drop 0.4 * 0.5 * 0.5.
  v.set_float("DeathPhase", 0.5);
  c.update(0.0f);
  pose = c.compute_pose();
  const auto rest = demo_->skeleton().rest_pose();
  const quat roll = quat_xyzw(0, 0, std::sin(-kPi / 8), std::cos(-kPi / 8));
  EXPECT_LT(angle_between(pose[0].rotation, roll * rest[0].rotation), 1e-4f);
  EXPECT_NEAR(pose[0].translation.y, rest[0].translation.y - 0.1f, 1e-6f);
}

}  // namespace
}  // namespace critter::anim

namespace critter::anim {
namespace {

TEST_F(ControllerTest, ManualControlSkipsRulesUntilReleased) {
  Controller c(compile_or_die(*demo_, gait_desc(walk_, idle_)));
  auto& v = c.parameters();
  const Clip* walk = &demo_->clips()[static_cast<std::size_t>(walk_)];
  const Clip* idle = &demo_->clips()[static_cast<std::size_t>(idle_)];
  v.set_bool("IsOnGround", true);
  c.update(kDt);
  EXPECT_EQ(c.layer_player(0).clip(), idle);
  EXPECT_FALSE(c.play_animation(5, walk_, PlaybackMode::kLoopForward));
  ASSERT_TRUE(c.play_animation(0, walk_, PlaybackMode::kOnceForward));
  EXPECT_TRUE(c.manual(0));
  v.set_float("SpeedXZ", 0.05);  // rules would pick idle: skipped while manual
  for (int i = 0; i < 90; ++i) c.update(kDt);
  EXPECT_EQ(c.layer_player(0).clip(), walk);
  EXPECT_TRUE(c.layer_active(0));  // the finished manual play holds its pose
  c.release_manual_control();
  EXPECT_FALSE(c.manual(0));
  c.update(kDt);  // no parameter changed, but release forces an evaluation
  EXPECT_EQ(c.layer_player(0).clip(), idle);
}

}  // namespace
}  // namespace critter::anim

namespace critter::anim {
namespace {

// Root and child; clips of 1 s: "run" moves the root from x = 0 to 2 (looping use), "hop" from
// y = 0 to 1.
Model make_root_motion_model() {
  RawModel raw;
  raw.name = "root-motion";
  raw.format = "code";
  raw.skeleton.joints = critter::testing::two_joint_rig();
  RawClip run;
  run.name = "run";
  run.tracks.push_back(raw_track(TrackTarget::kTranslation, 0, 3, {0, 1}, {0, 0, 0, 2, 0, 0}));
  RawClip hop;
  hop.name = "hop";
  hop.tracks.push_back(raw_track(TrackTarget::kTranslation, 0, 3, {0, 1}, {0, 0, 0, 0, 1, 0}));
  raw.clips = {run, hop};
  auto model = build_model(std::move(raw));
  EXPECT_TRUE(model) << model.error().to_string();
  return std::move(*model);
}

ControllerDesc root_motion_desc(int clip, ControllerRootMotionDesc rm, bool loop) {
  ControllerDesc d;
  d.layers.push_back(layer("Base"));
  ControllerAnimationDesc a = clip_anim(clip);
  a.loop.value = loop;
  a.root_motion = rm;
  ControllerStateDesc s;
  s.layer = 0;
  s.rules.push_back(leaf("true", a));
  d.states.push_back(s);
  return d;
}

TEST(ControllerRootMotion, OverrideMeasuresTheClipAcrossTheLoopSeamAndStripsThePose) {
  Model model = make_root_motion_model();
  ControllerRootMotionDesc rm;
  rm.mode = RootMotionMode::kOverride;
  Controller c(compile_or_die(model, root_motion_desc(0, rm, true)));
  c.update(0.0f);
  EXPECT_FALSE(c.root_motion_velocity());  // no time has passed
  c.update(0.1f);
  ASSERT_TRUE(c.root_motion_velocity());
  EXPECT_NEAR(glm::length(*c.root_motion_velocity() - vec3(2, 0, 0)), 0.0f, 1e-4f);
  // The root keeps its rest translation in the pose: the body carries the motion.
  EXPECT_NEAR(c.compute_pose()[0].translation.x, 0.0f, 1e-6f);
  // Body turned 90 degrees about Y: +X in the body is -Z in the world.
  c.set_body(vec3(0.0f), axis_angle(vec3(0, 1, 0), kPi / 2));
  c.update(0.8f);  // at 0.9 s
  c.update(0.2f);  // wraps to 0.1 s: 0.2 m before the seam and 0.2 m after it over 0.2 s
  EXPECT_NEAR(glm::length(*c.root_motion_velocity() - vec3(0, 0, -2)), 0.0f, 1e-4f);
}

TEST(ControllerRootMotion, BlendByWeightedAverageWithAVelocityMask) {
  Model model = make_root_motion_model();
  ControllerRootMotionDesc rm;
  rm.mode = RootMotionMode::kBlend;
  rm.blend_method = RootMotionBlendMethod::kWeightedAverage;
  rm.blend_weight = 0.25f;
  rm.velocity_mask = vec3(1, 0, 1);
  Controller c(compile_or_die(model, root_motion_desc(0, rm, true)));
  c.update(0.0f);
  c.set_body(vec3(4, 5, 0), quat(1, 0, 0, 0));
  c.update(0.1f);
  // x: 4 + (2 - 4) * 0.25 = 3.5; y masked: the body's 5 stays; z: 0.
  EXPECT_NEAR(glm::length(*c.root_motion_velocity() - vec3(3.5f, 5, 0)), 0.0f, 1e-4f);
}

TEST(ControllerRootMotion, AddImpulseFiresOnceWhenThePhaseIsCrossed) {
  Model model = make_root_motion_model();
  ControllerRootMotionDesc rm;
  rm.mode = RootMotionMode::kAddImpulse;
  rm.impulse_phase = 0.5f;
  rm.impulse_scale = 2.0f;
  rm.velocity_mask = vec3(0, 1, 0);
  Controller c(compile_or_die(model, root_motion_desc(1, rm, false)));
  c.set_body(vec3(3, 0, 0), quat(1, 0, 0, 0));
  int fired = 0;
  for (int i = 0; i < 15; ++i) {
    c.update(0.1f);
    if (auto v = c.root_motion_velocity()) {
      ++fired;
      // Average over phases [0.5, 1]: 0.5 m in 0.5 s = 1 m/s up, times 2; x is masked out of
      // the impulse and keeps the body's 3.
      EXPECT_NEAR(glm::length(*v - vec3(3, 2, 0)), 0.0f, 1e-4f);
    }
  }
  EXPECT_EQ(fired, 1);
}

}  // namespace
}  // namespace critter::anim
