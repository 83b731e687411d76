// SPDX-License-Identifier: MIT
#include "critter/anim/driver.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "critter/anim/controller.h"
#include "critter/config/animation_config.h"
#include "critter/config/bind.h"
#include "critter/io/controller_loader.h"
#include "support/math_helpers.h"
#include "support/spec_example.h"

namespace critter::anim {
namespace {

using critter::testing::angle_between;
using critter::testing::kPi;

constexpr float kDeg = kPi / 180.0f;

quat about(int axis, float radians) {
  vec3 v(0.0f);
  v[axis] = std::sin(radians / 2);
  return quat_xyzw(v.x, v.y, v.z, std::cos(radians / 2));
}

// "Wobble", a host driver: turns one bone about an axis by
// Amplitude° · gain · sin(2π · Frequency · t), t the driver's own time (the sum of its update
// steps), gain the parameter named by GainParam (1 while unset), and moves it by Offset.
class WobbleProgram final : public DriverProgram {
 public:
  std::unique_ptr<DriverInstance> instantiate() const override;

  int bone = -1;
  float amplitude = 10.0f * kDeg;
  float frequency = 1.0f;
  int axis = 2;
  vec3 offset{0.0f};
  ParamIndex gain = kNoParam;
  bool enabled = true;
  Transform rest;
};

class WobbleInstance final : public DriverInstance {
 public:
  explicit WobbleInstance(const WobbleProgram& p) : p_(p) {}
  void update(float dt, const ParameterValues& values) override {
    time_ += dt;
    gain_ = values.type(p_.gain) == ParamType::kUnset ? 1.0f
                                                      : static_cast<float>(values.number(p_.gain));
  }
  bool sample(std::span<Transform> locals, std::span<std::uint8_t> touched,
              bool additive) override {
    if (!p_.enabled) return false;
    const quat q =
        about(p_.axis, p_.amplitude * gain_ * std::sin(2.0f * kPi * p_.frequency * time_));
    const auto j = static_cast<std::size_t>(p_.bone);
    locals[j] =
        additive ? Transform{p_.offset, q, vec3(1.0f)}
                 : Transform{p_.rest.translation + p_.offset, q * p_.rest.rotation, p_.rest.scale};
    touched[j] = 1;
    return true;
  }

