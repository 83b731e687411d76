// SPDX-License-Identifier: MIT
// Animation config parse stage (relaxed JSON, every field, located errors, extends, templates) and
// the located errors and warnings of binding a parsed config to a model.
#include "critter/config/animation_config.h"

#include "critter/anim/controller.h"
#include "critter/config/bind.h"

#include <gtest/gtest.h>

#include "support/spec_example.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using critter::Diagnostics;
using critter::Error;
using critter::ErrorCode;
using critter::quat;
using critter::vec3;
using namespace critter::config;
namespace anim = critter::anim;

class AnimationConfigTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("critter_config_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string& name, const std::string& text) const {
    const fs::path p = dir_ / name;
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
  }
  critter::Result<AnimationConfig> parse(const std::string& text) {
    errors_.clear();
    diag_.clear();
    return parse_animation_config(text, (dir_ / "main.json").string(), {}, &diag_, &errors_);
  }
  // True when a warning sits at `pointer` and its message contains `needle`.
  bool warned(const std::string& pointer, const std::string& needle) const {
    for (const auto& w : diag_.items()) {
      if (w.location == pointer && w.message.find(needle) != std::string::npos) return true;
    }
    return false;
  }
  // bind, then the one compile of the description (the partial one where bind failed), as
  // `critter check` does: the errors and warnings of both.
  critter::Result<critter::anim::ControllerDesc> bind_and_compile(const AnimationConfig& c,
                                                                  const critter::Model& model) {
    critter::anim::ControllerDesc partial;
    auto b = bind(c, model, {}, &diag_, &errors_, &partial);
    (void)critter::anim::ControllerProgram::compile(model, b ? *b : std::move(partial), nullptr,
                                                    &diag_, &errors_);
    return b;
  }
  bool has_error(const std::string& pointer, const std::string& needle) const {
    for (const Error& e : errors_) {
      if (e.location == pointer && e.message.find(needle) != std::string::npos) return true;
    }
    return false;
  }
  std::string all_errors() const {
    std::string s;
    for (const Error& e : errors_) s += e.to_string() + "\n";
    return s;
  }
  std::string all_warnings() const {
    std::string s;
    for (const auto& w : diag_.items()) s += w.to_string() + "\n";
    return s;
  }

  fs::path dir_;
  Diagnostics diag_;
  std::vector<Error> errors_;
};

// ---- relaxed JSON -------------------------------------------------------------------------------

TEST_F(AnimationConfigTest, CommentsTrailingCommasAndCaseFolding) {
  auto c = parse(R"({
    // line comment, with a comma, ]
    "TEMPLATE": "fourlegged", /* block, } */
    "ModelScale": "0.5",
    "animations": { "walk": { "SOURCE": "Walk", "Speed": 2, "LOOP": "false", }, },
    "states": { "gait": { "Layer": "base", "rules": [ { "condition": "true", "animation": "walk", }, ], }, },
  })");
  ASSERT_TRUE(c) << c.error().to_string();
  EXPECT_EQ(c->template_config.name, "FourLegged");
  EXPECT_FLOAT_EQ(c->model_scale, 0.5f);
  ASSERT_EQ(c->animations.size(), 1u);
  const AnimationReference& walk = c->animations[0].reference;
  EXPECT_EQ(walk.kind, SourceKind::kName);
  EXPECT_EQ(walk.target, "Walk");
  EXPECT_FLOAT_EQ(walk.speed.value, 2.0f);
  EXPECT_FALSE(walk.loop.value);
  EXPECT_TRUE(walk.loop.written);
  EXPECT_EQ(c->states[0].layer, "base");
  EXPECT_TRUE(diag_.empty()) << all_warnings();
}

TEST_F(AnimationConfigTest, CommaInsideStringIsKept) {
  auto c = parse(R"({"parameters": {"Gait": "a,]", "Other": "x,}"}})");
  ASSERT_TRUE(c) << c.error().to_string();
  EXPECT_EQ(c->parameters[0].string, "a,]");
  EXPECT_EQ(c->parameters[1].string, "x,}");
}

TEST_F(AnimationConfigTest, SyntaxErrorHasLineAndColumn) {
  // Line 3, the '}' at column 14 where a value is expected.
  auto c = parse("{\n  \"a\": 1,\n  \"modelScale\": }\n}");
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().code, ErrorCode::kParse);
  EXPECT_EQ(c.error().location, "3:17");
  EXPECT_NE(c.error().message.find("JSON syntax"), std::string::npos) << c.error().message;
}

// Found by fuzzing (fuzz/config_fuzz.cpp): a document whose root is not an object was reported at
// the root's empty JSON pointer, an error without a location. It is located where the root starts.
TEST_F(AnimationConfigTest, RootThatIsNotAnObjectIsLocatedWhereItStarts) {
  auto c = parse("\"  \"// e");
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().code, ErrorCode::kInvalid);
  EXPECT_EQ(c.error().location, "1:1");
  EXPECT_EQ(c.error().message, "expected an object at the top level, got a string");
  auto d = parse("// a comment\n  /* another */ [1, 2]");
  ASSERT_FALSE(d);
  EXPECT_EQ(d.error().location, "2:17");
  EXPECT_EQ(d.error().message, "expected an object at the top level, got an array");
}

// Found by fuzzing: a root number too large for a double ("1e999") had the root's empty pointer
// as its location. It is located by line and column.
TEST_F(AnimationConfigTest, RootNumberOverflowIsLocated) {
  auto c = parse(std::string("1e999\0 \"onComplete\"[", 20));
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().code, ErrorCode::kInvalid);
  EXPECT_EQ(c.error().location, "1:1");
  EXPECT_NE(c.error().message.find("non-finite number"), std::string::npos) << c.error().message;
  auto d = parse(R"({"modelScale": 1e999})");
  ASSERT_FALSE(d);
  EXPECT_EQ(d.error().location, "/modelScale");
}

TEST_F(AnimationConfigTest, DuplicatePropertyLastWinsWithWarning) {
  auto c = parse(R"({"modelScale": 2, "modelscale": 3})");
  ASSERT_TRUE(c) << c.error().to_string();
  EXPECT_FLOAT_EQ(c->model_scale, 3.0f);
  EXPECT_TRUE(warned("/modelscale", "written twice")) << all_warnings();
}

TEST_F(AnimationConfigTest, MapKeysDifferingOnlyInCaseAreAnError) {
  auto c = parse(R"({"animations": {"walk": {"source": "a"}, "Walk": {"source": "b"}}})");
  ASSERT_FALSE(c);
  EXPECT_TRUE(has_error("/animations/Walk", "differ only in case")) << all_errors();
}

TEST_F(AnimationConfigTest, SameMapKeyTwiceLastWins) {
  auto c = parse(R"({"parameters": {"A": 1, "A": 2}})");
  ASSERT_TRUE(c) << c.error().to_string();
  ASSERT_EQ(c->parameters.size(), 1u);
  EXPECT_FLOAT_EQ(c->parameters[0].number, 2.0f);
  EXPECT_TRUE(warned("/parameters/A", "written twice"));
}

TEST_F(AnimationConfigTest, UnknownPropertiesWarnWithPointer) {
  auto c = parse(R"({"colour": 1, "animations": {"a/b": {"source": "x", "spede": 2}}})");
  ASSERT_TRUE(c) << c.error().to_string();
  EXPECT_TRUE(warned("/colour", "unknown property 'colour'")) << all_warnings();
  // '/' in a name is escaped as ~1 (RFC 6901).
  EXPECT_TRUE(warned("/animations/a~1b/spede", "unknown property")) << all_warnings();
}

