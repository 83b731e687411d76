// SPDX-License-Identifier: MIT
// Bind builds the runtime description that drives a Controller (animation-config.md §20); the one
// compile of that description reports every expression error where the config wrote it.

#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "critter/anim/controller.h"
#include "critter/config/animation_config.h"
#include "critter/config/bind.h"
#include "support/spec_example.h"

namespace {

using namespace critter;
using anim::Controller;
using anim::ControllerRecord;

Model quadruped() {
  return test_support::spec_example_quadruped();
}
const char* const kSpecExample = test_support::kSpecExampleConfig;

int count(const std::vector<ControllerRecord>& records, ControllerRecord::Kind kind,
          std::string_view name) {
  int n = 0;
  for (const auto& r : records) n += (r.kind == kind && r.name == name) ? 1 : 0;
  return n;
}

TEST(BindTest, SpecExampleDrivesTheModel) {
  const Model model = quadruped();
  auto config = critter::config::parse_animation_config(kSpecExample, "example.json");
  ASSERT_TRUE(config) << config.error().to_string();
  auto desc = critter::config::bind(*config, model);
  ASSERT_TRUE(desc) << desc.error().to_string();

  ASSERT_EQ(desc->layers.size(), 3u);
  EXPECT_EQ(desc->layers[1].name, "Head");
  EXPECT_EQ(desc->layers[1].blend_curve, anim::BlendCurve::kSmoothstep);
  EXPECT_EQ(desc->layers[1].joint_weights, (std::vector<float>{0, 0, 1, 1, 0, 0, 0}));
  EXPECT_TRUE(desc->layers[0].joint_weights.empty());
  // The Head layer's LookAt preset: TargetBoneName defaults to Head, an alias of b_Head_05.
  EXPECT_EQ(desc->layers[1].driver.type, "LookAt");
  EXPECT_EQ(desc->layers[1].driver.target_bone, model.find_bone("b_Head_05"));
  EXPECT_EQ(desc->layers[1].driver.yaw_axis, 1);
  EXPECT_FLOAT_EQ(desc->layers[1].driver.max_yaw_degrees, 40.0f);
  EXPECT_FLOAT_EQ(desc->layers[1].driver.max_pitch_degrees, 15.0f);
  EXPECT_EQ(desc->layers[2].driver.type, "Death");
  EXPECT_FLOAT_EQ(desc->layers[2].driver.body_drop, 0.4f);
  EXPECT_EQ(desc->layers[2].driver.root_bone, -1);
  ASSERT_EQ(desc->states.size(), 2u);
  const auto& gait = desc->states[0];
  EXPECT_EQ(gait.layer, 0);
  ASSERT_EQ(gait.rules.size(), 4u);
  EXPECT_EQ(gait.rules[0].animation.source, anim::ControllerAnimationDesc::Source::kNone);
  // The rule "jump" merged with its alias: source, loop, blendDuration and onComplete.
  const auto& jump = gait.rules[1].animation;
  EXPECT_EQ(jump.clip, model.find_clip("Jump"));
  EXPECT_FALSE(jump.loop.value);
  EXPECT_FLOAT_EQ(jump.blend_duration.value, 0.2f);
  EXPECT_EQ(jump.on_complete.name, "JumpDone");
  ASSERT_TRUE(jump.root_motion.has_value());
  EXPECT_EQ(jump.root_motion->mode, anim::RootMotionMode::kAddImpulse);
  EXPECT_FLOAT_EQ(jump.root_motion->impulse_phase, 0.18f);
  EXPECT_EQ(jump.root_motion->velocity_mask, vec3(0, 1, 0));
  ASSERT_TRUE(gait.rules[2].is_group);
  const auto& walk = gait.rules[2].rules[0].animation;
  EXPECT_EQ(walk.speed.expression, "[SpeedXZ] * 0.65");
  ASSERT_EQ(walk.events.size(), 1u);
  EXPECT_FLOAT_EQ(walk.events[0].phase, 0.25f);
  EXPECT_EQ(desc->states[1].rules[0].animation.source,
            anim::ControllerAnimationDesc::Source::kDriver);
  EXPECT_FLOAT_EQ(desc->model_scale, 0.01f);
  ASSERT_EQ(desc->ik_chains.size(), 1u);
  EXPECT_EQ(desc->ik_chains[0].end_joint, model.find_bone("b_FootL"));
  EXPECT_EQ(desc->ik_chains[0].target, "FootTargetL");
  EXPECT_EQ(desc->ik_chains[0].enabled.expression, "[IsOnGround]");

  auto program = anim::ControllerProgram::compile(model, std::move(*desc));
  ASSERT_TRUE(program) << program.error().to_string();
  Controller c(*program);
  auto& v = c.parameters();
  std::vector<ControllerRecord> records;
  auto run = [&](float seconds) {
    const int frames = static_cast<int>(std::lround(seconds / 0.01f));
    for (int i = 0; i < frames; ++i) {
      c.update(0.01f);
      records.insert(records.end(), c.records().begin(), c.records().end());
      c.clear_records();
    }
  };
  // rootBoneRotation 180 is a yaw of 180 degrees: (0, 1, 0, 0) up to sign.
  EXPECT_NEAR(std::abs(c.root_bone_rotation().y), 1.0f, 1e-5f);

  // The LookAt preset turns the head about Y (yaw 0.5 rad, within 40 degrees) from the start.
  v.set_bool("IsOnGround", true);
  v.set_float("LookAngleX", 0.5);
  run(0.01f);
  const quat yaw = quat_xyzw(0, std::sin(-0.25f), 0, std::cos(-0.25f));
  const quat head =
      c.compute_pose()[static_cast<std::size_t>(model.find_bone("b_Head_05"))].rotation;
  EXPECT_NEAR(std::abs(glm::dot(head, yaw)), 1.0f, 1e-6f);

  // On the ground and still: idle fades in over its 0.3 s default blend (0.01 s already ran).
  run(0.14f);
  EXPECT_NEAR(c.layer_weight(0), 0.5f, 1e-4f);
  run(0.2f);
  EXPECT_FLOAT_EQ(c.layer_weight(0), 1.0f);
  EXPECT_NEAR(c.compute_pose()[0].translation.x, 1.0f, 1e-5f);

  // Walking: crossfade to walk at rate 0.65; Footstep at clip phase 0.25 (0.385 s in).
  v.set_float("SpeedXZ", 1.0);
  run(0.3f);
  EXPECT_EQ(count(records, ControllerRecord::Kind::kEvent, "Footstep"), 0);
  EXPECT_NEAR(c.compute_pose()[0].translation.x, 2.0f, 1e-4f);
  EXPECT_NEAR(c.layer_player(0).rate(), 0.65f, 1e-6f);
  run(0.2f);
  EXPECT_EQ(count(records, ControllerRecord::Kind::kEvent, "Footstep"), 1);

  // Jump: non-looping, completes once after 1 s and then fades the Base layer out.
  v.set_string("Gait", "Jump");
  run(0.5f);
  EXPECT_NEAR(c.compute_pose()[0].translation.x, 3.0f, 1e-4f);
  run(0.6f);
  EXPECT_EQ(count(records, ControllerRecord::Kind::kComplete, "JumpDone"), 1);
  run(0.3f);
  EXPECT_FALSE(c.layer_active(0));
  EXPECT_NEAR(c.compute_pose()[0].translation.x, 0.0f, 1e-6f);  // rest
  EXPECT_EQ(count(records, ControllerRecord::Kind::kComplete, "JumpDone"), 1);

  // Back to walking: the layer fades in again.
  v.set_string("Gait", "");
  run(0.5f);
  EXPECT_TRUE(c.layer_active(0));
  EXPECT_NEAR(c.compute_pose()[0].translation.x, 2.0f, 1e-4f);

  // Dying: the rule turns the Death layer's driver on; at full weight it replaces the walk's root
  // with the rest root dropped by BodyDrop * BodyHeight * DeathPhase = 0.4 * 1 * 0.5.
  v.set_float("BodyHeight", 1.0);
  v.set_float("DeathPhase", 0.5);
  run(0.01f);
  EXPECT_NEAR(c.compute_pose()[0].translation.y, -0.2f, 1e-5f);
  EXPECT_NEAR(c.compute_pose()[0].translation.x, 0.0f, 1e-5f);  // Death overrides the root
}

TEST(BindTest, RuleFieldsWinOverTheAliasChain) {
  const Model model = quadruped();
  auto config = critter::config::parse_animation_config(R"({
    "animations": {"base": {"source": "Walk", "speed": 2, "blendDuration": 0.5},
                   "fast": {"source": "base", "speed": 3}},
    "states": {"s": {"layer": "Base", "rules": [
      {"condition": "true", "animation": {"source": "fast", "blendDuration": 0.1}}]}}})",
                                                        "chain.json");
  ASSERT_TRUE(config) << config.error().to_string();
  auto desc = critter::config::bind(*config, model);
  ASSERT_TRUE(desc) << desc.error().to_string();
  const auto& a = desc->states[0].rules[0].animation;
  EXPECT_EQ(a.clip, model.find_clip("Walk"));
  EXPECT_FLOAT_EQ(a.speed.value, 3.0f);           // nearest alias
  EXPECT_FLOAT_EQ(a.blend_duration.value, 0.1f);  // the rule
  EXPECT_TRUE(a.loop.value);                      // default
}

