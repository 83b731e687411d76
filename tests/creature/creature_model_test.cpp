// SPDX-License-Identifier: MIT
// CreatureModel: the priority chain (hook, controller, simple player, procedural rig, rest), the
// death and movement phases, built-in events, and the placement of the pose (entity, model scale,
// root-bone correction). Expected positions are worked out from the demo quadruped's rest
// skeleton: body at (0, .55, 0), neck +(0, .08, .3), head +(0, .12, .08), so the head rests at
// (0, .75, .38); the front left shoulder rests at (.12, .5, .25).
#include "critter/creature/creature_model.h"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

#include "critter/anim/local_to_model_job.h"
#include "critter/asset/demo_creature.h"
#include "critter/deform/palette_job.h"
#include "critter/io/controller_loader.h"
#include "support/allocation_counter.h"
#include "support/glb_builder.h"
#include "support/math_helpers.h"

namespace critter::creature {
namespace {

using critter::testing::kPi;

using critter::testing::ScratchDir;
using critter::testing::write_file;

constexpr float kEps = 1e-4f;

enum Joint { kRoot = 0, kBody = 1, kHead = 3, kFrontLeftUpper = 6 };

void expect_vec(const vec3& actual, const vec3& expected, float eps = kEps) {
  EXPECT_NEAR(actual.x, expected.x, eps);
  EXPECT_NEAR(actual.y, expected.y, eps);
  EXPECT_NEAR(actual.z, expected.z, eps);
}

vec3 model_position(const CreatureModel& m, int bone) {
  return vec3(m.bone_transform(bone)[3]);
}

// Skin `skin`'s palette from the creature's posed matrices, as a renderer builds it.
std::vector<mat4> palette_of(const CreatureModel& m, int skin_index) {
  const Skin& skin = m.model().skins()[static_cast<std::size_t>(skin_index)];
  std::vector<mat4> palette(skin.joints.size());
  deform::PaletteJob job;
  job.model_transforms = m.model_transforms();
  job.joints = skin.joints;
  job.inverse_binds = skin.inverse_bind;
  job.palette = palette;
  EXPECT_TRUE(job.run());
  return palette;
}

std::shared_ptr<const Model> demo_model() {
  auto built = build_demo_quadruped();
  EXPECT_TRUE(built) << built.error().to_string();
  return std::make_shared<const Model>(std::move(*built));
}

// The demo quadruped without its clips: only a rig (or nothing) can animate it.
std::shared_ptr<const Model> clipless_model() {
  RawModel raw = make_demo_quadruped();
  raw.clips.clear();
  auto built = build_model(std::move(raw));
  EXPECT_TRUE(built) << built.error().to_string();
  return std::make_shared<const Model>(std::move(*built));
}

// Two joints, "a" (root) and "b" (child, rest at (0, 1, 0)); clip "slide" moves "a" linearly
// from (0, 0, 0) to (2, 0, 0) over 1 s, clip "other" holds it at (0, 5, 0).
std::shared_ptr<const Model> slide_model() {
  RawModel m;
  m.name = "slide";
  m.skeleton.joints = {RawJoint{"a", -1, {}, 0}, RawJoint{"b", 0, {}, 1}};
  m.skeleton.joints[1].rest.translation = vec3(0.0f, 1.0f, 0.0f);
  RawClip slide;
  slide.name = "slide";
  RawTrack t;
  t.index = 0;
  t.times = {0.0f, 1.0f};
  t.values = {0, 0, 0, 2, 0, 0};
  slide.tracks.push_back(t);
  RawClip other;
  other.name = "other";
  t.values = {0, 5, 0, 0, 5, 0};
  other.tracks.push_back(t);
  m.clips = {slide, other};
  auto built = build_model(std::move(m));
  EXPECT_TRUE(built) << built.error().to_string();
  return std::make_shared<const Model>(std::move(*built));
}

// A controller program for `model` from config text (through a temporary file, as a host would).
std::shared_ptr<const anim::ControllerProgram> program_from(
    const std::shared_ptr<const Model>& model, std::string_view config) {
  ScratchDir dir;
  const std::string path = dir.file("creature.json");
  write_file(path, config);
  auto loaded = io::load_controller(path, model);
  EXPECT_TRUE(loaded) << loaded.error().to_string();
  if (!loaded) return nullptr;
  EXPECT_EQ(loaded->model.get(), model.get());
  return loaded->program;
}

CreatureModel creature_from(const std::shared_ptr<const Model>& model, std::string_view config,
                            CreatureModelOptions options = {}) {
  auto created = CreatureModel::create(*model, program_from(model, config), options);
  EXPECT_TRUE(created) << created.error().to_string();
  return std::move(*created);
}

// Walks while SpeedXZ > 0.2, else idles; footsteps at a quarter and three quarters of the walk.
constexpr const char* kWalkConfig = R"({
  "animations": {
    "walk": { "source": "walk", "blendDuration": 0,
              "events": [ { "time": 0.25, "name": "Footstep", "data": "left" },
                          { "time": 0.75, "name": "Footstep", "data": "right" } ] },
    "idle": { "source": "idle", "blendDuration": 0 }
  },
  "states": {
    "gait": { "layer": "Base", "rules": [
      { "condition": "[SpeedXZ] > 0.2", "animation": "walk" },
      { "condition": "true", "animation": "idle" } ] }
  }
})";

