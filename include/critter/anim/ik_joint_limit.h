// SPDX-License-Identifier: MIT
// JointLimit: Euler-angle limits of one joint's local rotation, in degrees, for the IK solvers
// (animation-config.md §18 "Joint limits"). Clamping touches only the rotation; translation and
// scale of the bone are the caller's and stay as they are (§0.2 quirk 6).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "critter/core/error.h"
#include "critter/core/math.h"

namespace critter::anim {

// Order of an Euler composition, named in column order: kYXZ means R = R_Y(y)·R_X(x)·R_Z(z), so
// the Z rotation acts first. The angles are always stored per axis (x, y, z), whatever the order.
enum class EulerOrder : std::uint8_t { kXYZ, kXZY, kYXZ, kYZX, kZXY, kZYX };

// "XYZ", "YXZ", ... (ASCII case-insensitive); nullopt for anything else.
std::optional<EulerOrder> parse_euler_order(std::string_view text);
std::string_view to_string(EulerOrder order);

// Angles (radians, about the local X, Y and Z axes) of `q` in `order`. The middle axis' angle is
// in [−π/2, π/2] and the other two in [−π, π]; at the gimbal lock (middle angle ±π/2) the last
// acting axis gets 0. `q` need not be normalised but must be non-zero.
vec3 to_euler(const quat& q, EulerOrder order);
// The rotation R_a(angle_a)·R_b(angle_b)·R_c(angle_c) for order "abc"; `angles` in radians per
// axis (x, y, z). Normalised.
quat from_euler(const vec3& angles, EulerOrder order);

struct JointLimit {
  // Joint the limit applies to (skeleton index). The IK jobs apply a limit only to the joints of
  // their chain; limits naming other joints are ignored.
  int joint = -1;
  EulerOrder order = EulerOrder::kYXZ;
  // Per-axis bounds (x, y, z) in degrees about the bone's local axes; each in [−180, 180], finite,
  // min <= max.
  vec3 min_degrees{-180.0f};
  vec3 max_degrees{180.0f};

  // Names the first broken rule (ErrorCode::kUsage, path "JointLimit", location "joint",
  // "min_degrees" or "max_degrees"): joint outside [0, joint_count); a bound not finite or outside
  // [−180, 180]; min > max on an axis.
  Status validate(int joint_count) const;

  // The local rotation `q` with its Euler angles clamped to the bounds and recomposed, normalised.
  // A rotation has two Euler decompositions (middle angle β or π − β); the one needing the smaller
  // total correction is clamped, so a knee bent 120° about X is recognised as such. A rotation
  // inside the bounds comes back unchanged (up to rounding). `q` must be non-zero.
  quat clamp(const quat& q) const;

  // True when some decomposition of `q` lies within the bounds, with `tolerance_degrees` slack.
  bool contains(const quat& q, float tolerance_degrees = 1e-3f) const;
};

}  // namespace critter::anim
