// Instance: the per-creature state over a shared, immutable Model (DESIGN.md: per-instance
// state). It owns a Player, the model-space joint matrices, one skinning palette per skin and the
// morph weights of the last update (the player's, or those passed to refresh(pose, weights)).
// Every buffer is sized at construction: update() never
// allocates (as long as the caller drains the player's records).
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "critter/anim/player.h"
#include "critter/asset/model.h"
#include "critter/core/error.h"
#include "critter/core/math.h"

namespace critter::anim {

class Instance {
 public:
  // `model` must outlive the Instance. Starts in the rest pose with default morph weights.
  explicit Instance(const Model& model);

  const Model& model() const { return *model_; }
  // The player that animates this instance (play, cursor, rate, crossfade, morph overrides).
  Player& player() { return player_; }
  const Player& player() const { return player_; }

  // Matrix placed above the model root (the instance's placement in its world); identity by
  // default. Applies from the next update()/refresh().
  void set_root(const mat4& root) { root_ = root; }
  const mat4& root() const { return root_; }

  // Matrix placed right after the local of every root joint (LocalToModelJob::root_correction):
  // the animation config's root-bone correction (animation-config.md §12), e.g.
  // Controller::root_correction(). Must be affine; identity by default. Applies from the next
  // update()/refresh().
  void set_root_correction(const mat4& correction) { root_correction_ = correction; }
  const mat4& root_correction() const { return root_correction_; }

  // The legacy rule of creatures.md §1 (keep rest translations) for procedural .dae creatures.
  void set_legacy_rest_translation(bool on) { legacy_rest_translation_ = on; }

  // One frame: advances the player by dt seconds, then rebuilds model-space matrices and palettes.
  void update(float dt);
  // Rebuilds model-space matrices and palettes from the player's current pose without advancing
  // time (after set_cursor(), a morph override, or a new root).
  void refresh();
  // Rebuilds model-space matrices and palettes from `local_pose` (one Transform per joint, e.g. a
  // Controller's compute_pose()) instead of the player's. Fails (kUsage) on a size mismatch or a
  // non-finite root matrix, leaving the previous matrices in place. morph_weights() are the
  // player's again.
  Status refresh(std::span<const Transform> local_pose);
  // As above, and morph_weights() become a copy of `morph_weights` (every mesh's weights, laid out
  // by the player's MorphLayout, e.g. a Controller's morph_weights()) until the next update() or
  // refresh. Fails (kUsage) when its size is not the layout's weight count, changing nothing.
  Status refresh(std::span<const Transform> local_pose, std::span<const float> morph_weights);

  // The local pose of the last update (the player's).
  std::span<const Transform> local_pose() const { return player_.local_pose(); }
  // The morph weights of the last update or refresh, laid out by player().layout(): those given to
  // refresh(pose, weights), else the player's.
  std::span<const float> morph_weights() const {
    return external_weights_ ? std::span<const float>(weights_) : player_.weights();
  }
  // model_from_joint of each joint (root matrix included), one per skeleton joint.
  std::span<const mat4> model_transforms() const { return model_transforms_; }
  // Skinning palette of skin `skin`: model_from_joint[joints[i]] * inverse_bind[i]. Empty for an
  // index out of range.
  std::span<const mat4> palette(int skin) const;

  // Bone attachment: the model-space transform of a bone (root included) as of the last update,
  // so a held item follows a hand. Identity for an index out of range.
  mat4 bone_transform(int bone) const;
  // Bone index by name (exact, then case-insensitive), -1 when none. Resolve once, not per frame.
  int find_bone(std::string_view name) const { return model_->find_bone(name); }

 private:
  const Model* model_;
  Player player_;
  mat4 root_{1.0f};
  mat4 root_correction_{1.0f};
  bool legacy_rest_translation_ = false;
  std::vector<mat4> model_transforms_;
  std::vector<mat4> palettes_;               // all skins, concatenated
  std::vector<std::size_t> palette_offset_;  // per skin, plus one end entry
  std::vector<float> weights_;               // refresh(pose, weights)'s copy
  bool external_weights_ = false;
};

}  // namespace critter::anim