TEST_F(AnimationConfigTest, WrongTypesAreLocatedAndAllCollected) {
  auto c = parse(R"({"modelScale": "big", "animations": {"a": {"source": "x", "speed": true,
                     "preservePose": 3}}})");
  ASSERT_FALSE(c);
  EXPECT_TRUE(has_error("/modelScale", "expected a number, got string 'big'")) << all_errors();
  EXPECT_TRUE(has_error("/animations/a/speed", "expected a number, got a bool")) << all_errors();
  EXPECT_TRUE(has_error("/animations/a/preservePose", "expected a bool")) << all_errors();
  EXPECT_EQ(errors_.size(), 3u) << all_errors();
  EXPECT_EQ(c.error().location, "/modelScale");
  EXPECT_EQ(c.error().path, (dir_ / "main.json").string());
}

TEST_F(AnimationConfigTest, NonFiniteNumberIsAnError) {
  auto c = parse(R"({"modelScale": 1e999})");
  ASSERT_FALSE(c);
  EXPECT_TRUE(has_error("/modelScale", "non-finite")) << all_errors();
}

// ---- top level ----------------------------------------------------------------------------------

TEST_F(AnimationConfigTest, RootBoneRotationNumberIsYaw) {
  auto c = parse(R"({"rootBoneRotation": 180, "rootBoneTranslation": {"x": 1, "Y": 2, "z": 3}})");
  ASSERT_TRUE(c) << c.error().to_string();
  ASSERT_TRUE(c->root_bone_rotation);
  // 180° about Y: (x, y, z, w) = (0, ±1, 0, 0).
  EXPECT_NEAR(std::abs(c->root_bone_rotation->y), 1.0f, 1e-6f);
  EXPECT_NEAR(c->root_bone_rotation->w, 0.0f, 1e-6f);
  EXPECT_EQ(*c->root_bone_translation, vec3(1, 2, 3));
}

TEST_F(AnimationConfigTest, RootBoneRotationVectorIsYawOfPitchOfRoll) {
  auto c = parse(R"({"rootBoneRotation": [90, 90, 0]})");
  ASSERT_TRUE(c) << c.error().to_string();
  // R = R_Y(90)·R_X(90): the X axis maps to R_Y(90)·X = -Z; the Y axis to R_Y(90)·Z = +X.
  const vec3 x = *c->root_bone_rotation * vec3(1, 0, 0);
  const vec3 y = *c->root_bone_rotation * vec3(0, 1, 0);
  EXPECT_NEAR(x.z, -1.0f, 1e-6f);
  EXPECT_NEAR(y.x, 1.0f, 1e-6f);
}

TEST_F(AnimationConfigTest, ParametersOfEveryType) {
  auto c = parse(R"({"parameters": {"F": 0.5, "B": true, "S": "walk", "V2": [1, 2],
      "V3": {"X": 1, "y": 2, "Z": 3}, "V2o": {"x": 4, "y": 5},
      "I": {"type": "int", "value": 7}, "T": {"type": "Trigger"}}})");
  ASSERT_TRUE(c) << c.error().to_string();
  ASSERT_EQ(c->parameters.size(), 8u);
  EXPECT_EQ(c->parameters[0].type, anim::ParamType::kFloat);
  EXPECT_FLOAT_EQ(c->parameters[0].number, 0.5f);
  EXPECT_EQ(c->parameters[1].type, anim::ParamType::kBool);
  EXPECT_TRUE(c->parameters[1].boolean);
  EXPECT_EQ(c->parameters[2].type, anim::ParamType::kString);
  EXPECT_EQ(c->parameters[2].string, "walk");
  EXPECT_EQ(c->parameters[3].type, anim::ParamType::kVec2);
  EXPECT_EQ(c->parameters[3].vec, vec3(1, 2, 0));
  EXPECT_EQ(c->parameters[4].type, anim::ParamType::kVec3);
  EXPECT_EQ(c->parameters[4].vec, vec3(1, 2, 3));
  EXPECT_EQ(c->parameters[5].type, anim::ParamType::kVec2);
  EXPECT_EQ(c->parameters[5].vec, vec3(4, 5, 0));
  EXPECT_EQ(c->parameters[6].type, anim::ParamType::kInt);
  EXPECT_FLOAT_EQ(c->parameters[6].number, 7.0f);
  EXPECT_EQ(c->parameters[7].type, anim::ParamType::kTrigger);
  ASSERT_NE(c->find_parameter("v3"), nullptr);
}

TEST_F(AnimationConfigTest, UnsupportedParameterValueIsAnError) {
  auto c = parse(R"({"parameters": {"A": [1, 2, 3, 4], "B": null, "C": {"q": 1}}})");
  ASSERT_FALSE(c);
  EXPECT_TRUE(has_error("/parameters/A", "unsupported initial value")) << all_errors();
  EXPECT_TRUE(has_error("/parameters/B", "unsupported initial value")) << all_errors();
  EXPECT_TRUE(has_error("/parameters/C", "unsupported initial value")) << all_errors();
}

TEST_F(AnimationConfigTest, BoneAliasChainsAndCycles) {
  auto c = parse(R"({"boneAliases": {"Hand1": "Arm", "Arm": "b_Arm_R"}})");
  ASSERT_TRUE(c) << c.error().to_string();
  EXPECT_EQ(c->resolve_bone_alias("hand1"), "b_Arm_R");
  EXPECT_EQ(c->resolve_bone_alias("Leg"), "Leg");
  c = parse(R"({"boneAliases": {"A": "B", "B": "C", "C": "A"}})");
  ASSERT_FALSE(c);
  EXPECT_TRUE(has_error("/boneAliases/A", "bone alias cycle")) << all_errors();
}

// ---- animation references -------------------------------------------------------------------

// A negative smooth time or spring constant would make the root-motion spring diverge: each is
// refused where it stands.
TEST_F(AnimationConfigTest, NegativeRootMotionSpringConstantsAreRefused) {
  auto c = parse(R"({"animations": {"dash": {"source": "Walk", "rootMotion": {"translation": {
      "mode": "Blend", "blendMethod": "SpringDamper", "smoothTime": -0.1,
      "springStiffness": -100, "springDamping": -1}}}}})");
  ASSERT_FALSE(c);
  const std::string at = "/animations/dash/rootMotion/translation/";
  EXPECT_TRUE(has_error(at + "smoothTime", "must be >= 0")) << all_errors();
  EXPECT_TRUE(has_error(at + "springStiffness", "must be >= 0")) << all_errors();
  EXPECT_TRUE(has_error(at + "springDamping", "must be >= 0")) << all_errors();
}

