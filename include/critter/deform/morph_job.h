// SPDX-License-Identifier: MIT
// MorphJob: applies weighted morph target deltas to a part's base vertex streams (playback.md
// §11): p = position + sum_i w_i * dp_i, n = normalize(normal + sum_i w_i * dn_i),
// t = vec4(normalize(tangent.xyz + sum_i w_i * dt_i), tangent.w). Morphing happens in mesh space,
// before skinning. This CPU path is the reference for the GPU morph texture path.
#pragma once

#include <span>

#include "critter/asset/morph_set.h"
#include "critter/core/error.h"
#include "critter/core/math.h"

namespace critter::deform {

struct MorphJob {
  // The part's targets (MeshPart::morphs). Not owned; read during run() only.
  const MorphSet* morphs = nullptr;
  // One finite weight per target. Targets whose weight is exactly 0 are skipped.
  std::span<const float> weights;

  // Base streams (N = in_positions.size() vertices). Normals and tangents are optional: each is
  // empty on both sides or N long on both sides.
  std::span<const vec3> in_positions;
  std::span<const vec3> in_normals;
  std::span<const vec4> in_tangents;  // xyz direction, w handedness (copied)
  // Outputs, N entries each. An output may be exactly its input (morphing in place); partial
  // overlaps are not allowed. Normals and tangents are renormalised; a zero-length result is 0.
  std::span<vec3> out_positions;
  std::span<vec3> out_normals;
  std::span<vec4> out_tangents;

  // Names the first broken rule: missing morph set, weight count or a non-finite weight, stream
  // sizes (each target stream must be empty or N long). Linear in the target count.
  Status validate() const;
  // Validates, then morphs. Never allocates, throws or logs.
  Status run() const;
};

}  // namespace critter::deform