 private:
  const WobbleProgram& p_;
  float time_ = 0.0f;
  float gain_ = 1.0f;
};

std::unique_ptr<DriverInstance> WobbleProgram::instantiate() const {
  return std::make_unique<WobbleInstance>(*this);
}

int factory_calls = 0;

Result<std::shared_ptr<const DriverProgram>> make_wobble(const DriverSetup& s) {
  ++factory_calls;
  auto p = std::make_shared<WobbleProgram>();
  const auto props = std::span<const DriverProperty>(s.desc.properties);
  const DriverProperty* bone = find_driver_property(props, "bone");
  if (bone == nullptr || bone->index < 0) {
    return fail(Error::at(ErrorCode::kInvalid, "Wobble", "Bone", "a wobble needs a bone"));
  }
  p->bone = bone->index;
  p->rest = s.model.skeleton().rest_pose()[static_cast<std::size_t>(p->bone)];
  if (auto* a = find_driver_property(props, "Amplitude")) p->amplitude = a->number * kDeg;
  if (auto* f = find_driver_property(props, "Frequency")) p->frequency = f->number;
  if (auto* x = find_driver_property(props, "Axis")) p->axis = x->index;
  if (auto* o = find_driver_property(props, "Offset")) p->offset = o->vector;
  if (auto* e = find_driver_property(props, "Enabled")) p->enabled = e->boolean;
  const DriverProperty* gain = find_driver_property(props, "GainParam");
  p->gain = s.schema.declare_or_find(gain != nullptr ? gain->text : "WobbleGain");
  return std::shared_ptr<const DriverProgram>(std::move(p));
}

std::vector<DriverPropertySpec> wobble_properties() {
  using T = DriverPropertyType;
  return {{"Bone", T::kBone},          {"Amplitude", T::kNumber}, {"Frequency", T::kNumber},
          {"Axis", T::kAxis},          {"Offset", T::kVec3},      {"Enabled", T::kBool},
          {"GainParam", T::kParameter}};
}

DriverRegistry registry_with_wobble() {
  DriverRegistry r = DriverRegistry::with_builtins();
  EXPECT_TRUE(r.add("Wobble", wobble_properties(), make_wobble));
  return r;
}

// ---- the registry ------------------------------------------------------------------------------

TEST(DriverRegistryTest, BuiltinsAreImplementedAndCreatureDriversOnlyDeclared) {
  const DriverRegistry& r = DriverRegistry::builtin();
  for (const char* name : {"LookAt", "Death", "Expression"}) {
    const DriverType* t = r.find(name);
    ASSERT_NE(t, nullptr) << name;
    EXPECT_EQ(t->name, name);
    EXPECT_TRUE(t->implemented()) << name;
  }
  const DriverType* walk = r.find("FourLeggedWalk");
  ASSERT_NE(walk, nullptr);
  EXPECT_FALSE(walk->implemented());
  EXPECT_TRUE(walk->properties.empty());
  EXPECT_EQ(r.types().size(), 28u);  // 3 engine drivers + 25 creature drivers (§14.2)
  // LookAt's properties are §14.1's, typed.
  const DriverType* look = r.find("LookAt");
  ASSERT_NE(look->property("maxanglex"), nullptr);
  EXPECT_EQ(look->property("MaxAngleX")->type, DriverPropertyType::kNumber);
  EXPECT_EQ(look->property("TargetBoneName")->type, DriverPropertyType::kBone);
  EXPECT_EQ(look->property("YawAxis")->type, DriverPropertyType::kAxis);
  EXPECT_EQ(look->property("LookAngleXParam")->type, DriverPropertyType::kParameter);
  EXPECT_EQ(look->property("Colour"), nullptr);
}

TEST(DriverRegistryTest, LookupIgnoresCaseAndADriverSuffix) {
  const DriverRegistry r = registry_with_wobble();
  const DriverType* wobble = r.find("Wobble");
  ASSERT_NE(wobble, nullptr);
  EXPECT_EQ(r.find("wobble"), wobble);
  EXPECT_EQ(r.find("WOBBLE"), wobble);
  EXPECT_EQ(r.find("WobbleDriver"), wobble);
  EXPECT_EQ(r.find("wobbledriver"), wobble);
  EXPECT_EQ(r.find("Wobbl"), nullptr);
  EXPECT_EQ(r.find("WobbleDriverDriver"), nullptr);  // one suffix only
  EXPECT_EQ(r.find("lookatDRIVER"), r.find("LookAt"));
  // Registered with the suffix, found without it.
  DriverRegistry s;
  ASSERT_TRUE(s.add("SwayDriver", {}, make_wobble));
  EXPECT_NE(s.find("sway"), nullptr);
  EXPECT_EQ(s.find("sway"), s.find("SwayDriver"));
  EXPECT_EQ(driver_base_name("Driver"), "Driver");
  EXPECT_EQ(driver_base_name("LookAtdriver"), "LookAt");
  EXPECT_TRUE(same_driver_name("lookat", "LookAtDriver"));
  EXPECT_FALSE(same_driver_name("LookAt", "Death"));
}

TEST(DriverRegistryTest, RegistrationRules) {
  DriverRegistry r = DriverRegistry::with_builtins();
  // An implemented name cannot be taken twice, with or without the suffix.
  auto again = r.add("lookAtDriver", {}, make_wobble);
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().code, ErrorCode::kUsage);
  EXPECT_NE(again.error().message.find("already registered"), std::string::npos);
  EXPECT_FALSE(r.add("", {}, make_wobble));
  EXPECT_FALSE(r.add("NoFactory", {}, DriverFactory{}));
  EXPECT_FALSE(r.add("Twice",
                     {{"Gain", DriverPropertyType::kNumber}, {"gain", DriverPropertyType::kBool}},
                     make_wobble));
  EXPECT_EQ(r.find("Twice"), nullptr);
  EXPECT_FALSE(r.declare("Death"));
  EXPECT_FALSE(r.declare("FourLeggedWalk"));
  // A declared name takes an implementation once.
  const std::size_t before = r.types().size();
  ASSERT_TRUE(r.add("FourLeggedWalkDriver", wobble_properties(), make_wobble));
  EXPECT_EQ(r.types().size(), before);
  ASSERT_NE(r.find("FourLeggedWalk"), nullptr);
  EXPECT_TRUE(r.find("FourLeggedWalk")->implemented());
  EXPECT_FALSE(r.add("FourLeggedWalk", {}, make_wobble));
  ASSERT_TRUE(r.declare("Jiggle"));
  EXPECT_FALSE(r.find("jiggle")->implemented());
}

TEST(DriverRegistryTest, ASecondRegistryIsIndependentOfTheDefault) {
  DriverRegistry mine = registry_with_wobble();
  EXPECT_NE(mine.find("Wobble"), nullptr);
  EXPECT_EQ(DriverRegistry::builtin().find("Wobble"), nullptr);
  EXPECT_EQ(DriverRegistry::with_builtins().find("Wobble"), nullptr);
  EXPECT_FALSE(critter::config::is_known_driver("Wobble"));
  // Implementing a declared creature driver in a copy leaves the default declared only.
  ASSERT_TRUE(mine.add("BirdFly", {}, make_wobble));
  EXPECT_TRUE(mine.find("BirdFly")->implemented());
  EXPECT_FALSE(DriverRegistry::builtin().find("BirdFly")->implemented());
  DriverRegistry copy = mine;
  ASSERT_TRUE(copy.declare("OnlyInTheCopy"));
  EXPECT_EQ(mine.find("OnlyInTheCopy"), nullptr);
}

// ---- a custom driver from a JSON config
// ----------------------------------------------------------

class CustomDriverTest : public ::testing::Test {
 protected:
  void SetUp() override { model_ = test_support::spec_example_quadruped(); }

