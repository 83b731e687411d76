// SPDX-License-Identifier: MIT
#include "critter/anim/parameters.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace critter::anim {
namespace {

// A host's table of built-ins (creature/builtin_parameters.h has critter's).
constexpr BuiltinParameter kBuiltins[] = {{"DeathSpeed", ParamType::kFloat, 3.0},
                                          {"IsDead", ParamType::kBool, 0.0},
                                          {"BodyForward", ParamType::kVec3, 0.0},
                                          {"Speed", ParamType::kFloat, 0.0},
                                          {"speed", ParamType::kBool, 1.0}};

TEST(ParameterSchema, WithBuiltinsHoldsTheTableInOrder) {
  const ParameterSchema schema = ParameterSchema::with_builtins(kBuiltins);
  const ParameterValues values(schema);
  EXPECT_EQ(schema.find("DeathSpeed"), 0u);
  EXPECT_EQ(values.number(schema.find("DeathSpeed")), 3.0);
  EXPECT_EQ(values.type(schema.find("IsDead")), ParamType::kBool);
  EXPECT_FALSE(values.boolean(schema.find("IsDead")));
  EXPECT_EQ(values.type(schema.find("BodyForward")), ParamType::kVec3);
  EXPECT_EQ(values.type(schema.find("Speed")), ParamType::kFloat);
  EXPECT_TRUE(schema.is_builtin(schema.find("Speed")));
  // The case-insensitive duplicate is skipped.
  EXPECT_EQ(schema.size(), 4u);
  EXPECT_EQ(values.number(schema.find("SPEED")), 0.0);
}

TEST(ParameterSchema, LookupIsCaseInsensitiveAndKeepsTheWrittenName) {
  ParameterSchema schema;
  auto a = schema.declare("WalkSpeed", ParameterValue::of_float(1.5));
  ASSERT_TRUE(a);
  EXPECT_EQ(*a, 0u);
  EXPECT_EQ(schema.find("walkspeed"), 0u);
  EXPECT_EQ(schema.find("WALKSPEED"), 0u);
  EXPECT_EQ(schema.find("Walk"), kNoParam);
  EXPECT_EQ(schema.name(0), "WalkSpeed");
  EXPECT_FALSE(schema.is_builtin(0));
}

TEST(ParameterSchema, DuplicateAndEmptyNamesAreErrors) {
  ParameterSchema schema;
  ASSERT_TRUE(schema.declare("Gait", ParameterValue::of_int(0)));
  auto dup = schema.declare("GAIT", ParameterValue::of_string("walk"));
  ASSERT_FALSE(dup);
  EXPECT_EQ(dup.error().code, ErrorCode::kInvalid);
  EXPECT_EQ(dup.error().message, "parameter 'GAIT' is already declared");
  auto empty = schema.declare("", ParameterValue::of_int(0));
  ASSERT_FALSE(empty);
  EXPECT_EQ(empty.error().code, ErrorCode::kInvalid);
  EXPECT_EQ(schema.declare_or_find("gait"), 0u);
  EXPECT_EQ(schema.declare_or_find("Mood"), 1u);
  EXPECT_EQ(schema.initial(1).type, ParamType::kUnset);
}

TEST(ParameterSchema, SetInitialOverridesABuiltinDefault) {
  ParameterSchema schema = ParameterSchema::with_builtins(kBuiltins);
  const ParamIndex i = schema.find("DeathSpeed");
  ASSERT_TRUE(schema.set_initial(i, ParameterValue::of_float(5.0)));
  EXPECT_FALSE(schema.set_initial(static_cast<ParamIndex>(schema.size()), {}));
  const ParameterValues values(schema);
  EXPECT_EQ(values.number(i), 5.0);
}

class ParameterValuesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    speed_ = *schema_.declare("Speed", ParameterValue::of_float(0.0));
    gait_ = *schema_.declare("Gait", ParameterValue::of_string("idle"));
    dir_ = *schema_.declare("Dir", ParameterValue::of_vec3(vec3(1.0f, 2.0f, 3.0f)));
    jump_ = *schema_.declare("Jump", ParameterValue::of_trigger());
    count_ = *schema_.declare("Count", ParameterValue::of_int(7));
    mood_ = *schema_.declare("Mood", ParameterValue::unset());
    values_ = ParameterValues(schema_);
  }
  ParameterSchema schema_;
  ParameterValues values_;
  ParamIndex speed_ = 0, gait_ = 0, dir_ = 0, jump_ = 0, count_ = 0, mood_ = 0;
};