TEST(BindTest, RootMotionScaleAndPhysicsReachTheController) {
  const Model model = quadruped();
  auto config = critter::config::parse_animation_config(R"({
    "animations": {
      "leap": {"source": "Jump", "loop": false, "blendDuration": 0,
               "rootMotion": {"translation": {"mode": "Override"},
                              "scale": {"mode": "Override", "source": "Fixed", "value": 0.5,
                                        "blendDuration": 0.25, "minScale": 0.25},
                              "physics": {"disableGravity": true, "clearVelocityOnExit": true,
                                          "disableAll": true}}},
      "stroll": {"source": "Walk", "blendDuration": 0,
                 "rootMotion": {"scale": {"mode": "Override"}}}},
    "states": {"s": {"layer": "Base", "rules": [
      {"condition": "[Leap]", "animation": "leap"},
      {"condition": "true", "animation": "stroll"}]}},
    "parameters": {"Leap": false}})",
                                                        "rm.json");
  ASSERT_TRUE(config) << config.error().to_string();
  auto desc = critter::config::bind(*config, model);
  ASSERT_TRUE(desc) << desc.error().to_string();

  const auto& leap = desc->states[0].rules[0].animation;
  ASSERT_TRUE(leap.root_motion.has_value());
  EXPECT_EQ(leap.root_motion->mode, anim::RootMotionMode::kOverride);
  EXPECT_EQ(leap.root_motion->scale.mode, anim::RootScaleMode::kOverride);
  EXPECT_EQ(leap.root_motion->scale.source, anim::RootScaleSource::kFixed);
  EXPECT_FLOAT_EQ(leap.root_motion->scale.value, 0.5f);
  EXPECT_FLOAT_EQ(leap.root_motion->scale.blend_duration, 0.25f);
  EXPECT_EQ(leap.root_motion->scale.min_scale, std::optional<float>(0.25f));
  const anim::RootMotionPhysics& ph = leap.root_motion->physics;
  EXPECT_TRUE(ph.disable_gravity);
  EXPECT_TRUE(ph.clear_velocity_on_exit);
  EXPECT_TRUE(ph.disable_all);
  EXPECT_FALSE(ph.disable_terrain_collision);  // as written; disable_all expands at run time
  // The defaults of a scale block that names only its mode, and no physics block.
  const auto& stroll = desc->states[0].rules[1].animation;
  ASSERT_TRUE(stroll.root_motion.has_value());
  EXPECT_EQ(stroll.root_motion->mode, anim::RootMotionMode::kNone);
  EXPECT_EQ(stroll.root_motion->scale.mode, anim::RootScaleMode::kOverride);
  EXPECT_EQ(stroll.root_motion->scale.source, anim::RootScaleSource::kAnimation);
  EXPECT_FLOAT_EQ(stroll.root_motion->scale.blend_duration, 0.2f);
  EXPECT_FALSE(stroll.root_motion->scale.min_scale.has_value());
  EXPECT_EQ(stroll.root_motion->physics, anim::RootMotionPhysics{});

  auto program = anim::ControllerProgram::compile(model, std::move(*desc));
  ASSERT_TRUE(program) << program.error().to_string();
  Controller c(*program);
  // Walk has no scale keys: the source root's rest scale 1, eased from 1, stays 1.
  c.update(0.125f);
  ASSERT_TRUE(c.root_motion_scale());
  EXPECT_FLOAT_EQ(*c.root_motion_scale(), 1.0f);
  EXPECT_FALSE(c.root_motion_physics().disable_gravity);
  // Leap: 1 toward the fixed 0.5 over 0.25 s, halfway after 0.125 s; every effect disabled.
  c.parameters().set_bool("Leap", true);
  c.update(0.125f);
  EXPECT_NEAR(*c.root_motion_scale(), 0.75f, 1e-6f);
  EXPECT_TRUE(c.root_motion_physics().disable_terrain_collision);
  EXPECT_TRUE(c.root_motion_physics().disable_ground_drag);
  // Back to strolling: leaving the leap zeroes the velocity once.
  c.set_body(vec3(1, 2, 3), quat(1, 0, 0, 0));
  c.parameters().set_bool("Leap", false);
  c.update(0.125f);
  ASSERT_TRUE(c.root_motion_velocity());
  EXPECT_EQ(*c.root_motion_velocity(), vec3(0.0f));
  EXPECT_FALSE(c.root_motion_physics().disable_gravity);
  c.update(0.125f);
  EXPECT_FALSE(c.root_motion_velocity());
}