TEST_F(AnimationConfigTest, AnimationReferenceEveryField) {
  auto c = parse(R"({"animations": {"jump": {
      "source": "Jump", "speed": "[SpeedXZ] * 0.65", "loop": "expr:IsOnGround",
      "startPhase": 0.1, "endPhase": "0.9", "blendDuration": 0.2, "preservePose": true,
      "events": [{"time": 0.25, "name": "Footstep", "data": "left"}],
      "onComplete": {"type": "TRIGGER", "name": "JumpDone", "data": "d"},
      "onInterrupt": {"type": "setState", "state": "Gait", "value": "idle"},
      "driverArgs": {"Gait": 2},
      "rootMotion": {"sourceBone": "Root",
        "translation": {"mode": "addimpulse", "impulsePhase": 0.18, "velocityMask": [0, 1, 0],
                        "impulseOverride": [0, 5, 0], "blendMethod": "SpringDamper",
                        "impulseMethod": "Peak", "maxSpeed": 10},
        "scale": {"mode": "Override", "source": "Fixed", "value": 2, "minScale": 0.5},
        "physics": {"disableGravity": true, "clearVelocityOnExit": "true"}},
      "rootBoneRotation": 90, "rootBoneTranslation": [0, 1, 0]}}})");
  ASSERT_TRUE(c) << c.error().to_string();
  const AnimationReference& r = c->find_animation("JUMP")->reference;
  EXPECT_EQ(r.kind, SourceKind::kName);
  EXPECT_EQ(r.speed.expression, "[SpeedXZ] * 0.65");
  EXPECT_EQ(r.speed.where.pointer, "/animations/jump/speed");
  EXPECT_EQ(r.loop.expression, "IsOnGround");
  EXPECT_FLOAT_EQ(r.start_phase.value, 0.1f);
  EXPECT_FLOAT_EQ(r.end_phase.value, 0.9f);
  EXPECT_FALSE(r.end_phase.is_expression());
  EXPECT_FLOAT_EQ(r.blend_duration.value, 0.2f);
  EXPECT_TRUE(r.preserve_pose.value_or(false));
  ASSERT_TRUE(r.events);
  ASSERT_EQ(r.events->size(), 1u);
  EXPECT_FLOAT_EQ((*r.events)[0].time, 0.25f);
  EXPECT_EQ((*r.events)[0].name, "Footstep");
  EXPECT_EQ((*r.events)[0].data, "left");
  ASSERT_TRUE(r.on_complete);
  EXPECT_EQ(r.on_complete->type, ActionConfig::Type::kTrigger);
  EXPECT_EQ(r.on_complete->name, "JumpDone");
  ASSERT_TRUE(r.on_interrupt);
  EXPECT_EQ(r.on_interrupt->type, ActionConfig::Type::kSetState);
  EXPECT_EQ(r.on_interrupt->state, "Gait");
  EXPECT_EQ(r.on_interrupt->value.string, "idle");
  ASSERT_TRUE(r.driver_args);
  EXPECT_EQ(r.driver_args->find("gait")->number, 2.0);
  ASSERT_TRUE(r.root_motion);
  EXPECT_EQ(r.root_motion->source_bone.value_or(""), "Root");
  EXPECT_EQ(r.root_motion->translation.mode, RootMotionMode::kAddImpulse);
  EXPECT_EQ(r.root_motion->translation.blend_method, RootMotionBlendMethod::kSpringDamper);
  EXPECT_EQ(r.root_motion->translation.impulse_method, RootMotionImpulseMethod::kPeak);
  EXPECT_FLOAT_EQ(r.root_motion->translation.impulse_phase, 0.18f);
  EXPECT_EQ(r.root_motion->translation.velocity_mask, vec3(0, 1, 0));
  EXPECT_EQ(r.root_motion->translation.impulse_override.value_or(vec3(0)), vec3(0, 5, 0));
  EXPECT_FALSE(r.root_motion->translation.impulse_speed_override);
  EXPECT_FLOAT_EQ(r.root_motion->translation.max_speed, 10.0f);
  EXPECT_FLOAT_EQ(r.root_motion->translation.max_impulse, 50.0f);
  EXPECT_EQ(r.root_motion->scale.mode, RootScaleMode::kOverride);
  EXPECT_EQ(r.root_motion->scale.source, RootScaleSource::kFixed);
  EXPECT_EQ(r.root_motion->scale.value.value_or(0), 2.0f);
  EXPECT_EQ(r.root_motion->scale.min_scale.value_or(0), 0.5f);
  ASSERT_TRUE(r.root_motion->physics);
  EXPECT_TRUE(r.root_motion->physics->disable_gravity);
  EXPECT_TRUE(r.root_motion->physics->clear_velocity_on_exit);
  EXPECT_FALSE(r.root_motion->physics->disable_all);
  ASSERT_TRUE(r.root_bone_rotation);
  EXPECT_NEAR(r.root_bone_rotation->y, std::sqrt(0.5f), 1e-6f);
  EXPECT_EQ(*r.root_bone_translation, vec3(0, 1, 0));
  EXPECT_TRUE(diag_.empty()) << all_warnings();
}

TEST_F(AnimationConfigTest, DefaultsOfAnAnimationReference) {
  auto c = parse(R"({"animations": {"idle": {"source": "Idle"}}})");
  ASSERT_TRUE(c) << c.error().to_string();
  const AnimationReference& r = c->animations[0].reference;
  EXPECT_FLOAT_EQ(r.speed.value, 1.0f);
  EXPECT_FALSE(r.speed.written);
  EXPECT_TRUE(r.loop.value);
  EXPECT_FLOAT_EQ(r.start_phase.value, 0.0f);
  EXPECT_FLOAT_EQ(r.end_phase.value, 1.0f);
  EXPECT_FLOAT_EQ(r.blend_duration.value, 0.3f);
  EXPECT_FALSE(r.preserve_pose);
  EXPECT_FALSE(r.events);
  EXPECT_FALSE(r.root_motion);
}

TEST_F(AnimationConfigTest, SourceForms) {
  auto c = parse(R"({"animations": {
      "a": {"source": "animation://Run"}, "b": {"source": "driver: LookAt"},
      "c": {"source": "file:anims/extra.glb#Wave"}, "d": {"source": "file:anims/extra.glb"},
      "e": {"source": "[Gait]"}, "f": {"source": null}, "g": "Walk"}})");
  ASSERT_TRUE(c) << c.error().to_string();
  const auto& a = c->animations;
  EXPECT_EQ(a[0].reference.kind, SourceKind::kClip);
  EXPECT_EQ(a[0].reference.target, "Run");
  EXPECT_EQ(a[1].reference.kind, SourceKind::kDriver);
  EXPECT_EQ(a[1].reference.target, "LookAt");
  EXPECT_EQ(a[2].reference.kind, SourceKind::kFile);
  EXPECT_EQ(a[2].reference.target, "anims/extra.glb");
  EXPECT_EQ(a[2].reference.file_clip, "Wave");
  EXPECT_EQ(a[3].reference.file_clip, "");
  EXPECT_EQ(a[4].reference.kind, SourceKind::kParameter);
  EXPECT_EQ(a[4].reference.target, "Gait");
  EXPECT_EQ(a[5].reference.kind, SourceKind::kNone);
  EXPECT_EQ(a[6].reference.kind, SourceKind::kName);
  EXPECT_EQ(a[6].reference.target, "Walk");
}

TEST_F(AnimationConfigTest, ReferenceErrorsAreLocated) {
  auto c = parse(R"({"animations": {
      "a": {"speed": 2},
      "b": {"source": "x", "events": [{"time": 1.5, "name": "E"}, {"time": 0.5}]},
      "c": {"source": "x", "rootMotion": {"translation": {"mode": "Teleport"}}},
      "d": {"source": "x", "rootMotion": 5},
      "e": {"source": "x", "speed": 0}}})");
  ASSERT_FALSE(c);
  EXPECT_TRUE(has_error("/animations/a", "no 'source'")) << all_errors();
  EXPECT_TRUE(has_error("/animations/b/events/0/time", "outside [0, 1]")) << all_errors();
  EXPECT_TRUE(has_error("/animations/b/events/1", "no 'name'")) << all_errors();
  EXPECT_TRUE(has_error("/animations/c/rootMotion/translation/mode",
                        "unknown value 'Teleport'; expected one of None, Blend, AddImpulse, "
                        "Override"))
      << all_errors();
  EXPECT_TRUE(has_error("/animations/d/rootMotion", "expected a rootMotion object"))
      << all_errors();
  EXPECT_TRUE(has_error("/animations/e/speed", "> 0")) << all_errors();
  EXPECT_EQ(errors_.size(), 6u) << all_errors();
}

