// SPDX-License-Identifier: MIT
// The creature drivers of animation-config.md §14.2 over the legacy rigs: a config layer that
// names FourLeggedWalk, BirdFly, FishSwim, ... runs the same rig objects as CreatureModel's
// procedural-rig source (legacy_rig.h), so the two doors share every formula.
//
//   anim::DriverRegistry drivers = anim::DriverRegistry::with_builtins();
//   creature::legacy::register_legacy_drivers(drivers);     // implements the declared names
//   (creature::default_drivers() in default_drivers.h is this registry, ready made)
//   ... bind and compile the config with `drivers` ...
//   each frame: write_builtin_parameters(state, ...) and write_rig_parameters(state, ...) into
//   the controller's parameters, then update().
//
// Every driver of a kind builds that kind's rig (species "default", or the `Species` property),
// bound to the model by the legacy bone names, a `<Role>Bone` property (a bone of the model,
// config bone aliases followed: "Leg1Bone": "FrontLeftLeg") overriding the name of a role. Its
// properties are the rig's settings by their database names (legacy_rig.h setting_names()); a
// parameter the config declares under a setting's name overrides the property every frame, and
// so does a §16 built-in of that name once the host sets it to a value other than its table
// default (WalkAnimationSpeed 0, DeathSpeed 3, ...). update() reads
// the rig inputs from the parameters (rig_inputs.h from_parameters) and steps the rig; sample()
// writes the bones of the driver's activity with the legacy rule over the rest locals (an
// Additive layer gets the rig's overrides M as deltas):
//   FourLeggedWalk / FourLeggedTrot / FourLeggedCanter, FourLeggedDeath: every bone;
//   FourLeggedAttack, FourLeggedFeed: Neck, Head.
//   FishSwim, FishDeath: every bone; FishAttack: Tail1, Tail2, Jaw.
//   BirdWalk, BirdFly, BirdDeath: every bone; BirdPeck: Neck, Head; BirdAttack: Neck, Head, legs.
//   FlightlessBirdWalk, FlightlessBirdDeath: every bone; FlightlessBirdFeed: Neck, Head;
//   FlightlessBirdAttack: Leg1, Leg2.
//   HumanWalk, HumanDeath, HumanRide: every bone; HumanAttack, HumanAim, HumanMine: Hand1, Hand2.
// FourLeggedTrot and FourLeggedCanter default their `Gait` to 1 and 2; every other four-legged
// driver chooses the gait by speed as the rig does (Gait −1) unless `Gait` is given.
// A model without a required bone fails the program with LegacyRig::bind's error.
// GltfBodyTurn stays declared only.
#pragma once

#include "critter/anim/driver.h"
#include "critter/core/error.h"

namespace critter::creature::legacy {

// Adds (implements) every legacy creature driver listed above; a name only declared in
// `registry` gets its implementation. Fails when one is already implemented there.
Status register_legacy_drivers(anim::DriverRegistry& registry);

}  // namespace critter::creature::legacy
