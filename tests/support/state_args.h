// SPDX-License-Identifier: MIT
// Creature-state arguments (tools/common/creature_state_args.h) parsed in test code. Header-only
// so that only the tools' tests, which build those headers, use it.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../../tools/common/creature_state_args.h"

namespace critter::testing {

// Every argument parsed into one CreatureStateArgs, as for a model "m.glb"; an argument that does
// not parse fails the test (and is left out).
inline tools::CreatureStateArgs parsed_state_args(const std::vector<std::string>& args) {
  tools::CreatureStateArgs state;
  for (const std::string& a : args) {
    const Status s = tools::parse_state_arg(a, "m.glb", state);
    EXPECT_TRUE(s) << a << ": " << s.error().to_string();
  }
  return state;
}

}  // namespace critter::testing
