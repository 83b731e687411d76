// SPDX-License-Identifier: MIT
#include "creature_flags.h"

#include <algorithm>
#include <cstddef>
#include <utility>

namespace critter::cli {
namespace {

// "number", "true/false", "[x,y]", "[x,y,z]" or the enum's names joined by '|'.
std::string type_column(const tools::StateField& field) {
  switch (field.type()) {
    case tools::StateType::kNumber:
      return "number";
    case tools::StateType::kBool:
      return "true/false";
    case tools::StateType::kVec2:
      return "[x,y]";
    case tools::StateType::kVec3:
      return "[x,y,z]";
    case tools::StateType::kEnum: {
      std::string text;
      for (std::string_view c : field.choices()) text.append(text.empty() ? "" : "|").append(c);
      return text;
    }
  }
  return {};
}

}  // namespace

void add_creature_flags(CLI::App* app, CreatureFlags& flags) {
  app->add_option(
      "--creature", flags.creature,
      "Simulate a legacy creature rig instead of playing a clip: " + tools::creature_kind_list() +
          "; the simulation steps at 60 Hz from 0 to each --time with the --state "
          "values set before every step");
  app->add_option("--species", flags.species,
                  "Species preset of the --creature rig (e.g. wolf, horse, cow, camel; default: "
                  "the rig's database defaults)");
  app->add_option("--state", flags.states,
                  "Creature state NAME=VALUE (repeatable; names below); an unknown name is an "
                  "error that suggests the closest names");
  app->add_option("--rig-param", flags.rig_params,
                  "Rig setting NAME=VALUE overriding the species preset (repeatable; the "
                  "database names, e.g. WalkAnimationSpeed=0.9 or CanTrot=true; values as "
                  "--param)");
}

Status check_creature_usage(const CreatureFlags& flags, const PoseSources& sources,
                            const std::string& path) {
  const bool creature = !flags.creature.empty();
  auto usage = [&](std::string location, std::string message) {
    return fail(Error::at(ErrorCode::kUsage, path, std::move(location), std::move(message)));
  };
  if (!creature && flags.any()) {
    return usage(!flags.species.empty()  ? "--species"
                 : !flags.states.empty() ? "--state"
                                         : "--rig-param",
                 "--species, --state and --rig-param set up a --creature");
  }
  if (creature && sources.config) {
    return usage("--creature", "--creature and --config are two pose sources; give one");
  }
  if (creature && sources.anim) {
    return usage("--anim", "--anim plays one clip; with --creature the rig makes the pose");
  }
  if (creature && sources.mode) return usage("--mode", "--mode applies to --anim");
  if (creature && sources.params) {
    return usage("--param", "--param sets a parameter of --config; --state sets the creature's");
  }
  if (sources.timeline && !creature && !sources.config && !sources.limbs) {
    return usage("--timeline", "--timeline changes the values of --creature or --config");
  }
  return {};
}

std::string creature_state_help() {
  std::size_t name_width = 0;
  std::size_t type_width = 0;
  for (const tools::StateField& f : tools::creature_state_fields()) {
    name_width = std::max(name_width, f.name.size());
    type_width = std::max(type_width, type_column(f).size());
  }
  std::string text =
      "Creature state (--state NAME=VALUE, and a timeline's \"state\"; unset names keep the "
      "rig's defaults):\n";
  for (const tools::StateField& f : tools::creature_state_fields()) {
    const std::string type = type_column(f);
    text.append("  ").append(f.name).append(name_width - f.name.size() + 2, ' ');
    text.append(type).append(type_width - type.size() + 2, ' ').append(f.help).append("\n");
  }
  text.append(
      "  With speed and no velocity the creature moves the way it faces (velocity = speed along\n"
      "  its heading); with flying=true and speed a bird gets a fly_order of that speed ahead, "
      "and\n"
      "  with immersion > 0 and speed a fish a swim_order, unless fly_order / swim_order is "
      "set.\n");
  return text;
}

}  // namespace critter::cli
