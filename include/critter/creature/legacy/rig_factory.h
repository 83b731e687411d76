// SPDX-License-Identifier: MIT
// Making legacy rigs by name, for the CLI (`--creature KIND --species NAME --rig-param N=V`), the
// config drivers and hosts:
//
//   auto rig = legacy::make_rig("four-legged", "wolf", model.skeleton(), aliases);
//   if (!rig) { print(rig.error()); }   // unknown kind or species, or missing bones
//   if (auto ok = (*rig)->set_setting("CanTrot", 1); !ok) { print(ok.error()); }
#pragma once

#include <memory>
#include <span>
#include <string_view>

#include "critter/asset/skeleton.h"
#include "critter/core/error.h"
#include "critter/creature/legacy/legacy_rig.h"

namespace critter::creature::legacy {

// "four-legged", "human", "bird", "flightless-bird", "fish".
std::span<const std::string_view> kind_names();
// The species presets of `kind` ("default" first).
std::span<const std::string_view> species_names(Kind kind);
// The bone roles of `kind`.
std::span<const BoneRole> bone_roles(Kind kind);

// An unbound rig of `kind` with the settings of `species` (empty: "default"). Fails (kUsage,
// path "legacy rig", location "species") on an unknown species, naming the known ones.
Result<std::unique_ptr<LegacyRig>> make_rig(Kind kind, std::string_view species = {});
// As above from a kind name (parse_kind; an unknown name fails with kUsage, location "kind",
// naming the known kinds), then bound to `skeleton` through `aliases` (LegacyRig::bind's error
// when bones are missing).
Result<std::unique_ptr<LegacyRig>> make_rig(std::string_view kind, std::string_view species,
                                            const Skeleton& skeleton,
                                            std::span<const BoneAlias> aliases = {});

}  // namespace critter::creature::legacy