// Bind compiles no expression; ControllerProgram::compile compiles each one once, goes on after a
// failure and reports each failing field once, at its file and JSON pointer (an alias's field
// merged into two rules, and an alias no rule plays, included).
TEST(BindTest, TheOneCompileReportsEveryExpressionErrorWhereItIsWritten) {
  const Model model = quadruped();
  auto config = critter::config::parse_animation_config(R"({
    "animations": {"walk": {"source": "Walk", "speed": "[Speed] * (2"},
                   "unused": {"source": "Idle", "blendDuration": "[Fade] +"}},
    "states": {"s": {"layer": "Base", "rules": [
      {"condition": "[Mood] ==", "animation": "walk"},
      {"condition": "[A]", "animation": "walk"},
      {"condition": "true", "animation": {"source": "Idle", "speed": "[Pace] * 2"}}]}}})",
                                                        "one.json");
  ASSERT_TRUE(config) << config.error().to_string();
  Diagnostics diag;
  auto desc = critter::config::bind(*config, model, {}, &diag);
  ASSERT_TRUE(desc) << desc.error().to_string();
  EXPECT_TRUE(diag.empty());
  ASSERT_EQ(desc->animations.size(), 2u);
  EXPECT_EQ(desc->animations[1].sites.blend_duration.pointer, "/animations/unused/blendDuration");

  std::vector<Error> errors;
  auto program = anim::ControllerProgram::compile(model, std::move(*desc), nullptr, &diag, &errors);
  ASSERT_FALSE(program);
  ASSERT_EQ(errors.size(), 3u);
  EXPECT_EQ(errors[0].path, "one.json");
  EXPECT_EQ(errors[0].location, "/animations/walk/speed");
  EXPECT_TRUE(errors[0].message.starts_with("expression '[Speed] * (2': ")) << errors[0].message;
  EXPECT_NE(errors[0].message.find("(column "), std::string::npos) << errors[0].message;
  EXPECT_EQ(errors[1].location, "/animations/unused/blendDuration");
  EXPECT_EQ(errors[2].location, "/states/s/rules/0/condition");
  EXPECT_EQ(errors[2].path, "one.json");
  EXPECT_EQ(program.error().location, errors[0].location);
  // Names the compiled expressions read without a declaration are warned where they are read.
  ASSERT_EQ(diag.size(), 2u);
  EXPECT_EQ(diag.items()[0].location, "/states/s/rules/1/condition");
  EXPECT_EQ(diag.items()[0].message, "parameter 'A' is neither declared nor built in");
  EXPECT_EQ(diag.items()[1].location, "/states/s/rules/2/animation/speed");
  EXPECT_EQ(diag.items()[1].path, "one.json");
}

