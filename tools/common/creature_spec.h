// SPDX-License-Identifier: MIT
// What a tool simulates a legacy creature from: the options --creature KIND, --species NAME,
// --state NAME=VALUE and --rig-param NAME=VALUE as written (CreatureFlags), checked into a
// CreatureSpec. `critter pose|render` and `critter-viewer` register the options their own way
// and share this check, so both answer a bad option with the same message.
//
//   tools::CreatureFlags flags{.creature = "four-legged", .states = {"speed=2"}};
//   Result<tools::CreatureSpec> spec = tools::parse_creature_flags(flags, "wolf.glb");
#pragma once

#include <string>
#include <vector>

#include "creature_state_args.h"
#include "critter/core/error.h"
#include "param_arg.h"

namespace critter::tools {

// The options as written.
struct CreatureFlags {
  std::string creature;                 // --creature KIND; empty: no creature
  std::string species;                  // --species NAME; empty: the kind's database defaults
  std::vector<std::string> states;      // --state NAME=VALUE, repeatable
  std::vector<std::string> rig_params;  // --rig-param NAME=VALUE, repeatable

  // True when any of the options was given.
  bool any() const {
    return !creature.empty() || !species.empty() || !states.empty() || !rig_params.empty();
  }
};

// The options checked: what a creature simulation is made from (creature_sim.h).
struct CreatureSpec {
  CreatureKind kind = CreatureKind::kFourLegged;
  // A species preset of the kind (creatures.md §3–§7 database tables, e.g. "wolf"), as written;
  // empty: the kind's database defaults. Checked against the rig's presets by make_creature_sim.
  std::string species;
  // Rig settings overriding the preset, in command-line order (a later one wins), values as
  // param_arg.h reads them (true/false, a finite number, [x,y], [x,y,z], text). Names are
  // checked against the rig's settings by make_creature_sim.
  std::vector<ParamArg> rig_params;
  // The --state values (a timeline or a panel changes them over time).
  CreatureStateArgs state;
};

// The kind names for messages and help: "four-legged, human, bird, flightless-bird or fish".
std::string creature_kind_list();

// Checks `flags` (which must have a --creature) into a CreatureSpec. Errors (kUsage, path
// `path`): an unknown kind at "--creature" listing the kinds; a malformed --rig-param at
// "--rig-param" (no '=', an empty name, a non-finite number, a malformed vector); every error of
// parse_state_arg() at "--state".
Result<CreatureSpec> parse_creature_flags(const CreatureFlags& flags, const std::string& path);

}  // namespace critter::tools
