// SPDX-License-Identifier: MIT
// The §16 built-ins written from a body state (animation-config.md §16), each value worked out by
// hand from the state.
#include "critter/creature/builtin_parameters.h"
#include "support/math_helpers.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace critter::creature {
namespace {

using critter::testing::kPi;

using anim::ParameterSchema;
using anim::ParameterValue;
using anim::ParameterValues;
using anim::ParamType;

constexpr float kEps = 1e-5f;

void expect_vec(const vec3& actual, const vec3& expected) {
  EXPECT_NEAR(actual.x, expected.x, kEps);
  EXPECT_NEAR(actual.y, expected.y, kEps);
  EXPECT_NEAR(actual.z, expected.z, kEps);
}

TEST(BuiltinSchema, HasTheHostDefaults) {
  const ParameterSchema schema = builtin_schema();
  const ParameterValues values(schema);
  EXPECT_EQ(values.number(schema.find("DeathSpeed")), 3.0);
  EXPECT_EQ(values.number(schema.find("FeedSpeed")), 2.0);
  EXPECT_EQ(values.number(schema.find("AttackSpeed")), 4.0);
  EXPECT_EQ(values.number(schema.find("AttackPhaseSpeed")), 2.0);
  EXPECT_EQ(values.type(schema.find("IsDead")), ParamType::kBool);
  EXPECT_FALSE(values.boolean(schema.find("IsDead")));
  EXPECT_EQ(values.type(schema.find("BodyForward")), ParamType::kVec3);
  EXPECT_EQ(values.type(schema.find("Speed")), ParamType::kFloat);
  EXPECT_TRUE(schema.is_builtin(schema.find("Speed")));
  EXPECT_EQ(schema.size(), builtin_parameters().size());
}

class BuiltinParametersTest : public ::testing::Test {
 protected:
  void SetUp() override {
    schema_ = builtin_schema();
    values_ = ParameterValues(schema_);
    indices_ = BuiltinParameterIndices::resolve(schema_);
  }
  void write(const CreatureState& s, CreaturePhases phases = {}, float dt = 0.0f) {
    write_builtin_parameters(s, phases, dt, indices_, values_);
  }
  double number(const char* name) const { return values_.number(schema_.find(name)); }
  bool boolean(const char* name) const { return values_.boolean(schema_.find(name)); }
  vec3 vec(const char* name) const { return values_.vec(schema_.find(name)); }
  ParamType type(const char* name) const { return values_.type(schema_.find(name)); }