// Walks until the death phase reaches 1, then shows idle.
constexpr const char* kDeathRuleConfig = R"({
  "animations": {
    "walk": { "source": "walk", "blendDuration": 0 },
    "idle": { "source": "idle", "blendDuration": 0 }
  },
  "states": {
    "death": { "layer": "Base", "rules": [
      { "condition": "[DeathPhase] >= 1", "animation": "idle" },
      { "condition": "true", "animation": "walk" } ] }
  }
})";

CreatureState walking_state(float speed) {
  CreatureState s;
  s.is_on_ground = true;
  s.velocity = {0.0f, 0.0f, -speed};  // identity rotation: forward is -Z
  return s;
}

// A rig that records its calls and bends the body: moves it to (0, 1, 0) and turns it 90° about Y.
class RecordingRig : public ProceduralRig {
 public:
  explicit RecordingRig(bool legacy = false) : legacy_(legacy) {}
  void animate(const CreatureState& state, float dt, std::span<Transform> pose) override {
    ++calls;
    last_position = state.position;
    last_health = state.health;
    last_dt = dt;
    arrived_at_rest = pose[kBody].translation == vec3(0.0f, 0.55f, 0.0f) &&
                      pose[kHead].translation == vec3(0.0f, 0.12f, 0.08f);
    pose[kBody].translation = vec3(0.0f, 1.0f, 0.0f);
    pose[kBody].rotation = glm::angleAxis(kPi / 2, vec3(0.0f, 1.0f, 0.0f));
  }
  bool keeps_rest_translation() const override { return legacy_; }

  int calls = 0;
  vec3 last_position{0.0f};
  float last_health = 0.0f;
  float last_dt = -1.0f;
  bool arrived_at_rest = false;

 private:
  bool legacy_;
};

// ---- The priority chain ----------------------------------------------------------------------

TEST(CreatureModelTest, NothingToPlayShowsTheRestPoseAtTheEntity) {
  const auto model = clipless_model();
  CreatureModel m(*model);
  EXPECT_EQ(m.source(), PoseSource::kRest);
  EXPECT_EQ(m.controller(), nullptr);
  CreatureState s;
  s.position = {1.0f, 0.0f, 2.0f};
  s.rotation = from_yaw_pitch_roll(kPi, 0.0f, 0.0f);
  ASSERT_TRUE(m.update(0.1f, s));
  EXPECT_EQ(m.source(), PoseSource::kRest);
  // R_Y(180°) maps the head's (0, .75, .38) to (0, .75, -.38), then + (1, 0, 2).
  expect_vec(model_position(m, kHead), {1.0f, 0.75f, 1.62f});
  // Rest pose: each palette matrix is entity · rest · inverse(rest) = the entity transform.
  ASSERT_EQ(model->skins().size(), 1u);
  const std::vector<mat4> palette = palette_of(m, 0);
  ASSERT_EQ(palette.size(), 18u);
  expect_vec(vec3(palette[kHead] * vec4(0, 0, 0, 1)), {1.0f, 0.0f, 2.0f});
  expect_vec(vec3(palette[kHead] * vec4(0, 0, -1, 1)), {1.0f, 0.0f, 3.0f});
}

TEST(CreatureModelTest, SimplePlayerLoopsTheFirstClip) {
  const auto model = slide_model();
  CreatureModel m(*model);
  ASSERT_NE(m.player().clip(), nullptr);
  EXPECT_EQ(m.player().clip(), &model->clips()[0]);
  ASSERT_TRUE(m.update(0.25f, CreatureState{}));
  EXPECT_EQ(m.source(), PoseSource::kPlayer);
  expect_vec(m.local_pose()[0].translation, {0.5f, 0.0f, 0.0f});
  expect_vec(model_position(m, 1), {0.5f, 1.0f, 0.0f});
  ASSERT_TRUE(m.update(1.0f, CreatureState{}));  // 1.25 s: wrapped to 0.25 s
  expect_vec(m.local_pose()[0].translation, {0.5f, 0.0f, 0.0f});
  ASSERT_TRUE(m.update(0.5f, CreatureState{}));  // 0.75 s into the second loop
  expect_vec(m.local_pose()[0].translation, {1.5f, 0.0f, 0.0f});
  EXPECT_TRUE(m.records().empty());
  EXPECT_FALSE(m.root_motion_velocity().has_value());
}

TEST(CreatureModelTest, ProceduralRigRunsOnlyWithoutControllerAndClips) {
  const auto model = clipless_model();
  CreatureModel m(*model);
  auto rig = std::make_unique<RecordingRig>();
  RecordingRig* r = rig.get();
  m.set_procedural_rig(std::move(rig));
  CreatureState s;
  s.position = {3.0f, 0.0f, 0.0f};
  s.health = 0.5f;
  ASSERT_TRUE(m.update(0.04f, s));
  EXPECT_EQ(m.source(), PoseSource::kProcedural);
  EXPECT_EQ(r->calls, 1);
  expect_vec(r->last_position, {3.0f, 0.0f, 0.0f});
  EXPECT_FLOAT_EQ(r->last_health, 0.5f);
  EXPECT_FLOAT_EQ(r->last_dt, 0.04f);
  EXPECT_TRUE(r->arrived_at_rest);
  // Body at (0, 1, 0) turned 90° about Y: the head's offset (0, .2, .38) from the body turns to
  // (.38, .2, 0); the entity adds (3, 0, 0).
  expect_vec(model_position(m, kHead), {3.38f, 1.2f, 0.0f});

  // The second frame gets the rest pose again, not the rig's previous output.
  ASSERT_TRUE(m.update(0.04f, s));
  EXPECT_EQ(r->calls, 2);
  EXPECT_TRUE(r->arrived_at_rest);

  // A model with clips: the simple player wins and the rig is not called.
  const auto clipped = demo_model();
  CreatureModel with_clips(*clipped);
  auto unused = std::make_unique<RecordingRig>();
  RecordingRig* u = unused.get();
  with_clips.set_procedural_rig(std::move(unused));
  ASSERT_TRUE(with_clips.update(0.1f, s));
  EXPECT_EQ(with_clips.source(), PoseSource::kPlayer);
  EXPECT_EQ(u->calls, 0);

  // A controller wins over the rig too.
  CreatureModel controlled = creature_from(clipped, kWalkConfig);
  auto unused2 = std::make_unique<RecordingRig>();
  RecordingRig* u2 = unused2.get();
  controlled.set_procedural_rig(std::move(unused2));
  ASSERT_TRUE(controlled.update(0.1f, s));
  EXPECT_EQ(controlled.source(), PoseSource::kController);
  EXPECT_EQ(u2->calls, 0);
}

