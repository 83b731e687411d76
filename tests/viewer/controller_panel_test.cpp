// SPDX-License-Identifier: MIT
// ControllerPanel: the viewer's creature driven by an animation config, without a window. The
// model is the demo quadruped (clips "walk" 1 s and "idle" 2 s, asset/demo_creature.h); configs
// are written to a temporary folder and loaded through io::load_controller.
#include "controller_panel.h"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <numbers>
#include <set>
#include <string>

#include "../common/param_arg.h"
#include "critter/asset/demo_creature.h"
#include "support/glb_builder.h"

namespace critter::viewer {
namespace {

using anim::ParameterValue;
using anim::ParamType;

// Walk on the ground when Speed is above 0.2, idle otherwise; Gait 'rest' (a host name) and a
// dead body empty the Base layer. The walk's Footstep is at a quarter of the clip.
constexpr const char* kConfig = R"({
  "template": "Simple",
  "animations": {
    "idle": { "source": "idle" },
    "walk": { "source": "walk", "events": [ { "time": 0.25, "name": "Footstep", "data": "left" } ] }
  },
  "states": {
    "gait": { "layer": "Base", "rules": [
      { "condition": "[Gait] == 'rest'", "animation": null },
      { "condition": "IsDead", "animation": null },
      { "condition": "[IsOnGround]", "rules": [
          { "condition": "[Speed] > 0.2", "animation": "walk" },
          { "condition": "true", "animation": "idle" } ] },
      { "condition": "true", "animation": "idle" } ] }
  },
  "parameters": { "Mood": 0.5, "Tint": [1, 0, 2], "WalkSpeed": 2 }
})";

class ControllerPanelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Result<Model> model = build_demo_quadruped();
    ASSERT_TRUE(model) << model.error().to_string();
    model_ = std::make_shared<const Model>(std::move(*model));
  }

  std::string write(const std::string& name, const std::string& text) const {
    const std::string path = dir_.file(name);
    testing::write_file(path, text);
    return path;
  }

  std::unique_ptr<ControllerPanel> load(const std::string& text = kConfig,
                                        std::size_t log_length = 64) {
    auto panel = ControllerPanel::load(write("gait.json", text), model_, {}, nullptr, log_length);
    EXPECT_TRUE(panel) << panel.error().to_string();
    return panel ? std::move(*panel) : nullptr;
  }

  double number(const ControllerPanel& panel, const char* name) const {
    const ParamRow* row = panel.find_row(name);
    EXPECT_NE(row, nullptr) << name;
    return row ? panel.value(row->index).number : 0.0;
  }

  testing::ScratchDir dir_;
  std::shared_ptr<const Model> model_;
};

