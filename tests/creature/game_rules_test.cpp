// SPDX-License-Identifier: MIT
#include "critter/creature/game_rules.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "critter/creature/builtin_parameters.h"

namespace critter::creature {
namespace {

using anim::ControllerRecord;
using anim::ParameterSchema;
using anim::ParameterValue;
using anim::ParameterValues;

ControllerRecord event(std::string_view name, std::string_view data = {}) {
  ControllerRecord r;
  r.kind = ControllerRecord::Kind::kEvent;
  r.name = name;
  r.data = data;
  return r;
}

class GameRulesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    schema_ = builtin_schema();
    (void)schema_.declare("IsAttackHitMoment", ParameterValue::unset());
    values_ = ParameterValues(schema_);
    rules_ = GameRules(schema_);
    rules_.set_footstep_hook([this](std::string_view data) { steps_.emplace_back(data); });
  }

  ParameterSchema schema_;
  ParameterValues values_;
  GameRules rules_;
  std::vector<std::string> steps_;
};

TEST_F(GameRulesTest, FootstepsNeedGroundOrDeepWater) {
  rules_.on_event(event("Footstep", "air"), values_, 1.0);
  values_.set_float("ImmersionFactor", 0.5);  // not deeper than 0.5
  rules_.on_event(event("Footstep", "shallow"), values_, 2.0);
  values_.set_float("ImmersionFactor", 0.6);
  rules_.on_event(event("Footstep", "swim"), values_, 3.0);
  values_.set_float("ImmersionFactor", 0.0);
  values_.set_bool("IsOnGround", true);
  rules_.on_event(event("footstep", "ground"), values_, 4.0);  // names ignore case
  EXPECT_EQ(steps_, (std::vector<std::string>{"swim", "ground"}));
}

TEST_F(GameRulesTest, FootstepsCloserThanAFifthOfASecondAreDropped) {
  values_.set_bool("IsOnGround", true);
  for (const double t : {1.0, 1.1, 1.19, 1.25, 1.4, 1.5}) {
    rules_.on_event(event("Footstep", std::to_string(t).substr(0, 4)), values_, t);
  }
  EXPECT_EQ(steps_, (std::vector<std::string>{"1.00", "1.25", "1.50"}));
}

TEST_F(GameRulesTest, AttackEventsSetTheMomentAndCallTheirHooks) {
  std::vector<std::string> calls;
  rules_.set_attack_start_hook([&] { calls.emplace_back("start"); });
  rules_.set_attack_hit_hook([&] { calls.emplace_back("hit"); });
  rules_.set_attack_end_hook([&] { calls.emplace_back("end"); });
  const anim::ParamIndex moment = schema_.find("IsAttackHitMoment");
  rules_.on_event(event("AttackStart"), values_, 0.1);
  EXPECT_FALSE(rules_.attack_hit_moment());
  values_.clear_changed();
  rules_.on_event(event("AttackHit"), values_, 0.2);
  EXPECT_TRUE(rules_.attack_hit_moment());
  EXPECT_TRUE(values_.boolean(moment));
  EXPECT_TRUE(values_.changed());  // the rules see the flag in the next evaluation
  rules_.on_event(event("ATTACKEND"), values_, 0.3);
  EXPECT_FALSE(rules_.attack_hit_moment());
  EXPECT_FALSE(values_.boolean(moment));
  EXPECT_EQ(calls, (std::vector<std::string>{"start", "hit", "end"}));
  // Other events change nothing.
  rules_.on_event(event("Roar"), values_, 0.4);
  EXPECT_EQ(calls.size(), 3u);
  EXPECT_TRUE(steps_.empty());
}

TEST(GameRules, WithoutParametersNothingIsWrittenAndFootstepsNeverPass) {
  ParameterSchema schema;
  ParameterValues values(schema);
  GameRules rules(schema);
  int steps = 0;
  bool hit = false;
  rules.set_footstep_hook([&](std::string_view) { ++steps; });
  rules.set_attack_hit_hook([&] { hit = true; });
  rules.on_event(event("Footstep"), values, 1.0);
  rules.on_event(event("AttackHit"), values, 2.0);
  EXPECT_EQ(steps, 0);
  EXPECT_TRUE(hit);
  EXPECT_TRUE(rules.attack_hit_moment());
  EXPECT_EQ(values.size(), 0u);
}

}  // namespace
}  // namespace critter::creature