  ParameterSchema schema_;
  ParameterValues values_;
  BuiltinParameterIndices indices_;
};

TEST_F(BuiltinParametersTest, ResolvesEveryNameOfTheTable) {
  EXPECT_EQ(indices_.movement_phase, schema_.find("MovementPhase"));
  EXPECT_EQ(indices_.death_phase, schema_.find("DeathPhase"));
  EXPECT_EQ(indices_.game_time, schema_.find("GameTime"));
  EXPECT_EQ(indices_.death_cause_offset, schema_.find("DeathCauseOffset"));
  EXPECT_EQ(indices_.body_height, schema_.find("BodyHeight"));
  EXPECT_EQ(indices_.position, schema_.find("Position"));
  EXPECT_EQ(indices_.rotation, schema_.find("Rotation"));
  EXPECT_EQ(indices_.rotation_y, schema_.find("RotationY"));
  EXPECT_EQ(indices_.body_forward, schema_.find("BodyForward"));
  EXPECT_EQ(indices_.body_right, schema_.find("BodyRight"));
  EXPECT_EQ(indices_.speed, schema_.find("Speed"));
  EXPECT_EQ(indices_.speed_abs, schema_.find("SpeedAbs"));
  EXPECT_EQ(indices_.speed_xz, schema_.find("SpeedXZ"));
  EXPECT_EQ(indices_.is_in_water, schema_.find("IsInWater"));
  EXPECT_EQ(indices_.is_on_ground, schema_.find("IsOnGround"));
  EXPECT_EQ(indices_.immersion_factor, schema_.find("ImmersionFactor"));
  EXPECT_EQ(indices_.is_flying, schema_.find("IsFlying"));
  EXPECT_EQ(indices_.is_creative_fly, schema_.find("IsCreativeFly"));
  EXPECT_EQ(indices_.walk_speed, schema_.find("WalkSpeed"));
  EXPECT_EQ(indices_.health, schema_.find("Health"));
  EXPECT_EQ(indices_.is_dead, schema_.find("IsDead"));
  EXPECT_EQ(indices_.look_angle_x, schema_.find("LookAngleX"));
  EXPECT_EQ(indices_.look_angle_y, schema_.find("LookAngleY"));
  EXPECT_EQ(indices_.is_attacking, schema_.find("IsAttacking"));
  EXPECT_EQ(indices_.is_feeding, schema_.find("IsFeeding"));
  EXPECT_EQ(indices_.delta_time, schema_.find("DeltaTime"));
  // Every one of them exists in the built-in schema.
  EXPECT_NE(indices_.delta_time, anim::kNoParam);
  EXPECT_NE(indices_.movement_phase, anim::kNoParam);
}

TEST_F(BuiltinParametersTest, CopiesTheStateFieldsAndPhases) {
  CreatureState s;
  s.position = {1.0f, 2.0f, 3.0f};
  s.body_height = 1.25f;
  s.death_cause_offset = {0.5f, 0.0f, -2.0f};
  s.game_time = 123.5;
  s.walk_speed = 4.5f;
  s.health = 0.25f;
  s.look_angle_x = 0.3f;
  s.look_angle_y = -0.1f;
  s.is_attacking = true;
  s.is_feeding = false;
  s.is_flying = true;
  s.is_creative_fly = false;
  s.is_on_ground = true;
  s.immersion_factor = 0.0f;
  write(s, CreaturePhases{0.4f, 0.6f}, 0.05f);

  EXPECT_FLOAT_EQ(number("MovementPhase"), 0.4f);
  EXPECT_FLOAT_EQ(number("DeathPhase"), 0.6f);
  EXPECT_DOUBLE_EQ(number("GameTime"), 123.5);
  expect_vec(vec("Position"), {1, 2, 3});
  EXPECT_FLOAT_EQ(number("BodyHeight"), 1.25f);
  expect_vec(vec("DeathCauseOffset"), {0.5f, 0, -2});
  EXPECT_FLOAT_EQ(number("WalkSpeed"), 4.5f);
  EXPECT_FLOAT_EQ(number("Health"), 0.25f);
  EXPECT_FLOAT_EQ(number("LookAngleX"), 0.3f);
  EXPECT_FLOAT_EQ(number("LookAngleY"), -0.1f);
  EXPECT_TRUE(boolean("IsAttacking"));
  EXPECT_FALSE(boolean("IsFeeding"));
  EXPECT_TRUE(boolean("IsFlying"));
  EXPECT_FALSE(boolean("IsCreativeFly"));
  EXPECT_TRUE(boolean("IsOnGround"));
  EXPECT_FLOAT_EQ(number("DeltaTime"), 0.05f);
  EXPECT_FALSE(boolean("IsDead"));
  EXPECT_FALSE(boolean("IsInWater"));

  // Types are the table's, not the initial value's.
  EXPECT_EQ(type("IsOnGround"), ParamType::kBool);
  EXPECT_EQ(type("Position"), ParamType::kVec3);
  EXPECT_EQ(type("Speed"), ParamType::kFloat);
}

TEST_F(BuiltinParametersTest, SpeedIsForwardVelocityUnlessASlipSpeedIsSet) {
  CreatureState s;
  s.rotation = from_yaw_pitch_roll(kPi / 2, 0.0f, 0.0f);  // forward (-1, 0, 0)
  s.velocity = {-2.0f, 1.0f, 0.0f};
  write(s);
  EXPECT_NEAR(number("Speed"), 2.0, kEps);  // (-2, 1, 0)·(-1, 0, 0)
  s.slip_speed = 0.7f;
  write(s);
  EXPECT_FLOAT_EQ(number("Speed"), 0.7f);
  // The slip speed does not leak into the other speeds.
  EXPECT_NEAR(number("SpeedAbs"), std::sqrt(5.0), kEps);
  EXPECT_NEAR(number("SpeedXZ"), 2.0, kEps);
}

TEST_F(BuiltinParametersTest, SpeedAbsCountsVerticalVelocityAndSpeedXZDoesNot) {
  CreatureState s;
  s.velocity = {3.0f, -12.0f, 4.0f};  // |v| = 13, horizontal 5
  write(s);
  EXPECT_NEAR(number("SpeedAbs"), 13.0, kEps);
  EXPECT_NEAR(number("SpeedXZ"), 5.0, kEps);
  EXPECT_NEAR(number("Speed"), -4.0, kEps);  // identity rotation: forward (0, 0, -1)
  // Falling straight down: moving fast, but not over the ground.
  s.velocity = {0.0f, -9.0f, 0.0f};
  write(s);
  EXPECT_NEAR(number("SpeedAbs"), 9.0, kEps);
  EXPECT_EQ(number("SpeedXZ"), 0.0);
}

TEST_F(BuiltinParametersTest, IsDeadAtOrBelowZeroHealth) {
  CreatureState s;
  s.health = 0.01f;
  write(s);
  EXPECT_FALSE(boolean("IsDead"));
  s.health = 0.0f;
  write(s);
  EXPECT_TRUE(boolean("IsDead"));
  s.health = -5.0f;
  write(s);
  EXPECT_TRUE(boolean("IsDead"));
  EXPECT_FLOAT_EQ(number("Health"), -5.0f);
}

TEST_F(BuiltinParametersTest, IsInWaterWhenImmersionIsAboveZero) {
  CreatureState s;
  s.immersion_factor = 0.0f;
  write(s);
  EXPECT_FALSE(boolean("IsInWater"));
  s.immersion_factor = 0.1f;
  write(s);
  EXPECT_TRUE(boolean("IsInWater"));
  EXPECT_FLOAT_EQ(number("ImmersionFactor"), 0.1f);
}

TEST_F(BuiltinParametersTest, BodyAxesFollowTheRotation) {
  CreatureState s;
  s.rotation = from_yaw_pitch_roll(kPi / 2, 0.0f, 0.0f);
  write(s);
  expect_vec(vec("BodyForward"), {-1, 0, 0});
  expect_vec(vec("BodyRight"), {0, 0, -1});
  // Rolled 90°: right points up (R_Z(90°)·(1, 0, 0) = (0, 1, 0)), forward unchanged.
  s.rotation = from_yaw_pitch_roll(0.0f, 0.0f, kPi / 2);
  write(s);
  expect_vec(vec("BodyForward"), {0, 0, -1});
  expect_vec(vec("BodyRight"), {0, 1, 0});
}

TEST_F(BuiltinParametersTest, RotationIsYawPitchRollAndRotationYTheYaw) {
  CreatureState s;
  // A pure yaw of 0.7 rad written as a quaternion by hand: (0, sin .35, 0, cos .35).
  s.rotation = quat_xyzw(0.0f, std::sin(0.35f), 0.0f, std::cos(0.35f));
  write(s);
  expect_vec(vec("Rotation"), {0.7f, 0, 0});
  EXPECT_NEAR(number("RotationY"), 0.7, kEps);
  s.rotation = from_yaw_pitch_roll(-1.0f, 0.4f, 0.25f);
  write(s);
  expect_vec(vec("Rotation"), {-1.0f, 0.4f, 0.25f});
  EXPECT_NEAR(number("RotationY"), -1.0, kEps);
}

TEST_F(BuiltinParametersTest, ParametersTheSchemaLacksAreSkipped) {
  ParameterSchema small;
  const anim::ParamIndex speed = *small.declare("speedxz", ParameterValue::of_float(0.0));
  const anim::ParamIndex other = *small.declare("Gait", ParameterValue::of_string("walk"));
  ParameterValues values(small);
  const BuiltinParameterIndices indices = BuiltinParameterIndices::resolve(small);
  EXPECT_EQ(indices.speed_xz, speed);  // case-insensitive
  EXPECT_EQ(indices.movement_phase, anim::kNoParam);
  EXPECT_EQ(indices.is_dead, anim::kNoParam);

  CreatureState s;
  s.velocity = {0.0f, 0.0f, 2.0f};
  s.health = 0.0f;
  write_builtin_parameters(s, {}, 0.1f, indices, values);
  EXPECT_EQ(values.size(), 2u);
  EXPECT_FLOAT_EQ(static_cast<float>(values.number(speed)), 2.0f);
  EXPECT_EQ(values.text(other), "walk");
}

TEST_F(BuiltinParametersTest, WritingTheSameStateTwiceIsNotAChange) {
  CreatureState s;
  s.velocity = {1.0f, 0.0f, 0.0f};
  write(s, {}, 0.1f);
  values_.clear_changed();
  write(s, {}, 0.1f);
  EXPECT_FALSE(values_.changed());
  s.game_time = 1.0;
  write(s, {}, 0.1f);
  EXPECT_TRUE(values_.changed());
}

}  // namespace
}  // namespace critter::creature