// A description built in code has no locations: its expression errors name their place in the
// description, and every one is still reported.
TEST(BindTest, UnlocatedExpressionErrorsNameTheirPlaceInTheDescription) {
  const Model model = quadruped();
  anim::ControllerDesc desc;
  desc.layers.push_back(anim::ControllerLayerDesc{});
  desc.layers[0].name = "Base";
  anim::ControllerStateDesc state;
  state.layer = 0;
  for (const char* condition : {"[X] +", "true", "(("}) {
    anim::ControllerRuleDesc rule;
    rule.condition = condition;
    state.rules.push_back(rule);
  }
  desc.states.push_back(state);
  std::vector<Error> errors;
  auto program = anim::ControllerProgram::compile(model, desc, nullptr, nullptr, &errors);
  ASSERT_FALSE(program);
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0].path, "ControllerDesc");
  EXPECT_EQ(errors[0].location, "states/0/rules/0/condition");
  EXPECT_EQ(errors[1].location, "states/0/rules/2/condition");
}

// With `partial`, a description comes back even when binding fails, what failed made inert, so
// the one compile can still list the expression errors.
TEST(BindTest, APartialDescriptionStillCarriesTheExpressions) {
  const Model model = quadruped();
  auto config = critter::config::parse_animation_config(R"({
    "layers": {"Base": {"bones": ["NoSuchBone"]}},
    "states": {"s": {"layer": "Base", "rules": [
      {"condition": "[A] >", "animation": "Fly"},
      {"condition": "true", "animation": "driver:Warp"}]}}})",
                                                        "partial.json");
  ASSERT_TRUE(config) << config.error().to_string();
  std::vector<Error> errors;
  anim::ControllerDesc partial;
  auto desc = critter::config::bind(*config, model, {}, nullptr, &errors, &partial);
  ASSERT_FALSE(desc);
  ASSERT_EQ(errors.size(), 3u);  // the bone, the clip, the driver type
  EXPECT_EQ(errors[1].location, "/states/s/rules/0/animation");
  ASSERT_EQ(partial.states.size(), 1u);
  ASSERT_EQ(partial.states[0].rules.size(), 2u);
  EXPECT_EQ(partial.states[0].rules[0].animation.source,
            anim::ControllerAnimationDesc::Source::kNone);
  EXPECT_EQ(partial.states[0].rules[1].animation.source,
            anim::ControllerAnimationDesc::Source::kNone);
  auto program =
      anim::ControllerProgram::compile(model, std::move(partial), nullptr, nullptr, &errors);
  ASSERT_FALSE(program);
  ASSERT_EQ(errors.size(), 4u);
  EXPECT_EQ(errors[3].location, "/states/s/rules/0/condition");
}