TEST(CreatureModelTest, LegacyRigKeepsTheRestTranslations) {
  const auto model = clipless_model();
  CreatureModel m(*model);
  m.set_procedural_rig(std::make_unique<RecordingRig>(/*legacy=*/true));
  ASSERT_TRUE(m.update(0.1f, CreatureState{}));
  // The body's (0, 1, 0) is replaced by its rest (0, .55, 0); the 90° turn stays.
  expect_vec(model_position(m, kHead), {0.38f, 0.75f, 0.0f});

  // The rule is folded into the frame's local pose: the rig's rotation with the rest translation.
  EXPECT_EQ(m.local_pose()[kBody].translation, vec3(0.0f, 0.55f, 0.0f));
  EXPECT_EQ(m.local_pose()[kBody].rotation, glm::angleAxis(kPi / 2, vec3(0.0f, 1.0f, 0.0f)));

  // Without a rig the legacy rule is off again (rest pose, rest translations either way).
  m.set_procedural_rig(nullptr);
  ASSERT_TRUE(m.update(0.1f, CreatureState{}));
  EXPECT_EQ(m.source(), PoseSource::kRest);
  expect_vec(model_position(m, kHead), {0.0f, 0.75f, 0.38f});
}

// A pose modifier that checks it runs on this frame's local-to-model output, records the head
// matrix it found and lifts the head by `lift` metres.
class LiftHead final : public PoseModifier {
 public:
  explicit LiftHead(float lift) : lift_(lift) {}
  void modify(const PoseModifierFrame& frame, std::span<mat4> model_transforms) override {
    ++calls;
    std::vector<mat4> expected(frame.local_pose.size());
    anim::LocalToModelJob ltm;
    ltm.parents = frame.model.skeleton().parents();
    ltm.input = frame.local_pose;
    ltm.output = expected;
    saw_local_to_model = ltm.run().has_value() && model_transforms.size() == expected.size() &&
                         model_transforms[kBody] == expected[kBody];
    seen_head = model_transforms[kHead];
    seen_dt = frame.dt;
    model_transforms[kHead][3] += vec4(0.0f, lift_, 0.0f, 0.0f);
  }
  int calls = 0;
  bool saw_local_to_model = false;
  mat4 seen_head{0.0f};
  float seen_dt = -1.0f;

 private:
  float lift_;
};

TEST(CreatureModelTest, PoseModifiersRunAfterLocalToModelAndBeforeThePalette) {
  const auto model = clipless_model();
  CreatureModelOptions options;
  options.model_space = true;
  CreatureModel m(*model, options);
  m.set_procedural_rig(std::make_unique<RecordingRig>());
  auto first = std::make_unique<LiftHead>(1.0f);
  auto second = std::make_unique<LiftHead>(0.5f);
  LiftHead* a = first.get();
  LiftHead* b = second.get();
  m.add_pose_modifier(std::move(first));
  m.add_pose_modifier(std::move(second));
  m.add_pose_modifier(nullptr);  // ignored
  EXPECT_EQ(m.pose_modifier_count(), 2u);

  ASSERT_TRUE(m.update(0.1f, CreatureState{}));
  EXPECT_EQ(a->calls, 1);
  EXPECT_EQ(b->calls, 1);
  EXPECT_FLOAT_EQ(a->seen_dt, 0.1f);
  // The first saw the frame's local-to-model (the rig's body pose), the second what the first
  // left, and what the last one left is what the creature and its palette show.
  EXPECT_TRUE(a->saw_local_to_model);
  const vec3 posed_head = vec3(a->seen_head[3]);
  expect_vec(vec3(b->seen_head[3]), posed_head + vec3(0.0f, 1.0f, 0.0f));
  expect_vec(model_position(m, kHead), posed_head + vec3(0.0f, 1.5f, 0.0f));
  const std::vector<mat4> palette = palette_of(m, 0);
  const mat4& inverse_bind = model->skins()[0].inverse_bind[kHead];
  expect_vec(vec3(palette[kHead] * glm::inverse(inverse_bind) * vec4(0, 0, 0, 1)),
             posed_head + vec3(0.0f, 1.5f, 0.0f));

  // A refused frame (non-finite placement) runs no modifier.
  CreatureModel placed(*model);
  auto counted = std::make_unique<LiftHead>(1.0f);
  LiftHead* c = counted.get();
  placed.add_pose_modifier(std::move(counted));
  CreatureState bad;
  bad.position = vec3(std::nanf(""), 0.0f, 0.0f);
  EXPECT_FALSE(placed.update(0.1f, bad));
  EXPECT_EQ(c->calls, 0);
  ASSERT_TRUE(placed.update(0.1f, CreatureState{}));
  EXPECT_EQ(c->calls, 1);
}