// ---- states and rules ---------------------------------------------------------------------------

TEST_F(AnimationConfigTest, NestedRulesKeepOrderAndPointers) {
  auto c = parse(R"({"template": "FourLegged", "states": {
      "gait": {"layer": "Base", "rules": [
        {"condition": "IsDead", "animation": null},
        {"condition": "[IsOnGround]", "rules": [
          {"condition": "[SpeedXZ] > 0.2", "animation": {"source": "walk", "speed": 2}},
          {"condition": true, "animation": "idle"}]}]},
      "head": {"layer": "Head", "rules": [{"condition": "true", "animation": "driver:LookAt"}]}}})");
  ASSERT_TRUE(c) << c.error().to_string();
  ASSERT_EQ(c->states.size(), 2u);
  const StateConfig& gait = c->states[0];
  EXPECT_EQ(gait.name, "gait");
  ASSERT_EQ(gait.rules.size(), 2u);
  EXPECT_FALSE(gait.rules[0].is_group);
  EXPECT_EQ(gait.rules[0].animation->kind, SourceKind::kNone);
  EXPECT_TRUE(gait.rules[1].is_group);
  ASSERT_EQ(gait.rules[1].rules.size(), 2u);
  EXPECT_EQ(gait.rules[1].rules[0].condition, "[SpeedXZ] > 0.2");
  EXPECT_EQ(gait.rules[1].rules[0].condition_where.pointer,
            "/states/gait/rules/1/rules/0/condition");
  EXPECT_FLOAT_EQ(gait.rules[1].rules[0].animation->speed.value, 2.0f);
  EXPECT_EQ(gait.rules[1].rules[1].condition, "true");
  EXPECT_EQ(c->states[1].rules[0].animation->kind, SourceKind::kDriver);
}

TEST_F(AnimationConfigTest, RuleShapeErrors) {
  auto c = parse(R"({"states": {
      "a": {"layer": "Base", "rules": []},
      "b": {"layer": "Base", "rules": [{"condition": "", "animation": "x"},
                                       {"condition": "true", "animation": "x", "rules": []},
                                       {"condition": "true"},
                                       {"animation": "x"}]},
      "c": {"layer": "Head", "rules": [{"condition": "true", "animation": "x"}]}}})");
  ASSERT_FALSE(c);
  EXPECT_TRUE(has_error("/states/a/rules", "rules is empty")) << all_errors();
  EXPECT_TRUE(has_error("/states/b/rules/0/condition", "condition is empty")) << all_errors();
  EXPECT_TRUE(has_error("/states/b/rules/1", "both 'animation' and 'rules'")) << all_errors();
  EXPECT_TRUE(has_error("/states/b/rules/2", "neither 'animation' nor 'rules'")) << all_errors();
  EXPECT_TRUE(has_error("/states/b/rules/3", "no 'condition'")) << all_errors();
  // The default template (Simple) has only Base.
  EXPECT_TRUE(has_error("/states/c/layer", "template 'Simple' has no layer 'Head'"))
      << all_errors();
}

TEST_F(AnimationConfigTest, RuleAfterAnUnconditionalOneIsUnreachable) {
  auto c = parse(R"({"states": {"s": {"layer": "Base", "rules": [
      {"condition": "true", "animation": "a"}, {"condition": "[X]", "animation": "b"}]}}})");
  ASSERT_TRUE(c) << c.error().to_string();
  EXPECT_TRUE(warned("/states/s/rules/1", "unreachable")) << all_warnings();
}

// ---- layers and templates -----------------------------------------------------------------------

TEST_F(AnimationConfigTest, LayerOverrides) {
  auto c = parse(R"({"template": "Human", "layers": {
      "Activity": {"bones": ["Arm_L", "Arm_R"], "bonesExclude": [], "weight": 0.5,
                   "blendCurve": "SmoothStep", "blendMode": "override"},
      "Death": {"driver": {"type": "Death", "properties": {"BodyDrop": 0.4}}, "weight": 0},
      "Tail": {}}})");
  ASSERT_TRUE(c) << c.error().to_string();
  ASSERT_EQ(c->layers.size(), 3u);
  const LayerConfig& act = c->layers[0];
  EXPECT_EQ(act.bones.value(), (std::vector<std::string>{"Arm_L", "Arm_R"}));
  EXPECT_EQ(act.bones_where[1].pointer, "/layers/Activity/bones/1");
  ASSERT_TRUE(act.bones_exclude);
  EXPECT_TRUE(act.bones_exclude->empty());
  EXPECT_FLOAT_EQ(act.weight.value(), 0.5f);
  EXPECT_EQ(act.blend_curve, BlendCurve::kSmoothstep);
  EXPECT_EQ(act.blend_mode, LayerBlendMode::kOverride);
  const LayerConfig& death = c->layers[1];
  ASSERT_TRUE(death.driver);
  EXPECT_EQ(death.driver->type, "Death");
  EXPECT_DOUBLE_EQ(death.driver->properties.find("bodydrop")->number, 0.4);
  EXPECT_TRUE(warned("/layers/Death/weight", "counts as 1")) << all_warnings();
  EXPECT_TRUE(warned("/layers/Tail", "template 'Human' has no layer 'Tail'")) << all_warnings();
}

TEST_F(AnimationConfigTest, BuiltinTemplatesAsSpecified) {
  EXPECT_EQ(builtin_template_names().size(), 6u);
  const AnimationTemplate* human = find_builtin_template("human");
  ASSERT_NE(human, nullptr);
  ASSERT_EQ(human->layers.size(), 4u);
  EXPECT_EQ(human->layers[1].name, "Activity");
  EXPECT_EQ(human->layers[1].index, 1);
  EXPECT_EQ(human->layers[1].blend_mode, LayerBlendMode::kAdditive);
  EXPECT_EQ(human->layers[1].bone_mask, (std::vector<std::string>{"Hand1", "Hand2"}));
  EXPECT_EQ(human->layers[3].name, "Death");
  EXPECT_EQ(human->layers[3].index, 3);
  for (const char* name : {"FourLegged", "Bird", "FlightlessBird"}) {
    const AnimationTemplate* t = find_builtin_template(name);
    ASSERT_NE(t, nullptr) << name;
    ASSERT_EQ(t->layers.size(), 3u);
    EXPECT_EQ(t->layers[1].bone_mask, (std::vector<std::string>{"Head", "Neck"}));
    EXPECT_EQ(t->layers[2].name, "Death");
  }
  EXPECT_EQ(find_builtin_template("Fish")->layers[1].bone_mask, std::vector<std::string>{"Jaw"});
  EXPECT_EQ(find_builtin_template("simple")->layers.size(), 1u);
  EXPECT_EQ(find_builtin_template("Dragon"), nullptr);
}

