// SPDX-License-Identifier: MIT
// PaletteJob: builds a skin's joint (palette) matrices from model-space joint transforms
// (DESIGN.md: joint matrix = model_from_joint * inverse_bind).
#pragma once

#include <cstdint>
#include <span>

#include "critter/core/error.h"
#include "critter/core/math.h"

namespace critter::deform {

// palette[i] = root * model_transforms[joints[i]] * inverse_binds[i]  for i < joints.size(),
// as matrices or packed three texels per matrix.
// Entries of `palette` past joints.size() are left untouched.
struct PaletteJob {
  // model_from_joint of every skeleton joint (one per Skeleton joint, parents-first order).
  std::span<const mat4> model_transforms;
  // The skin's joints (Skin::joints): skeleton joint indices, each in [0, model_transforms.size()).
  // At most 65536 entries, since skinning indices are 16-bit.
  std::span<const std::int16_t> joints;
  // One per joint (Skin::inverse_bind), or empty to use identities.
  std::span<const mat4> inverse_binds;
  // Optional matrix applied on the left of every entry (e.g. world_from_model); null for none.
  // Not owned; read during run() only.
  const mat4* root = nullptr;
  // Output: at least joints.size() matrices. Unused when `packed` is set.
  std::span<mat4> palette;
  // Optional output in place of `palette`: each matrix as three texels, texel k = (column k's x,
  // y, z, the translation's component k) — the layout of a GPU palette (the last row of an affine
  // matrix is dropped); at least 3 · joints.size() entries. The values are the same bits as
  // `palette` would hold.
  std::span<vec4> packed;

  // Names the first broken rule: too many joints, inverse_binds size, output too small, a joint
  // index outside the skeleton. Scans `joints` (linear in the skin's joint count).
  Status validate() const;
  // Validates, then fills the palette. Never allocates, throws or logs.
  Status run() const;
};

}  // namespace critter::deform
