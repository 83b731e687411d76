// SPDX-License-Identifier: MIT
// Built-in legacy creatures made in code, one per rig kind, so users and tests have them without
// files: skeletons with the legacy bone names and Z-up bone spaces of creatures.md §2, and box
// meshes skinned rigidly to the bones so they render.
//
//   auto model = legacy::make_builtin_creature(legacy::Kind::kBird);
//   auto rig = legacy::make_rig("bird", "pigeon", model->skeleton());
//
// Layout: the root joint is "Body", at the entity origin (the ground under the creature; the
// fish's body centre), with the rest rotation RotX(−90°) that maps its Z-up bone space (+Z up,
// +Y forward, +X right) onto the entity frame (+Y up, −Z forward, +X right). Every other joint
// has an identity rest rotation, so the rigs' RotX/RotZ overrides act in Z-up space. Units are
// metres, except the human, whose Body has the rest scale 0.025 so that its bones use the legacy
// human's units of 1/40 m (the crouch offsets of §4 are in those units).
//   four-legged: Body, Neck, Head, Leg1 (front left), Leg2 (front right), Leg3, Leg4 (hind).
//   human: Body, Head, Hand1, Hand2, Leg1, Leg2.
//   bird: Body, Neck, Head, Leg1, Leg2, Wing1 (left), Wing2 (right).
//   flightless bird: Body, Neck, Head, Leg1, Leg2.
//   fish: Body, Tail1, Tail2 (under Tail1), Jaw.
// One mesh (one part, every box rigid to its joint), one material, one skin over every joint.
// No clips, so CreatureModel uses its procedural rig.
#pragma once

#include "critter/asset/model.h"
#include "critter/core/diagnostics.h"
#include "critter/core/error.h"
#include "critter/creature/legacy/legacy_rig.h"

namespace critter::creature::legacy {

// The editable model: name "legacy_<kind>" (kind with '_' for '-'), format "code".
RawModel make_builtin_creature_raw(Kind kind);
// build_model(make_builtin_creature_raw(kind)).
Result<Model> make_builtin_creature(Kind kind, Diagnostics* diag = nullptr);
// The creature's bounding-box size in metres (x width, y height, z depth), the BoxY and BoxZ
// a host passes as CreatureState::body_height and body_depth.
vec3 builtin_creature_size(Kind kind);

}  // namespace critter::creature::legacy
