// SPDX-License-Identifier: MIT
// Internal: the one rule for when a set of joints fills consecutive lanes of one
// structure-of-arrays block (SoaTransform), so that each of their components is one vector store. A
// clip derives it for its sampling batches when it is made (Clip::LinearBatch::soa_in_row); the
// compact sampler applies it to its lanes as it runs (anim/soa_store.h).
#pragma once

#include <cstddef>

#include "critter/core/soa_transform.h"

namespace critter::detail {

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