TEST(CreatureModelTest, HookWinsAndReturningFalseFallsThrough) {
  const auto model = slide_model();
  CreatureModel m(*model);
  int calls = 0;
  bool take_over = true;
  m.set_hook([&](CreatureModel& self, float dt) {
    ++calls;
    EXPECT_FLOAT_EQ(dt, 0.25f);
    EXPECT_EQ(&self, &m);
    if (!take_over) return false;
    self.writable_pose()[0].translation = vec3(0.0f, 0.0f, 7.0f);
    return true;
  });
  ASSERT_TRUE(m.update(0.25f, CreatureState{}));
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(m.source(), PoseSource::kHook);
  expect_vec(model_position(m, 1), {0.0f, 1.0f, 7.0f});
  // The player did not advance during the hook's frame.
  EXPECT_FLOAT_EQ(m.player().clip_time(), 0.0f);

  take_over = false;
  ASSERT_TRUE(m.update(0.25f, CreatureState{}));
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(m.source(), PoseSource::kPlayer);
  expect_vec(m.local_pose()[0].translation, {0.5f, 0.0f, 0.0f});

  // An empty hook is no hook.
  m.set_hook({});
  ASSERT_TRUE(m.update(0.25f, CreatureState{}));
  EXPECT_EQ(calls, 2);
  expect_vec(m.local_pose()[0].translation, {1.0f, 0.0f, 0.0f});
}

TEST(CreatureModelTest, HookFrameHoldsTheController) {
  const auto model = demo_model();
  CreatureModel m = creature_from(model, kWalkConfig);
  ASSERT_TRUE(m.update(0.1f, walking_state(1.0f)));
  const float walked = m.controller()->layer_player(0).clip_time();
  EXPECT_GT(walked, 0.0f);
  m.set_hook([](CreatureModel&, float) { return true; });
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(m.update(0.1f, walking_state(1.0f)));
  EXPECT_EQ(m.source(), PoseSource::kHook);
  EXPECT_FLOAT_EQ(m.controller()->layer_player(0).clip_time(), walked);
  EXPECT_TRUE(m.records().empty());
  // The built-ins still follow the state during hook frames (a hook may drive the controller).
  const auto& schema = m.controller()->program().schema();
  EXPECT_FLOAT_EQ(static_cast<float>(m.controller()->parameters().number(schema.find("SpeedXZ"))),
                  1.0f);
}

TEST(CreatureModelTest, ControllerRulesReadTheBuiltinsFromTheState) {
  const auto model = demo_model();
  CreatureModel m = creature_from(model, kWalkConfig);
  const anim::Controller* c = m.controller();
  ASSERT_NE(c, nullptr);
  const int walk = model->find_clip("walk");
  const int idle = model->find_clip("idle");
  ASSERT_TRUE(m.update(0.1f, walking_state(1.0f)));
  EXPECT_EQ(m.source(), PoseSource::kController);
  ASSERT_NE(c->layer_animation(0), nullptr);
  EXPECT_EQ(c->layer_animation(0)->clip, walk);
  // The pose is the controller's.
  const auto pose = c->pose();
  ASSERT_EQ(pose.size(), m.local_pose().size());
  for (std::size_t j = 0; j < pose.size(); ++j) {
    EXPECT_EQ(pose[j].translation, m.local_pose()[j].translation);
    EXPECT_EQ(pose[j].rotation, m.local_pose()[j].rotation);
  }
  ASSERT_TRUE(m.update(0.1f, walking_state(0.1f)));
  EXPECT_EQ(m.controller()->layer_animation(0)->clip, idle);
  // Walking straight up a ladder: SpeedXZ 0, so idle.
  CreatureState climbing = walking_state(0.0f);
  climbing.velocity = {0.0f, 2.0f, 0.0f};
  ASSERT_TRUE(m.update(0.1f, climbing));
  EXPECT_EQ(m.controller()->layer_animation(0)->clip, idle);
}

TEST(CreatureModelTest, CreateRejectsAProgramOfAnotherModel) {
  const auto a = demo_model();
  const auto b = demo_model();
  auto created = CreatureModel::create(*b, program_from(a, kWalkConfig));
  ASSERT_FALSE(created);
  EXPECT_EQ(created.error().code, ErrorCode::kUsage);
  // A null program is a creature without controller.
  auto plain = CreatureModel::create(*b, nullptr);
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->controller(), nullptr);
  ASSERT_TRUE(plain->update(0.1f, CreatureState{}));
  EXPECT_EQ(plain->source(), PoseSource::kPlayer);
}

TEST(CreatureModelTest, NonFinitePlacementFailsAndKeepsTheMatrices) {
  const auto model = clipless_model();
  CreatureModel m(*model);
  CreatureState s;
  s.position = {1.0f, 0.0f, 0.0f};
  ASSERT_TRUE(m.update(0.1f, s));
  s.position.x = std::nanf("");
  auto bad = m.update(0.1f, s);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, ErrorCode::kUsage);
  expect_vec(model_position(m, kHead), {1.0f, 0.75f, 0.38f});
  // In model space the placement is not used.
  CreatureModelOptions options;
  options.model_space = true;
  CreatureModel local(*model, options);
  EXPECT_TRUE(local.update(0.1f, s));
  expect_vec(model_position(local, kHead), {0.0f, 0.75f, 0.38f});
}