// A name nothing matches is reported with the known names near it.
TEST(BindTest, UnknownNamesSuggestTheNearestKnownOnes) {
  const Model model = quadruped();
  auto config = critter::config::parse_animation_config(R"({
    "boneAliases": {"Head": "b_Head_05"},
    "layers": {"Base": {"bones": ["b_body", "Haed", "b_Nekc_04"], "driver": {"type": "Death", "properties": {"BodyDorp": 0.4}}}},
    "states": {"s": {"layer": "Base", "rules": [{"condition": "true", "animation": "driver:Deth"}]}},
    "animations": {"walking": {"source": "Wakl"}, "jump": {"source": "animation://Jmup"}},
    "ik": {"chains": [{"endBone": "b_Fot", "target": "Helth"}]}})",
                                                        "near.json");
  ASSERT_TRUE(config) << config.error().to_string();
  Diagnostics diag;
  std::vector<Error> errors;
  auto desc = critter::config::bind(*config, model, {}, &diag, &errors);
  ASSERT_FALSE(desc);
  std::vector<std::string> messages;
  for (const Error& e : errors) messages.push_back(e.location + ": " + e.message);
  EXPECT_EQ(messages,
            (std::vector<std::string>{
                "/layers/Base/bones/1: bone 'Haed' is not a bone of the model (did you mean Head?)",
                "/layers/Base/bones/2: bone 'b_Nekc_04' is not a bone of the model (did you mean "
                "b_Neck_04?)",
                "/layers/Base/driver/properties/BodyDorp: unknown driver property 'BodyDorp' for "
                "driver 'Death' (did you mean BodyDrop?)",
                "/animations/walking/source: 'Wakl' is neither an animation alias nor a clip of "
                "the model (did you mean Walk?)",
                "/animations/jump/source: the model has no clip 'Jmup' (did you mean Jump?)",
                "/states/s/rules/0/animation: unknown driver type 'Deth' (did you mean Death?)",
                "/ik/chains/0/endBone: endBone 'b_Fot' is not a bone of the model (did you mean "
                "b_Root, b_FootL?)",
            }))
      << ::testing::PrintToString(messages);
  ASSERT_EQ(diag.size(), 1u);
  EXPECT_EQ(diag.items()[0].message,
            "parameter 'Helth' is neither declared nor built in (did you mean Health?)");
}