TEST_F(AnimationConfigTest, CustomTemplateFile) {
  write("AnimationTemplates/Snake.template.json", R"({
    "name": "Snake", "requiredBones": ["Spine1"], "stateTracks": {},
    "layers": {"Base": {"index": 0}, "Tongue": {"index": 1, "blendMode": "additive",
               "boneMask": ["Tongue"], "boneMaskExclude": ["TongueTip"], "weight": null}}})");
  auto c = parse(R"({"template": "AnimationTemplates/Snake",
      "states": {"t": {"layer": "tongue", "rules": [{"condition": "true", "animation": "x"}]}}})");
  ASSERT_TRUE(c) << c.error().to_string();
  const AnimationTemplate& t = c->template_config;
  EXPECT_EQ(t.name, "Snake");
  EXPECT_FALSE(t.built_in);
  EXPECT_EQ(t.required_bones, std::vector<std::string>{"Spine1"});
  ASSERT_EQ(t.layers.size(), 2u);
  EXPECT_EQ(t.layers[1].blend_mode, LayerBlendMode::kAdditive);
  EXPECT_EQ(t.layers[1].bone_mask_exclude, std::vector<std::string>{"TongueTip"});
  EXPECT_FALSE(t.layers[1].weight);
  EXPECT_TRUE(warned("/stateTracks", "obsolete")) << all_warnings();
}

TEST_F(AnimationConfigTest, TemplateErrors) {
  auto c = parse(R"({"template": "Dragon"})");
  ASSERT_FALSE(c);
  EXPECT_TRUE(has_error("/template", "unknown template 'Dragon'")) << all_errors();
  write("Bad.template.json", R"({"layers": {"A": {"index": 0}, "B": {"index": 0}}})");
  c = parse(R"({"template": "Bad"})");
  ASSERT_FALSE(c);
  EXPECT_TRUE(has_error("", "template has no 'name'")) << all_errors();
  EXPECT_TRUE(has_error("/layers/B", "layer index 0 is also used by 'A'")) << all_errors();
  EXPECT_EQ(errors_[0].path, (dir_ / "Bad.template.json").string());
}

// A config with parse errors is still handed out as `partial`, its broken elements skipped, so
// bind can report the rest; an unknown template leaves the layer names unchecked.
TEST_F(AnimationConfigTest, PartialConfigKeepsWhatParsed) {
  AnimationConfig partial;
  auto c = parse_animation_config(R"({
    "template": "FourLeged",
    "modelScale": "big",
    "layers": {"Head": {"bones": ["Neck"]}},
    "animations": {"walk": {"source": "Walk", "speed": true}, "run": {"source": 3}, "idle": "Idle"},
    "states": {"s": {"layer": "Legs", "rules": [{"condition": "true", "animation": "walk"}]}}})",
                                  (dir_ / "main.json").string(), {}, &diag_, &errors_, &partial);
  ASSERT_FALSE(c);
  std::vector<std::string> messages;
  for (const Error& e : errors_) messages.push_back(e.location + ": " + e.message);
  EXPECT_EQ(messages, (std::vector<std::string>{
                          "/template: unknown template 'FourLeged' (neither built in nor a "
                          "template file) (did you mean FourLegged?)",
                          "/modelScale: expected a number, got string 'big'",
                          "/animations/walk/speed: expected a number, got a bool",
                          "/animations/run/source: expected a string, got a number",
                      }))
      << ::testing::PrintToString(messages);
  EXPECT_EQ(diag_.size(), 0u) << all_warnings();  // no "template has no layer" guesses
  EXPECT_EQ(partial.path, (dir_ / "main.json").string());
  EXPECT_EQ(partial.template_config.name, "Simple");
  EXPECT_FLOAT_EQ(partial.model_scale, 1.0f);
  ASSERT_EQ(partial.layers.size(), 1u);
  ASSERT_EQ(partial.states.size(), 1u);
  EXPECT_EQ(partial.states[0].layer, "Legs");
  ASSERT_NE(partial.find_animation("walk"), nullptr);
  EXPECT_FLOAT_EQ(partial.find_animation("walk")->reference.speed.value, 1.0f);
  ASSERT_NE(partial.find_animation("idle"), nullptr);

  // A file that does not parse as JSON leaves nothing to bind.
  AnimationConfig untouched;
  untouched.model_scale = 7.0f;
  errors_.clear();
  c = parse_animation_config("{", (dir_ / "main.json").string(), {}, &diag_, &errors_, &untouched);
  ASSERT_FALSE(c);
  EXPECT_TRUE(untouched.path.empty());
  EXPECT_FLOAT_EQ(untouched.model_scale, 7.0f);
}

TEST_F(AnimationConfigTest, MisspeltNamesSuggestKnownOnes) {
  auto c = parse(R"({"templat": "Human", "layers": {"Hed": {}},
    "animations": {"walk": {"source": "Walk", "sped": 2, "blendDurations": 1}},
    "states": {"s": {"layer": "Bas", "rules": []}}})");
  ASSERT_FALSE(c);
  EXPECT_TRUE(warned("/templat", "unknown property 'templat' (did you mean template?)"))
      << all_warnings();
  EXPECT_TRUE(warned("/animations/walk/sped", "unknown property 'sped' (did you mean speed?)"))
      << all_warnings();
  EXPECT_TRUE(warned("/animations/walk/blendDurations",
                     "unknown property 'blendDurations' (did you mean blendDuration?)"))
      << all_warnings();
  EXPECT_TRUE(warned("/layers/Hed", "template 'Simple' has no layer 'Hed'; the entry is ignored"))
      << all_warnings();
  EXPECT_TRUE(
      has_error("/states/s/layer", "template 'Simple' has no layer 'Bas' (did you mean Base?)"))
      << all_errors();
}

// ---- extends
// --------------------------------------------------------------------------------------

TEST_F(AnimationConfigTest, ExtendsMergesObjectsAndReplacesScalars) {
  write("base.json", R"({"template": "FourLegged", "modelScale": 2,
      "animations": {"walk": {"source": "Walk", "speed": 1.5}, "idle": {"source": "Idle"}},
      "states": {"gait": {"layer": "Base", "rules": [{"condition": "true", "animation": "idle"}]}},
      "parameters": {"A": 1}})");
  auto c = parse(R"({"extends": "base", "modelScale": 3,
      "animations": {"WALK": {"loop": false}, "run": {"source": "Run"}},
      "parameters": {"A": null, "B": 2}})");
  // A null parameter value is unsupported: the child's null replaced the parent's value.
  ASSERT_FALSE(c);
  EXPECT_TRUE(has_error("/parameters/A", "unsupported")) << all_errors();
  EXPECT_EQ(errors_[0].path, (dir_ / "main.json").string());

  c = parse(R"({"extends": "base", "modelScale": 3,
      "animations": {"WALK": {"loop": false}, "run": {"source": "Run"}}})");
  ASSERT_TRUE(c) << c.error().to_string();
  EXPECT_EQ(c->template_config.name, "FourLegged");
  EXPECT_FLOAT_EQ(c->model_scale, 3.0f);
  ASSERT_EQ(c->animations.size(), 3u);
  // Parent keys keep their position, with the child's spelling; new keys follow.
  EXPECT_EQ(c->animations[0].name, "WALK");
  EXPECT_EQ(c->animations[1].name, "idle");
  EXPECT_EQ(c->animations[2].name, "run");
  const AnimationReference& walk = c->animations[0].reference;
  EXPECT_FLOAT_EQ(walk.speed.value, 1.5f);
  EXPECT_FALSE(walk.loop.value);
  // Each value reports the file it came from.
  EXPECT_EQ(walk.speed.where.file, (dir_ / "base.json").string());
  EXPECT_EQ(walk.loop.where.file, (dir_ / "main.json").string());
  EXPECT_EQ(walk.loop.where.pointer, "/animations/WALK/loop");
  EXPECT_EQ(c->states[0].rules[0].condition_where.file, (dir_ / "base.json").string());
  EXPECT_EQ(c->files.size(), 2u);
}

