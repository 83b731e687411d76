// SPDX-License-Identifier: MIT
#include "critter/creature/legacy/legacy_rig.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "critter/creature/creature_model.h"
#include "critter/creature/legacy/builtin_creatures.h"
#include "critter/creature/legacy/rig_factory.h"
#include "rig_test_support.h"
#include "support/allocation_counter.h"

namespace critter::creature::legacy {
namespace {

using test::Bench;

constexpr Kind kKinds[] = {Kind::kFourLegged, Kind::kHuman, Kind::kBird, Kind::kFlightlessBird,
                           Kind::kFish};

Model model_with_bones(std::vector<std::string> names) {
  RawModel m;
  m.name = "bones";
  for (std::size_t i = 0; i < names.size(); ++i) {
    RawJoint j;
    j.name = names[i];
    j.parent = i == 0 ? -1 : 0;
    j.rest.translation = vec3(0.0f, 0.1f * static_cast<float>(i), 0.0f);
    m.skeleton.joints.push_back(j);
  }
  auto built = build_model(std::move(m));
  EXPECT_TRUE(built) << built.error().to_string();
  return std::move(*built);
}

TEST(LegacyRig, KindsAndSpeciesByName) {
  EXPECT_EQ(parse_kind("Four-Legged"), Kind::kFourLegged);
  EXPECT_EQ(parse_kind("flightless_bird"), Kind::kFlightlessBird);
  EXPECT_FALSE(parse_kind("dragon"));
  for (Kind k : kKinds) {
    EXPECT_EQ(parse_kind(to_string(k)), k);
    for (std::string_view species : species_names(k)) {
      auto rig = make_rig(k, species);
      ASSERT_TRUE(rig) << species;
      EXPECT_EQ((*rig)->kind(), k);
      EXPECT_EQ((*rig)->species(), species);
    }
  }
  auto bad = make_rig(Kind::kBird, "dodo");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("sparrow"), std::string::npos) << bad.error().message;
  const Model m = model_with_bones({"Body"});
  auto unknown = make_rig("dragon", "", m.skeleton());
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().location, "kind");
}

TEST(LegacyRig, MissingBonesAreNamedWithTheAliasesTried) {
  const Model m = model_with_bones({"Body", "Head", "Leg1"});
  const std::vector<BoneAlias> aliases = {{"Leg2", "FrontRight"}};
  auto rig = make_rig("four-legged", "", m.skeleton(), aliases);
  ASSERT_FALSE(rig);
  const std::string& msg = rig.error().message;
  EXPECT_EQ(rig.error().location, "four-legged");
  EXPECT_NE(msg.find("Leg2 (tried 'FrontRight', 'Leg2')"), std::string::npos) << msg;
  EXPECT_NE(msg.find("Leg3"), std::string::npos) << msg;
  EXPECT_NE(msg.find("Leg4"), std::string::npos) << msg;
  EXPECT_EQ(msg.find("Neck"), std::string::npos) << msg;  // optional
  EXPECT_EQ(msg.find("Leg1 "), std::string::npos) << msg;
}

TEST(LegacyRig, AliasesMapOtherBoneNames) {
  const Model m = model_with_bones({"root", "skull", "fl", "fr", "bl", "br"});
  const std::vector<BoneAlias> aliases = {{"Body", "root"}, {"head", "skull"}, {"Leg1", "fl"},
                                          {"Leg2", "fr"},   {"Leg3", "bl"},    {"Leg4", "br"}};
  auto rig = make_rig("four-legged", "", m.skeleton(), aliases);
  ASSERT_TRUE(rig) << rig.error().to_string();
  EXPECT_EQ((*rig)->joint(2), m.find_bone("skull"));
  EXPECT_EQ((*rig)->joint(1), -1);  // no neck
}

TEST(LegacyRig, LegacyRuleKeepsRestTranslationAndReplaceIsFull) {
  Bench b(Kind::kFourLegged);
  CreatureState s = test::walking(1.5f);
  for (int f = 0; f < 20; ++f) b.frame(s);
  const quat leg = b.turn("Leg1");
  EXPECT_GT(test::angle_between(leg, quat(1, 0, 0, 0)), 0.01f);
  EXPECT_EQ(b.bone("Leg1").translation, b.rest("Leg1").translation);
  // Body: rest translation plus the bob override; rest rotation kept under the override.
  EXPECT_NEAR(b.bone("Body").translation.y, b.rest("Body").translation.y + b.rig->outputs().bob,
              1e-7f);
  EXPECT_LT(test::angle_between(b.bone("Body").rotation, b.rest("Body").rotation), 1e-6f);

  b.rig->set_bone_rule(BoneRule::kReplace);
  b.frame(s);
  // Full replacement: the override is the bone's whole local (a leg's rest offset is gone).
  EXPECT_EQ(b.bone("Leg1").translation, vec3(0.0f));
  EXPECT_LT(test::angle_between(b.bone("Body").rotation, quat(1, 0, 0, 0)), 1e-6f);
}