  // parse + bind (to the runtime description) + compile, with `drivers` (null: the default
  // registry).
  Result<std::shared_ptr<const ControllerProgram>> load(const char* json,
                                                        const DriverRegistry* drivers) {
    errors_.clear();
    auto config = critter::config::parse_animation_config(json, "wobble.json");
    if (!config) return fail(config.error());
    critter::config::BindOptions options;
    options.drivers = drivers;
    auto desc = critter::config::bind(*config, model_, options, nullptr, &errors_);
    if (!desc) return fail(desc.error());
    desc_ = *desc;
    return ControllerProgram::compile(model_, std::move(*desc), drivers, nullptr, &errors_);
  }
  bool has_error(std::string_view pointer, std::string_view text) const {
    for (const Error& e : errors_) {
      if (e.location == pointer && e.message.find(text) != std::string::npos) return true;
    }
    return false;
  }
  std::string all_errors() const {
    std::string out;
    for (const Error& e : errors_) out += e.to_string() + "\n";
    return out;
  }
  std::size_t bone(const char* name) const {
    return static_cast<std::size_t>(model_.find_bone(name));
  }

  Model model_;
  ControllerDesc desc_;
  std::vector<Error> errors_;
};

// Head: a Wobble preset (30° about Y at 0.25 Hz). The head rule plays the same type, so its
// driverArgs go to Parameters, and it runs at speed 2. Base: a rule creates a Wobble from its
// driverArgs (90° about Z at 0.25 Hz on b_Body, gain read from an unset parameter, moved up 0.5).
constexpr const char* kWobbleConfig = R"json({
  "template": "FourLegged",
  "boneAliases": { "Head": "b_Head_05", "Neck": "b_Neck_04" },
  "layers": {
    "Head": { "driver": { "type": "WobbleDriver",
                          "properties": { "Bone": "Head", "Amplitude": 30, "Frequency": "0.25",
                                          "Axis": "y" } } }
  },
  "animations": {
    "nod": { "source": "driver:wobble", "speed": 2, "driverArgs": { "WobbleGain": 0.5 } }
  },
  "states": {
    "head": { "layer": "Head", "rules": [ { "condition": "[Calm]", "animation": null },
                                          { "condition": "true", "animation": "nod" } ] },
    "body": { "layer": "Base", "rules": [
      { "condition": "[Spin]",
        "animation": { "source": "driver:Wobble",
                       "driverArgs": { "Bone": "b_Body", "Amplitude": 90, "Frequency": 0.25,
                                       "Axis": "Z", "Offset": [0, 0.5, 0],
                                       "GainParam": "BodyGain" } } },
      { "condition": "true", "animation": null } ] }
  }
})json";

