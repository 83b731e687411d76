// SPDX-License-Identifier: MIT
// LimbStepJob: one frame of a LimbAnimator (creatures.md §14) as a job (DESIGN.md convention 1):
// this frame's local pose and placement in, the bent model-space joint matrices out.
//
//   LimbStepJob job;
//   job.animator = &animator;
//   job.local_pose = player.local_pose();
//   job.dt = dt;
//   job.output = model_transforms;  // one mat4 per joint of the split model
//   if (auto ok = job.run(); !ok) report(ok.error());
#pragma once

#include <span>

#include "critter/core/error.h"
#include "critter/core/math.h"
#include "critter/core/transform.h"

namespace critter::creature {

class LimbAnimator;

struct LimbStepJob {
  // The animator whose state the step advances (not owned; not null).
  LimbAnimator* animator = nullptr;
  // This frame's local pose from whatever source produced it (clip, controller, rig), one
  // Transform per joint of the animator's model. Never written: the game's pose stays as it is.
  std::span<const Transform> local_pose;
  // The placement, as LocalToModelJob takes it: matrix above every root, and the root-bone
  // correction after each root joint's local (affine).
  mat4 root = kIdentityMatrix;
  mat4 root_correction = kIdentityMatrix;
  // Seconds since the previous step, finite and >= 0 (0: nothing eases or advances).
  float dt = 0.0f;
  // model_from_joint of every joint after the step, one per joint: the pose with the strokes,
  // motion turns, lean, bank and drop, then the limbs' lower and seam joints bent and the
  // joints below each cut carried with the forearm or shin.
  std::span<mat4> output;

  // Names the first broken rule (ErrorCode::kUsage, path "LimbStepJob", location the field):
  // animator null; local_pose or output size != the model's joint count; dt negative or not
  // finite; root or root_correction not finite.
  Status validate() const;
  // Validates, then runs the step. Never throws, logs or allocates.
  Status run() const;
};

}  // namespace critter::creature
