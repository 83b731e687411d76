// SPDX-License-Identifier: MIT
// SoaTransform: the local transforms of sixteen joints in structure-of-arrays form, one row of
// sixteen floats per component (translation x y z, rotation x y z w, scale x y z: the order of a
// Transform's floats). A pose of n joints is soa_blocks(n) of them: joint j is lane j % 16 of
// block j / 16; the lanes past the last joint are padding, which to_soa() sets to the identity.
// The jobs that take poses in this form (SamplingJob and CompactSamplingJob outputs, BlendingJob,
// LocalToModelJob input) load and store whole rows, so a component of sixteen joints is one
// aligned vector; they give the same bits as with Transform arrays.
//
//   std::vector<SoaTransform> rest(soa_blocks(skeleton.joint_count()));
//   to_soa(skeleton.rest_pose(), rest);
#pragma once

#include <cstddef>
#include <span>

#include "critter/core/error.h"
#include "critter/core/transform.h"

namespace critter {

struct alignas(64) SoaTransform {
  static constexpr std::size_t kLanes = 16;
  float translation[3][kLanes];  // x, y, z
  float rotation[4][kLanes];     // x, y, z, w
  float scale[3][kLanes];        // x, y, z

  // Lane `lane` (< kLanes) as a Transform, or set to one.
  Transform get(std::size_t lane) const;
  void set(std::size_t lane, const Transform& t);

  friend bool operator==(const SoaTransform&, const SoaTransform&) = default;
};
static_assert(sizeof(SoaTransform) == 10 * SoaTransform::kLanes * sizeof(float));

// Blocks that hold `joints` joints: ceil(joints / 16).
constexpr std::size_t soa_blocks(std::size_t joints) {
  return (joints + SoaTransform::kLanes - 1) / SoaTransform::kLanes;
}

// Joint j of a structure-of-arrays pose; j < 16 · pose.size().
inline Transform soa_get(std::span<const SoaTransform> pose, std::size_t j) {
  return pose[j / SoaTransform::kLanes].get(j % SoaTransform::kLanes);
}
inline void soa_set(std::span<SoaTransform> pose, std::size_t j, const Transform& t) {
  pose[j / SoaTransform::kLanes].set(j % SoaTransform::kLanes, t);
}

// Writes `aos` into `soa` (soa_blocks(aos.size()) blocks), the padding lanes the identity.
// kUsage (path "to_soa", location "soa") when the block count is not that.
Status to_soa(std::span<const Transform> aos, std::span<SoaTransform> soa);

// Writes the first aos.size() joints of `soa` into `aos`. kUsage (path "from_soa", location
// "soa") when soa does not have soa_blocks(aos.size()) blocks.
Status from_soa(std::span<const SoaTransform> soa, std::span<Transform> aos);

}  // namespace critter