TEST_F(CustomDriverTest, AHostDriverRunsFromALayerPresetAndADriverRule) {
  const DriverRegistry drivers = registry_with_wobble();
  factory_calls = 0;
  auto program = load(kWobbleConfig, &drivers);
  ASSERT_TRUE(program) << program.error().to_string() << all_errors();
  // The description carries the generic properties, typed and with bones resolved.
  const ControllerDriverDesc& preset = desc_.layers[1].driver;
  EXPECT_EQ(preset.type, "Wobble");
  ASSERT_EQ(preset.properties.size(), 4u);
  const auto* head_bone = find_driver_property(preset.properties, "bone");
  ASSERT_NE(head_bone, nullptr);
  EXPECT_EQ(head_bone->index, model_.find_bone("b_Head_05"));  // through the bone alias
  EXPECT_FLOAT_EQ(find_driver_property(preset.properties, "Frequency")->number, 0.25f);
  EXPECT_EQ(find_driver_property(preset.properties, "AXIS")->index, 1);
  // The preset, the alias's rule and the Base rule: one program each.
  EXPECT_EQ(factory_calls, 3);

  Controller c(*program);
  const auto rest = model_.skeleton().rest_pose();
  const std::size_t head = bone("b_Head_05");
  const std::size_t body = bone("b_Body");
  EXPECT_TRUE(c.layer_active(1));  // the preset runs from the start
  c.parameters().set_bool("Calm", false);
  c.parameters().set_bool("Spin", true);
  c.update(0.5f);
  // Head: the rule found a Wobble on its layer, so WobbleGain = 0.5 went to Parameters and the
  // preset kept running at speed 2: t = 1 s, angle = 30° · 0.5 · sin(2π · 0.25 · 1) = 15° about Y.
  EXPECT_DOUBLE_EQ(c.parameters().number(c.program().schema().find("WobbleGain")), 0.5);
  // Base: a new Wobble from the rule's driverArgs at speed 1: t = 0.5 s, BodyGain unset (gain 1),
  // angle = 90° · sin(2π · 0.25 · 0.5) = 90° · sin(π/4) about Z, moved up by 0.5.
  auto pose = c.compute_pose();
  EXPECT_LT(angle_between(pose[head].rotation, about(1, 15.0f * kDeg) * rest[head].rotation),
            1e-4f);
  EXPECT_EQ(pose[head].translation, rest[head].translation);
  const float body_angle = 90.0f * kDeg * std::sin(kPi / 4);
  EXPECT_LT(angle_between(pose[body].rotation, about(2, body_angle) * rest[body].rotation), 1e-4f);
  EXPECT_NEAR(pose[body].translation.y, rest[body].translation.y + 0.5f, 1e-6f);
  EXPECT_NEAR(pose[body].translation.x, rest[body].translation.x, 1e-6f);
  // Only the driven bones move; the Base layer's other bones stay at rest.
  for (std::size_t j = 0; j < pose.size(); ++j) {
    if (j != head && j != body) {
      EXPECT_EQ(pose[j], rest[j]) << j;
    }
  }

  // Another 0.5 s: head t = 2 s, sin(π) = 0; body t = 1 s, BodyGain 0.5 -> 45°.
  c.parameters().set_float("BodyGain", 0.5);
  c.update(0.5f);
  pose = c.compute_pose();
  EXPECT_LT(angle_between(pose[head].rotation, rest[head].rotation), 1e-4f);
  EXPECT_LT(angle_between(pose[body].rotation, about(2, 45.0f * kDeg) * rest[body].rotation),
            1e-4f);

  // A null rule deactivates each driver layer at once.
  c.parameters().set_bool("Calm", true);
  c.parameters().set_bool("Spin", false);
  c.update(0.1f);
  EXPECT_FALSE(c.layer_active(0));
  EXPECT_FALSE(c.layer_active(1));
  pose = c.compute_pose();
  EXPECT_EQ(pose[head], rest[head]);
  EXPECT_EQ(pose[body], rest[body]);
  // Back on: the head layer's last driver (the preset) is of the rule's type, so it resumes with
  // its own time (2 s + 0.5 s · 2 = 3 s): 30° · 0.5 · sin(2π · 0.25 · 3) = -15°.
  c.parameters().set_bool("Calm", false);
  c.update(0.5f);
  pose = c.compute_pose();
  EXPECT_LT(angle_between(pose[head].rotation, about(1, -15.0f * kDeg) * rest[head].rotation),
            1e-4f);
}