TEST(LegacyRig, NonFiniteStateNeverGivesANonFinitePose) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  for (Kind k : kKinds) {
    for (float bad : {nan, inf, -inf, 3e38f}) {
      Bench b(k);
      CreatureState s;
      s.velocity = vec3(bad);
      s.slip_speed = bad;
      s.walk_speed = bad;
      s.immersion_factor = bad;
      s.health = bad;
      s.look_angle_x = bad;
      s.look_angle_y = bad;
      s.body_height = bad;
      s.body_depth = bad;
      s.death_cause_offset = vec3(bad);
      s.game_time = static_cast<double>(bad);
      s.head_shake = bad;
      s.fly_order = vec3(bad);
      s.swim_order = vec3(bad);
      s.bend_order = bad;
      s.dig_order = bad;
      s.turn_order = vec2(bad);
      s.walk_order = vec2(bad);
      s.mount_bob = bad;
      s.poking_phase = bad;
      s.aim_angle = bad;
      s.look_at = vec3(bad);
      s.is_on_ground = true;
      s.is_attacking = true;
      s.is_feeding = true;
      s.mining = true;
      s.row = CreatureState::Row::kBoth;
      for (int f = 0; f < 30; ++f) {
        b.frame(s, f == 3 ? bad : test::kDt);
        for (const Transform& t : b.pose) {
          ASSERT_TRUE(std::isfinite(t.translation.x) && std::isfinite(t.translation.y) &&
                      std::isfinite(t.translation.z) && std::isfinite(t.rotation.x) &&
                      std::isfinite(t.rotation.y) && std::isfinite(t.rotation.z) &&
                      std::isfinite(t.rotation.w) && std::isfinite(t.scale.x))
              << to_string(k) << " value " << bad << " frame " << f;
        }
        const RigOutputs& o = b.rig->outputs();
        ASSERT_TRUE(std::isfinite(o.phase) && std::isfinite(o.bob) && std::isfinite(o.death_phase));
      }
    }
  }
}

TEST(LegacyRig, AFrameNeverAllocates) {
  ASSERT_TRUE(testing::AllocationCounter::works());
  for (Kind k : kKinds) {
    Bench b(k);
    CreatureState s = test::walking(3.0f);
    s.is_attacking = true;
    s.is_feeding = true;
    s.look_random = true;
    s.fly_order = vec3(0, 0, -1);
    s.swim_order = vec3(0, 0, -1);
    s.row = CreatureState::Row::kBoth;
    std::vector<Transform> pose = b.pose;
    testing::AllocationCounter counter;
    for (int f = 0; f < 200; ++f) {
      s.health = f < 150 ? 1.0f : 0.0f;
      s.game_time = f / 60.0;
      b.rig->animate(s, test::kDt, pose);
    }
    EXPECT_EQ(counter.count(), 0) << to_string(k);
  }
}

TEST(LegacyRig, BuiltinCreaturesRenderThroughCreatureModel) {
  for (Kind k : kKinds) {
    auto model = make_builtin_creature(k);
    ASSERT_TRUE(model) << model.error().to_string();
    EXPECT_EQ(model->find_bone("Body"), 0);
    EXPECT_EQ(model->meshes().size(), 1u);
    EXPECT_TRUE(model->clips().empty());
    const vec3 size = builtin_creature_size(k);
    EXPECT_GT(size.y, 0.0f);
    CreatureModel creature(*model);
    auto rig = make_rig(to_string(k), "", model->skeleton());
    ASSERT_TRUE(rig) << rig.error().to_string();
    LegacyRig* raw = rig->get();
    creature.set_procedural_rig(std::move(*rig));
    CreatureState s = test::walking(1.5f);
    s.body_height = size.y;
    for (int f = 0; f < 30; ++f) ASSERT_TRUE(creature.update(test::kDt, s));
    EXPECT_EQ(creature.source(), PoseSource::kProcedural);
    EXPECT_EQ(raw->outputs().gait, k == Kind::kFish ? "drift" : "walk") << to_string(k);
    for (const mat4& m : creature.model_transforms()) {
      for (int c = 0; c < 4; ++c) {
        for (int r = 0; r < 4; ++r) ASSERT_TRUE(std::isfinite(m[c][r]));
      }
    }
    // The body's bone +Z (legacy up) is the world's up at rest and the bone +Y its forward.
    const mat4 body = creature.bone_transform(0);
    const vec3 up = glm::normalize(vec3(body * vec4(0, 0, 1, 0)));
    const vec3 fwd = glm::normalize(vec3(body * vec4(0, 1, 0, 0)));
    EXPECT_NEAR(up.y, 1.0f, 1e-3f) << to_string(k);
    EXPECT_NEAR(fwd.z, -1.0f, 1e-3f) << to_string(k);
  }
}

}  // namespace
}  // namespace critter::creature::legacy
