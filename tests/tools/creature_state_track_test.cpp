// SPDX-License-Identifier: MIT
// tools/common/creature_state_track.h: the state a simulated creature gets before each step.
#include "../../tools/common/creature_state_track.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/state_args.h"

namespace critter {
namespace {

using testing::parsed_state_args;
using tools::CreatureStateArgs;
using tools::CreatureStateTrack;

TEST(CreatureStateTrackTest, KeysHoldFromTheirTimeOnOverTheBase) {
  CreatureStateTrack track(
      parsed_state_args({"on_ground=true", "speed=1"}),
      {{1.0, parsed_state_args({"speed=3"})}, {2.0, parsed_state_args({"health=0"})}});
  EXPECT_EQ(track.current().speed, 1.0f);
  EXPECT_EQ(track.at(0.0).speed, 1.0f);
  EXPECT_EQ(track.at(0.99).speed, 1.0f);
  EXPECT_FALSE(track.at(0.99).health);
  // At the key's time (and a rounding error before it, as summed 1/60 s steps arrive there).
  EXPECT_EQ(track.at(1.0 - 1e-9).speed, 3.0f);
  EXPECT_FALSE(track.current().health);
  const CreatureStateArgs& late = track.at(2.5);
  EXPECT_EQ(late.speed, 3.0f);  // still the first key's: a key changes only what it names
  EXPECT_EQ(late.health, 0.0f);
  EXPECT_EQ(late.on_ground, true);

  // A restart goes back to the base.
  track.restart();
  EXPECT_EQ(track.current().speed, 1.0f);
  EXPECT_FALSE(track.current().health);
  EXPECT_EQ(track.at(1.5).speed, 3.0f);
}

TEST(CreatureStateTrackTest, SeveralKeysPassedInOneStepApplyInOrder) {
  CreatureStateTrack track({}, {{0.1, parsed_state_args({"speed=1", "row=left"})},
                                {0.2, parsed_state_args({"speed=2"})},
                                {0.3, parsed_state_args({"row=none"})}});
  const CreatureStateArgs& s = track.at(0.5);
  EXPECT_EQ(s.speed, 2.0f);
  EXPECT_EQ(s.row, tools::RowSide::kNone);
}

TEST(CreatureStateTrackTest, DefaultsFollowTheMergedState) {
  // A bird flies from the start and gets a speed at 1 s: its fly order appears with the speed.
  CreatureStateTrack bird(parsed_state_args({"flying=true"}),
                          {{1.0, parsed_state_args({"speed=4", "yaw=-90"})}});
  EXPECT_FALSE(bird.at(0.5).fly_order);
  EXPECT_FALSE(bird.current().velocity);
  const CreatureStateArgs& flying = bird.at(1.0);
  ASSERT_TRUE(flying.fly_order);
  EXPECT_NEAR(flying.fly_order->x, 4.0f, 1e-6f);
  EXPECT_NEAR(flying.fly_order->z, 0.0f, 1e-6f);
  ASSERT_TRUE(flying.velocity);
  EXPECT_NEAR(flying.velocity->x, 4.0f, 1e-6f);

  // A fish swimming at --state speed dives in at 2 s: the swim order starts then, and a later
  // explicit order wins over the default.
  CreatureStateTrack fish(parsed_state_args({"speed=1"}),
                          {{2.0, parsed_state_args({"immersion=1"})},
                           {3.0, parsed_state_args({"swim_order=[0,-1,0]"})}});
  EXPECT_FALSE(fish.at(1.0).swim_order);
  ASSERT_TRUE(fish.at(2.0).swim_order);
  EXPECT_NEAR(fish.current().swim_order->z, -1.0f, 1e-6f);
  EXPECT_NEAR(fish.at(3.0).swim_order->y, -1.0f, 1e-6f);
}

}  // namespace
}  // namespace critter
