// SPDX-License-Identifier: MIT
#include "critter/creature/legacy/legacy_drivers.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "critter/anim/controller.h"
#include "critter/config/animation_config.h"
#include "critter/config/bind.h"
#include "critter/creature/builtin_parameters.h"
#include "critter/creature/creature_model.h"
#include "critter/creature/legacy/builtin_creatures.h"
#include "critter/creature/legacy/rig_factory.h"
#include "critter/creature/legacy/rig_inputs.h"
#include "rig_test_support.h"
#include "support/allocation_counter.h"

namespace critter::creature::legacy {
namespace {

Result<std::shared_ptr<const anim::ControllerProgram>> compile(
    const Model& model, const std::string& json, const anim::DriverRegistry& drivers) {
  auto config = config::parse_animation_config(json, "legacy.json");
  if (!config) return fail(config.error());
  config::BindOptions options;
  options.drivers = &drivers;
  auto desc = config::bind(*config, model, options);
  if (!desc) return fail(desc.error());
  return anim::ControllerProgram::compile(model, std::move(*desc), &drivers);
}

std::string config_for(std::string_view driver, std::string_view species) {
  return R"({ "states": { "body": { "layer": "Base", "rules": [ { "condition": "true",
      "animation": { "source": "driver:)" +
         std::string(driver) + R"(", "blendDuration": 0, "driverArgs": { "Species": ")" +
         std::string(species) + R"(" } } } ] } } })";
}

anim::DriverRegistry registry() {
  anim::DriverRegistry r = anim::DriverRegistry::with_builtins();
  const Status ok = register_legacy_drivers(r);
  EXPECT_TRUE(ok) << ok.error().to_string();
  return r;
}

TEST(LegacyDrivers, ImplementTheDeclaredCreatureDrivers) {
  const anim::DriverRegistry r = registry();
  EXPECT_EQ(r.types().size(), anim::DriverRegistry::builtin().types().size());
  for (const char* name : {"FourLeggedWalk",
                           "FourLeggedTrot",
                           "FourLeggedCanter",
                           "FourLeggedAttack",
                           "FourLeggedDeath",
                           "FourLeggedFeed",
                           "FishSwim",
                           "FishAttack",
                           "FishDeath",
                           "BirdWalk",
                           "BirdFly",
                           "BirdPeck",
                           "BirdAttack",
                           "BirdDeath",
                           "FlightlessBirdWalk",
                           "FlightlessBirdFeed",
                           "FlightlessBirdAttack",
                           "FlightlessBirdDeath",
                           "HumanWalk",
                           "HumanAttack",
                           "HumanRide",
                           "HumanDeath",
                           "HumanAim",
                           "HumanMine"}) {
    const anim::DriverType* t = r.find(name);
    ASSERT_NE(t, nullptr) << name;
    EXPECT_TRUE(t->implemented()) << name;
  }
  EXPECT_FALSE(r.find("GltfBodyTurn")->implemented());
  anim::DriverRegistry again = r;
  EXPECT_FALSE(register_legacy_drivers(again));  // already implemented
}

struct Script {
  Kind kind;
  const char* driver;
  const char* species;
  std::function<CreatureState(int frame)> state;
};