// With a complete schema an expression reading an undeclared name is a compile error; the host
// names the parameters it sets, and an open schema only warns.
TEST(BindTest, CompleteSchemaMakesUndeclaredExpressionParametersErrors) {
  const Model model = quadruped();
  auto config = critter::config::parse_animation_config(R"({
    "states": {"s": {"layer": "Base", "rules": [
      {"condition": "[Gait] == 'trot' and [SpeedXY] > 1", "animation": "Walk"}]}}})",
                                                        "gait.json");
  ASSERT_TRUE(config) << config.error().to_string();
  critter::config::BindOptions options;
  options.complete_schema = true;
  auto desc = critter::config::bind(*config, model, options);
  ASSERT_TRUE(desc) << desc.error().to_string();
  EXPECT_TRUE(desc->schema_complete);
  Diagnostics diag;
  std::vector<Error> errors;
  EXPECT_FALSE(anim::ControllerProgram::compile(model, std::move(*desc), nullptr, &diag, &errors));
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0].path, "gait.json");
  EXPECT_EQ(errors[0].location, "/states/s/rules/0/condition");
  EXPECT_EQ(errors[0].message,
            "expression '[Gait] == 'trot' and [SpeedXY] > 1': parameter 'Gait' is neither declared "
            "nor built in");
  EXPECT_EQ(errors[1].message,
            "expression '[Gait] == 'trot' and [SpeedXY] > 1': parameter 'SpeedXY' is neither "
            "declared nor built in (did you mean SpeedXZ, Speed?)");
  EXPECT_EQ(diag.size(), 0u);

  options.host_parameters = {"Gait", "SpeedXY"};
  desc = critter::config::bind(*config, model, options);
  ASSERT_TRUE(desc) << desc.error().to_string();
  EXPECT_TRUE(anim::ControllerProgram::compile(model, std::move(*desc), nullptr, &diag));
  EXPECT_EQ(diag.size(), 0u);

  desc = critter::config::bind(*config, model);
  ASSERT_TRUE(desc) << desc.error().to_string();
  EXPECT_FALSE(desc->schema_complete);
  EXPECT_TRUE(anim::ControllerProgram::compile(model, std::move(*desc), nullptr, &diag));
  ASSERT_EQ(diag.size(), 2u);
  EXPECT_EQ(diag.items()[1].message,
            "parameter 'SpeedXY' is neither declared nor built in (did you mean SpeedXZ, Speed?)");
}

}  // namespace
