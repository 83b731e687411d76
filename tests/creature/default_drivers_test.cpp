// SPDX-License-Identifier: MIT
#include "critter/creature/default_drivers.h"

#include <gtest/gtest.h>

namespace critter::creature {
namespace {

TEST(DefaultDrivers, EngineAndLegacyCreatureDriversImplemented) {
  const anim::DriverRegistry& r = default_drivers();
  EXPECT_EQ(&r, &default_drivers());  // one process-wide registry
  EXPECT_EQ(r.types().size(), anim::DriverRegistry::builtin().types().size());
  for (const char* name : {"LookAt", "Death", "Expression", "FourLeggedWalk", "FourLeggedCanter",
                           "BirdFly", "FishSwim", "FlightlessBirdWalk", "HumanWalk", "HumanMine"}) {
    const anim::DriverType* t = r.find(name);
    ASSERT_NE(t, nullptr) << name;
    EXPECT_TRUE(t->implemented()) << name;
  }
  ASSERT_NE(r.find("GltfBodyTurn"), nullptr);
  EXPECT_FALSE(r.find("GltfBodyTurn")->implemented());
  // anim's own default stays as it is: the creature drivers are only declared there.
  EXPECT_FALSE(anim::DriverRegistry::builtin().find("FourLeggedWalk")->implemented());
}

TEST(DefaultDrivers, CopiesAreIndependent) {
  anim::DriverRegistry mine = with_default_drivers();
  ASSERT_TRUE(mine.declare("Tail"));
  EXPECT_NE(mine.find("Tail"), nullptr);
  EXPECT_EQ(default_drivers().find("Tail"), nullptr);
}

}  // namespace
}  // namespace critter::creature