TEST_F(ControllerPanelTest, RowsListEveryParameterOnceGroupedBodyFirst) {
  auto panel = load();
  ASSERT_TRUE(panel);
  const anim::ParameterSchema& schema = panel->program().schema();
  const auto& rows = panel->rows();
  ASSERT_EQ(rows.size(), schema.size());
  ASSERT_EQ(rows.size(), 40u + 2u + 2u);
  std::set<anim::ParamIndex> seen;
  int counts[5] = {};
  for (std::size_t r = 0; r < rows.size(); ++r) {
    EXPECT_TRUE(seen.insert(rows[r].index).second) << rows[r].name;
    EXPECT_EQ(rows[r].name, schema.name(rows[r].index));
    ++counts[static_cast<int>(rows[r].group)];
    if (r > 0) {
      EXPECT_LE(rows[r - 1].group, rows[r].group) << rows[r].name;
    }
  }
  // The 40 built-ins of the §16 table: 22 written from the body state, DeathPhase, BodyForward,
  // BodyRight and DeltaTime derived, 14 the host sets (FourLegged inputs and the four speeds).
  // The controller adds IsAttackHitMoment, which its attack events write (computed too).
  EXPECT_EQ(counts[static_cast<int>(ParamGroup::kBody)], 22);
  EXPECT_EQ(counts[static_cast<int>(ParamGroup::kComputed)], 5);
  EXPECT_EQ(counts[static_cast<int>(ParamGroup::kBuiltin)], 14);
  // Mood and Tint are declared (WalkSpeed is a built-in); Gait only read by a condition.
  EXPECT_EQ(counts[static_cast<int>(ParamGroup::kConfig)], 2);
  EXPECT_EQ(counts[static_cast<int>(ParamGroup::kHost)], 1);

  const ParamRow* on_ground = panel->find_row("isonground");
  ASSERT_NE(on_ground, nullptr);
  EXPECT_EQ(on_ground->group, ParamGroup::kBody);
  EXPECT_EQ(on_ground->type, ParamType::kBool);
  EXPECT_EQ(panel->find_row("DeathPhase")->group, ParamGroup::kComputed);
  EXPECT_EQ(panel->find_row("IsAttackHitMoment")->group, ParamGroup::kComputed);
  EXPECT_EQ(panel->find_row("IsAttackHitMoment")->type, ParamType::kBool);
  EXPECT_EQ(panel->find_row("DeathSpeed")->group, ParamGroup::kBuiltin);
  EXPECT_EQ(panel->find_row("DeathSpeed")->type, ParamType::kFloat);
  EXPECT_EQ(panel->find_row("Position")->type, ParamType::kVec3);
  EXPECT_EQ(panel->find_row("Mood")->group, ParamGroup::kConfig);
  EXPECT_EQ(panel->find_row("Mood")->type, ParamType::kFloat);
  EXPECT_EQ(panel->find_row("Tint")->type, ParamType::kVec3);
  EXPECT_EQ(panel->find_row("Gait")->group, ParamGroup::kHost);
  EXPECT_EQ(panel->find_row("Gait")->type, ParamType::kUnset);
  EXPECT_EQ(panel->find_row("NoSuchName"), nullptr);
}

TEST_F(ControllerPanelTest, TheBodyStartsStandingAliveAtRestWithTheConfigsBuiltins) {
  auto panel = load();
  ASSERT_TRUE(panel);
  const creature::CreatureState& s = panel->state();
  EXPECT_TRUE(s.is_on_ground);
  EXPECT_FLOAT_EQ(s.health, 1.0f);
  EXPECT_FLOAT_EQ(panel->forward_speed(), 0.0f);
  // The config's "WalkSpeed": 2 starts the body at that speed; BodyHeight is the rest bounds'
  // height, 0.86 m (demo_creature.h).
  EXPECT_FLOAT_EQ(s.walk_speed, 2.0f);
  EXPECT_NEAR(s.body_height, 0.86f, 1e-6f);
  ASSERT_TRUE(panel->update(0.1f));
  EXPECT_DOUBLE_EQ(number(*panel, "WalkSpeed"), 2.0);
  EXPECT_DOUBLE_EQ(number(*panel, "IsOnGround"), 1.0);
  EXPECT_DOUBLE_EQ(number(*panel, "Health"), 1.0);
}

TEST_F(ControllerPanelTest, EditsOfConfigAndHostParametersReachTheController) {
  auto panel = load();
  ASSERT_TRUE(panel);
  ASSERT_TRUE(panel->set("mood", ParameterValue::of_float(0.75)));
  EXPECT_DOUBLE_EQ(number(*panel, "Mood"), 0.75);
  ASSERT_TRUE(panel->set("Tint", ParameterValue::of_vec3(vec3(3.0f, 4.0f, 5.0f))));
  EXPECT_EQ(panel->value(panel->find_row("Tint")->index).vec, vec3(3.0f, 4.0f, 5.0f));
  // A host name takes any value; the text form is the --param syntax.
  const anim::ParamIndex gait = panel->find_row("Gait")->index;
  ASSERT_TRUE(panel->set_text(gait, "'trot'"));
  EXPECT_EQ(panel->value(gait).type, ParamType::kString);
  EXPECT_EQ(panel->value(gait).text, "trot");
  ASSERT_TRUE(panel->apply_arg("Gait = 1.5"));
  EXPECT_EQ(panel->value(gait).type, ParamType::kFloat);
  EXPECT_DOUBLE_EQ(panel->value(gait).number, 1.5);
  ASSERT_TRUE(panel->apply_arg("DeathSpeed=6"));
  EXPECT_DOUBLE_EQ(number(*panel, "DeathSpeed"), 6.0);
  // The values stay through updates (nothing else writes them).
  ASSERT_TRUE(panel->update(0.1f));
  EXPECT_DOUBLE_EQ(number(*panel, "Mood"), 0.75);
  EXPECT_DOUBLE_EQ(panel->value(gait).number, 1.5);
}