TEST_F(ParameterValuesTest, StartsWithInitialValuesAndChanged) {
  EXPECT_TRUE(values_.changed());
  EXPECT_EQ(values_.size(), 6u);
  EXPECT_EQ(values_.text(gait_), "idle");
  EXPECT_EQ(values_.vec(dir_), vec3(1.0f, 2.0f, 3.0f));
  EXPECT_EQ(values_.integer(count_), 7);
  EXPECT_EQ(values_.number(count_), 7.0);
  EXPECT_EQ(values_.type(mood_), ParamType::kUnset);
  EXPECT_EQ(values_.number(mood_), 0.0);
  EXPECT_EQ(values_.text(mood_), "");
  EXPECT_FALSE(values_.boolean(mood_));
}

TEST_F(ParameterValuesTest, ChangedOnlyWhenTheValueReallyChanges) {
  values_.clear_changed();
  EXPECT_FALSE(values_.set_float(speed_, 0.0));
  EXPECT_FALSE(values_.changed());
  EXPECT_TRUE(values_.set_float(speed_, 0.25));
  EXPECT_TRUE(values_.changed());
  values_.clear_changed();
  EXPECT_FALSE(values_.set_float(speed_, 0.25));
  EXPECT_FALSE(values_.set_string(gait_, "idle"));
  EXPECT_FALSE(values_.set_vec3(dir_, vec3(1.0f, 2.0f, 3.0f)));
  EXPECT_FALSE(values_.set_int(count_, 7));
  EXPECT_FALSE(values_.unset(mood_));
  EXPECT_FALSE(values_.changed());
  // Same number, other type: a change (an int 7 is not a float 7).
  EXPECT_TRUE(values_.set_float(count_, 7.0));
  values_.clear_changed();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(values_.set_float(speed_, nan));
  values_.clear_changed();
  EXPECT_FALSE(values_.set_float(speed_, nan));
  EXPECT_FALSE(values_.changed());
  EXPECT_TRUE(values_.set_string(gait_, "walk"));
  EXPECT_EQ(values_.text(gait_), "walk");
}

TEST_F(ParameterValuesTest, ValuesAreDynamicallyTyped) {
  EXPECT_TRUE(values_.set_string(speed_, "fast"));
  EXPECT_EQ(values_.type(speed_), ParamType::kString);
  EXPECT_EQ(values_.number(speed_), 0.0);
  EXPECT_TRUE(values_.set_bool(gait_, true));
  EXPECT_EQ(values_.text(gait_), "");
  EXPECT_EQ(values_.number(gait_), 1.0);
  EXPECT_TRUE(values_.set_vec2(count_, vec2(4.0f, 5.0f)));
  EXPECT_EQ(values_.vec(count_), vec3(4.0f, 5.0f, 0.0f));
  EXPECT_EQ(values_.type(count_), ParamType::kVec2);
}

TEST_F(ParameterValuesTest, TriggersResetToFalse) {
  EXPECT_FALSE(values_.boolean(jump_));
  values_.clear_changed();
  EXPECT_TRUE(values_.fire_trigger(jump_));
  EXPECT_TRUE(values_.boolean(jump_));
  EXPECT_FALSE(values_.fire_trigger(jump_));
  values_.clear_changed();
  values_.reset_triggers();
  EXPECT_TRUE(values_.changed());
  EXPECT_FALSE(values_.boolean(jump_));
  EXPECT_EQ(values_.type(jump_), ParamType::kTrigger);
  values_.clear_changed();
  values_.reset_triggers();
  EXPECT_FALSE(values_.changed());
}

