// SPDX-License-Identifier: MIT
// PoseModifier: a stage of CreatureModel's chain after local-to-model and before any skinning
// palette (DESIGN.md data flow: model-space joint matrices → pose modifiers → final joint
// matrices). A modifier reads this frame's model-space matrices and changes them in place, e.g.
// the limb system bending block limbs toward their targets.
//
//   class Bend final : public PoseModifier {
//     void modify(const PoseModifierFrame& frame, std::span<mat4> model_transforms) override;
//   };
//   creature.add_pose_modifier(std::make_unique<Bend>());
//
// One modifier object serves one creature and may keep per-creature state.
#pragma once

#include <span>

#include "critter/asset/model.h"
#include "critter/core/math.h"
#include "critter/core/transform.h"
#include "critter/creature/creature_state.h"

namespace critter::creature {

// What a modifier may read about the frame being posed. Valid during modify() only.
struct PoseModifierFrame {
  const Model& model;          // the creature's model (skeleton parents, rest pose, skins)
  const CreatureState& state;  // this frame's body state
  float dt = 0.0f;             // frame time in seconds, finite and >= 0
  // This frame's local pose, one Transform per skeleton joint, as the chain's source wrote it
  // (legacy rest-translation rule folded in); modify()'s model_transforms were computed from it.
  std::span<const Transform> local_pose;
  // The placement model_transforms were computed with (LocalToModelJob's root and
  // root_correction), for a modifier that recomputes them from a changed local pose.
  mat4 root = kIdentityMatrix;
  mat4 root_correction = kIdentityMatrix;
};

class PoseModifier {
 public:
  virtual ~PoseModifier() = default;

  // Called by CreatureModel::update() once per successful frame, after local-to-model (and
  // after the modifiers added before this one), never when the frame's placement was refused.
  // `model_transforms` holds model_from_joint of every skeleton joint, parents-first, with the
  // creature's placement (root matrix and root correction) already applied; the modifier
  // rewrites any of them. A modifier that moves a joint moves that joint's descendants too:
  // nothing recomputes children after it. What it leaves is what model_transforms(), palettes
  // and renderers see until the next update(). Must not allocate, throw or keep the spans.
  virtual void modify(const PoseModifierFrame& frame, std::span<mat4> model_transforms) = 0;
};

}  // namespace critter::creature
