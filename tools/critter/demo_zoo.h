// SPDX-License-Identifier: MIT
// The zoo of `critter demo`: the built-in legacy creatures (creature/legacy/builtin_creatures.h)
// driven by their real rigs (creatures.md Part A) through scripted state over the demo's loop,
// each with its own colour and place on the stage.
//
//   for (const ZooMember& m : make_zoo(8.0f)) {
//     CreaturePose pose = *CreaturePose::load(zoo_spec(m), model, m.name, m.keys);
//     pose.advance_to(t);  // then draw it at zoo_placement(m, t)
//   }
#pragma once

#include <string>
#include <vector>

#include "../common/creature_state_track.h"
#include "creature_flags.h"
#include "critter/core/math.h"

namespace critter::cli {

// One creature of the zoo.
struct ZooMember {
  std::string name;  // what the zoo calls it, e.g. "wolf"; unique in the zoo
  CreatureKind kind = CreatureKind::kFourLegged;  // its rig and built-in creature
  std::string species;  // the rig's species preset (creatures.md §3–§7)
  std::string shows;    // what it does over the loop, one lower-case phrase
  vec4 colour{1.0f};    // base colour of its material, linear RGBA
  // Where it stands: the entity origin on the ground (the fish's body centre), metres, and the
  // heading, degrees about +Y from the legacy forward -Z (positive turns left).
  vec3 position{0.0f};
  float heading = 0.0f;
  float scale = 1.0f;  // drawn this many times its size (small creatures read at demo sizes)
  // > 0: it flies round a circle of this radius (metres) about `position`, counter-clockwise
  // seen from above, `laps` times per loop, facing along the circle.
  float circle_radius = 0.0f;
  float laps = 0.0f;
  // Its state over the loop: each key's values hold from its time (seconds) on, in increasing
  // time order; the first at 0. Positions in them (look_at) are in the creature's entity frame.
  std::vector<tools::CreatureStateTrack::Key> keys = {};
};

// The zoo over a loop of `loop_seconds` (> 0): a wolf walking, trotting and cantering as its speed
// rises, a horse walking then cantering, a camel watching the bird, a cow that walks and dies, a
// human walking and punching, an ostrich running, a fish swimming and a bird flying circles
// above the stage. They stand in two rows, at z = -1.9 m behind and z = 2 m in front of the
// keyframed quadruped's lap (radius 1 m about the origin), within 2.5 m of x = 0.
std::vector<ZooMember> make_zoo(float loop_seconds);

// The member's world placement at loop time `t` seconds: translation, heading, scale (and the
// circle for a flier). The sim's own root (CreatureSim::root_matrix) goes under it.
mat4 zoo_placement(const ZooMember& member, float loop_seconds, float t);

// What make_creature_sim() takes for the member: its kind and species, no settings, no state
// beyond the keys.
CreatureSpec zoo_spec(const ZooMember& member);

}  // namespace critter::cli
