// SPDX-License-Identifier: MIT
// Instance: the posed state of one creature over a shared, immutable Model (DESIGN.md:
// per-instance state), a pose sink. A pose source (Player, Controller, a procedural rig) writes a
// local pose and morph weights; pose() turns them into model-space joint matrices, placed by the
// root matrix and the root-bone correction. Skinning palettes are not kept here: whoever needs
// them runs deform::PaletteJob over model_transforms().
//
//   anim::Instance instance(model);
//   player.update(dt);
//   instance.pose(player.local_pose(), player.weights());
//   renderer_input.model_transforms = instance.model_transforms();
//
// Every buffer is sized at construction: pose() never allocates.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "critter/asset/model.h"
#include "critter/core/error.h"
#include "critter/core/math.h"
#include "critter/core/transform.h"

namespace critter::anim {

class Instance {
 public:
  // `model` must outlive the Instance. Starts posed in the rest pose with the model's default
  // morph weights.
  explicit Instance(const Model& model);

  const Model& model() const { return *model_; }

  // Matrix placed above the model root (the instance's placement in its world); identity by
  // default. Applies from the next pose().
  void set_root(const mat4& root) { root_ = root; }
  const mat4& root() const { return root_; }

  // Matrix placed right after the local of every root joint (LocalToModelJob::root_correction):
  // the animation config's root-bone correction (animation-config.md §12), e.g.
  // Controller::root_correction(). Must be affine; identity by default. Applies from the next
  // pose().
  void set_root_correction(const mat4& correction) { root_correction_ = correction; }
  const mat4& root_correction() const { return root_correction_; }

  // Rebuilds model_transforms() from `local_pose` (one Transform per skeleton joint, e.g.
  // Player::local_pose() or Controller::compute_pose()) with root() and root_correction(). Fails
  // (kUsage) on a size mismatch, a non-finite root or a root correction that is not affine,
  // leaving the previous matrices in place. Morph weights are left as they are.
  Status pose(std::span<const Transform> local_pose);
  // As above, and morph_weights() become a copy of `morph_weights` (every mesh's weights laid out
  // by MorphLayout::of(model()), e.g. Player::weights() or Controller::morph_weights()). Fails
  // (kUsage) when its size is not the layout's weight count, changing nothing.
  Status pose(std::span<const Transform> local_pose, std::span<const float> morph_weights);

  // The morph weights of the last pose() that gave some; the model's defaults before that.
  std::span<const float> morph_weights() const { return weights_; }
  // model_from_joint of each joint (root matrix included), one per skeleton joint.
  std::span<const mat4> model_transforms() const { return model_transforms_; }
  // The same matrices, writable, for pose modifiers that change this frame's model-space
  // matrices after pose() (a modifier keeps children consistent with the joints it moves). The
  // next pose() overwrites them.
  std::span<mat4> writable_model_transforms() { return model_transforms_; }

  // Bone attachment: the model-space transform of a bone (root included) as of the last pose(),
  // so a held item follows a hand. Identity for an index out of range.
  mat4 bone_transform(int bone) const;
  // Bone index by name (exact, then case-insensitive), -1 when none. Resolve once, not per frame.
  int find_bone(std::string_view name) const { return model_->find_bone(name); }

 private:
  const Model* model_;
  mat4 root_{1.0f};
  mat4 root_correction_{1.0f};
  std::vector<mat4> model_transforms_;
  std::vector<float> weights_;
};

}  // namespace critter::anim