TEST_F(AnimationConfigTest, ExtendsArrayDirectives) {
  write("base.json", R"({"animations": {"w": {"source": "W", "events": [
      {"time": 0.1, "name": "A"}, {"time": 0.5, "name": "B"}, {"time": 0.9, "name": "C"}]}}})");
  auto names = [](const AnimationConfig& c) {
    std::string s;
    for (const EventConfig& e : *c.animations[0].reference.events) s += e.name;
    return s;
  };
  auto c = parse(R"({"extends": "base.json", "animations": {"w": {"events": {
      "$remove": [{"NAME": "B", "time": 0.5}], "$prepend": [{"time": 0, "name": "P"}],
      "$append": [{"time": 1, "name": "Z"}]}}}})");
  ASSERT_TRUE(c) << c.error().to_string();
  EXPECT_EQ(names(*c), "PACZ");
  // Appended elements report where they are written.
  EXPECT_EQ((*c->animations[0].reference.events)[3].where.pointer,
            "/animations/w/events/$append/0");

  c = parse(
      R"({"extends": "base.json", "animations": {"w": {"events": [{"time": 0, "name": "X"}]}}})");
  ASSERT_TRUE(c) << c.error().to_string();
  EXPECT_EQ(names(*c), "X");
  c = parse(R"({"extends": "base.json", "animations": {"w": {"events": {"$replace": []}}}})");
  ASSERT_TRUE(c) << c.error().to_string();
  EXPECT_EQ(names(*c), "");

  c = parse(R"({"extends": "base.json", "animations": {"w": {"events": {
      "$remove": [{"time": 0.5, "name": "b"}]}}}})");
  ASSERT_TRUE(c) << c.error().to_string();
  EXPECT_EQ(names(*c), "ABC");  // strings compare case-sensitively
  EXPECT_TRUE(warned("/animations/w/events/$remove/0", "matched nothing")) << all_warnings();

  c = parse(R"({"extends": "base.json", "animations": {"w": {"events": {
      "$replace": [], "$append": []}}}})");
  ASSERT_FALSE(c);
  EXPECT_TRUE(has_error("/animations/w/events", "$replace stands alone")) << all_errors();
}

TEST_F(AnimationConfigTest, DirectivesWithoutParentApplyToEmptyArray) {
  auto c = parse(R"({"animations": {"w": {"source": "W", "events": {
      "$append": [{"time": 0.2, "name": "A"}]}}}})");
  ASSERT_TRUE(c) << c.error().to_string();
  ASSERT_EQ(c->animations[0].reference.events->size(), 1u);
}

TEST_F(AnimationConfigTest, ExtendsIsNotInheritedAndChains) {
  write("a.json", R"({"modelScale": 1, "parameters": {"A": 1}})");
  write("b.json", R"({"extends": "a", "parameters": {"B": 2}})");
  auto c = parse(R"({"extends": "b", "parameters": {"C": 3}})");
  ASSERT_TRUE(c) << c.error().to_string();
  ASSERT_EQ(c->parameters.size(), 3u);
  EXPECT_EQ(c->parameters[0].name, "A");
  EXPECT_EQ(c->parameters[2].name, "C");
  EXPECT_TRUE(diag_.empty()) << all_warnings();
}

TEST_F(AnimationConfigTest, ExtendsCycleMissingParentAndDepth) {
  write("a.json", R"({"extends": "b"})");
  write("b.json", R"({"extends": "a"})");
  auto c = load_animation_config((dir_ / "a.json").string(), {}, &diag_, &errors_);
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().path, (dir_ / "b.json").string());
  EXPECT_EQ(c.error().location, "/extends");
  EXPECT_NE(c.error().message.find("extends cycle: a.json -> b.json -> a.json"), std::string::npos)
      << c.error().message;

  c = parse(R"({"extends": "nowhere"})");
  ASSERT_FALSE(c);
  EXPECT_TRUE(has_error("/extends", "parent config 'nowhere' not found")) << all_errors();

  // 17 files: main extends d1 ... d16; d16 is depth 16 (allowed); one more is too deep.
  for (int i = 1; i <= 17; ++i) {
    write("d" + std::to_string(i) + ".json",
          i < 17 ? "{\"extends\": \"d" + std::to_string(i + 1) + "\"}" : "{}");
  }
  c = parse(R"({"extends": "d2"})");
  ASSERT_TRUE(c) << c.error().to_string();
  c = parse(R"({"extends": "d1"})");
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().code, ErrorCode::kLimit);
  EXPECT_NE(c.error().message.find("deeper than 16"), std::string::npos);
}

// A folder given as the config is named as a folder (it opens and reads as no text, which would
// otherwise be a JSON syntax error at 1:1).
TEST_F(AnimationConfigTest, AFolderIsAnErrorThatSaysSo) {
  std::filesystem::create_directories(dir_ / "folder.json");
  auto c = load_animation_config((dir_ / "folder.json").string(), {}, &diag_, &errors_);
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().code, ErrorCode::kIo);
  EXPECT_EQ(c.error().path, (dir_ / "folder.json").string());
  EXPECT_NE(c.error().message.find("is a directory"), std::string::npos) << c.error().message;
}

TEST_F(AnimationConfigTest, ExtendsFindsParentUnderAssetRoot) {
  write("roots/Animations/Base.json", R"({"modelScale": 4})");
  AnimationConfigOptions options;
  options.asset_roots.push_back((dir_ / "roots").string());
  auto c = parse_animation_config(R"({"extends": "Animations/Base"})",
                                  (dir_ / "mods/x.json").string(), options, &diag_, &errors_);
  ASSERT_TRUE(c) << c.error().to_string();
  EXPECT_FLOAT_EQ(c->model_scale, 4.0f);
}

// ---- ik ---------------------------------------------------------------------------------------

