// SPDX-License-Identifier: MIT
// IkLookAtJob: a look-at entry of the `ik` block (animation-config.md §18): turns a chain of bones
// (neck, head, ...) so the last one looks at a model-space point or along yaw/pitch angles, each
// bone taking its share of the turn. Writes local rotations; translation and scale are kept.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "critter/anim/ik_options.h"
#include "critter/core/error.h"
#include "critter/core/math.h"
#include "critter/core/transform.h"

namespace critter::anim {

// Per-instance state of one look-at entry ({} to start).
struct LookAtState {
  float yaw = 0.0f;  // smoothed angles, radians, valid when initialized
  float pitch = 0.0f;
  float yaw_velocity = 0.0f;
  float pitch_velocity = 0.0f;
  bool initialized = false;
};

struct IkLookAtJob {
  // Per joint, parents-first (Skeleton::parents()).
  std::span<const std::int16_t> parents;
  // In/out local pose; only the rotations of `bones` change.
  std::span<Transform> locals;
  // In/out model_from_joint of `locals` under `root` (LocalToModelJob without the legacy rule);
  // kept consistent with the corrected locals on return.
  std::span<mat4> models;
  mat4 root = kIdentityMatrix;

  // Bones root to tip (1..32), each a strict descendant of the one before. The last bone looks.
  std::span<const std::int16_t> bones;
  // Share of the turn per bone, each in [0, 1], sum <= 1 (1e-4 slack); empty = all on the last.
  std::span<const float> shares;
  LookAtSettings settings;

  // The look: toward `target` (a model-space point, seen from the last bone's position) when set,
  // else along `yaw` and `pitch` (radians). Angles are measured in the last bone's current frame:
  // f = its forward axis and u = its up axis in model space (before this job); yaw turns about u
  // (positive from f toward u × f), pitch turns f toward u. Both are clamped to the settings'
  // limits. The target direction is measured from where the last bone ends up once the bones
  // before it have turned (a few fixed-point passes), so with shares summing to 1 and angles
  // within the limits its forward ends up pointing at the target.
  std::optional<vec3> target;
  float yaw = 0.0f;
  float pitch = 0.0f;

  // In [0, 1]: each bone's local rotation = slerp(pre-look, solved, weight).
  float weight = 1.0f;
  // Frame time for smoothing, seconds (>= 0).
  float dt = 0.0f;
  // Required when settings.smooth_time > 0.
  LookAtState* state = nullptr;

  // Names the first broken rule (ErrorCode::kUsage, path "IkLookAtJob", location the field):
  // "locals" or "models" size != parents size; "parents/<i>"; "bones" empty or longer than 32;
  // "bones/<i>" outside the skeleton or not a descendant of bones[i-1]; "shares" neither empty nor
  // bones.size(); "shares/<i>" not finite or outside [0, 1]; "shares" summing above 1;
  // "settings/forward_axis", "settings/up_axis" zero, not finite or parallel;
  // "settings/max_yaw_degrees", "settings/max_pitch_degrees" outside [0, 180];
  // "settings/smooth_time", "dt" not finite or < 0; "target", "yaw", "pitch" not finite;
  // "weight" outside [0, 1]; "root" not finite; "state" missing when required.
  Status validate() const;

  // Validates, then turns the bones. With c_i the cumulative share of bones 0..i and
  // Q(t) = R_u(t·yaw)·R_p(t·pitch) (p = f × u), bone i is rotated in model space about its own
  // position by Q(c_i)·Q(c_{i−1})⁻¹, so the turns compose to Q(Σ shares) exactly. Never throws,
  // logs or allocates.
  Status run() const;
};

}  // namespace critter::anim
