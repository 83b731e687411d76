// SPDX-License-Identifier: MIT
#include "critter/anim/ik_joint_limit.h"

#include <array>
#include <cmath>
#include <string>

namespace critter::anim {

namespace {

constexpr float kPi = 3.14159265358979f;
constexpr float kDegToRad = kPi / 180.0f;

// Axis indices (0 = X, 1 = Y, 2 = Z) of an order, leftmost (acting last) first.
struct Axes {
  int i, j, k;
  // +1 when (i, j, k) is a cyclic permutation of (X, Y, Z), −1 otherwise: the sign that the
  // single-sine entries of the rotation matrix carry.
  float parity;
};

constexpr std::array<std::string_view, 6> kNames{"XYZ", "XZY", "YXZ", "YZX", "ZXY", "ZYX"};

Axes axes_of(EulerOrder order) {
  switch (order) {
    case EulerOrder::kXYZ:
      return {0, 1, 2, 1.0f};
    case EulerOrder::kXZY:
      return {0, 2, 1, -1.0f};
    case EulerOrder::kYXZ:
      return {1, 0, 2, -1.0f};
    case EulerOrder::kYZX:
      return {1, 2, 0, 1.0f};
    case EulerOrder::kZXY:
      return {2, 0, 1, 1.0f};
    case EulerOrder::kZYX:
      return {2, 1, 0, -1.0f};
  }
  return {1, 0, 2, -1.0f};
}

quat axis_rotation(int axis, float angle) {
  const float s = std::sin(angle * 0.5f), c = std::cos(angle * 0.5f);
  vec3 v(0.0f);
  v[axis] = s;
  return quat_xyzw(v.x, v.y, v.z, c);
}

float wrap_pi(float a) {
  if (a > kPi) return a - 2.0f * kPi;
  if (a < -kPi) return a + 2.0f * kPi;
  return a;
}

// The two decompositions of q: the principal one and (α + π, π − β, γ + π), wrapped.
std::array<vec3, 2> decompositions(const quat& q, EulerOrder order) {
  const Axes a = axes_of(order);
  const vec3 first = to_euler(q, order);
  vec3 second = first;
  second[a.i] = wrap_pi(first[a.i] + kPi);
  second[a.j] = wrap_pi(kPi - first[a.j]);
  second[a.k] = wrap_pi(first[a.k] + kPi);
  return {first, second};
}

bool bad_bound(const vec3& v) {
  for (int c = 0; c < 3; ++c)
    if (!std::isfinite(v[c]) || v[c] < -180.0f || v[c] > 180.0f) return true;
  return false;
}

}  // namespace

std::optional<EulerOrder> parse_euler_order(std::string_view text) {
  if (text.size() != 3) return std::nullopt;
  std::string upper(text);
  for (char& c : upper)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  for (std::size_t o = 0; o < kNames.size(); ++o)
    if (upper == kNames[o]) return static_cast<EulerOrder>(o);
  return std::nullopt;
}

std::string_view to_string(EulerOrder order) {
  return kNames[static_cast<std::size_t>(order)];
}

vec3 to_euler(const quat& q, EulerOrder order) {
  const Axes a = axes_of(order);
  // m[col][row], column vectors: R_{row,col} = m[col][row].
  const glm::mat3 m = glm::mat3_cast(glm::normalize(q));
  auto r = [&m](int row, int col) { return m[col][row]; };
  const float s = a.parity;
  vec3 out(0.0f);
  const float sin_b = glm::clamp(s * r(a.i, a.k), -1.0f, 1.0f);
  out[a.j] = std::asin(sin_b);
  if (std::abs(sin_b) < 0.9999995f) {
    out[a.i] = std::atan2(-s * r(a.j, a.k), r(a.k, a.k));
    out[a.k] = std::atan2(-s * r(a.i, a.j), r(a.i, a.i));
  } else {
    // Gimbal lock: only α ± γ is defined; give it all to the first axis.
    out[a.i] = std::atan2(s * r(a.k, a.j), r(a.j, a.j));
    out[a.k] = 0.0f;
  }
  return out;
}

quat from_euler(const vec3& angles, EulerOrder order) {
  const Axes a = axes_of(order);
  return glm::normalize(axis_rotation(a.i, angles[a.i]) * axis_rotation(a.j, angles[a.j]) *
                        axis_rotation(a.k, angles[a.k]));
}

Status JointLimit::validate(int joint_count) const {
  auto error = [](std::string location, std::string message) -> Status {
    return fail(
        Error::at(ErrorCode::kUsage, "JointLimit", std::move(location), std::move(message)));
  };
  if (joint < 0 || joint >= joint_count)
    return error("joint", "joint " + std::to_string(joint) + " is outside the skeleton (" +
                              std::to_string(joint_count) + " joints)");
  if (bad_bound(min_degrees))
    return error("min_degrees", "bounds must be finite degrees in [-180, 180]");
  if (bad_bound(max_degrees))
    return error("max_degrees", "bounds must be finite degrees in [-180, 180]");
  for (int c = 0; c < 3; ++c)
    if (min_degrees[c] > max_degrees[c])
      return error("min_degrees", std::string("min > max on axis ") + "XYZ"[c]);
  return {};
}

quat JointLimit::clamp(const quat& q) const {
  const vec3 lo = min_degrees * kDegToRad, hi = max_degrees * kDegToRad;
  const auto candidates = decompositions(q, order);
  vec3 best(0.0f);
  float best_cost = std::numeric_limits<float>::max();
  for (const vec3& e : candidates) {
    const vec3 c = glm::clamp(e, lo, hi);
    const vec3 d = glm::abs(c - e);
    const float cost = d.x + d.y + d.z;
    if (cost < best_cost) {
      best_cost = cost;
      best = c;
    }
  }
  // Inside the bounds: hand back q itself so an unconstrained rotation is untouched to the bit.
  if (best_cost == 0.0f) return glm::normalize(q);
  const quat out = from_euler(best, order);
  // Keep the input's hemisphere so later slerps between pre- and post-limit rotations stay short.
  return glm::dot(out, q) < 0.0f ? -out : out;
}

bool JointLimit::contains(const quat& q, float tolerance_degrees) const {
  const vec3 lo = (min_degrees - tolerance_degrees) * kDegToRad;
  const vec3 hi = (max_degrees + tolerance_degrees) * kDegToRad;
  for (const vec3& e : decompositions(q, order))
    if (glm::all(glm::greaterThanEqual(e, lo)) && glm::all(glm::lessThanEqual(e, hi))) return true;
  return false;
}

}  // namespace critter::anim