TEST_F(AnimationConfigTest, IkBlock) {
  auto c = parse(R"({"ik": {"chains": [{"name": "footL", "endBone": "Foot_L",
      "algorithm": "TwoBoneIK", "maxChainLength": 3, "target": "FootTargetL", "aim": "FootAimL",
      "hint": "KneePoleL", "aimAxis": [0, 0, 1], "enabled": "[IsOnGround]", "weight": 1,
      "positionWeight": 0.5, "aimWeight": "[FootAimWeight]", "positionSmoothTime": 0.05,
      "aimSmoothTime": 0.1, "unreachable": "keepcurrentpose", "iterations": 12,
      "tolerance": 0.002, "maxStepDegrees": 30,
      "jointLimits": [{"bone": "Knee_L", "order": "XYZ", "min": [0, -5, -5], "max": [150, 5, 5]}]}],
      "lookAt": [{"name": "head", "bones": ["Neck", "Head"], "shares": [0.6, 0.4],
      "target": "LookTarget", "yaw": "[LookAngleX]", "pitch": "[LookAngleY]",
      "forwardAxis": [0, 0, 1], "upAxis": [0, 1, 0], "maxYawDegrees": 65,
      "maxPitchDegrees": 55, "weight": 1, "smoothTime": 0.1}]}})");
  ASSERT_TRUE(c) << c.error().to_string();
  ASSERT_EQ(c->ik.chains.size(), 1u);
  const IkChainConfig& ch = c->ik.chains[0];
  EXPECT_EQ(ch.end_bone, "Foot_L");
  EXPECT_EQ(ch.end_bone_where.pointer, "/ik/chains/0/endBone");
  EXPECT_EQ(ch.settings.algorithm, critter::anim::IkAlgorithm::kTwoBone);
  EXPECT_EQ(ch.target, "FootTargetL");
  EXPECT_EQ(ch.hint, "KneePoleL");
  EXPECT_EQ(ch.enabled.expression, "[IsOnGround]");
  EXPECT_FLOAT_EQ(ch.position_weight.value, 0.5f);
  EXPECT_EQ(ch.aim_weight.expression, "[FootAimWeight]");
  EXPECT_FLOAT_EQ(ch.settings.aim_smooth_time, 0.1f);
  EXPECT_EQ(ch.settings.unreachable, critter::anim::IkUnreachable::kKeepCurrentPose);
  EXPECT_EQ(ch.settings.iterations, 12);
  EXPECT_FLOAT_EQ(ch.settings.max_step_degrees, 30.0f);
  ASSERT_EQ(ch.joint_limits.size(), 1u);
  EXPECT_EQ(ch.joint_limits[0].order, critter::anim::EulerOrder::kXYZ);
  EXPECT_EQ(ch.joint_limits[0].max_degrees, vec3(150, 5, 5));
  ASSERT_EQ(c->ik.look_ats.size(), 1u);
  const LookAtConfig& l = c->ik.look_ats[0];
  EXPECT_EQ(l.bones, (std::vector<std::string>{"Neck", "Head"}));
  EXPECT_EQ(l.shares, (std::vector<float>{0.6f, 0.4f}));
  EXPECT_EQ(l.yaw.expression, "[LookAngleX]");
  EXPECT_FLOAT_EQ(l.settings.smooth_time, 0.1f);
  EXPECT_TRUE(diag_.empty()) << all_warnings();
}

TEST_F(AnimationConfigTest, IkErrors) {
  auto c = parse(R"({"ik": {"chains": [
      {"name": "a", "endBone": "X", "maxChainLength": 1, "algorithm": "Magic"},
      {"name": "A", "endBone": "Y", "jointLimits": [{"bone": "K", "order": "XXZ",
                                                     "min": [10, 0, 0], "max": [5, 0, 0]}]},
      {"name": "c"}],
      "lookAt": [{"bones": ["Neck", "Head"], "shares": [0.8, 0.4]}]}})");
  ASSERT_FALSE(c);
  EXPECT_TRUE(has_error("/ik/chains/0/maxChainLength", "2..32")) << all_errors();
  EXPECT_TRUE(has_error("/ik/chains/0/algorithm", "unknown value 'Magic'")) << all_errors();
  EXPECT_TRUE(has_error("/ik/chains/1", "chain name 'A' is used twice")) << all_errors();
  EXPECT_TRUE(has_error("/ik/chains/1/jointLimits/0/order", "not a permutation")) << all_errors();
  EXPECT_TRUE(has_error("/ik/chains/1/jointLimits/0", "min <= max")) << all_errors();
  EXPECT_TRUE(has_error("/ik/chains/2", "no 'endBone'")) << all_errors();
  EXPECT_TRUE(has_error("/ik/lookAt/0/shares", "more than 1")) << all_errors();
}

// ---- bind -------------------------------------------------------------------------------------

using critter::test_support::spec_example_quadruped;
const char* const kSpecExample = critter::test_support::kSpecExampleConfig;

TEST_F(AnimationConfigTest, SpecExampleBindsToAModelBuiltInCode) {
  auto c = parse(kSpecExample);
  ASSERT_TRUE(c) << c.error().to_string() << all_errors();
  EXPECT_TRUE(diag_.empty()) << all_warnings();
  const critter::Model model = spec_example_quadruped();
  auto b = bind(*c, model, {}, &diag_, &errors_);
  ASSERT_TRUE(b) << b.error().to_string() << all_errors();
  EXPECT_TRUE(diag_.empty()) << all_warnings();
  ASSERT_EQ(b->layers.size(), 3u);
  EXPECT_EQ(b->layers[1].name, "Head");
  EXPECT_EQ(b->layers[1].blend_curve, BlendCurve::kSmoothstep);
  // Head's template mask [Head, Neck] resolves through the aliases: the neck subtree.
  EXPECT_EQ(b->layers[1].joint_weights, (std::vector<float>{0, 0, 1, 1, 0, 0, 0}));
  EXPECT_TRUE(b->layers[0].joint_weights.empty());  // every joint
  ASSERT_EQ(b->animations.size(), 3u);
  EXPECT_EQ(b->animations[0].source, critter::anim::ControllerAnimationDesc::Source::kClip);
  EXPECT_EQ(b->animations[0].clip, model.find_clip("Idle"));
  EXPECT_EQ(b->animations[2].clip, model.find_clip("Jump"));
  ASSERT_EQ(b->states.size(), 2u);
  EXPECT_EQ(b->states[0].layer, 0);
  EXPECT_EQ(b->states[1].layer, 2);
  // The one compile: every expression compiles and reads only declared names.
  auto p =
      critter::anim::ControllerProgram::compile(model, std::move(*b), nullptr, &diag_, &errors_);
  ASSERT_TRUE(p) << p.error().to_string();
  EXPECT_TRUE(diag_.empty()) << all_warnings();
  EXPECT_TRUE(errors_.empty()) << all_errors();
}

