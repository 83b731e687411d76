// SPDX-License-Identifier: MIT
// ProceduralRig: the last pose source of CreatureModel's priority chain (creatures.md §1, Part A):
// a creature animated with maths rather than clips, used when the creature has neither a
// controller nor a clip. The rigs themselves (four-legged, human, bird, fish) implement this
// interface; one rig object animates one creature and may keep per-creature state (smoothing,
// phases).
#pragma once

#include <span>

#include "critter/core/transform.h"
#include "critter/creature/creature_state.h"

namespace critter::creature {

class ProceduralRig {
 public:
  virtual ~ProceduralRig() = default;

  // Writes one frame's local pose. `local_pose` has one Transform per skeleton joint and arrives
  // holding the model's rest pose; the rig overwrites the bones it animates. `state` is this
  // frame's body state, `dt` the frame time in seconds (finite, >= 0). The pose is placed in the
  // world by CreatureModel (entity transform above the root), so the Body bone gets only the
  // offsets in front of the entity transform (creatures.md §2).
  virtual void animate(const CreatureState& state, float dt, std::span<Transform> local_pose) = 0;

  // True when the rig writes legacy overrides (creatures.md §1): every bone's rest translation is
  // used in place of the pose's, and the pose supplies rotation and scale. CreatureModel then
  // folds the rule into the rig's pose with apply_legacy_rest_translation() (legacy/
  // rest_translation.h) right after animate(), before local-to-model. False: the pose's
  // Transforms replace the bones' locals completely.
  virtual bool keeps_rest_translation() const { return false; }
};

}  // namespace critter::creature
