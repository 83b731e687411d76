// SPDX-License-Identifier: MIT
// Pose: the per-instance result of sampling and blending. One local Transform per skeleton joint
// and the morph weights of every mesh, stored flat (mesh m owns weights
// [MorphLayout::offsets[m], MorphLayout::offsets[m + 1])). Per-instance state (DESIGN.md).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "critter/asset/model.h"
#include "critter/core/transform.h"

namespace critter::anim {

// Where each mesh's weights live in a flat weight array. offsets.size() == mesh count + 1.
struct MorphLayout {
  std::vector<std::uint32_t> offsets{0};
  // Flat default weights (glTF mesh.weights), laid out by `offsets`.
  std::vector<float> defaults;

  static MorphLayout of(const Model& model);
  std::size_t weight_count() const { return offsets.back(); }
  std::size_t mesh_count() const { return offsets.size() - 1; }
  std::span<float> mesh_weights(std::span<float> flat, std::size_t mesh) const {
    return flat.subspan(offsets[mesh], offsets[mesh + 1] - offsets[mesh]);
  }
  std::span<const float> mesh_weights(std::span<const float> flat, std::size_t mesh) const {
    return flat.subspan(offsets[mesh], offsets[mesh + 1] - offsets[mesh]);
  }
};

struct Pose {
  std::vector<Transform> locals;  // one per skeleton joint, parents-first order
  std::vector<float> weights;     // MorphLayout::weight_count() entries

  // A pose sized for `model`, set to its rest pose and default weights.
  static Pose rest(const Model& model, const MorphLayout& layout);
};

}  // namespace critter::anim