TEST_F(AnimationConfigTest, BindReportsEveryProblemWithItsPointer) {
  auto c = parse(R"json({"template": "FourLegged",
    "boneAliases": {"Tail": "b_Tail"},
    "layers": {"Head": {"bones": ["b_Neck_04", "Jaw"],
                        "driver": {"type": "LookAt", "properties": {"Colour": 1,
                                   "TargetBoneName": "Skull", "MaxAngleX": "wide"}}},
               "Death": {"driver": {"type": "Explode"}}},
    "animations": {"a": {"source": "b"}, "b": {"source": "a"}, "run": {"source": "Run"},
                   "walk": {"source": "Walk", "speed": "[Speed] * (2"},
                   "hop": {"source": "Jump", "rootMotion": {"sourceBone": "Pelvis"}}},
    "states": {"gait": {"layer": "Base", "rules": [
        {"condition": "[Mood] == 'happy'", "animation": "walk"},
        {"condition": "foo(1)", "animation": "driver:Fly"},
        {"condition": "true", "animation": "sleep"}]}},
    "ik": {"chains": [{"name": "c", "endBone": "b_Root"}, {"name": "d", "endBone": "Toe"}],
           "lookAt": [{"bones": ["Neck", "Eye"]}]}})json");
  ASSERT_TRUE(c) << c.error().to_string() << all_errors();
  const critter::Model model = spec_example_quadruped();
  auto b = bind_and_compile(*c, model);
  ASSERT_FALSE(b);
  EXPECT_TRUE(has_error("/boneAliases/Tail", "'b_Tail' is not a bone")) << all_errors();
  EXPECT_TRUE(has_error("/layers/Head/bones/1", "bone 'Jaw' is not a bone")) << all_errors();
  EXPECT_TRUE(has_error("/layers/Head/driver/properties/Colour", "unknown driver property"))
      << all_errors();
  EXPECT_TRUE(has_error("/layers/Head/driver/properties/TargetBoneName", "'Skull'"))
      << all_errors();
  EXPECT_TRUE(has_error("/layers/Head/driver/properties/MaxAngleX", "cannot be converted"))
      << all_errors();
  EXPECT_TRUE(has_error("/layers/Death/driver/type", "unknown driver type 'Explode'"))
      << all_errors();
  EXPECT_TRUE(has_error("/animations/a/source", "alias cycle: a -> b -> a")) << all_errors();
  EXPECT_TRUE(has_error("/animations/run/source", "neither an animation alias nor a clip"))
      << all_errors();
  EXPECT_TRUE(has_error("/animations/walk/speed", "expression '[Speed] * (2'")) << all_errors();
  EXPECT_TRUE(has_error("/animations/hop/rootMotion/sourceBone", "'Pelvis' is not a bone"))
      << all_errors();
  EXPECT_TRUE(has_error("/states/gait/rules/1/condition", "foo")) << all_errors();
  EXPECT_TRUE(has_error("/states/gait/rules/1/animation", "unknown driver type 'Fly'"))
      << all_errors();
  EXPECT_TRUE(has_error("/states/gait/rules/2/animation", "'sleep' is neither")) << all_errors();
  EXPECT_TRUE(has_error("/ik/chains/0/endBone", "fewer than 2 bones")) << all_errors();
  EXPECT_TRUE(has_error("/ik/chains/1/endBone", "'Toe' is not a bone")) << all_errors();
  EXPECT_TRUE(has_error("/ik/lookAt/0/bones/1", "'Eye' is not a bone")) << all_errors();
  EXPECT_TRUE(has_error("/ik/lookAt/0/bones/0", "'Neck' is not a bone")) << all_errors();
  EXPECT_EQ(errors_.size(), 18u) << all_errors();
  EXPECT_TRUE(warned("/states/gait/rules/0/condition", "parameter 'Mood'")) << all_warnings();
  EXPECT_EQ(b.error().location, errors_.front().location);
}

TEST_F(AnimationConfigTest, DeclaredDriversLoadButWarnThatTheyDoNotRunYet) {
  // A registry that only declares Survivalcraft's creature drivers (anim's own): the config
  // binds, and each use is a warning at its location, so a modder knows why the layer does not
  // move.
  auto c = parse(R"json({"template": "FourLegged",
    "layers": {"Base": {"driver": {"type": "FourLeggedWalkDriver",
                                   "properties": {"WalkAnimationSpeed": 0.7}}}},
    "states": {"gait": {"layer": "Base", "rules": [
        {"condition": "[IsDead]", "animation": "driver:FourLeggedDeath"},
        {"condition": "true", "animation": "driver:LookAt"}]}}})json");
  ASSERT_TRUE(c) << c.error().to_string() << all_errors();
  const critter::Model model = spec_example_quadruped();
  BindOptions declared_only;
  declared_only.drivers = &critter::anim::DriverRegistry::builtin();
  auto b = critter::config::bind(*c, model, declared_only, &diag_, &errors_);
  ASSERT_TRUE(b) << b.error().to_string();
  EXPECT_TRUE(warned("/layers/Base/driver/type",
                     "driver 'FourLeggedWalk' is not implemented yet: its layer is left as it is"))
      << all_warnings();
  EXPECT_TRUE(warned("/states/gait/rules/0/animation", "driver 'FourLeggedDeath' is not"))
      << all_warnings();
  // LookAt runs: no such warning for it.
  EXPECT_FALSE(warned("/states/gait/rules/1/animation", "not implemented")) << all_warnings();
}

TEST_F(AnimationConfigTest, TheDefaultRegistryRunsTheLegacyCreatureDrivers) {
  // bind's default registry (creature::default_drivers()) implements the legacy drivers: no
  // warning, and their properties are checked; GltfBodyTurn stays declared only.
  auto c = parse(R"json({"template": "FourLegged",
    "layers": {"Base": {"driver": {"type": "FourLeggedWalkDriver",
                                   "properties": {"WalkAnimationSpeed": 0.7}}}},
    "states": {"gait": {"layer": "Base", "rules": [
        {"condition": "[IsDead]", "animation": "driver:FourLeggedDeath"},
        {"condition": "true", "animation": "driver:GltfBodyTurn"}]}}})json");
  ASSERT_TRUE(c) << c.error().to_string() << all_errors();
  const critter::Model model = spec_example_quadruped();
  auto b = bind(*c, model, {}, &diag_, &errors_);
  ASSERT_TRUE(b) << b.error().to_string() << all_errors();
  EXPECT_FALSE(warned("/layers/Base/driver/type", "not implemented")) << all_warnings();
  EXPECT_FALSE(warned("/states/gait/rules/0/animation", "not implemented")) << all_warnings();
  EXPECT_TRUE(warned("/states/gait/rules/1/animation",
                     "driver 'GltfBodyTurn' is not implemented yet: its layer is left as it is"))
      << all_warnings();

  auto typo = parse(R"json({"template": "FourLegged",
    "layers": {"Base": {"driver": {"type": "FourLeggedWalk",
                                   "properties": {"WalkAnimSpeed": 0.7}}}}})json");
  ASSERT_TRUE(typo) << typo.error().to_string();
  errors_.clear();
  EXPECT_FALSE(bind(*typo, model, {}, &diag_, &errors_));
  EXPECT_TRUE(has_error("/layers/Base/driver/properties/WalkAnimSpeed",
                        "unknown driver property 'WalkAnimSpeed' for driver 'FourLeggedWalk'"))
      << all_errors();
}

TEST_F(AnimationConfigTest, TemplateMaskBonesTheModelLacksOnlyWarn) {
  auto c = parse(R"({"template": "Fish"})");
  ASSERT_TRUE(c) << c.error().to_string();
  const critter::Model model = spec_example_quadruped();
  auto b = bind(*c, model, {}, &diag_, &errors_);
  ASSERT_TRUE(b) << b.error().to_string();
  EXPECT_TRUE(warned("/template", "masks bone 'Jaw'")) << all_warnings();
  // A mask with no bone of the model left affects nothing.
  EXPECT_EQ(b->layers[1].joint_weights, std::vector<float>(7, 0.0f));
}

TEST_F(AnimationConfigTest, RequiredBonesAndDriverRegistry) {
  write("T.template.json", R"({"name": "T", "requiredBones": ["b_Body", "Wing"],
                              "layers": {"Base": {"index": 0}}})");
  auto c = parse(R"({"template": "T"})");
  ASSERT_TRUE(c) << c.error().to_string();
  auto b = bind(*c, spec_example_quadruped(), {}, &diag_, &errors_);
  ASSERT_FALSE(b);
  EXPECT_TRUE(has_error("/template", "requires bone 'Wing'")) << all_errors();
  EXPECT_EQ(errors_.size(), 1u) << all_errors();
  EXPECT_TRUE(is_known_driver("lookat"));
  EXPECT_TRUE(is_known_driver("FourLeggedWalkDriver"));
  EXPECT_TRUE(is_known_driver("GltfBodyTurn"));
  EXPECT_FALSE(is_known_driver("Fly"));
  EXPECT_EQ(known_drivers().size(), 28u);
}

}  // namespace
