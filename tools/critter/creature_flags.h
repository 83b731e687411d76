// SPDX-License-Identifier: MIT
// What `critter pose` and `critter render` share to simulate a legacy creature without a game:
// the options --creature KIND, --species NAME, --state NAME=VALUE and --rig-param NAME=VALUE,
// checked into a CreatureSpec by tools/common/creature_spec.h, which the viewer shares.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "../common/creature_spec.h"
#include "critter/core/error.h"

namespace critter::cli {

using tools::CreatureKind;
using tools::CreatureStateArgs;

using tools::CreatureFlags;
using tools::CreatureSpec;
using tools::parse_creature_flags;

// Registers --creature, --species, --state and --rig-param on `app`, writing into `flags` (which
// must outlive the parse).
void add_creature_flags(CLI::App* app, CreatureFlags& flags);

// Which other pose options a command got, for check_creature_usage().
struct PoseSources {
  bool config = false;    // --config
  bool params = false;    // --param
  bool anim = false;      // --anim
  bool mode = false;      // --mode
  bool timeline = false;  // --timeline
  bool limbs = false;     // --limbs (a timeline then sets the body motion)
};

// The rules of the creature options against the other options of `pose` and `render` (kUsage
// at the option named, path `path`): --species, --state or --rig-param without --creature;
// --creature with --config, --anim, --mode or --param; --timeline with neither --creature nor
// --config.
Status check_creature_usage(const CreatureFlags& flags, const PoseSources& sources,
                            const std::string& path);

// Every state name with its value type and meaning, for --help (one line each, ending in a
// newline).
std::string creature_state_help();

}  // namespace critter::cli