TEST_F(ControllerPanelTest, BodyParametersGoToTheStateAndReachTheControllerInTheNextUpdate) {
  auto panel = load();
  ASSERT_TRUE(panel);
  ASSERT_TRUE(panel->apply_arg("Speed=1.5"));
  ASSERT_TRUE(panel->apply_arg("IsOnGround=false"));
  EXPECT_FALSE(panel->state().is_on_ground);
  // The body faces -Z: the velocity is 1.5 m/s along it.
  EXPECT_NEAR(panel->state().velocity.z, -1.5f, 1e-6f);
  ASSERT_TRUE(panel->update(0.1f));
  EXPECT_DOUBLE_EQ(number(*panel, "IsOnGround"), 0.0);
  EXPECT_NEAR(number(*panel, "Speed"), 1.5, 1e-6);
  EXPECT_NEAR(number(*panel, "SpeedXZ"), 1.5, 1e-6);
  EXPECT_NEAR(number(*panel, "SpeedAbs"), 1.5, 1e-6);

  // Turning a quarter turn left keeps the speed: R_Y(pi/2) * (0, 0, -1) = (-1, 0, 0).
  ASSERT_TRUE(panel->set("RotationY", ParameterValue::of_float(std::numbers::pi / 2.0)));
  EXPECT_NEAR(panel->state().velocity.x, -1.5f, 1e-5f);
  EXPECT_NEAR(panel->state().velocity.z, 0.0f, 1e-5f);
  ASSERT_TRUE(panel->update(0.1f));
  EXPECT_NEAR(number(*panel, "Speed"), 1.5, 1e-5);
  EXPECT_NEAR(number(*panel, "RotationY"), std::numbers::pi / 2.0, 1e-5);
  const vec3 forward = panel->value(panel->find_row("BodyForward")->index).vec;
  EXPECT_NEAR(forward.x, -1.0f, 1e-5f);
  EXPECT_NEAR(forward.z, 0.0f, 1e-5f);

  // SpeedXZ is a length: the direction stays, a negative value is refused.
  ASSERT_TRUE(panel->set("Speed", ParameterValue::of_float(-2.0)));
  ASSERT_TRUE(panel->set("SpeedXZ", ParameterValue::of_float(0.5)));
  EXPECT_NEAR(panel->forward_speed(), -0.5f, 1e-5f);
  EXPECT_FALSE(panel->set("SpeedXZ", ParameterValue::of_float(-1.0)));

  ASSERT_TRUE(panel->set("IsInWater", ParameterValue::of_bool(true)));
  EXPECT_FLOAT_EQ(panel->state().immersion_factor, 1.0f);
  ASSERT_TRUE(panel->set("ImmersionFactor", ParameterValue::of_float(0.4)));
  ASSERT_TRUE(panel->set("IsInWater", ParameterValue::of_bool(true)));
  EXPECT_FLOAT_EQ(panel->state().immersion_factor, 0.4f);
  ASSERT_TRUE(panel->set("IsInWater", ParameterValue::of_bool(false)));
  EXPECT_FLOAT_EQ(panel->state().immersion_factor, 0.0f);
  ASSERT_TRUE(panel->set("Position", ParameterValue::of_vec2(vec2(1.0f, 2.0f))));
  EXPECT_EQ(panel->state().position, vec3(1.0f, 2.0f, 0.0f));
}