TEST_F(CustomDriverTest, TheOneCallLoaderTakesTheRegistry) {
  const auto dir = std::filesystem::temp_directory_path() / "critter_driver_test";
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "wobble.json").string();
  std::ofstream(path) << kWobbleConfig;
  auto model = std::make_shared<const Model>(test_support::spec_example_quadruped());
  auto rejected = io::load_controller(path, model);
  ASSERT_FALSE(rejected);
  EXPECT_EQ(rejected.error().location, "/layers/Head/driver/type");
  const DriverRegistry drivers = registry_with_wobble();
  io::ControllerLoadOptions options;
  options.drivers = &drivers;
  auto loaded = io::load_controller(path, model, options);
  ASSERT_TRUE(loaded) << loaded.error().to_string();
  Controller c(loaded->program);
  c.parameters().set_bool("Spin", true);
  c.update(1.0f);  // Base: 90° · sin(π/2) about Z on b_Body
  const std::size_t body = bone("b_Body");
  EXPECT_LT(angle_between(c.compute_pose()[body].rotation,
                          about(2, kPi / 2) * model_.skeleton().rest_pose()[body].rotation),
            1e-4f);
  std::filesystem::remove_all(dir);
}

TEST_F(CustomDriverTest, TheDefaultRegistryRejectsTheHostDriver) {
  auto program = load(kWobbleConfig, nullptr);
  ASSERT_FALSE(program);
  EXPECT_TRUE(has_error("/layers/Head/driver/type", "unknown driver type 'WobbleDriver'"))
      << all_errors();
  EXPECT_TRUE(has_error("/animations/nod/source", "unknown driver type 'wobble'")) << all_errors();
  EXPECT_TRUE(has_error("/states/body/rules/0/animation/source", "unknown driver type 'Wobble'"))
      << all_errors();
}

TEST_F(CustomDriverTest, BindEnforcesThePropertySchemaWithPointers) {
  const DriverRegistry drivers = registry_with_wobble();
  auto program = load(R"json({
    "template": "FourLegged",
    "layers": { "Head": { "driver": { "type": "Wobble", "properties": {
        "Bone": "Tail", "Amplitude": "loud", "Axis": "W", "Offset": [1, 2], "Enabled": 3,
        "GainParam": 7, "Colour": "red" } } } },
    "states": {
      "head": { "layer": "Head", "rules": [ { "condition": "true", "animation": {
          "source": "driver:Wobble", "driverArgs": { "Mood": { "a": 1 }, "Axis": "Q" } } } ] },
      "body": { "layer": "Base", "rules": [ { "condition": "true", "animation": {
          "source": "driver:Wobble", "driverArgs": { "Bone": "b_Body", "Mood": 1 } } } ] }
    }
  })json",
                      &drivers);
  ASSERT_FALSE(program);
  const std::string props = "/layers/Head/driver/properties/";
  EXPECT_TRUE(has_error(props + "Bone", "'Tail' is not a bone")) << all_errors();
  EXPECT_TRUE(has_error(props + "Amplitude", "cannot be converted")) << all_errors();
  EXPECT_TRUE(has_error(props + "Axis", "cannot be converted")) << all_errors();
  EXPECT_TRUE(has_error(props + "Offset", "cannot be converted")) << all_errors();
  EXPECT_TRUE(has_error(props + "Enabled", "cannot be converted")) << all_errors();
  EXPECT_TRUE(has_error(props + "GainParam", "cannot be converted")) << all_errors();
  EXPECT_TRUE(has_error(props + "Colour", "unknown driver property 'Colour' for driver 'Wobble'"))
      << all_errors();
  // On Head (a Wobble preset) driverArgs are parameters: any name, but a value a parameter takes;
  // a name that is also a property is still checked as one.
  const std::string head_args = "/states/head/rules/0/animation/driverArgs/";
  EXPECT_TRUE(has_error(head_args + "Mood", "cannot be converted to a parameter")) << all_errors();
  EXPECT_TRUE(has_error(head_args + "Axis", "cannot be converted")) << all_errors();
  // On Base (no preset) they are the properties of a new driver.
  EXPECT_TRUE(has_error("/states/body/rules/0/animation/driverArgs/Mood",
                        "unknown driver property 'Mood' for driver 'Wobble'"))
      << all_errors();
  EXPECT_EQ(errors_.size(), 10u) << all_errors();
}

