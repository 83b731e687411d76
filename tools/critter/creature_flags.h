// What `critter pose` and `critter render` share to simulate a legacy creature without a game:
// the options --creature KIND, --species NAME, --state NAME=VALUE and --rig-param NAME=VALUE,
// parsed and checked into a CreatureSpec (the state names and their parsing are
// tools/common/creature_state_args.h's, shared with the viewer).
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "../common/creature_state_args.h"
#include "../common/param_arg.h"
#include "critter/core/error.h"

namespace critter::cli {

using tools::CreatureKind;
using tools::CreatureStateArgs;

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
  std::vector<tools::ParamArg> rig_params;
  // The --state values; a timeline's keys change them over time (CreaturePose).
  CreatureStateArgs state;
};

// Registers --creature, --species, --state and --rig-param on `app`, writing into `flags` (which
// must outlive the parse).
void add_creature_flags(CLI::App* app, CreatureFlags& flags);

// Checks `flags` (which must have a --creature) into a CreatureSpec. Errors (kUsage, path
// `path`): an unknown kind at "--creature" listing the kinds; a malformed --rig-param at
// "--rig-param" (no '=', an empty name, a non-finite number, a malformed vector); every error of
// tools::parse_state_arg() at "--state".
Result<CreatureSpec> parse_creature_flags(const CreatureFlags& flags, const std::string& path);

// Which other pose options a command got, for check_creature_usage().
struct PoseSources {
  bool config = false;    // --config
  bool params = false;    // --param
  bool anim = false;      // --anim
  bool mode = false;      // --mode
  bool timeline = false;  // --timeline
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