TEST_F(ControllerPanelTest, KillingRunsTheDeathPhaseAndRevivingResetsIt) {
  auto panel = load();
  ASSERT_TRUE(panel);
  ASSERT_TRUE(panel->set("IsDead", ParameterValue::of_bool(true)));
  EXPECT_TRUE(panel->dead());
  EXPECT_FLOAT_EQ(panel->state().health, 0.0f);
  // DeathSpeed 3 per second (its built-in default): 0.3 after 0.1 s, then capped at 1.
  ASSERT_TRUE(panel->update(0.1f));
  EXPECT_NEAR(number(*panel, "DeathPhase"), 0.3, 1e-6);
  EXPECT_DOUBLE_EQ(number(*panel, "IsDead"), 1.0);
  ASSERT_TRUE(panel->update(0.5f));
  EXPECT_DOUBLE_EQ(number(*panel, "DeathPhase"), 1.0);
  ASSERT_TRUE(panel->apply_arg("IsDead=false"));
  EXPECT_FLOAT_EQ(panel->state().health, 1.0f);
  ASSERT_TRUE(panel->update(0.1f));
  EXPECT_DOUBLE_EQ(number(*panel, "DeathPhase"), 0.0);
  panel->kill();
  panel->revive();
  EXPECT_FALSE(panel->dead());
}

TEST_F(ControllerPanelTest, BadEditsFailWithTheParameterNamed) {
  auto panel = load();
  ASSERT_TRUE(panel);
  auto unknown = panel->set("Sped", ParameterValue::of_float(1.0));
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().code, ErrorCode::kUsage);
  EXPECT_NE(unknown.error().message.find("unknown parameter 'Sped'"), std::string::npos)
      << unknown.error().message;
  EXPECT_NE(unknown.error().message.find("did you mean Speed"), std::string::npos)
      << unknown.error().message;
  // Computed parameters are read only; body parameters take their own type.
  auto computed = panel->set("DeathPhase", ParameterValue::of_float(0.5));
  ASSERT_FALSE(computed);
  EXPECT_EQ(computed.error().location, "DeathPhase");
  EXPECT_NE(computed.error().message.find("read only"), std::string::npos);
  auto typed = panel->apply_arg("Speed=fast");
  ASSERT_FALSE(typed);
  EXPECT_EQ(typed.error().location, "Speed");
  EXPECT_FALSE(panel->set("Rotation", ParameterValue::of_float(1.0)));
  EXPECT_FALSE(panel->apply_arg("Speed"));  // no '='
  EXPECT_FLOAT_EQ(panel->forward_speed(), 0.0f);
}

TEST_F(ControllerPanelTest, LayerRowsFollowARuleSwitchAfterUpdate) {
  auto panel = load();
  ASSERT_TRUE(panel);
  ASSERT_TRUE(panel->update(0.5f));
  auto layers = panel->layers();
  ASSERT_EQ(layers.size(), 1u);
  EXPECT_EQ(layers[0].name, "Base");
  EXPECT_EQ(layers[0].clip, "idle");
  EXPECT_TRUE(layers[0].active);
  EXPECT_EQ(panel->creature().source(), creature::PoseSource::kController);

  // The rule switches in the next update; the walk then crossfades in over 0.3 s.
  ASSERT_TRUE(panel->apply_arg("Speed=1"));
  EXPECT_EQ(panel->layers()[0].clip, "idle");
  ASSERT_TRUE(panel->update(0.1f));
  layers = panel->layers();
  EXPECT_EQ(layers[0].clip, "walk");
  EXPECT_TRUE(layers[0].crossfading);
  EXPECT_NEAR(layers[0].clip_time, 0.1f, 1e-5f);
  ASSERT_TRUE(panel->update(0.4f));
  layers = panel->layers();
  EXPECT_FALSE(layers[0].crossfading);
  EXPECT_NEAR(layers[0].clip_time, 0.5f, 1e-5f);
  EXPECT_NEAR(layers[0].weight, 1.0f, 1e-6f);

  // Gait 'rest' deactivates the layer: it fades out and then shows nothing.
  ASSERT_TRUE(panel->apply_arg("Gait=rest"));
  ASSERT_TRUE(panel->update(0.1f));
  ASSERT_TRUE(panel->update(1.0f));
  layers = panel->layers();
  EXPECT_FALSE(layers[0].active);
  EXPECT_FLOAT_EQ(layers[0].weight, 0.0f);
}