// ---- Death and movement phases -------------------------------------------------------------

TEST(CreatureModelTest, DeathPhaseRisesAtTheDefaultDeathSpeedOfThree) {
  const auto model = demo_model();
  CreatureModel m = creature_from(model, kWalkConfig);
  const auto& schema = m.controller()->program().schema();
  const anim::ParamIndex dp = schema.find("DeathPhase");
  CreatureState dead;
  dead.health = 0.0f;
  // 3 per second: 1/12 s adds .25; 1/3 s reaches 1.
  const float expected[] = {0.25f, 0.5f, 0.75f, 1.0f, 1.0f};
  for (float e : expected) {
    ASSERT_TRUE(m.update(1.0f / 12.0f, dead));
    EXPECT_NEAR(m.death_phase(), e, 1e-6f);
    EXPECT_NEAR(m.controller()->parameters().number(dp), e, 1e-6);
  }
  EXPECT_TRUE(m.controller()->parameters().boolean(schema.find("IsDead")));
  // Alive again: back to 0 at once.
  ASSERT_TRUE(m.update(1.0f / 12.0f, CreatureState{}));
  EXPECT_EQ(m.death_phase(), 0.0f);
  EXPECT_EQ(m.controller()->parameters().number(dp), 0.0);
}

TEST(CreatureModelTest, DeathSpeedIsReadBackFromTheController) {
  const auto model = demo_model();
  std::string config = kDeathRuleConfig;
  config.insert(1, R"("parameters": { "DeathSpeed": 1 },)");
  CreatureModel m = creature_from(model, config);
  const int walk = model->find_clip("walk");
  const int idle = model->find_clip("idle");
  CreatureState dead;
  dead.health = 0.0f;
  // 1 per second: .25 per quarter second, 1 after 1 s; the rule switches to idle only then.
  const float expected[] = {0.25f, 0.5f, 0.75f};
  for (float e : expected) {
    ASSERT_TRUE(m.update(0.25f, dead));
    EXPECT_FLOAT_EQ(m.death_phase(), e);
    EXPECT_EQ(m.controller()->layer_animation(0)->clip, walk);
  }
  ASSERT_TRUE(m.update(0.25f, dead));
  EXPECT_FLOAT_EQ(m.death_phase(), 1.0f);
  EXPECT_EQ(m.controller()->layer_animation(0)->clip, idle);

  // The host (or a rule) may change DeathSpeed at run time: read every frame.
  ASSERT_TRUE(m.update(0.1f, CreatureState{}));
  EXPECT_EQ(m.controller()->layer_animation(0)->clip, walk);
  ASSERT_TRUE(m.controller()->parameters().set_float("DeathSpeed", 2.0));
  ASSERT_TRUE(m.update(0.25f, dead));
  EXPECT_FLOAT_EQ(m.death_phase(), 0.5f);
}

TEST(CreatureModelTest, DeathRuleReactsAfterAThirdOfASecondByDefault) {
  const auto model = demo_model();
  CreatureModel m = creature_from(model, kDeathRuleConfig);
  const int idle = model->find_clip("idle");
  CreatureState dead;
  dead.health = 0.0f;
  ASSERT_TRUE(m.update(0.25f, dead));  // .75
  EXPECT_NE(m.controller()->layer_animation(0)->clip, idle);
  ASSERT_TRUE(m.update(0.25f, dead));  // 1.5, clamped to 1
  EXPECT_FLOAT_EQ(m.death_phase(), 1.0f);
  EXPECT_EQ(m.controller()->layer_animation(0)->clip, idle);
}

TEST(CreatureModelTest, DeathPhaseWithoutControllerUsesTheOption) {
  const auto model = clipless_model();
  CreatureModelOptions options;
  options.death_speed = 0.5f;
  CreatureModel m(*model, options);
  CreatureState dead;
  dead.health = -1.0f;
  ASSERT_TRUE(m.update(1.0f, dead));
  EXPECT_FLOAT_EQ(m.death_phase(), 0.5f);
  ASSERT_TRUE(m.update(1.5f, dead));
  EXPECT_FLOAT_EQ(m.death_phase(), 1.0f);
  // A bad dt counts as 0.
  ASSERT_TRUE(m.update(1.0f, CreatureState{}));
  ASSERT_TRUE(m.update(-1.0f, dead));
  EXPECT_EQ(m.death_phase(), 0.0f);
}

TEST(CreatureModelTest, MovementPhaseIntegratesForwardSpeed) {
  const auto model = clipless_model();
  CreatureModel m(*model);
  // 1 m/s forward, 1 cycle per metre: a quarter cycle per quarter second, wrapping at 1.
  const float expected[] = {0.25f, 0.5f, 0.75f, 0.0f, 0.25f};
  for (float e : expected) {
    ASSERT_TRUE(m.update(0.25f, walking_state(1.0f)));
    EXPECT_NEAR(m.movement_phase(), e, 1e-6f);
  }
  // Backwards runs the phase backwards: .25 - .5 = -.25, i.e. .75.
  ASSERT_TRUE(m.update(0.5f, walking_state(-1.0f)));
  EXPECT_NEAR(m.movement_phase(), 0.75f, 1e-6f);
  // Nearly still (|v| <= .2): the phase resets.
  ASSERT_TRUE(m.update(0.25f, walking_state(0.15f)));
  EXPECT_EQ(m.movement_phase(), 0.0f);
  // The slip speed counts instead of the velocity.
  CreatureState slipping = walking_state(0.0f);
  slipping.slip_speed = 0.4f;
  ASSERT_TRUE(m.update(0.5f, slipping));
  EXPECT_NEAR(m.movement_phase(), 0.2f, 1e-6f);
  // A host-driven phase is taken as is.
  CreatureState driven = walking_state(1.0f);
  driven.movement_phase = 3.6f;
  ASSERT_TRUE(m.update(0.25f, driven));
  EXPECT_FLOAT_EQ(m.movement_phase(), 3.6f);
}

