// SPDX-License-Identifier: MIT
// The example config of animation-config.md §20 and a model built in code that it binds to, shared
// by the config parser, binder and runtime-description tests.
#pragma once

#include "critter/asset/model.h"

namespace critter::test_support {

// The §20 example, verbatim (comments and trailing commas included).
extern const char* const kSpecExampleConfig;

// b_Root > b_Body > {b_Neck_04 > b_Head_05, b_Hip > b_Leg > b_FootL}; 1 s clips Idle, Walk and
// Jump that hold the root at x = 1, 2 and 3, so a pose tells which clip shows.
critter::Model spec_example_quadruped();

}  // namespace critter::test_support
