// SPDX-License-Identifier: MIT
// tools/common/creature_state_args.h: the state names of a simulated creature, their parsing and
// the defaults that make a command line natural.
#include "../../tools/common/creature_state_args.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "support/state_args.h"

namespace critter {
namespace {

using testing::parsed_state_args;
using tools::CreatureKind;
using tools::CreatureStateArgs;
using tools::StateType;

// The error text of one argument ("" when it parsed).
std::string error_of(const std::string& arg) {
  CreatureStateArgs state;
  const Status s = tools::parse_state_arg(arg, "m.glb", state);
  if (s) return "";
  EXPECT_EQ(s.error().code, ErrorCode::kUsage);
  return s.error().to_string();
}

void expect_vec3(const vec3& v, float x, float y, float z) {
  EXPECT_NEAR(v.x, x, 1e-6f);
  EXPECT_NEAR(v.y, y, 1e-6f);
  EXPECT_NEAR(v.z, z, 1e-6f);
}

TEST(CreatureStateArgsTest, KindsAreTheFiveLegacyRigs) {
  EXPECT_EQ(tools::creature_kind_from_name("four-legged"), CreatureKind::kFourLegged);
  EXPECT_EQ(tools::creature_kind_from_name("human"), CreatureKind::kHuman);
  EXPECT_EQ(tools::creature_kind_from_name("bird"), CreatureKind::kBird);
  EXPECT_EQ(tools::creature_kind_from_name("Flightless-Bird"), CreatureKind::kFlightlessBird);
  EXPECT_EQ(tools::creature_kind_from_name("fish"), CreatureKind::kFish);
  EXPECT_EQ(tools::creature_kind_from_name("wolf"), std::nullopt);
  EXPECT_EQ(tools::creature_kind_from_name(""), std::nullopt);
  EXPECT_EQ(tools::to_string(CreatureKind::kFlightlessBird), "flightless-bird");
}

TEST(CreatureStateArgsTest, TheTableHoldsExactlyTheIssuesNamesWithTheirTypes) {
  const std::vector<std::pair<std::string, StateType>> expected = {
      {"speed", StateType::kNumber},      {"velocity", StateType::kVec3},
      {"walk_speed", StateType::kNumber}, {"on_ground", StateType::kBool},
      {"immersion", StateType::kNumber},  {"flying", StateType::kBool},
      {"health", StateType::kNumber},     {"look_at", StateType::kVec3},
      {"look_random", StateType::kBool},  {"head_shake", StateType::kNumber},
      {"attack", StateType::kBool},       {"feed", StateType::kBool},
      {"yaw", StateType::kNumber},        {"death_cause", StateType::kVec3},
      {"fly_order", StateType::kVec3},    {"swim_order", StateType::kVec3},
      {"turn_order", StateType::kVec2},   {"dig_order", StateType::kNumber},
      {"walk_order", StateType::kVec2},   {"crouch", StateType::kBool},
      {"row", StateType::kEnum},          {"mount", StateType::kEnum},
      {"mining", StateType::kBool},       {"aim", StateType::kBool},
      {"sleeping", StateType::kBool},     {"ladder", StateType::kBool},
      {"creative_fly", StateType::kBool}};
  const auto fields = tools::creature_state_fields();
  ASSERT_EQ(fields.size(), expected.size());
  for (std::size_t i = 0; i < fields.size(); ++i) {
    EXPECT_EQ(fields[i].name, expected[i].first);
    EXPECT_EQ(fields[i].type(), expected[i].second) << fields[i].name;
    EXPECT_FALSE(fields[i].help.empty()) << fields[i].name;
    EXPECT_EQ(tools::find_state_field(expected[i].first), &fields[i]);
  }
  EXPECT_EQ(tools::state_value_text(*tools::find_state_field("row")), "none, left, right or both");
  EXPECT_EQ(tools::state_value_text(*tools::find_state_field("mount")), "none, boat or other");
}

TEST(CreatureStateArgsTest, EachTypeParsesAndOnlyTheGivenNamesAreSet) {
  const CreatureStateArgs s =
      parsed_state_args({"speed=2.5", "on_ground=TRUE", "velocity=[1, 2,3]", "turn_order=[0.5,-1]",
                         "row=Both", "mount=boat", " yaw = -90 ", "immersion=1", "health=+0"});
  EXPECT_EQ(s.speed, 2.5f);
  EXPECT_EQ(s.on_ground, true);
  ASSERT_TRUE(s.velocity);
  expect_vec3(*s.velocity, 1.0f, 2.0f, 3.0f);
  ASSERT_TRUE(s.turn_order);
  EXPECT_EQ(*s.turn_order, vec2(0.5f, -1.0f));
  EXPECT_EQ(s.row, tools::RowSide::kBoth);
  EXPECT_EQ(s.mount, tools::Mount::kBoat);
  EXPECT_EQ(s.yaw, -90.0f);
  EXPECT_EQ(s.immersion, 1.0f);
  EXPECT_EQ(s.health, 0.0f);
  EXPECT_FALSE(s.flying);
  EXPECT_FALSE(s.fly_order);
  EXPECT_FALSE(s.walk_speed);
  std::size_t set = 0;
  for (const tools::StateField& f : tools::creature_state_fields()) set += state_is_set(s, f);
  EXPECT_EQ(set, 9u);

  // A later value of the same name wins; `false` and `none` are values, not "unset".
  const CreatureStateArgs later =
      parsed_state_args({"speed=1", "speed=3", "flying=false", "row=none"});
  EXPECT_EQ(later.speed, 3.0f);
  EXPECT_EQ(later.flying, false);
  EXPECT_EQ(later.row, tools::RowSide::kNone);
}

TEST(CreatureStateArgsTest, ErrorsNameTheArgumentAndWhatTheNameTakes) {
  EXPECT_EQ(error_of("speed"), "m.glb:--state: 'speed': expected NAME=VALUE");
  EXPECT_EQ(error_of("sped=1"),
            "m.glb:--state: 'sped=1': unknown state 'sped' (did you mean speed, feed?); --help "
            "lists the state names");
  EXPECT_EQ(error_of("=1"), "m.glb:--state: '=1': unknown state ''; --help lists the state names");
  EXPECT_EQ(error_of("zzzzzzzzzzzz=1"),
            "m.glb:--state: 'zzzzzzzzzzzz=1': unknown state 'zzzzzzzzzzzz'; --help lists the "
            "state names");
  EXPECT_EQ(
      error_of("flyorder=[0,0,1]"),
      "m.glb:--state: 'flyorder=[0,0,1]': unknown state 'flyorder' (did you mean fly_order?); "
      "--help lists the state names");
  EXPECT_EQ(error_of("speed=fast"), "m.glb:--state: 'speed=fast': speed takes a finite number");
  EXPECT_EQ(error_of("speed=nan"), "m.glb:--state: 'speed=nan': speed takes a finite number");
  EXPECT_EQ(error_of("yaw=inf"), "m.glb:--state: 'yaw=inf': yaw takes a finite number");
  EXPECT_EQ(error_of("health=-1e300"),
            "m.glb:--state: 'health=-1e300': health takes a finite number");
  EXPECT_EQ(error_of("speed="), "m.glb:--state: 'speed=': speed takes a finite number");
  EXPECT_EQ(error_of("immersion=1.5"),
            "m.glb:--state: 'immersion=1.5': immersion takes a number in [0, 1]");
  EXPECT_EQ(error_of("walk_speed=-1"),
            "m.glb:--state: 'walk_speed=-1': walk_speed takes a finite number >= 0");
  EXPECT_EQ(error_of("head_shake=-0.5"),
            "m.glb:--state: 'head_shake=-0.5': head_shake takes a finite number >= 0");
  EXPECT_EQ(error_of("on_ground=1"), "m.glb:--state: 'on_ground=1': on_ground takes true or false");
  EXPECT_EQ(error_of("flying=yes"), "m.glb:--state: 'flying=yes': flying takes true or false");
  EXPECT_EQ(error_of("velocity=[1,2]"),
            "m.glb:--state: 'velocity=[1,2]': velocity takes [x,y,z] of finite numbers");
  EXPECT_EQ(error_of("look_at=[1,nan,2]"),
            "m.glb:--state: 'look_at=[1,nan,2]': look_at takes [x,y,z] of finite numbers");
  EXPECT_EQ(error_of("death_cause=1"),
            "m.glb:--state: 'death_cause=1': death_cause takes [x,y,z] of finite numbers");
  EXPECT_EQ(error_of("walk_order=[1,2,3]"),
            "m.glb:--state: 'walk_order=[1,2,3]': walk_order takes [x,y] of finite numbers");
  EXPECT_EQ(error_of("turn_order=[inf,0]"),
            "m.glb:--state: 'turn_order=[inf,0]': turn_order takes [x,y] of finite numbers");
  EXPECT_EQ(error_of("row=up"), "m.glb:--state: 'row=up': row takes none, left, right or both");
  EXPECT_EQ(error_of("mount=horse"),
            "m.glb:--state: 'mount=horse': mount takes none, boat or other");

  // A refused value leaves what was set before.
  CreatureStateArgs state;
  ASSERT_TRUE(tools::parse_state_arg("speed=1", "m.glb", state));
  EXPECT_FALSE(tools::parse_state_arg("speed=nan", "m.glb", state));
  EXPECT_EQ(state.speed, 1.0f);
}

TEST(CreatureStateArgsTest, SpeedAloneMovesTheCreatureTheWayItFaces) {
  const CreatureStateArgs shown = tools::with_creature_defaults(parsed_state_args({"speed=2"}));
  ASSERT_TRUE(shown.velocity);
  expect_vec3(*shown.velocity, 0.0f, 0.0f, -2.0f);
  EXPECT_FALSE(shown.fly_order);
  EXPECT_FALSE(shown.swim_order);

  // Yaw 90 degrees turns the body's -Z forward to -X (a left turn about +Y).
  const CreatureStateArgs turned =
      tools::with_creature_defaults(parsed_state_args({"speed=2", "yaw=90"}));
  expect_vec3(*turned.velocity, -2.0f, 0.0f, 0.0f);

  // A velocity the user set wins; speed then stays the forward (slip) speed.
  const CreatureStateArgs both =
      tools::with_creature_defaults(parsed_state_args({"speed=2", "velocity=[0,0,-1]"}));
  expect_vec3(*both.velocity, 0.0f, 0.0f, -1.0f);
  EXPECT_EQ(both.speed, 2.0f);

  // Nothing is made up without a speed.
  const CreatureStateArgs still = tools::with_creature_defaults(parsed_state_args({"flying=true"}));
  EXPECT_FALSE(still.velocity);
  EXPECT_FALSE(still.fly_order);
}

TEST(CreatureStateArgsTest, FlyingWithSpeedGivesAForwardFlyOrderUnlessOneIsSet) {
  const CreatureStateArgs shown =
      tools::with_creature_defaults(parsed_state_args({"flying=true", "speed=3", "yaw=180"}));
  ASSERT_TRUE(shown.fly_order);
  expect_vec3(*shown.fly_order, 0.0f, 0.0f, 3.0f);
  EXPECT_FALSE(shown.swim_order);

  const CreatureStateArgs given = tools::with_creature_defaults(
      parsed_state_args({"flying=true", "speed=3", "fly_order=[0,-1,0]"}));
  expect_vec3(*given.fly_order, 0.0f, -1.0f, 0.0f);

  const CreatureStateArgs grounded =
      tools::with_creature_defaults(parsed_state_args({"flying=false", "speed=3"}));
  EXPECT_FALSE(grounded.fly_order);
}

TEST(CreatureStateArgsTest, ImmersionWithSpeedGivesAForwardSwimOrderUnlessOneIsSet) {
  const CreatureStateArgs shown =
      tools::with_creature_defaults(parsed_state_args({"immersion=0.5", "speed=1.5"}));
  ASSERT_TRUE(shown.swim_order);
  expect_vec3(*shown.swim_order, 0.0f, 0.0f, -1.5f);
  EXPECT_FALSE(shown.fly_order);

  const CreatureStateArgs given = tools::with_creature_defaults(
      parsed_state_args({"immersion=1", "speed=1.5", "swim_order=[1,0,0]"}));
  expect_vec3(*given.swim_order, 1.0f, 0.0f, 0.0f);

  const CreatureStateArgs dry =
      tools::with_creature_defaults(parsed_state_args({"immersion=0", "speed=1"}));
  EXPECT_FALSE(dry.swim_order);
}

TEST(CreatureStateArgsTest, MergeCopiesOnlyTheValuesSet) {
  CreatureStateArgs into = parsed_state_args({"speed=1", "health=1", "row=left"});
  tools::merge_state(into, parsed_state_args({"health=0", "row=none", "crouch=true"}));
  EXPECT_EQ(into.speed, 1.0f);
  EXPECT_EQ(into.health, 0.0f);
  EXPECT_EQ(into.row, tools::RowSide::kNone);
  EXPECT_EQ(into.crouch, true);
  EXPECT_FALSE(into.velocity);
}

TEST(CreatureStateArgsTest, StoreRefusesAValueOfAnotherTypeOrOutOfRange) {
  CreatureStateArgs state;
  const tools::StateField& speed = *tools::find_state_field("speed");
  tools::StateValue v;
  v.type = StateType::kBool;
  v.boolean = true;
  EXPECT_FALSE(tools::store_state_value(state, speed, v));
  v.type = StateType::kNumber;
  v.number = std::nan("");
  EXPECT_FALSE(tools::store_state_value(state, speed, v));
  v.number = 1e39;  // beyond float
  EXPECT_FALSE(tools::store_state_value(state, speed, v));
  EXPECT_FALSE(state.speed);
  v.number = 4.0;
  EXPECT_TRUE(tools::store_state_value(state, speed, v));
  EXPECT_EQ(state.speed, 4.0f);
}

}  // namespace
}  // namespace critter