TEST(CreatureModelTest, MovementPhaseUsesTheConfiguredWalkAnimationSpeed) {
  const auto model = demo_model();
  std::string config = kWalkConfig;
  config.insert(1, R"("parameters": { "WalkAnimationSpeed": 0.5 },)");
  CreatureModel m = creature_from(model, config);
  const anim::ParamIndex phase = m.controller()->program().schema().find("MovementPhase");
  // 2 m/s · 0.5 cycles per metre · 0.1 s = 0.1 cycles per frame.
  ASSERT_TRUE(m.update(0.1f, walking_state(2.0f)));
  ASSERT_TRUE(m.update(0.1f, walking_state(2.0f)));
  EXPECT_NEAR(m.movement_phase(), 0.2f, 1e-6f);
  EXPECT_NEAR(m.controller()->parameters().number(phase), 0.2, 1e-6);
}

// ---- Built-in events -------------------------------------------------------------------------

TEST(CreatureModelTest, FootstepHookHearsTheWalkEventsWhileStanding) {
  const auto model = demo_model();
  CreatureModel m = creature_from(model, kWalkConfig);
  std::vector<std::string> steps;
  m.set_footstep_hook([&](std::string_view data) { steps.emplace_back(data); });
  // 0.9 s of walking crosses 0.25 and 0.75 of the 1 s walk clip.
  int footstep_records = 0;
  for (int i = 0; i < 9; ++i) {
    ASSERT_TRUE(m.update(0.1f, walking_state(1.0f)));
    for (const anim::ControllerRecord& r : m.records()) {
      if (r.name == "Footstep") ++footstep_records;
    }
  }
  EXPECT_EQ(steps, (std::vector<std::string>{"left", "right"}));
  EXPECT_EQ(footstep_records, 2);
  // Into the second cycle: left again.
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(m.update(0.1f, walking_state(1.0f)));
  EXPECT_EQ(steps, (std::vector<std::string>{"left", "right", "left"}));
}

TEST(CreatureModelTest, NoFootstepsInTheAirButInDeepWater) {
  const auto model = demo_model();
  CreatureModel m = creature_from(model, kWalkConfig);
  int steps = 0;
  m.set_footstep_hook([&](std::string_view) { ++steps; });
  CreatureState airborne = walking_state(1.0f);
  airborne.is_on_ground = false;
  for (int i = 0; i < 9; ++i) ASSERT_TRUE(m.update(0.1f, airborne));
  EXPECT_EQ(steps, 0);
  // The events still reach the records.
  CreatureModel wading = creature_from(model, kWalkConfig);
  wading.set_footstep_hook([&](std::string_view) { ++steps; });
  CreatureState swimming = airborne;
  swimming.immersion_factor = 0.6f;
  for (int i = 0; i < 9; ++i) ASSERT_TRUE(wading.update(0.1f, swimming));
  EXPECT_EQ(steps, 2);
}

TEST(CreatureModelTest, AttackHooksFollowTheAttackEvents) {
  const auto model = demo_model();
  // The 2 s idle clip as an attack: start at 0.2 s, hit at 0.8 s, end at 1.6 s.
  CreatureModel m = creature_from(model, R"({
    "animations": {
      "attack": { "source": "idle", "blendDuration": 0,
                  "events": [ { "time": 0.1, "name": "AttackStart" },
                              { "time": 0.4, "name": "AttackHit" },
                              { "time": 0.8, "name": "AttackEnd" } ] }
    },
    "states": { "attack": { "layer": "Base", "rules": [
      { "condition": "IsAttacking", "animation": "attack" } ] } }
  })");
  std::vector<std::string> calls;
  m.set_attack_start_hook([&] { calls.emplace_back("start"); });
  m.set_attack_hit_hook([&] { calls.emplace_back("hit"); });
  m.set_attack_end_hook([&] { calls.emplace_back("end"); });
  CreatureState attacking;
  attacking.is_attacking = true;
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(m.update(0.1f, attacking));  // 0.4-0.5 s
  EXPECT_EQ(calls, (std::vector<std::string>{"start"}));
  EXPECT_FALSE(m.attack_hit_moment());
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(m.update(0.1f, attacking));  // 0.9-1.0 s
  EXPECT_EQ(calls, (std::vector<std::string>{"start", "hit"}));
  EXPECT_TRUE(m.attack_hit_moment());
  for (int i = 0; i < 8; ++i) ASSERT_TRUE(m.update(0.1f, attacking));  // 1.7-1.8 s
  EXPECT_EQ(calls, (std::vector<std::string>{"start", "hit", "end"}));
  EXPECT_FALSE(m.attack_hit_moment());
}

TEST(CreatureModelTest, RecordsAreThoseOfTheLastUpdate) {
  const auto model = demo_model();
  CreatureModel m = creature_from(model, kWalkConfig);
  int seen = 0;
  for (int i = 0; i < 9; ++i) {
    ASSERT_TRUE(m.update(0.1f, walking_state(1.0f)));
    // At most one footstep per 0.1 s frame: the list does not pile up across frames.
    EXPECT_LE(m.records().size(), 1u);
    seen += static_cast<int>(m.records().size());
  }
  EXPECT_EQ(seen, 2);
}