// reset_triggers() skips its walk over the slots when no trigger was fired since the last one:
// every way of making a trigger read true must still be reset, in a copy too.
TEST_F(ParameterValuesTest, EveryWayOfFiringATriggerIsReset) {
  const ParamIndex initially_true = *schema_.declare("Armed", ParameterValue::of_trigger(true));
  values_.grow_to_schema();
  EXPECT_TRUE(values_.boolean(initially_true));
  values_.reset_triggers();
  EXPECT_FALSE(values_.boolean(initially_true));

  EXPECT_TRUE(values_.set(jump_, ParameterValue::of_trigger(true)));
  ParameterValues copy = values_;
  values_.reset_triggers();
  EXPECT_FALSE(values_.boolean(jump_));
  copy.clear_changed();
  copy.reset_triggers();
  EXPECT_TRUE(copy.changed());
  EXPECT_FALSE(copy.boolean(jump_));

  EXPECT_TRUE(values_.set("Speed", ParameterValue::of_trigger(true)));  // a float slot turned
  values_.reset_triggers();
  EXPECT_EQ(values_.type(speed_), ParamType::kTrigger);
  EXPECT_FALSE(values_.boolean(speed_));

  values_.fire_trigger(jump_);
  values_.fire_trigger(initially_true);
  values_.reset_to_initial();  // Armed starts true again
  values_.clear_changed();
  values_.reset_triggers();
  EXPECT_TRUE(values_.changed());
  EXPECT_FALSE(values_.boolean(jump_));
  EXPECT_FALSE(values_.boolean(initially_true));
}

// A slot keeps the bytes of its last text when it takes another type: the text must not come
// back through any reader, and setting the same text again is a change.
TEST_F(ParameterValuesTest, AnOldTextIsGoneWithItsType) {
  EXPECT_TRUE(values_.set_int(gait_, 3));
  EXPECT_EQ(values_.text(gait_), "");
  EXPECT_EQ(values_.get(gait_), ParameterValue::of_int(3));
  values_.clear_changed();
  EXPECT_TRUE(values_.set_string(gait_, "idle"));
  EXPECT_TRUE(values_.changed());
  EXPECT_EQ(values_.text(gait_), "idle");
  EXPECT_FALSE(values_.set_string(gait_, "idle"));
}

TEST_F(ParameterValuesTest, OutOfRangeReadsUnsetAndIgnoresSetters) {
  const ParamIndex far = 100;
  EXPECT_FALSE(values_.set_float(far, 1.0));
  EXPECT_EQ(values_.type(far), ParamType::kUnset);
  EXPECT_EQ(values_.number(far), 0.0);
  EXPECT_EQ(values_.text(far), "");
  EXPECT_EQ(values_.vec(far), vec3(0.0f));
}

TEST_F(ParameterValuesTest, GrowsWithTheSchemaAndSetsByName) {
  const ParamIndex late = *schema_.declare("Late", ParameterValue::of_bool(true));
  EXPECT_EQ(values_.type(late), ParamType::kUnset);
  values_.grow_to_schema();
  EXPECT_TRUE(values_.boolean(late));
  EXPECT_TRUE(values_.set_float("SPEED", 2.0));
  EXPECT_EQ(values_.number(speed_), 2.0);
  EXPECT_TRUE(values_.set_string("gait", "run"));
  EXPECT_TRUE(values_.set_bool("late", false));
  EXPECT_FALSE(values_.set_float("NoSuchName", 1.0));
  EXPECT_TRUE(values_.set("Dir", ParameterValue::of_vec3(vec3(0.0f, 1.0f, 0.0f))));
  EXPECT_EQ(values_.get(dir_), ParameterValue::of_vec3(vec3(0.0f, 1.0f, 0.0f)));
  EXPECT_EQ(values_.get(gait_), ParameterValue::of_string("run"));
  values_.clear_changed();
  values_.reset_to_initial();
  EXPECT_TRUE(values_.changed());
  EXPECT_EQ(values_.number(speed_), 0.0);
  EXPECT_EQ(values_.text(gait_), "idle");
}

TEST_F(ParameterValuesTest, IntegerReadsSaturate) {
  values_.set_float(speed_, 1e30);
  EXPECT_EQ(values_.integer(speed_), std::numeric_limits<std::int64_t>::max());
  values_.set_float(speed_, -2.9);
  EXPECT_EQ(values_.integer(speed_), -2);
}

}  // namespace
}  // namespace critter::anim