TEST_F(CustomDriverTest, DeclaredDriversAcceptAnyPropertyAndLeaveTheirLayerAlone) {
  // anim's registry only declares the creature drivers (the creature module implements them).
  auto program = load(R"json({
    "template": "FourLegged",
    "layers": { "Head": { "driver": { "type": "FourLeggedWalk",
                                      "properties": { "WalkAnimationSpeed": 3, "Anything": [1] } } } },
    "states": { "gait": { "layer": "Base", "rules": [ { "condition": "true", "animation": {
        "source": "driver:BirdFlyDriver", "driverArgs": { "Whatever": { "x": 1 } } } } ] } }
  })json",
                      &DriverRegistry::builtin());
  ASSERT_TRUE(program) << program.error().to_string() << all_errors();
  Controller c(*program);
  c.parameters().set_float("Speed", 1.0);
  c.update(0.1f);
  EXPECT_FALSE(c.layer_active(0));
  EXPECT_FALSE(c.layer_active(1));
  const auto rest = model_.skeleton().rest_pose();
  const auto pose = c.compute_pose();
  for (std::size_t j = 0; j < pose.size(); ++j) EXPECT_EQ(pose[j], rest[j]) << j;
}

// ---- compiling a description with a registry --------------------------------------------------

TEST_F(CustomDriverTest, CompileResolvesTypesThroughItsRegistry) {
  const DriverRegistry drivers = registry_with_wobble();
  ControllerDesc d;
  ControllerLayerDesc layer;
  layer.name = "Base";
  layer.driver.type = "wobbleDRIVER";
  DriverProperty b;
  b.name = "Bone";
  b.type = DriverPropertyType::kBone;
  b.index = static_cast<int>(bone("b_Neck_04"));
  layer.driver.properties.push_back(b);
  d.layers.push_back(layer);
  // Unknown to the default registry: a located error.
  auto missing = ControllerProgram::compile(model_, d);
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().location, "layers/0/driver/type");
  EXPECT_NE(missing.error().message.find("unknown driver type 'wobbleDRIVER'"), std::string::npos);
  // With the registry it runs: amplitude 10° about Z at 1 Hz, t = 0.25 s -> 10°.
  auto program = ControllerProgram::compile(model_, d, &drivers);
  ASSERT_TRUE(program) << program.error().to_string();
  EXPECT_NE(program.value()->schema().find("WobbleGain"), kNoParam);  // declared by the factory
  Controller c(*program);
  c.update(0.25f);
  const std::size_t neck = bone("b_Neck_04");
  const auto rest = model_.skeleton().rest_pose();
  EXPECT_LT(
      angle_between(c.compute_pose()[neck].rotation, about(2, 10.0f * kDeg) * rest[neck].rotation),
      1e-4f);
  // A factory's error comes back at the driver's place plus the factory's location.
  d.layers[0].driver.properties.clear();
  auto bad = ControllerProgram::compile(model_, d, &drivers);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().location, "layers/0/driver/Bone");
  EXPECT_EQ(bad.error().message, "a wobble needs a bone");
}

TEST_F(CustomDriverTest, AnAdditiveLayerGetsTheDelta) {
  const DriverRegistry drivers = registry_with_wobble();
  ControllerDesc d;
  ControllerLayerDesc layer;
  layer.name = "Wobble";
  layer.blend_mode = LayerBlendMode::kAdditive;
  layer.driver.type = "Wobble";
  DriverProperty b;
  b.name = "Bone";
  b.type = DriverPropertyType::kBone;
  b.index = static_cast<int>(bone("b_Body"));
  DriverProperty o;
  o.name = "Offset";
  o.type = DriverPropertyType::kVec3;
  o.vector = vec3(0.0f, 0.0f, 2.0f);
  DriverProperty a;
  a.name = "Amplitude";
  a.type = DriverPropertyType::kNumber;
  a.number = 60.0f;
  layer.driver.properties = {b, o, a};
  d.layers.push_back(layer);
  auto program = ControllerProgram::compile(model_, std::move(d), &drivers);
  ASSERT_TRUE(program) << program.error().to_string();
  Controller c(*program);
  c.update(0.25f);  // 60° · sin(π/2)
  const std::size_t body = bone("b_Body");
  const auto rest = model_.skeleton().rest_pose();
  const auto pose = c.compute_pose();
  // §11 additive over the rest pose: rotation rest · delta, translation rest + delta.
  EXPECT_LT(angle_between(pose[body].rotation, rest[body].rotation * about(2, 60.0f * kDeg)),
            1e-4f);
  EXPECT_NEAR(pose[body].translation.z, rest[body].translation.z + 2.0f, 1e-6f);
}

}  // namespace
}  // namespace critter::anim
