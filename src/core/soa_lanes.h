// SPDX-License-Identifier: MIT
// Internal: where a joint's floats lie in a structure-of-arrays pose (SoaTransform blocks seen as
// floats), and the one rule for when a set of joints fills consecutive lanes of one block, so that
// each of their components is one vector store. A clip derives the rule for its sampling batches
// when it is made (Clip::LinearBatch::soa_in_row); a compact clip for its groups of lanes
// (CompactClip::soa_windows), and the compact sampler applies it again to a group without windows
// as it runs (anim/soa_store.h).
#pragma once

#include <cstddef>

#include "critter/core/soa_transform.h"

namespace critter::detail {

// Where component `component` (0-2 translation, 3-6 rotation x y z w, 7-9 scale) of joint `joint`
// lies among the floats of a structure-of-arrays pose (SoaTransform blocks seen as floats): block
// joint / 16, row `component`, lane joint % 16.
constexpr std::size_t soa_float_index(std::size_t joint, std::size_t component) {
  constexpr std::size_t kLanes = SoaTransform::kLanes;
  return joint / kLanes * (10 * kLanes) + component * kLanes + joint % kLanes;
}

// Joints joints[0..lanes) are joints[0] + 0..lanes − 1 (`lanes` == `width`), all in one block.
template <class J>
inline bool consecutive_in_block(const J* joints, std::size_t lanes, std::size_t width) {
  const auto first = static_cast<std::size_t>(joints[0]);
  if (lanes != width || first % SoaTransform::kLanes + width > SoaTransform::kLanes) return false;
  for (std::size_t l = 1; l < lanes; ++l)
    if (static_cast<std::size_t>(joints[l]) != first + l) return false;
  return true;
}

}  // namespace critter::detail
