// SPDX-License-Identifier: MIT
#include "critter/anim/ik_chain_job.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "critter/anim/ik_smooth_damp.h"
#include "ik_pose.h"

namespace critter::anim {

namespace {

using detail::PoseView;

constexpr float kDegToRad = detail::kIkPi / 180.0f;
// Below this length (model units) a vector has no usable direction.
constexpr float kTiny = 1e-7f;

Status job_error(std::string location, std::string message) {
  return fail(Error::at(ErrorCode::kUsage, "IkChainJob", std::move(location), std::move(message)));
}

bool bad_weight(float w) {
  return !std::isfinite(w) || w < 0.0f || w > 1.0f;
}
bool bad_time(float t) {
  return !std::isfinite(t) || t < 0.0f;
}

// Chain joints root to tip; returns the bone count.
int collect_chain(std::span<const std::int16_t> parents, int end_joint, int max_length,
                  std::array<int, kMaxIkChainLength>& chain) {
  std::array<int, kMaxIkChainLength> up{};
  int n = 0;
  for (int j = end_joint; j >= 0 && n < max_length; j = parents[static_cast<std::size_t>(j)])
    up[static_cast<std::size_t>(n++)] = j;
  for (int k = 0; k < n; ++k)
    chain[static_cast<std::size_t>(k)] = up[static_cast<std::size_t>(n - 1 - k)];
  return n;
}

// The chain being solved: its joints, the pose view and the limits that apply to them.
struct Chain {
  const PoseView& pose;
  const std::array<int, kMaxIkChainLength>& joints;
  int n;
  std::span<const JointLimit> limits;

  int joint(int k) const { return joints[static_cast<std::size_t>(k)]; }
  vec3 pos(int k) const { return pose.pos(joint(k)); }
  vec3 end() const { return pos(n - 1); }