TEST_F(ControllerPanelTest, TheEventLogKeepsTheLastEntries) {
  auto panel = load(kConfig, 3);
  ASSERT_TRUE(panel);
  EXPECT_EQ(panel->log_length(), 3u);
  ASSERT_TRUE(panel->apply_arg("Speed=1"));
  // The walk starts in the first update at clip time 0; its Footstep (clip time 0.25 of 1 s) is
  // crossed in the updates ending at 0.3, 1.3 and 2.3 s, each time an event record and, standing
  // on the ground, a call of the footstep hook.
  for (int i = 0; i < 25; ++i) ASSERT_TRUE(panel->update(0.1f));
  const auto& log = panel->log();
  ASSERT_EQ(log.size(), 3u);
  EXPECT_EQ(log[0].kind, LogEntry::Kind::kHook);
  EXPECT_NEAR(log[0].at, 1.3, 1e-4);
  EXPECT_EQ(log[1].kind, LogEntry::Kind::kEvent);
  EXPECT_NEAR(log[1].at, 2.3, 1e-4);
  EXPECT_EQ(log[1].layer, "Base");
  EXPECT_EQ(log[1].name, "Footstep");
  EXPECT_EQ(log[1].data, "left");
  EXPECT_FLOAT_EQ(log[1].time, 0.25f);
  EXPECT_EQ(log[1].to_string(), "2.300 s  event Base Footstep @0.25 'left'");
  EXPECT_EQ(log[2].kind, LogEntry::Kind::kHook);
  EXPECT_EQ(log[2].to_string(), "2.300 s  hook Footstep 'left'");
  panel->clear_log();
  EXPECT_TRUE(panel->log().empty());
}

TEST_F(ControllerPanelTest, OffTheGroundTheEventFiresButNotTheFootstepHook) {
  // Walking in the air: the state rule reads a host flag instead of IsOnGround.
  std::string config = kConfig;
  config.replace(config.find("[IsOnGround]"), 12, "[Always] == 0");
  auto panel = load(config);
  ASSERT_TRUE(panel);
  ASSERT_TRUE(panel->apply_arg("Speed=1"));
  ASSERT_TRUE(panel->apply_arg("IsOnGround=false"));
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(panel->update(0.1f));
  ASSERT_EQ(panel->log().size(), 1u);
  EXPECT_EQ(panel->log()[0].kind, LogEntry::Kind::kEvent);
  EXPECT_NEAR(panel->log()[0].at, 0.3, 1e-4);
}

TEST_F(ControllerPanelTest, RestartKeepsTheEditsAndTheBody) {
  auto panel = load();
  ASSERT_TRUE(panel);
  ASSERT_TRUE(panel->apply_arg("Mood=0.25"));
  ASSERT_TRUE(panel->apply_arg("Speed=1"));
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(panel->update(0.1f));
  ASSERT_FALSE(panel->log().empty());
  panel->restart();
  EXPECT_DOUBLE_EQ(panel->time(), 0.0);
  EXPECT_TRUE(panel->log().empty());
  EXPECT_DOUBLE_EQ(number(*panel, "Mood"), 0.25);
  EXPECT_FLOAT_EQ(panel->forward_speed(), 1.0f);
  EXPECT_FALSE(panel->layers()[0].active);  // a fresh controller: nothing played yet
  ASSERT_TRUE(panel->update(0.1f));
  EXPECT_EQ(panel->layers()[0].clip, "walk");
  EXPECT_NEAR(panel->layers()[0].clip_time, 0.1f, 1e-5f);
}