// The rig path (CreatureModel's procedural rig) and the driver path (a config layer naming the
// driver, fed the §16 built-ins and the rig parameters of the same state) give bit-identical
// poses, whether the host writes the parameters itself or CreatureModel runs the config.
TEST(LegacyDrivers, ConfigLayerAnimatesTheBonesLikeTheRig) {
  const anim::DriverRegistry drivers = registry();
  const Script scripts[] = {
      {Kind::kFourLegged, "FourLeggedWalk", "wolf",
       [](int f) {
         CreatureState s = test::walking(f < 60 ? 1.5f : f < 120 ? 2.5f : 5.0f);
         s.look_angle_x = 0.3f;
         s.is_feeding = f > 150 && f < 200;
         s.is_attacking = f > 200 && f < 240;
         s.health = f > 250 ? 0.0f : 1.0f;
         s.death_cause_offset = vec3(-1, 0, 0);
         s.game_time = f / 60.0;
         return s;
       }},
      {Kind::kHuman, "HumanWalk", "player",
       [](int f) {
         CreatureState s = test::walking(f < 100 ? 2.0f : 0.0f);
         s.walk_order = vec2(0.5f, 1.0f);
         s.is_attacking = f > 100 && f < 160;
         s.crouch = f > 160;
         s.row = f > 200 ? CreatureState::Row::kLeft : CreatureState::Row::kNone;
         s.game_time = f / 60.0;
         s.entity_hash = 77;
         return s;
       }},
      {Kind::kBird, "BirdFly", "pigeon",
       [](int f) {
         CreatureState s = test::walking(f < 100 ? 3.0f : 0.5f);
         s.is_on_ground = f >= 100;
         s.is_flying = f < 100;
         if (f < 100) s.fly_order = vec3(0, 0, -1);
         s.is_feeding = f > 150;
         s.look_at = vec3(3, 1, -4);
         return s;
       }},
      {Kind::kFlightlessBird, "FlightlessBirdWalk", "ostrich",
       [](int f) {
         CreatureState s = test::walking(f < 150 ? 3.5f : 0.0f);
         s.is_feeding = f > 150 && f < 220;
         s.health = f > 240 ? 0.0f : 1.0f;
         s.game_time = f / 60.0;
         return s;
       }},
      {Kind::kFish, "FishSwim", "orca",
       [](int f) {
         CreatureState s;
         s.immersion_factor = 1.0f;
         if (f < 150) s.swim_order = vec3(0, 0, -1);
         s.turn_order = vec2(0.4f, 0.0f);
         s.dig_order = f > 100 && f < 160 ? 0.5f : 0.0f;
         s.is_attacking = f > 200;
         return s;
       }},
  };
  for (const Script& sc : scripts) {
    auto model = make_builtin_creature(sc.kind);
    ASSERT_TRUE(model);
    auto program = compile(*model, config_for(sc.driver, sc.species), drivers);
    ASSERT_TRUE(program) << program.error().to_string();
    anim::Controller controller(*program);
    const auto& schema = (*program)->schema();
    const BuiltinParameterIndices builtins = BuiltinParameterIndices::resolve(schema);
    const RigParameterIndices rig_params = RigParameterIndices::resolve(schema);

    CreatureModel creature(*model);
    auto rig = make_rig(to_string(sc.kind), sc.species, model->skeleton());
    ASSERT_TRUE(rig);
    creature.set_procedural_rig(std::move(*rig));
    // The same config through CreatureModel, which writes both parameter sets from the state.
    auto configured = CreatureModel::create(*model, *program);
    ASSERT_TRUE(configured) << configured.error().to_string();

    for (int f = 0; f < 300; ++f) {
      const CreatureState s = sc.state(f);
      ASSERT_TRUE(creature.update(test::kDt, s));
      write_builtin_parameters(s, CreaturePhases{}, test::kDt, builtins, controller.parameters());
      write_rig_parameters(s, rig_params, controller.parameters());
      controller.update(test::kDt);
      const auto pose = controller.compute_pose();
      ASSERT_TRUE(configured->update(test::kDt, s));
      ASSERT_EQ(configured->source(), PoseSource::kController);
      const auto expected = creature.local_pose();
      for (const auto& [door, got] :
           {std::pair{"controller", pose}, std::pair{"CreatureModel", configured->local_pose()}}) {
        ASSERT_EQ(got.size(), expected.size());
        for (std::size_t j = 0; j < got.size(); ++j) {
          const float dq = test::angle_between(got[j].rotation, expected[j].rotation);
          const float dt = glm::length(got[j].translation - expected[j].translation);
          const float ds = glm::length(got[j].scale - expected[j].scale);
          ASSERT_TRUE(got[j] == expected[j])
              << sc.driver << " through " << door << " frame " << f << " joint "
              << model->skeleton().names()[j] << " rotation " << dq << " translation " << dt
              << " scale " << ds;
        }
      }
    }
  }
}

// The driver door allocates nothing per frame either: CreatureModel writing the built-in and rig
// parameters, the controller running the driver, the pose placed.
TEST(LegacyDrivers, ACreatureModelFrameThroughADriverNeverAllocates) {
  const anim::DriverRegistry drivers = registry();
  auto model = make_builtin_creature(Kind::kFourLegged);
  ASSERT_TRUE(model);
  auto program = compile(*model, config_for("FourLeggedWalk", "wolf"), drivers);
  ASSERT_TRUE(program) << program.error().to_string();
  auto creature = CreatureModel::create(*model, *program);
  ASSERT_TRUE(creature) << creature.error().to_string();
  CreatureState s = test::walking(2.0f);
  for (int f = 0; f < 3; ++f) ASSERT_TRUE(creature->update(test::kDt, s));
  ASSERT_TRUE(critter::testing::AllocationCounter::works());
  bool ok = true;
  long allocations = -1;
  {
    const critter::testing::AllocationCounter counter;
    for (int f = 0; f < 120; ++f) {
      s.game_time = f / 60.0;
      s.is_attacking = f > 40 && f < 80;
      s.health = f < 100 ? 1.0f : 0.0f;
      ok = creature->update(test::kDt, s).has_value() && ok;
    }
    allocations = counter.count();
  }
  EXPECT_TRUE(ok);
  EXPECT_EQ(allocations, 0);
}