// ---- Placement: model scale, root-bone correction, entity --------------------------------

TEST(CreatureModelTest, ModelScaleHalvesModelPositions) {
  const auto model = demo_model();
  CreatureModel m = creature_from(model, R"({ "modelScale": 0.5 })");
  CreatureState s;
  ASSERT_TRUE(m.update(0.1f, s));
  expect_vec(model_position(m, kHead), {0.0f, 0.375f, 0.19f});
  expect_vec(model_position(m, kFrontLeftUpper), {0.06f, 0.25f, 0.125f});
  // The entity's translation is not scaled.
  s.position = {1.0f, 0.0f, 0.0f};
  ASSERT_TRUE(m.update(0.1f, s));
  expect_vec(model_position(m, kHead), {1.0f, 0.375f, 0.19f});
}

TEST(CreatureModelTest, RootBoneRotationTurnsTheModel) {
  const auto model = demo_model();
  CreatureModel m = creature_from(model, R"({ "rootBoneRotation": 180 })");
  CreatureState s;
  ASSERT_TRUE(m.update(0.1f, s));
  expect_vec(model_position(m, kHead), {0.0f, 0.75f, -0.38f});
  expect_vec(model_position(m, kFrontLeftUpper), {-0.12f, 0.5f, -0.25f});
  // Then the entity: yaw 90° maps (x, z) to (z, -x), and + (0, 0, 4).
  s.rotation = from_yaw_pitch_roll(kPi / 2, 0.0f, 0.0f);
  s.position = {0.0f, 0.0f, 4.0f};
  ASSERT_TRUE(m.update(0.1f, s));
  expect_vec(model_position(m, kFrontLeftUpper), {-0.25f, 0.5f, 4.12f});
}

TEST(CreatureModelTest, ModelSpaceIgnoresThePlacementButKeepsTheCorrection) {
  const auto model = demo_model();
  CreatureModelOptions options;
  options.model_space = true;
  CreatureModel m =
      creature_from(model, R"({ "modelScale": 0.5, "rootBoneTranslation": [0, 1, 0] })", options);
  CreatureState s;
  s.position = {5.0f, 6.0f, 7.0f};
  s.rotation = from_yaw_pitch_roll(1.0f, 0.0f, 0.0f);
  ASSERT_TRUE(m.update(0.1f, s));
  // The root lands at T(correction translation) and the skeleton is halved under it.
  expect_vec(model_position(m, kRoot), {0.0f, 1.0f, 0.0f});
  expect_vec(model_position(m, kHead), {0.0f, 1.375f, 0.19f});
  // The built-ins still see the world placement.
  const auto& schema = m.controller()->program().schema();
  EXPECT_EQ(m.controller()->parameters().vec(schema.find("Position")), vec3(5.0f, 6.0f, 7.0f));
}

TEST(CreatureModelTest, HookFramesOfAControlledCreatureKeepTheConfigPlacement) {
  const auto model = demo_model();
  CreatureModel m = creature_from(model, R"({ "modelScale": 0.5 })");
  m.set_hook([](CreatureModel&, float) { return true; });
  ASSERT_TRUE(m.update(0.1f, CreatureState{}));
  EXPECT_EQ(m.source(), PoseSource::kHook);
  expect_vec(model_position(m, kHead), {0.0f, 0.375f, 0.19f});
}

TEST(CreatureModelTest, RootMotionVelocityPassesTheControllersValue) {
  const auto model = slide_model();
  // "a" slides 2 m along +X per second in "slide"; the Base layer overrides the body's velocity
  // with the clip's root motion.
  CreatureModel m = creature_from(model, R"({
    "animations": { "slide": { "source": "slide", "blendDuration": 0,
      "rootMotion": { "sourceBone": "a", "translation": { "mode": "Override" } } } },
    "states": { "s": { "layer": "Base", "rules": [ { "condition": "true", "animation": "slide" } ] } }
  })");
  const anim::Controller* c = m.controller();
  ASSERT_NE(c, nullptr);
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(m.update(0.1f, CreatureState{}));
  ASSERT_TRUE(m.root_motion_velocity().has_value());
  ASSERT_TRUE(c->root_motion_velocity().has_value());
  EXPECT_EQ(*m.root_motion_velocity(), *c->root_motion_velocity());
  expect_vec(*m.root_motion_velocity(), {2.0f, 0.0f, 0.0f}, 1e-3f);
  // Without a controller there is none.
  CreatureModel plain(*model);
  ASSERT_TRUE(plain.update(0.1f, CreatureState{}));
  EXPECT_FALSE(plain.root_motion_velocity().has_value());
}

// ---- Allocation -------------------------------------------------------------------------------

// ---- Morph weights ----------------------------------------------------------------------------