TEST_F(ControllerPanelTest, ReloadTakesTheNewConfigAndKeepsTheOldOneOnError) {
  auto panel = load();
  ASSERT_TRUE(panel);
  ASSERT_TRUE(panel->apply_arg("Mood=0.25"));
  ASSERT_TRUE(panel->apply_arg("Speed=1"));
  ASSERT_EQ(panel->find_row("Extra"), nullptr);

  std::string config = kConfig;
  config.replace(config.find("\"Mood\": 0.5"), 11, "\"Mood\": 0.5, \"Extra\": true");
  write("gait.json", config);
  ASSERT_TRUE(panel->reload());
  ASSERT_NE(panel->find_row("Extra"), nullptr);
  EXPECT_EQ(panel->find_row("Extra")->type, ParamType::kBool);
  EXPECT_DOUBLE_EQ(number(*panel, "Mood"), 0.25);
  EXPECT_FLOAT_EQ(panel->forward_speed(), 1.0f);
  ASSERT_TRUE(panel->update(0.1f));
  EXPECT_EQ(panel->layers()[0].clip, "walk");

  write("gait.json", R"({ "template": "Simple", "animations": { "idle": { "source": "nope" } } })");
  auto failed = panel->reload();
  ASSERT_FALSE(failed);
  EXPECT_NE(failed.error().to_string().find("/animations/idle"), std::string::npos)
      << failed.error().to_string();
  EXPECT_NE(panel->find_row("Extra"), nullptr);
  ASSERT_TRUE(panel->update(0.1f));
  EXPECT_EQ(panel->layers()[0].clip, "walk");
}

TEST_F(ControllerPanelTest, ABrokenConfigFailsWithItsFileAndPointer) {
  std::string config = kConfig;
  config.replace(config.find("[Speed] > 0.2"), 13, "[Speed] >");
  const std::string path = write("broken.json", config);
  auto panel = ControllerPanel::load(path, model_);
  ASSERT_FALSE(panel);
  const std::string text = panel.error().to_string();
  EXPECT_EQ(panel.error().path, path);
  EXPECT_NE(text.find("/states/gait/rules/2/rules/0/condition"), std::string::npos) << text;
}

TEST_F(ControllerPanelTest, PlacedBoundsFollowTheModelScale) {
  std::string config = kConfig;
  config.replace(config.find("\"template\""), 0, "\"modelScale\": 2, ");
  auto panel = load(config);
  ASSERT_TRUE(panel);
  // Rest bounds (-0.18, 0, -0.7)..(0.18, 0.86, 0.58), scaled by 2 about the origin.
  const Aabb b = panel->placed_bounds();
  EXPECT_NEAR(b.min.x, -0.36f, 1e-5f);
  EXPECT_NEAR(b.min.z, -1.4f, 1e-5f);
  EXPECT_NEAR(b.max.y, 1.72f, 1e-5f);
  EXPECT_NEAR(b.max.z, 1.16f, 1e-5f);
}

TEST(ControllerPanelValueText, WritesTheParamSyntaxThatReadsBack) {
  EXPECT_EQ(ControllerPanel::value_text(ParameterValue::of_float(0.5)), "0.5");
  EXPECT_EQ(ControllerPanel::value_text(ParameterValue::of_bool(true)), "true");
  EXPECT_EQ(ControllerPanel::value_text(ParameterValue::of_string("walk")), "'walk'");
  EXPECT_EQ(ControllerPanel::value_text(ParameterValue::of_vec2(vec2(1.5f, -2.0f))), "[1.5,-2]");
  EXPECT_EQ(ControllerPanel::value_text(ParameterValue::of_vec3(vec3(1.0f, 0.0f, 2.0f))),
            "[1,0,2]");
  EXPECT_EQ(ControllerPanel::value_text(ParameterValue::unset()), "");
  for (const ParameterValue& v : {ParameterValue::of_float(0.1), ParameterValue::of_float(-3.25e7),
                                  ParameterValue::of_bool(false), ParameterValue::of_string("it's"),
                                  ParameterValue::of_vec3(vec3(0.1f, 2.5f, -7.0f))}) {
    auto back = tools::parse_param_value(ControllerPanel::value_text(v), "test");
    ASSERT_TRUE(back) << ControllerPanel::value_text(v);
    EXPECT_EQ(*back, v) << ControllerPanel::value_text(v);
  }
}

}  // namespace
}  // namespace critter::viewer
