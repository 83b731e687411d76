// SPDX-License-Identifier: MIT
// Settings of the IK chains and look-at entries of an animation config's `ik` block
// (animation-config.md §18), as the config loader fills them and the IK jobs read them. Bones are
// resolved to joint indices and expressions evaluated by the caller; these are plain values.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "critter/anim/ik_joint_limit.h"
#include "critter/core/math.h"

namespace critter::anim {

// Longest chain an IK job solves (bones from the chain root to the end bone, both included).
inline constexpr int kMaxIkChainLength = 32;

enum class IkAlgorithm : std::uint8_t {
  kAuto,        // by chain length: 2 bones → kSingleBone, 3 → kTwoBone, 4 or more → kCcd
  kSingleBone,  // aim the chain root so the end bone's aim axis points at the aim or target
  kTwoBone,     // analytic: first, second and last bone of the chain
  kCcd,         // cyclic coordinate descent
  kFabrik,      // forward and backward reaching
};

// What a chain does when its (weighted) position target is farther from the chain root than the
// sum of its segment lengths.
enum class IkUnreachable : std::uint8_t {
  kExtendTowardTarget,  // solve anyway: the chain straightens toward the target (default)
  kKeepCurrentPose,     // skip the chain this frame
  kUseLastValidResult,  // restore the chain's last solved rotations (kept in IkChainState)
};

// "SingleBone", "TwoBone", "CCD", "FABRIK", also with an "IK" suffix ("TwoBoneIK", "CCDIK"),
// ASCII case-insensitive; "Auto" gives kAuto. nullopt for anything else.
std::optional<IkAlgorithm> parse_ik_algorithm(std::string_view text);
// "ExtendTowardTarget", "KeepCurrentPose", "UseLastValidResult", ASCII case-insensitive.
std::optional<IkUnreachable> parse_ik_unreachable(std::string_view text);
std::string_view to_string(IkAlgorithm algorithm);
std::string_view to_string(IkUnreachable unreachable);

// The algorithm kAuto stands for with a chain of `chain_length` bones (>= 2).
IkAlgorithm default_ik_algorithm(int chain_length);

// Per-chain settings (the constant part of a chain entry; target, weights and bones are per frame
// or resolved by the caller).
struct IkChainSettings {
  IkAlgorithm algorithm = IkAlgorithm::kAuto;
  // The end bone's local axis that aims (non-zero; normalised by the job). Default +Z.
  vec3 aim_axis{0.0f, 0.0f, 1.0f};
  IkUnreachable unreachable = IkUnreachable::kExtendTowardTarget;
  // CCD and FABRIK: at most `iterations` passes (1..1000), stopping once the end bone is closer
  // than `tolerance` (model units, >= 0) to the target; a CCD step turns a joint by at most
  // `max_step_degrees` (> 0).
  int iterations = 10;
  float tolerance = 0.001f;
  float max_step_degrees = 45.0f;
  // SmoothDamp times in seconds (>= 0, 0 = no smoothing) of the position target and of the aim
  // direction. Smoothing needs an IkChainState.
  float position_smooth_time = 0.0f;
  float aim_smooth_time = 0.0f;
};

// Per-entry settings of a look-at (`lookAt` entries of §18).
struct LookAtSettings {
  // Axes of the LAST bone of the entry, in its local space: the direction it looks along and its
  // up. Non-zero and not parallel; normalised by the job. Defaults +Z forward, +Y up.
  vec3 forward_axis{0.0f, 0.0f, 1.0f};
  vec3 up_axis{0.0f, 1.0f, 0.0f};
  // Yaw (about up) and pitch (toward up) are clamped to ±these, degrees in [0, 180].
  float max_yaw_degrees = 65.0f;
  float max_pitch_degrees = 55.0f;
  // SmoothDamp time of yaw and pitch, seconds (>= 0, 0 = none). Needs a LookAtState.
  float smooth_time = 0.0f;
};

}  // namespace critter::anim