  // Models of chain bones k..n-1 from their (current) parents.
  void refresh_from(int k) const {
    for (int i = k; i < n; ++i) pose.update(joint(i));
  }
  // Clamps chain bone k's local rotation by its limits (all that name it, in order).
  void limit(int k) const {
    Transform& t = pose.local(joint(k));
    for (const JointLimit& l : limits)
      if (l.joint == joint(k)) t.rotation = l.clamp(t.rotation);
  }
  void limit_all() const {
    for (int k = 0; k < n; ++k) limit(k);
    refresh_from(0);
  }
  // Turns chain bone k by q (model space) and applies its limit; models of k..n-1 refreshed.
  void turn(int k, const quat& q) const {
    pose.rotate(joint(k), q);
    limit(k);
    refresh_from(k);
  }
  float length() const {
    float total = 0.0f;
    for (int k = 0; k + 1 < n; ++k) total += glm::distance(pos(k), pos(k + 1));
    return total;
  }
};

// Rotates the end bone so its aim axis points along `dir`, slerped by `w`.
void aim_end(const Chain& c, const vec3& aim_axis, const vec3& dir, float w) {
  if (w <= 0.0f) return;
  const vec3 axis = glm::normalize(c.pose.rotation(c.joint(c.n - 1)) * aim_axis);
  quat q = detail::shortest_arc(axis, glm::normalize(dir));
  if (w < 1.0f) q = glm::normalize(glm::slerp(quat_xyzw(0, 0, 0, 1), q, w));
  c.turn(c.n - 1, q);
}

void solve_single_bone(const Chain& c, const vec3& aim_axis, const vec3& dir, float w) {
  if (glm::length(dir) < kTiny || w <= 0.0f) return;
  const vec3 axis = glm::normalize(c.pose.rotation(c.joint(c.n - 1)) * aim_axis);
  quat q = detail::shortest_arc(axis, glm::normalize(dir));
  if (w < 1.0f) q = glm::normalize(glm::slerp(quat_xyzw(0, 0, 0, 1), q, w));
  c.pose.rotate(c.joint(0), q);
  c.limit(0);
  c.refresh_from(0);
}

// §18 TwoBone on the first, second and last bone of the chain.
void solve_two_bone(const Chain& c, const vec3& target, const std::optional<vec3>& hint) {
  const vec3 root = c.pos(0), mid = c.pos(1), end = c.end();
  const float l1 = glm::distance(root, mid), l2 = glm::distance(mid, end);
  const vec3 to_target = target - root;
  const float d = glm::length(to_target);
  if (d < kTiny || l1 < kTiny) return;
  const vec3 dir = to_target / d;
  vec3 new_mid;
  if (d >= l1 + l2) {
    new_mid = root + dir * l1;
  } else if (d <= std::abs(l1 - l2)) {
    new_mid = root + dir * (l1 * 0.5f);
  } else {
    const float cos_b = glm::clamp((l1 * l1 + d * d - l2 * l2) / (2.0f * l1 * d), -1.0f, 1.0f);
    const float sin_b = std::sqrt(std::max(0.0f, 1.0f - cos_b * cos_b));
    vec3 axis = glm::cross((hint ? *hint : mid) - root, to_target);
    // A hint (or current bend) in line with the target says nothing: fall back to Y, then X.
    if (glm::length(axis) < kTiny * std::max(1.0f, d)) axis = glm::cross(vec3(0, 1, 0), to_target);
    if (glm::length(axis) < kTiny * std::max(1.0f, d)) axis = glm::cross(vec3(1, 0, 0), to_target);
    const vec3 p = glm::normalize(glm::cross(dir, axis));
    new_mid = root + dir * (l1 * cos_b) + p * (l1 * sin_b);
  }
  c.pose.rotate(c.joint(0),
                detail::shortest_arc((mid - root) / l1, glm::normalize(new_mid - root)));
  c.refresh_from(1);
  const vec3 mid_now = c.pos(1), end_now = c.end();
  const vec3 from = end_now - mid_now, to = target - mid_now;
  if (glm::length(from) < kTiny || glm::length(to) < kTiny) return;
  c.pose.rotate(c.joint(1), detail::shortest_arc(glm::normalize(from), glm::normalize(to)));
  c.refresh_from(2);
}

int solve_ccd(const Chain& c, const vec3& target, const IkChainSettings& s) {
  const float max_step = s.max_step_degrees * kDegToRad;
  int used = 0;
  for (int it = 0; it < s.iterations; ++it) {
    if (glm::distance(c.end(), target) < s.tolerance) break;
    ++used;
    for (int k = c.n - 2; k >= 0; --k) {
      const vec3 p = c.pos(k);
      const vec3 to_end = c.end() - p, to_target = target - p;
      const float le = glm::length(to_end), lt = glm::length(to_target);
      if (le < kTiny || lt < kTiny) continue;
      const vec3 a = to_end / le, b = to_target / lt;
      vec3 axis = glm::cross(a, b);
      // atan2 keeps small angles exact where acos(dot) loses them to rounding near 1.
      const float angle = std::atan2(glm::length(axis), glm::dot(a, b));
      if (angle < 1e-7f) continue;
      if (glm::length(axis) < 1e-7f) {
        axis = glm::cross(a, vec3(1, 0, 0));
        if (glm::length(axis) < 1e-3f) axis = glm::cross(a, vec3(0, 1, 0));
      }
      c.turn(k, glm::angleAxis(std::min(angle, max_step), glm::normalize(axis)));
    }
  }
  return used;
}

int solve_fabrik(const Chain& c, const vec3& target, const IkChainSettings& s) {
  std::array<vec3, kMaxIkChainLength> p{};
  std::array<float, kMaxIkChainLength> len{};
  const int n = c.n;
  float total = 0.0f;
  for (int k = 0; k < n; ++k) p[static_cast<std::size_t>(k)] = c.pos(k);
  for (int k = 0; k + 1 < n; ++k) {
    len[static_cast<std::size_t>(k)] =
        glm::distance(p[static_cast<std::size_t>(k)], p[static_cast<std::size_t>(k + 1)]);
    total += len[static_cast<std::size_t>(k)];
  }
  auto toward = [](const vec3& from, const vec3& to, float l) {
    const vec3 v = to - from;
    const float d = glm::length(v);
    return d < kTiny ? from : from + v * (l / d);
  };
  const vec3 base = p[0];
  int used = 0;
  if (glm::distance(base, target) >= total) {
    // Out of reach: straighten the chain along the line to the target.
    for (int k = 0; k + 1 < n; ++k)
      p[static_cast<std::size_t>(k + 1)] =
          toward(p[static_cast<std::size_t>(k)], target, len[static_cast<std::size_t>(k)]);
    used = 1;
  } else {
    for (int it = 0; it < s.iterations; ++it) {
      if (glm::distance(p[static_cast<std::size_t>(n - 1)], target) < s.tolerance) break;
      ++used;
      p[static_cast<std::size_t>(n - 1)] = target;
      for (int k = n - 2; k >= 0; --k)
        p[static_cast<std::size_t>(k)] =
            toward(p[static_cast<std::size_t>(k + 1)], p[static_cast<std::size_t>(k)],
                   len[static_cast<std::size_t>(k)]);
      p[0] = base;
      for (int k = 0; k + 1 < n; ++k)
        p[static_cast<std::size_t>(k + 1)] =
            toward(p[static_cast<std::size_t>(k)], p[static_cast<std::size_t>(k + 1)],
                   len[static_cast<std::size_t>(k)]);
    }
  }
  // Rebuild rotations root to tip from the bones' current (already turned) positions, so joint
  // limits applied on the way are carried into the bones below.
  for (int k = 0; k + 1 < n; ++k) {
    const vec3 from = c.pos(k + 1) - c.pos(k);
    const vec3 to = p[static_cast<std::size_t>(k + 1)] - c.pos(k);
    if (glm::length(from) < kTiny || glm::length(to) < kTiny) continue;
    c.turn(k, detail::shortest_arc(glm::normalize(from), glm::normalize(to)));
  }
  return used;
}

}  // namespace

Status IkChainJob::validate() const {
  if (Status pose =
          detail::validate_pose_spans("IkChainJob", parents, locals.size(), models.size());
      !pose)
    return pose;
  const int joint_count = static_cast<int>(parents.size());
  if (end_joint < 0 || end_joint >= joint_count)
    return job_error("end_joint",
                     "joint " + std::to_string(end_joint) + " is outside the skeleton");
  if (parents[static_cast<std::size_t>(end_joint)] < 0)
    return job_error("end_joint", "the end joint is a root: a chain needs at least 2 bones");
  if (max_chain_length < 2 || max_chain_length > kMaxIkChainLength)
    return job_error("max_chain_length", "must be in [2, 32]");
  if (settings.algorithm == IkAlgorithm::kTwoBone) {
    std::array<int, kMaxIkChainLength> chain{};
    if (collect_chain(parents, end_joint, max_chain_length, chain) < 3)
      return job_error("settings/algorithm", "TwoBone needs a chain of at least 3 bones");
  }
  if (!detail::all_finite_vec(settings.aim_axis) || glm::length(settings.aim_axis) < kTiny)
    return job_error("settings/aim_axis", "must be a finite non-zero axis");
  if (settings.iterations < 1 || settings.iterations > 1000)
    return job_error("settings/iterations", "must be in [1, 1000]");
  if (bad_time(settings.tolerance))
    return job_error("settings/tolerance", "must be finite and >= 0");
  if (!std::isfinite(settings.max_step_degrees) || settings.max_step_degrees <= 0.0f)
    return job_error("settings/max_step_degrees", "must be finite and > 0");
  if (bad_time(settings.position_smooth_time))
    return job_error("settings/position_smooth_time", "must be finite and >= 0");
  if (bad_time(settings.aim_smooth_time))
    return job_error("settings/aim_smooth_time", "must be finite and >= 0");
  if (bad_time(dt)) return job_error("dt", "must be finite and >= 0");
  if (target && !detail::all_finite_vec(*target)) return job_error("target", "must be finite");
  if (aim && !detail::all_finite_vec(*aim)) return job_error("aim", "must be finite");
  if (hint && !detail::all_finite_vec(*hint)) return job_error("hint", "must be finite");
  if (bad_weight(weight)) return job_error("weight", "must be in [0, 1]");
  if (bad_weight(position_weight)) return job_error("position_weight", "must be in [0, 1]");
  if (bad_weight(aim_weight)) return job_error("aim_weight", "must be in [0, 1]");
  if (!detail::all_finite_mat(root)) return job_error("root", "must be finite");
  for (std::size_t i = 0; i < joint_limits.size(); ++i)
    if (auto v = joint_limits[i].validate(joint_count); !v)
      return job_error("joint_limits/" + std::to_string(i) + "/" + v.error().location,
                       v.error().message);
  if (!state && (settings.position_smooth_time > 0.0f || settings.aim_smooth_time > 0.0f))
    return job_error("state", "smoothing needs an IkChainState");
  if (!state && settings.unreachable == IkUnreachable::kUseLastValidResult)
    return job_error("state", "UseLastValidResult needs an IkChainState");
  return {};
}

Status IkChainJob::run() const {
  if (auto v = validate(); !v) return v;
  IkChainReport out;
  std::array<int, kMaxIkChainLength> joints{};
  const int n = collect_chain(parents, end_joint, max_chain_length, joints);
  out.chain_length = n;
  const PoseView pose{parents, locals, models, root};
  const Chain chain{pose, joints, n, joint_limits};

  const bool has_target = target.has_value();
  const bool has_aim = aim.has_value() && glm::length(*aim) > kTiny;
  if (!has_target && !has_aim) {
    if (state) {
      state->has_target = state->has_aim = false;
      state->target_velocity = state->aim_velocity = vec3(0.0f);
    }
    out.skipped = true;
    if (report) *report = out;
    return {};
  }

  // Smoothing: the first frame (no history) snaps to the goal.
  vec3 goal = has_target ? *target : vec3(0.0f);
  vec3 aim_dir = has_aim ? detail::direction(*aim) : vec3(0.0f);
  if (state) {
    if (!has_target) {
      state->has_target = false;
      state->target_velocity = vec3(0.0f);
    } else {
      if (state->has_target && settings.position_smooth_time > 0.0f)
        goal = smooth_damp(state->target, goal, state->target_velocity,
                           settings.position_smooth_time, dt);
      else
        state->target_velocity = vec3(0.0f);
      state->target = goal;
      state->has_target = true;
    }
    if (!has_aim) {
      state->has_aim = false;
      state->aim_velocity = vec3(0.0f);
    } else {
      if (state->has_aim && settings.aim_smooth_time > 0.0f) {
        const vec3 smoothed =
            smooth_damp(state->aim, aim_dir, state->aim_velocity, settings.aim_smooth_time, dt);
        state->aim = smoothed;
        if (glm::length(smoothed) > kTiny) aim_dir = glm::normalize(smoothed);
      } else {
        state->aim = aim_dir;
        state->aim_velocity = vec3(0.0f);
      }
      state->has_aim = true;
    }
  }

  IkAlgorithm algorithm = settings.algorithm;
  if (algorithm == IkAlgorithm::kAuto) algorithm = default_ik_algorithm(n);
  out.algorithm = algorithm;
  const bool iterative = algorithm == IkAlgorithm::kCcd || algorithm == IkAlgorithm::kFabrik;

  std::array<quat, kMaxIkChainLength> pre{};
  for (int k = 0; k < n; ++k)
    pre[static_cast<std::size_t>(k)] = pose.local(chain.joint(k)).rotation;

  const vec3 root_pos = chain.pos(0), end_pos = chain.end();
  const float reach = chain.length();
  std::optional<vec3> effective;
  if (has_target)
    effective = glm::mix(end_pos, goal, position_weight);
  else if (has_aim && iterative)
    effective = glm::mix(end_pos, root_pos + aim_dir * reach, aim_weight);

  // The chain weight blends every chain bone from its pre-IK rotation, then the subtree follows.
  auto finish = [&](bool store) {
    if (store && state) {
      for (int k = 0; k < n; ++k)
        state->last_valid[static_cast<std::size_t>(k)] = pose.local(chain.joint(k)).rotation;
      state->last_valid_count = n;
    }
    if (weight < 1.0f) {
      for (int k = 0; k < n; ++k) {
        Transform& t = pose.local(chain.joint(k));
        t.rotation =
            glm::normalize(glm::slerp(pre[static_cast<std::size_t>(k)], t.rotation, weight));
      }
    }
    chain.refresh_from(0);
    pose.update_subtree(chain.joint(0));
  };

  if (has_target) {
    // A hair of slack so a target placed exactly at full extension counts as reachable.
    out.reachable = glm::distance(root_pos, *effective) <= reach * (1.0f + 1e-6f);
    if (!out.reachable && settings.unreachable != IkUnreachable::kExtendTowardTarget) {
      if (settings.unreachable == IkUnreachable::kUseLastValidResult && state &&
          state->last_valid_count == n) {
        for (int k = 0; k < n; ++k)
          pose.local(chain.joint(k)).rotation = state->last_valid[static_cast<std::size_t>(k)];
        out.restored = true;
        finish(false);
      }
      if (effective) out.distance = glm::distance(chain.end(), *effective);
      if (report) *report = out;
      return {};
    }
  }

  switch (algorithm) {
    case IkAlgorithm::kSingleBone:
      if (has_aim)
        solve_single_bone(chain, settings.aim_axis, aim_dir, aim_weight);
      else
        solve_single_bone(chain, settings.aim_axis, *effective - root_pos, 1.0f);
      break;
    case IkAlgorithm::kTwoBone:
      if (effective) {
        solve_two_bone(chain, *effective, hint);
        chain.limit_all();
      }
      break;
    case IkAlgorithm::kCcd:
      out.iterations = solve_ccd(chain, *effective, settings);
      break;
    case IkAlgorithm::kFabrik:
      out.iterations = solve_fabrik(chain, *effective, settings);
      break;
    case IkAlgorithm::kAuto:
      break;
  }
  if (algorithm != IkAlgorithm::kSingleBone && has_aim && (has_target || !iterative))
    aim_end(chain, glm::normalize(settings.aim_axis), aim_dir, aim_weight);
  out.solved = true;
  if (effective) out.distance = glm::distance(chain.end(), *effective);
  finish(true);
  if (report) *report = out;
  return {};
}

}  // namespace critter::anim