// One joint and one mesh "face" with two morph targets (default weights 0.2 and 0.4); clip
// "blink" takes the weights linearly from (0, 0.4) to (1, 0.4) over 1 s, clip "hold" moves the
// joint and has no weights track.
std::shared_ptr<const Model> morph_model() {
  RawModel m;
  m.name = "morph";
  m.skeleton.joints = {RawJoint{"a", -1, {}, 0}};
  Mesh face;
  face.name = "face";
  MeshPart part;
  part.streams.positions = {vec3(0, 0, 0), vec3(1, 0, 0), vec3(0, 1, 0)};
  MorphTarget target;
  target.positions = {vec3(0, 0, 1), vec3(0, 0, 1), vec3(0, 0, 1)};
  part.morphs.targets = {target, target};
  face.parts.push_back(std::move(part));
  face.default_weights = {0.2f, 0.4f};
  m.meshes.push_back(std::move(face));
  RawClip blink;
  blink.name = "blink";
  RawTrack w;
  w.target = TrackTarget::kWeights;
  w.index = 0;
  w.components = 2;
  w.times = {0.0f, 1.0f};
  w.values = {0.0f, 0.4f, 1.0f, 0.4f};
  blink.tracks.push_back(w);
  RawClip hold;
  hold.name = "hold";
  RawTrack t;
  t.index = 0;
  t.times = {0.0f, 1.0f};
  t.values = {0, 5, 0, 0, 5, 0};
  hold.tracks.push_back(t);
  m.clips = {blink, hold};
  auto built = build_model(std::move(m));
  EXPECT_TRUE(built) << built.error().to_string();
  return std::make_shared<const Model>(std::move(*built));
}

void expect_face(std::span<const float> weights, float w0, float w1) {
  ASSERT_EQ(weights.size(), 2u);
  EXPECT_NEAR(weights[0], w0, kEps);
  EXPECT_NEAR(weights[1], w1, kEps);
}

TEST(CreatureModelTest, ControllerMorphWeightsReachTheInstance) {
  const auto model = morph_model();
  CreatureModel m = creature_from(model, R"({
    "animations": { "blink": { "source": "blink", "blendDuration": 0 },
                    "hold": { "source": "hold", "blendDuration": 0 } },
    "states": { "face": { "layer": "Base", "rules": [
      { "condition": "[Hold]", "animation": "hold" },
      { "condition": "true", "animation": "blink" } ] } }
  })");
  EXPECT_EQ(m.morph_layout().weight_count(), 2u);
  expect_face(m.morph_weights(), 0.2f, 0.4f);  // defaults before the first update
  ASSERT_TRUE(m.update(0.25f, CreatureState{}));
  EXPECT_EQ(m.source(), PoseSource::kController);
  expect_face(m.morph_weights(), 0.25f, 0.4f);
  expect_face(m.instance().morph_weights(), 0.25f, 0.4f);

  // A hook frame keeps the last weights unless it writes them.
  m.set_hook([](CreatureModel& self, float) {
    self.writable_morph_weights()[1] = 0.9f;
    return true;
  });
  ASSERT_TRUE(m.update(0.25f, CreatureState{}));
  expect_face(m.morph_weights(), 0.25f, 0.9f);
  expect_face(m.instance().morph_weights(), 0.25f, 0.9f);
  m.set_hook({});

  // A clip without a weights track shows the default weights.
  m.controller()->parameters().set_bool("Hold", true);
  ASSERT_TRUE(m.update(0.25f, CreatureState{}));
  expect_face(m.instance().morph_weights(), 0.2f, 0.4f);
}

TEST(CreatureModelTest, SimplePlayerAndRestFramesSetTheMorphWeights) {
  const auto model = morph_model();
  CreatureModel m(*model);  // loops blink, the first clip
  ASSERT_TRUE(m.update(0.5f, CreatureState{}));
  EXPECT_EQ(m.source(), PoseSource::kPlayer);
  expect_face(m.morph_weights(), 0.5f, 0.4f);
  expect_face(m.instance().morph_weights(), 0.5f, 0.4f);

  // A procedural or rest frame shows the defaults.
  RawModel raw;
  raw.name = "still";
  raw.skeleton.joints = {RawJoint{"a", -1, {}, 0}};
  raw.meshes.push_back(model->meshes()[0]);
  auto still = build_model(std::move(raw));
  ASSERT_TRUE(still) << still.error().to_string();
  CreatureModel r(*still);
  ASSERT_TRUE(r.update(0.5f, CreatureState{}));
  EXPECT_EQ(r.source(), PoseSource::kRest);
  expect_face(r.instance().morph_weights(), 0.2f, 0.4f);
}

TEST(CreatureModelTest, UpdateAllocatesNothingAfterConstruction) {
  const auto model = demo_model();
  const auto clipless = clipless_model();
  CreatureModel controlled = creature_from(model, kWalkConfig);
  int steps = 0;
  controlled.set_footstep_hook([&](std::string_view) { ++steps; });
  CreatureModel played(*model);
  CreatureModel rigged(*clipless);
  rigged.set_procedural_rig(std::make_unique<RecordingRig>());
  // Warm up: the first frames apply rules and start plays.
  CreatureState s = walking_state(1.0f);
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(controlled.update(0.05f, s));
    ASSERT_TRUE(played.update(0.05f, s));
    ASSERT_TRUE(rigged.update(0.05f, s));
  }
  // Prove the counter counts first.
  ASSERT_TRUE(critter::testing::AllocationCounter::works());

  bool ok = true;
  long allocations = -1;
  {
    const critter::testing::AllocationCounter counter;
    for (int i = 0; i < 60; ++i) {
      s.game_time += 0.05;
      s.health = i < 40 ? 1.0f : 0.0f;
      ok = controlled.update(0.05f, s).has_value() && ok;
      ok = played.update(0.05f, s).has_value() && ok;
      ok = rigged.update(0.05f, s).has_value() && ok;
    }
    allocations = counter.count();
  }
  EXPECT_TRUE(ok);
  EXPECT_EQ(allocations, 0);
  EXPECT_GT(steps, 0);
}

}  // namespace
}  // namespace critter::creature
