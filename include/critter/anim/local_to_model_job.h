// SPDX-License-Identifier: MIT
// LocalToModelJob: turns a local pose into model-space joint matrices (model_from_joint) in one
// forward pass over a parents-first skeleton (DESIGN.md convention 3).
#pragma once

#include <cstdint>
#include <span>

#include "critter/asset/skeleton.h"
#include "critter/core/error.h"
#include "critter/core/math.h"
#include "critter/core/soa_transform.h"
#include "critter/core/transform.h"

namespace critter::anim {

// Which implementation run() uses. kAuto picks the fastest the CPU supports (AVX-512, else AVX2,
// else SSE2); kScalar is the plain reference loop. Every path gives the same bits: each matrix
// entry comes out of the same float operations in the same order.
enum class LocalToModelPath : std::uint8_t { kAuto, kScalar, kSse2, kAvx2, kAvx512 };

// True when this CPU and build can run `path` (kAuto and kScalar always; kSse2 on x86-64; kAvx2
// and kAvx512 where the CPU has AVX2 and FMA, or AVX-512 F and FMA, checked once at run time).
bool local_to_model_path_available(LocalToModelPath path);

struct LocalToModelJob {
  // Per joint, parents-first: parents[i] < i, or -1 for a root (Skeleton::parents()). Ignored
  // when `skeleton` is set.
  std::span<const std::int16_t> parents;
  // Optional: the skeleton whose parents to use. build_skeleton() checked their order when it
  // built it and a Skeleton never changes after, so validate() does not scan them again.
  const Skeleton* skeleton = nullptr;
  // Local transforms, one per joint.
  std::span<const Transform> input;
  // Or the local pose in structure-of-arrays form (soa_blocks(joints) blocks, as the samplers
  // and BlendingJob write it), used when not empty (`input` stays empty then): the same bits.
  std::span<const SoaTransform> soa_input{};
  // Matrix placed above every root joint (the model root: an instance transform, a model scale);
  // any 4x4 matrix, identity by default.
  mat4 root = kIdentityMatrix;
  // Matrix placed right after the local transform of every root joint, so it moves the whole
  // skeleton in the root joint's frame: model[root] = root · local(root) · root_correction. The
  // animation config's root-bone correction (animation-config.md §12). Must be affine (last row
  // 0 0 0 1); identity by default, which costs nothing.
  mat4 root_correction = kIdentityMatrix;
  // model_from_joint per joint: root · local(root joint) · root_correction · … · local(i).
  // input.size() entries.
  std::span<mat4> output;
  // The implementation; see LocalToModelPath.
  LocalToModelPath path = LocalToModelPath::kAuto;

  // Names the first broken rule (ErrorCode::kUsage, path "LocalToModelJob", location the field or
  // "parents/<i>"): input size != parents size (soa_input: not soa_blocks(parents size) blocks,
  // or input set too); output size != parents size; a parent that is not
  // -1 and not below its child (not checked for a `skeleton`'s parents); a non-finite root matrix;
  // a root_correction that is not finite or not affine; a `path` this CPU cannot run.
  Status validate() const;
  // Validates, then computes model[i] = model[parent(i)] · T·R·S(local i) (root for parent -1).
  // Never throws, logs or allocates.
  Status run() const;
};

}  // namespace critter::anim
