// SPDX-License-Identifier: MIT
// The controller's runtime warnings (animation-config.md §0.4): every evaluation failure and every
// `[Param]` source naming no clip is reported once per (field, value), with the field's JSON
// pointer, and nothing is reported for a healthy config.
#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "critter/anim/controller.h"
#include "critter/asset/demo_creature.h"
#include "critter/config/animation_config.h"
#include "critter/config/bind.h"

#include "support/allocation_counter.h"
#include "support/controller_builders.h"

namespace critter::anim {
namespace {

using critter::testing::clip_anim;
using critter::testing::leaf;

constexpr float kDt = 1.0f / 60.0f;

ControllerLayerDesc base_layer() {
  ControllerLayerDesc l;
  l.name = "Base";
  return l;
}

// "location | message" of every runtime warning, for readable failures.
std::vector<std::string> lines(const Controller& c) {
  std::vector<std::string> out;
  for (const Warning& w : c.runtime_warnings()) out.push_back(w.location + " | " + w.message);
  return out;
}

class ControllerDiagnosticsTest : public testing::DemoQuadrupedTest {
 protected:
  // One state "gait" on Base with the given rules; Gait is a string parameter ("walk").
  ControllerDesc gait(std::vector<ControllerRuleDesc> rules) const {
    ControllerDesc d;
    d.layers.push_back(base_layer());
    EXPECT_TRUE(d.schema.declare("Gait", ParameterValue::of_string("walk")));
    ControllerStateDesc s;
    s.name = "gait";
    s.layer = 0;
    s.rules = std::move(rules);
    d.states.push_back(std::move(s));
    return d;
  }

  std::unique_ptr<Controller> make(ControllerDesc desc) const {
    auto p = ControllerProgram::compile(*demo_, std::move(desc));
    EXPECT_TRUE(p) << p.error().to_string();
    if (!p) return nullptr;
    return std::make_unique<Controller>(*p);
  }