// FourLeggedTrot and FourLeggedCanter force their gait; a property sets a database value.
TEST(LegacyDrivers, TrotAndCanterDriversForceTheirGait) {
  const anim::DriverRegistry drivers = registry();
  auto model = make_builtin_creature(Kind::kFourLegged);
  ASSERT_TRUE(model);
  for (const auto& [driver, gait] :
       {std::pair{"FourLeggedTrot", 1.0f}, std::pair{"FourLeggedCanter", 2.0f}}) {
    const std::string json = R"({ "states": { "body": { "layer": "Base", "rules": [
        { "condition": "true", "animation": { "source": "driver:)" +
                             std::string(driver) + R"(", "blendDuration": 0,
          "driverArgs": { "WalkBobHeight": 0.1 } } } ] } } })";
    auto program = compile(*model, json, drivers);
    ASSERT_TRUE(program) << program.error().to_string();
    anim::Controller controller(*program);
    const auto& schema = (*program)->schema();
    const BuiltinParameterIndices builtins = BuiltinParameterIndices::resolve(schema);
    const RigParameterIndices rig_params = RigParameterIndices::resolve(schema);
    auto rig = make_rig("four-legged", "", model->skeleton());
    ASSERT_TRUE(rig);
    ASSERT_TRUE((*rig)->set_setting("Gait", gait));
    ASSERT_TRUE((*rig)->set_setting("WalkBobHeight", 0.1f));
    const auto rest = model->skeleton().rest_pose();
    std::vector<Transform> expected(rest.begin(), rest.end());
    const CreatureState s = test::walking(1.0f);  // a walking speed
    for (int f = 0; f < 60; ++f) {
      write_builtin_parameters(s, CreaturePhases{}, test::kDt, builtins, controller.parameters());
      write_rig_parameters(s, rig_params, controller.parameters());
      controller.update(test::kDt);
      (*rig)->animate(s, test::kDt, expected);
      const auto pose = controller.compute_pose();
      for (std::size_t j = 0; j < pose.size(); ++j) ASSERT_EQ(pose[j], expected[j]) << driver;
    }
    EXPECT_EQ((*rig)->outputs().gait, gait == 1.0f ? "trot" : "canter");
  }
}

// A model whose bones have other names: `<Role>Bone` properties (config bone aliases followed)
// tell the driver which bone plays each role.
TEST(LegacyDrivers, RoleBonePropertiesMapOtherBoneNames) {
  const anim::DriverRegistry drivers = registry();
  RawModel raw = make_builtin_creature_raw(Kind::kFourLegged);
  const char* names[] = {"root", "neck", "skull", "fl", "fr", "bl", "br"};
  for (std::size_t i = 0; i < raw.skeleton.joints.size(); ++i)
    raw.skeleton.joints[i].name = names[i];
  auto model = build_model(std::move(raw));
  ASSERT_TRUE(model) << model.error().to_string();
  const std::string json = R"({ "boneAliases": { "Cranium": "skull" },
    "states": { "body": { "layer": "Base", "rules": [ { "condition": "true",
      "animation": { "source": "driver:FourLeggedWalk", "blendDuration": 0,
        "driverArgs": { "BodyBone": "root", "NeckBone": "neck", "HeadBone": "Cranium",
                        "Leg1Bone": "fl", "Leg2Bone": "fr", "Leg3Bone": "bl",
                        "Leg4Bone": "br" } } } ] } } })";
  auto program = compile(*model, json, drivers);
  ASSERT_TRUE(program) << program.error().to_string();
  anim::Controller controller(*program);
  const RigParameterIndices rig_params = RigParameterIndices::resolve((*program)->schema());
  const BuiltinParameterIndices builtins = BuiltinParameterIndices::resolve((*program)->schema());
  const CreatureState s = test::walking(1.5f);
  for (int f = 0; f < 20; ++f) {
    write_builtin_parameters(s, CreaturePhases{}, test::kDt, builtins, controller.parameters());
    write_rig_parameters(s, rig_params, controller.parameters());
    controller.update(test::kDt);
  }
  const auto pose = controller.compute_pose();
  const auto rest = model->skeleton().rest_pose();
  const auto fl = static_cast<std::size_t>(model->find_bone("fl"));
  EXPECT_GT(test::angle_between(pose[fl].rotation, rest[fl].rotation), 0.01f);
  EXPECT_EQ(pose[fl].translation, rest[fl].translation);
  const auto skull = static_cast<std::size_t>(model->find_bone("skull"));
  EXPECT_GT(test::angle_between(pose[skull].rotation, rest[skull].rotation), 1e-4f);
}

TEST(LegacyDrivers, PropertiesAndMissingBones) {
  const anim::DriverRegistry drivers = registry();
  auto fish = make_builtin_creature(Kind::kFish);
  ASSERT_TRUE(fish);
  // A four-legged driver on a fish model: the program fails naming the missing bones.
  auto program = compile(*fish, config_for("FourLeggedWalk", "default"), drivers);
  ASSERT_FALSE(program);
  EXPECT_NE(program.error().message.find("Leg1"), std::string::npos) << program.error().message;
  // An unknown species fails too.
  auto four = make_builtin_creature(Kind::kFourLegged);
  ASSERT_TRUE(four);
  auto unknown = compile(*four, config_for("FourLeggedWalk", "unicorn"), drivers);
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().message.find("unicorn"), std::string::npos);
}

}  // namespace
}  // namespace critter::creature::legacy
