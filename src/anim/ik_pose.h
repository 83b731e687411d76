// SPDX-License-Identifier: MIT
// Pose helpers shared by the IK jobs: model-space rotations of joints, rotating a joint about its
// own model position, and keeping model matrices in step with edited locals.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <utility>

#include "critter/core/error.h"
#include "critter/core/transform.h"

namespace critter::anim::detail {

inline constexpr float kIkPi = 3.14159265358979f;

inline bool finite(float f) {
  return std::isfinite(f);
}

// The rotation part of an affine matrix (columns normalised; a mirrored basis has its first
// column flipped, as Transform::from_matrix folds a negative determinant into X).
inline quat matrix_rotation(const mat4& m) {
  glm::mat3 r(glm::normalize(vec3(m[0])), glm::normalize(vec3(m[1])), glm::normalize(vec3(m[2])));
  if (glm::determinant(r) < 0.0f) r[0] = -r[0];
  return glm::normalize(glm::quat_cast(r));
}

// normalize(v) that does not overflow: v is first divided by its largest component, so a
// direction such as (1e30, 0, 0) stays (1, 0, 0) instead of reaching inf through its length.
inline vec3 direction(const vec3& v) {
  const float m = std::max({std::fabs(v.x), std::fabs(v.y), std::fabs(v.z)});
  return m > 1.0f && std::isfinite(m) ? glm::normalize(v / m) : glm::normalize(v);
}

inline vec3 position(const mat4& m) {
  return vec3(m[3]);
}

// Rotation taking unit vector `from` to unit vector `to` along the shortest arc; a half turn
// about some axis perpendicular to `from` when they are opposite.
inline quat shortest_arc(const vec3& from, const vec3& to) {
  const float d = glm::dot(from, to);
  if (d < -0.999999f) {
    vec3 axis = glm::cross(vec3(1.0f, 0.0f, 0.0f), from);
    if (glm::dot(axis, axis) < 1e-6f) axis = glm::cross(vec3(0.0f, 1.0f, 0.0f), from);
    axis = glm::normalize(axis);
    return quat_xyzw(axis.x, axis.y, axis.z, 0.0f);
  }
  const vec3 c = glm::cross(from, to);
  return glm::normalize(quat_xyzw(c.x, c.y, c.z, 1.0f + d));
}

// A pose view the IK jobs edit: locals and models kept consistent joint by joint.
struct PoseView {
  std::span<const std::int16_t> parents;
  std::span<Transform> locals;
  std::span<mat4> models;
  const mat4& root;

  const mat4& parent_model(int j) const {
    const int p = parents[static_cast<std::size_t>(j)];
    return p < 0 ? root : models[static_cast<std::size_t>(p)];
  }
  vec3 pos(int j) const { return position(models[static_cast<std::size_t>(j)]); }
  quat rotation(int j) const { return matrix_rotation(models[static_cast<std::size_t>(j)]); }
  Transform& local(int j) const { return locals[static_cast<std::size_t>(j)]; }

  // models[j] from its parent's (already current) model and its local.
  void update(int j) const {
    models[static_cast<std::size_t>(j)] = parent_model(j) * local(j).to_matrix();
  }

  // Turns joint j by the model-space rotation q about its own position: new local rotation =
  // P⁻¹·q·P·R with P the parent's model rotation. Updates models[j] only. A turn with no defined
  // result (a parent or bone scaled to 0 has no rotation, a degenerate direction gives a NaN q)
  // leaves the joint as it was: every IK write goes through here, so no job outputs NaN.
  void rotate(int j, const quat& q) const {
    const quat p = matrix_rotation(parent_model(j));
    Transform& t = local(j);
    const quat turned = glm::normalize(glm::conjugate(p) * q * p * t.rotation);
    if (!finite(turned.x) || !finite(turned.y) || !finite(turned.z) || !finite(turned.w)) return;
    t.rotation = turned;
    update(j);
  }

  // Recomputes the models of every strict descendant of `top` (parents-first order). Membership
  // flags cover only joints from `top` on, and only those words are cleared, so small chains on
  // small skeletons pay for a few words rather than the whole 32768-joint range.
  void update_subtree(int top) const {
    static constexpr std::size_t kWords = 32768 / 64;
    std::array<std::uint64_t, kWords> inside;
    const std::size_t base = static_cast<std::size_t>(top);
    const std::size_t count = parents.size() - base;
    std::fill_n(inside.begin(), (count + 63) / 64, std::uint64_t{0});
    inside[0] = 1;
    for (std::size_t j = base + 1; j < parents.size(); ++j) {
      const int p = parents[j];
      if (p < top) continue;
      const std::size_t pi = static_cast<std::size_t>(p) - base;
      if ((inside[pi / 64] >> (pi % 64)) & 1u) {
        const std::size_t ji = j - base;
        inside[ji / 64] |= std::uint64_t{1} << (ji % 64);
        update(static_cast<int>(j));
      }
    }
  }
};

// The first rule of a parents-first skeleton that `parents` breaks, as a location, or empty.
inline std::string broken_parent(std::span<const std::int16_t> parents) {
  for (std::size_t i = 0; i < parents.size(); ++i) {
    const int p = parents[i];
    if (p < -1 || p >= static_cast<int>(i)) return "parents/" + std::to_string(i);
  }
  return {};
}

// The first rule that the pose spans of the IK job `job` break (at most 32767 joints, a local
// transform and a model matrix for each, parents first), as that job's usage error; success when
// they keep every rule.
inline Status validate_pose_spans(const char* job, std::span<const std::int16_t> parents,
                                  std::size_t local_count, std::size_t model_count) {
  const auto error = [&](std::string location, std::string message) {
    return fail(Error::at(ErrorCode::kUsage, job, std::move(location), std::move(message)));
  };
  if (parents.size() > 32767) return error("parents", "more than 32767 joints");
  if (local_count != parents.size())
    return error("locals", "size " + std::to_string(local_count) + " != joint count " +
                               std::to_string(parents.size()));
  if (model_count != parents.size())
    return error("models", "size " + std::to_string(model_count) + " != joint count " +
                               std::to_string(parents.size()));
  if (auto where = broken_parent(parents); !where.empty())
    return error(where, "a parent must be -1 or below its child");
  return {};
}

inline bool all_finite_vec(const vec3& v) {
  return finite(v.x) && finite(v.y) && finite(v.z);
}

inline bool all_finite_mat(const mat4& m) {
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r)
      if (!finite(m[c][r])) return false;
  return true;
}

}  // namespace critter::anim::detail