  // `frames` updates, each with a parameter change so the rules run every time.
  static void run(Controller& c, int frames) {
    for (int i = 0; i < frames; ++i) {
      c.parameters().set_float("SpeedXZ", 0.01 * i);
      c.update(kDt);
      c.compute_pose();
      c.clear_records();
    }
  }
};

TEST_F(ControllerDiagnosticsTest, SpeedReadingAStringIsReportedOncePerValue) {
  ControllerAnimationDesc walk = clip_anim(walk_);
  walk.speed.expression = "[Gait]";
  auto c = make(gait({leaf("true", walk)}));
  ASSERT_TRUE(c);
  run(*c, 100);  // the speed re-evaluates every frame
  ASSERT_EQ(c->runtime_warnings().size(), 1u) << ::testing::PrintToString(lines(*c));
  const Warning& w = c->runtime_warnings()[0];
  EXPECT_EQ(w.path, "");  // built in code: no config file
  EXPECT_EQ(w.location, "/states/gait/rules/0/animation/speed");
  EXPECT_EQ(w.message, "evaluates to the string 'walk', not a number: used the default 1");
  EXPECT_FLOAT_EQ(c->layer_player(0).rate(), 1.0f);

  // A second distinct value is a second case; going back to the first one is not.
  c->parameters().set_string("Gait", "run");
  run(*c, 10);
  c->parameters().set_string("Gait", "walk");
  run(*c, 10);
  ASSERT_EQ(c->runtime_warnings().size(), 2u) << ::testing::PrintToString(lines(*c));
  EXPECT_EQ(c->runtime_warnings()[1].message,
            "evaluates to the string 'run', not a number: used the default 1");
}

TEST_F(ControllerDiagnosticsTest, NonFiniteResultsAreReportedByValue) {
  ControllerAnimationDesc walk = clip_anim(walk_);
  walk.speed.value = 0.5f;
  walk.speed.expression = "[A] / [B]";
  auto c = make(gait({leaf("true", walk)}));
  ASSERT_TRUE(c);
  c->parameters().set_float("A", 1.0);
  c->parameters().set_float("B", 0.0);
  run(*c, 20);
  c->parameters().set_float("A", -1.0);
  run(*c, 20);
  c->parameters().set_float("A", 0.0);
  run(*c, 20);
  c->parameters().set_float("A", 2.0);  // +inf again: already reported
  run(*c, 20);
  const std::vector<std::string> expected = {
      "/states/gait/rules/0/animation/speed | evaluates to inf, not a finite number: used the "
      "default 0.5",
      "/states/gait/rules/0/animation/speed | evaluates to -inf, not a finite number: used the "
      "default 0.5",
      "/states/gait/rules/0/animation/speed | evaluates to NaN, not a finite number: used the "
      "default 0.5"};
  EXPECT_EQ(lines(*c), expected);
  EXPECT_FLOAT_EQ(c->layer_player(0).rate(), 0.5f);
}

TEST_F(ControllerDiagnosticsTest, FailingConditionCountsAsFalseAndIsReportedOnce) {
  ControllerRuleDesc group;
  group.condition = "true";
  group.is_group = true;
  group.rules = {leaf("[Gait] * 2 > 1", clip_anim(walk_)), leaf("true", clip_anim(idle_))};
  auto c = make(gait({group}));
  ASSERT_TRUE(c);
  run(*c, 200);  // the rules run every frame
  EXPECT_EQ(c->layer_player(0).clip(), &demo_->clips()[static_cast<std::size_t>(idle_)]);
  const std::vector<std::string> expected = {
      "/states/gait/rules/0/rules/0/condition | fails with a type mismatch: the condition counts "
      "as false"};
  EXPECT_EQ(lines(*c), expected);

  // Another string fails the same way: the value of a type mismatch is the mismatch itself.
  c->parameters().set_string("Gait", "run");
  run(*c, 10);
  EXPECT_EQ(c->runtime_warnings().size(), 1u);

  // A condition whose result is a string: one case per string.
  ControllerDesc d = gait({leaf("[Gait]", clip_anim(walk_)), leaf("true", clip_anim(idle_))});
  auto c2 = make(std::move(d));
  ASSERT_TRUE(c2);
  run(*c2, 50);
  c2->parameters().set_string("Gait", "trot");
  run(*c2, 50);
  const std::vector<std::string> expected2 = {
      "/states/gait/rules/0/condition | evaluates to the string 'walk', not a bool: the "
      "condition counts as false",
      "/states/gait/rules/0/condition | evaluates to the string 'trot', not a bool: the "
      "condition counts as false"};
  EXPECT_EQ(lines(*c2), expected2);
}

TEST_F(ControllerDiagnosticsTest, AppliedFieldsAndLoopReportTheirDefaults) {
  ControllerAnimationDesc walk = clip_anim(walk_);
  walk.loop.expression = "[Gait]";
  walk.start_phase.expression = "[Gait] + 1";  // string concatenation: '"walk1"'
  walk.end_phase.expression = "[Gait] < 1";    // ordering a string against a number
  walk.blend_duration.value = 0.3f;
  walk.blend_duration.expression = "[Big] * 1e300";
  auto c = make(gait({leaf("[SpeedXZ] >= 0", walk)}));
  ASSERT_TRUE(c);
  c->parameters().set_float("Big", 1.0);
  run(*c, 60);
  const std::vector<std::string> expected = {
      "/states/gait/rules/0/animation/loop | evaluates to the string 'walk', not a bool: used "
      "the default true",
      "/states/gait/rules/0/animation/startPhase | evaluates to the string 'walk1', not a "
      "number: used the default 0",
      "/states/gait/rules/0/animation/endPhase | fails with a type mismatch: used the default 1",
      "/states/gait/rules/0/animation/blendDuration | evaluates to 1e+300, not a finite number: "
      "used the default 0.3"};
  EXPECT_EQ(lines(*c), expected);
  EXPECT_EQ(c->layer_player(0).mode(), PlaybackMode::kLoopForward);
}

TEST_F(ControllerDiagnosticsTest, ParamSourceNamingNoClipKeepsTheLayerAndReportsOnce) {
  ControllerAnimationDesc from_param;
  from_param.source = ControllerAnimationDesc::Source::kParameter;
  from_param.parameter = "Clip";
  from_param.blend_duration.value = 0.0f;
  ControllerDesc d = gait({leaf("true", from_param)});
  ASSERT_TRUE(d.schema.declare("Clip", ParameterValue::of_string("walk")));
  auto c = make(std::move(d));
  ASSERT_TRUE(c);
  const Clip* walk = &demo_->clips()[static_cast<std::size_t>(walk_)];
  run(*c, 5);
  EXPECT_EQ(c->layer_player(0).clip(), walk);
  EXPECT_TRUE(c->runtime_warnings().empty());

  c->parameters().set_string("Clip", "Rnu");
  run(*c, 30);
  EXPECT_EQ(c->layer_player(0).clip(), walk);  // unchanged
  c->parameters().set_string("Clip", "Nope");
  run(*c, 30);
  c->parameters().set_string("Clip", "Rnu");  // the same value again: known
  run(*c, 30);
  c->parameters().set_string("Clip", "");  // nothing named: the normal "not yet", no warning
  run(*c, 30);
  const std::vector<std::string> expected = {
      "/states/gait/rules/0/animation/source | [Clip] names no clip 'Rnu': the layer keeps its "
      "animation",
      "/states/gait/rules/0/animation/source | [Clip] names no clip 'Nope': the layer keeps its "
      "animation"};
  EXPECT_EQ(lines(*c), expected);
  EXPECT_EQ(c->layer_player(0).clip(), walk);
}

TEST_F(ControllerDiagnosticsTest, IkAndLookAtFieldsReportTheirDefaults) {
  ControllerDesc d;
  d.layers.push_back(base_layer());
  ASSERT_TRUE(d.schema.declare("Gait", ParameterValue::of_string("walk")));
  ControllerIkChainDesc chain;
  chain.name = "foot";
  chain.end_joint = demo_->find_bone("leg_front_left_paw");
  chain.target = "FootTarget";
  chain.weight.expression = "[Gait] * 1";
  chain.aim_weight.expression = "[Gait]";
  d.ik_chains.push_back(chain);
  ControllerIkChainDesc off = chain;
  off.name = "off";
  off.weight.expression.clear();
  off.aim_weight.expression.clear();
  off.enabled.expression = "[Gait]";
  d.ik_chains.push_back(off);
  ControllerIkLookAtDesc look;
  look.name = "head";
  look.bones = {static_cast<std::int16_t>(demo_->find_bone("neck")),
                static_cast<std::int16_t>(demo_->find_bone("head"))};
  look.pitch.expression = "[Gait] - 1";
  d.ik_look_ats.push_back(look);
  auto c = make(std::move(d));
  ASSERT_TRUE(c);
  run(*c, 100);
  const std::vector<std::string> expected = {
      "/ik/chains/0/weight | fails with a type mismatch: used the default 1",
      "/ik/chains/0/aimWeight | evaluates to the string 'walk', not a number: used the default 1",
      "/ik/chains/1/enabled | evaluates to the string 'walk', not a bool: used the default true",
      "/ik/lookAt/0/pitch | fails with a type mismatch: used the default 0"};
  EXPECT_EQ(lines(*c), expected);
}

TEST_F(ControllerDiagnosticsTest, ExpressionDriverChannelsReportThroughTheirReporter) {
  ControllerDesc d;
  ControllerLayerDesc base = base_layer();
  base.driver.type = "Expression";
  ControllerDriverDesc::Bone bone;
  bone.bone = demo_->find_bone("head");
  bone.channels[4].expression = "[Gait] * 2";  // rotationY
  bone.channels[7].expression = "[Gait]";      // scaleY
  base.driver.bones.push_back(bone);
  d.layers.push_back(base);
  ASSERT_TRUE(d.schema.declare("Gait", ParameterValue::of_string("walk")));
  auto c = make(std::move(d));
  ASSERT_TRUE(c);
  run(*c, 100);
  const std::vector<std::string> expected = {
      "/layers/Base/driver/properties/boneConfigs/0/rotationY | fails with a type mismatch: used "
      "the default 0",
      "/layers/Base/driver/properties/boneConfigs/0/scaleY | evaluates to the string 'walk', not "
      "a number: used the default 1"};
  EXPECT_EQ(lines(*c), expected);
  // The defaults took effect: the head keeps its rest orientation and unit scale.
  const std::size_t head = static_cast<std::size_t>(demo_->find_bone("head"));
  EXPECT_EQ(c->pose()[head].rotation, quat(1.0f, 0.0f, 0.0f, 0.0f));
  EXPECT_EQ(c->pose()[head].scale, vec3(1.0f));

  // The reporter belongs to the controller's heap state: it survives a move.
  std::optional<Controller> moved(std::move(*c));
  c.reset();
  moved->parameters().set_string("Gait", "run");
  run(*moved, 10);
  ASSERT_EQ(moved->runtime_warnings().size(), 3u);
  EXPECT_EQ(moved->runtime_warnings()[2].message,
            "evaluates to the string 'run', not a number: used the default 1");
}

TEST_F(ControllerDiagnosticsTest, ClearingKeepsTheMemoryAndRepeatsAllocateNothing) {
  ASSERT_TRUE(testing::AllocationCounter::works());
  ControllerAnimationDesc walk = clip_anim(walk_);
  walk.speed.expression = "[Gait] * 2";
  auto c = make(gait({leaf("[SpeedXZ] >= 0", walk)}));
  ASSERT_TRUE(c);
  run(*c, 10);
  ASSERT_EQ(c->runtime_warnings().size(), 1u);
  c->clear_runtime_warnings();
  {
    testing::AllocationCounter counter;
    run(*c, 100);  // the same failure every frame
    EXPECT_EQ(counter.count(), 0);
  }
  EXPECT_TRUE(c->runtime_warnings().empty());
}

TEST_F(ControllerDiagnosticsTest, DistinctCasesAreCappedWithOneNotice) {
  ControllerAnimationDesc walk = clip_anim(walk_);
  walk.speed.expression = "[Gait]";
  auto c = make(gait({leaf("true", walk)}));
  ASSERT_TRUE(c);
  for (std::size_t i = 0; i < Controller::kMaxRuntimeCases + 20; ++i) {
    c->parameters().set_string("Gait", "g" + std::to_string(i));
    c->update(kDt);
  }
  const auto w = c->runtime_warnings();
  ASSERT_EQ(w.size(), Controller::kMaxRuntimeCases + 1);
  EXPECT_EQ(w[0].message, "evaluates to the string 'g0', not a number: used the default 1");
  EXPECT_EQ(w.back().location, "");
  EXPECT_EQ(w.back().message,
            "more than 256 distinct runtime failures: further ones are not reported");
}

TEST_F(ControllerDiagnosticsTest, HealthyControllerReportsNothing) {
  ControllerDesc d;
  d.layers.push_back(base_layer());
  ControllerLayerDesc head;
  head.name = "Head";
  head.driver.type = "Expression";
  ControllerDriverDesc::Bone bone;
  bone.bone = demo_->find_bone("head");
  bone.channels[4].expression = "[LookAngleX] * 10";
  head.driver.bones.push_back(bone);
  d.layers.push_back(head);
  ControllerStateDesc s;
  s.name = "gait";
  s.layer = 0;
  ControllerAnimationDesc walk = clip_anim(walk_);
  walk.speed.expression = "max([SpeedXZ], 0.1) * 2";
  walk.loop.expression = "[SpeedXZ] < 100";
  walk.blend_duration.expression = "0.1 + [SpeedXZ] * 0";
  s.rules = {leaf("[SpeedXZ] > 0.5 and [IsOnGround]", walk), leaf("true", clip_anim(idle_))};
  d.states.push_back(s);
  ControllerIkLookAtDesc look;
  look.name = "head";
  look.bones = {static_cast<std::int16_t>(demo_->find_bone("neck")),
                static_cast<std::int16_t>(demo_->find_bone("head"))};
  look.yaw.expression = "[LookAngleX]";
  look.weight.expression = "if([IsOnGround], 1, 0.5)";
  d.ik_look_ats.push_back(look);
  auto c = make(std::move(d));
  ASSERT_TRUE(c);
  for (int i = 0; i < 200; ++i) {
    c->parameters().set_float("SpeedXZ", (i % 50) * 0.03);
    c->parameters().set_bool("IsOnGround", i % 7 != 0);
    c->parameters().set_float("LookAngleX", 0.01 * (i % 20));
    c->update(kDt);
    c->compute_pose();
    c->clear_records();
  }
  EXPECT_TRUE(c->runtime_warnings().empty()) << ::testing::PrintToString(lines(*c));
}

// ---- through the config pipeline: the pointers are where the config wrote the fields ----------

class ControllerDiagnosticsConfigTest : public ControllerDiagnosticsTest {
 protected:
  std::unique_ptr<Controller> load(const char* json) {
    auto config = critter::config::parse_animation_config(json, "gait.json");
    EXPECT_TRUE(config) << config.error().to_string();
    if (!config) return nullptr;
    auto desc = critter::config::bind(*config, *demo_);
    EXPECT_TRUE(desc) << desc.error().to_string();
    if (!desc) return nullptr;
    EXPECT_EQ(desc->source, "gait.json");
    return make(std::move(*desc));
  }
};

TEST_F(ControllerDiagnosticsConfigTest, WarningsNameTheConfigFileAndPointer) {
  auto c = load(R"json({
    "parameters": { "Gait": "walk", "Clip": "", "Go": false },
    "animations": {
      "Walk": { "source": "walk", "speed": "[Gait] * 2", "blendDuration": 0 },
    },
    "layers": {
      "Base": { "driver": { "type": "Expression", "properties": {
        "boneConfigs": [ { "boneName": "head", "rotationX": "[Gait] - 1" } ] } } },
    },
    "states": {
      "Gait": { "layer": "Base", "rules": [
        { "condition": "[Clip] != ''", "animation": "[Clip]" },
        { "condition": "[Go] and [Gait] = 'walk'",
          "animation": { "source": "Walk", "loop": "[Gait]" } },
      ] },
    },
  })json");
  ASSERT_TRUE(c);
  run(*c, 50);  // no rule matches: the preset driver runs
  c->parameters().set_bool("Go", true);
  run(*c, 50);  // the Walk alias plays, then every frame re-evaluates its speed and loop
  c->parameters().set_string("Clip", "Rnu");
  run(*c, 50);
  const std::vector<std::string> expected = {
      "/layers/Base/driver/properties/boneConfigs/0/rotationX | fails with a type mismatch: "
      "used the default 0",
      // Merged from the alias: the alias's speed field is where the text to fix is written.
      "/animations/Walk/speed | fails with a type mismatch: used the default 1",
      "/states/Gait/rules/1/animation/loop | evaluates to the string 'walk', not a bool: used "
      "the default true",
      "/states/Gait/rules/0/animation | [Clip] names no clip 'Rnu': the layer keeps its "
      "animation"};
  EXPECT_EQ(lines(*c), expected);
  for (const Warning& w : c->runtime_warnings()) {
    EXPECT_EQ(w.path, "gait.json");
    EXPECT_EQ(w.to_string().rfind("gait.json:/", 0), 0u) << w.to_string();
  }
}

}  // namespace
}  // namespace critter::anim
