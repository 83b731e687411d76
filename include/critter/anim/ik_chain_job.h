// SPDX-License-Identifier: MIT
// IkChainJob: solves one IK chain of the `ik` block (animation-config.md §18) on a local pose and
// writes corrected LOCAL rotations back, so the rest of the pipeline (local-to-model, skinning)
// is unchanged. SingleBone, TwoBone (analytic, pole hint), CCD and FABRIK; joint limits; position,
// aim and chain weights; smoothing and the unreachable strategies (with IkChainState).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>

#include "critter/anim/ik_options.h"
#include "critter/core/error.h"
#include "critter/core/math.h"
#include "critter/core/transform.h"

namespace critter::anim {

// Per-instance, per-chain state carried from frame to frame (DESIGN.md: per-instance state).
// Value-initialise it once per chain ({}), keep it with the instance, pass it every frame.
struct IkChainState {
  // Smoothed position target and its SmoothDamp velocity; valid when has_target.
  vec3 target{0.0f};
  vec3 target_velocity{0.0f};
  bool has_target = false;
  // Smoothed aim direction and its velocity; valid when has_aim.
  vec3 aim{0.0f};
  vec3 aim_velocity{0.0f};
  bool has_aim = false;
  // Local rotations of the chain bones (root to tip) after the last solve, for
  // IkUnreachable::kUseLastValidResult; the first last_valid_count entries are valid.
  std::array<quat, kMaxIkChainLength> last_valid{};
  int last_valid_count = 0;
};

// What a run did (optional output, for callers and tests).
struct IkChainReport {
  bool skipped = false;   // nothing to do: no target and no non-zero aim (state reset)
  bool reachable = true;  // the position target was within reach (true without one)
  bool solved = false;    // a solver ran (false when skipped or kept by the strategy)
  bool restored = false;  // kUseLastValidResult put the last solved rotations back
  IkAlgorithm algorithm = IkAlgorithm::kAuto;  // the algorithm that ran (kAuto resolved)
  int chain_length = 0;                        // bones in the chain
  int iterations = 0;                          // CCD/FABRIK passes used
  // Distance from the end bone to the effective (weighted, smoothed) position target after the
  // solve and before the chain weight; 0 without a position target.
  float distance = 0.0f;
};

struct IkChainJob {
  // Per joint, parents-first (Skeleton::parents()).
  std::span<const std::int16_t> parents;
  // In/out: the local pose, one transform per joint. Only rotations of chain bones change.
  std::span<Transform> locals;
  // In/out: model_from_joint of `locals` under `root`, as LocalToModelJob computes it (without
  // the legacy rest-translation rule). On return every matrix matches the corrected locals (the
  // chain root's subtree is recomputed).
  std::span<mat4> models;
  // The matrix above the root joints that `models` was computed with (identity by default).
  mat4 root = kIdentityMatrix;

  // The chain: `end_joint` and its ancestors, up to `max_chain_length` bones (2..32), root to tip.
  int end_joint = -1;
  int max_chain_length = 3;
  IkChainSettings settings;

  // Model-space goals. `target`: the point the end bone should reach. `aim`: the direction the end
  // bone's aim axis should point along (ignored when zero). `hint`: pole point the TwoBone middle
  // joint bends toward. Without a target and without a non-zero aim the chain is skipped and the
  // state's smoothing resets.
  std::optional<vec3> target;
  std::optional<vec3> aim;
  std::optional<vec3> hint;

  // Weights in [0, 1] (quirk 5, all honoured by every algorithm): the effective target is
  // lerp(current end position, target, position_weight); aim corrections are slerped by
  // aim_weight (aim-only CCD/FABRIK chains use it as their position weight); at the end each chain
  // bone's local rotation = slerp(pre-IK, solved, weight).
  float weight = 1.0f;
  float position_weight = 1.0f;
  float aim_weight = 1.0f;

  // Joint limits; those naming chain bones are applied (other joints are ignored).
  std::span<const JointLimit> joint_limits;

  // Frame time for smoothing, seconds (>= 0).
  float dt = 0.0f;
  // Per-instance state; required when a smooth time is > 0 or unreachable is
  // kUseLastValidResult, optional otherwise.
  IkChainState* state = nullptr;
  // Optional report of what the run did.
  IkChainReport* report = nullptr;

  // Names the first broken rule (ErrorCode::kUsage, path "IkChainJob", location the field):
  // "locals" or "models" size != parents size; "parents/<i>" not -1 and not below i;
  // "end_joint" outside the skeleton or a root (a chain needs 2 bones); "max_chain_length"
  // outside [2, 32]; "settings/algorithm" kTwoBone on a chain of 2 bones; "settings/aim_axis"
  // zero or not finite; "settings/iterations" outside [1, 1000]; "settings/tolerance" not finite
  // or < 0; "settings/max_step_degrees" not finite or <= 0; "settings/position_smooth_time",
  // "settings/aim_smooth_time", "dt" not finite or < 0; "target", "aim", "hint" not finite;
  // "weight", "position_weight", "aim_weight" not finite or outside [0, 1]; "root" not finite;
  // "joint_limits/<i>/<field>" as JointLimit::validate; "state" missing when required.
  Status validate() const;

  // Validates, then solves (§18 order: smoothing, effective target, reachability strategy,
  // algorithm, joint limits, end-bone aim, chain weight). Rotating a bone by a model-space
  // rotation q sets its local rotation to P⁻¹·q·P·R, P the parent's model rotation (exact for
  // uniformly scaled parents). Translations and scales are never changed. Never throws, logs or
  // allocates.
  Status run() const;
};

}  // namespace critter::anim
