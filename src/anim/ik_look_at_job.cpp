// SPDX-License-Identifier: MIT
#include "critter/anim/ik_look_at_job.h"

#include <array>
#include <cmath>
#include <string>

#include "critter/anim/ik_smooth_damp.h"
#include "ik_pose.h"

namespace critter::anim {

namespace {

using detail::PoseView;

constexpr float kDegToRad = detail::kIkPi / 180.0f;

Status job_error(std::string location, std::string message) {
  return fail(Error::at(ErrorCode::kUsage, "IkLookAtJob", std::move(location), std::move(message)));
}

bool bad_axis(const vec3& v) {
  return !detail::all_finite_vec(v) || glm::length(v) < 1e-7f;
}

bool is_descendant(std::span<const std::int16_t> parents, int joint, int ancestor) {
  for (int j = parents[static_cast<std::size_t>(joint)]; j >= ancestor;
       j = parents[static_cast<std::size_t>(j)])
    if (j == ancestor) return true;
  return false;
}

}  // namespace

Status IkLookAtJob::validate() const {
  if (Status pose =
          detail::validate_pose_spans("IkLookAtJob", parents, locals.size(), models.size());
      !pose)
    return pose;
  if (bones.empty() || bones.size() > static_cast<std::size_t>(kMaxIkChainLength))
    return job_error("bones", "needs 1 to 32 bones");
  const int joint_count = static_cast<int>(parents.size());
  for (std::size_t i = 0; i < bones.size(); ++i) {
    const int b = bones[i];
    if (b < 0 || b >= joint_count)
      return job_error("bones/" + std::to_string(i),
                       "joint " + std::to_string(b) + " is outside the skeleton");
    if (i > 0 && !is_descendant(parents, b, bones[i - 1]))
      return job_error("bones/" + std::to_string(i), "not a descendant of the bone before it");
  }
  if (!shares.empty() && shares.size() != bones.size())
    return job_error("shares", "needs one share per bone (or none)");
  float sum = 0.0f;
  for (std::size_t i = 0; i < shares.size(); ++i) {
    if (!std::isfinite(shares[i]) || shares[i] < 0.0f || shares[i] > 1.0f)
      return job_error("shares/" + std::to_string(i), "must be in [0, 1]");
    sum += shares[i];
  }
  if (sum > 1.0f + 1e-4f) return job_error("shares", "the shares sum above 1");
  if (bad_axis(settings.forward_axis))
    return job_error("settings/forward_axis", "must be a finite non-zero axis");
  if (bad_axis(settings.up_axis))
    return job_error("settings/up_axis", "must be a finite non-zero axis");
  if (glm::length(glm::cross(glm::normalize(settings.forward_axis),
                             glm::normalize(settings.up_axis))) < 1e-3f)
    return job_error("settings/up_axis", "is parallel to the forward axis");
  auto bad_limit = [](float deg) { return !std::isfinite(deg) || deg < 0.0f || deg > 180.0f; };
  if (bad_limit(settings.max_yaw_degrees))
    return job_error("settings/max_yaw_degrees", "must be in [0, 180]");
  if (bad_limit(settings.max_pitch_degrees))
    return job_error("settings/max_pitch_degrees", "must be in [0, 180]");
  if (!std::isfinite(settings.smooth_time) || settings.smooth_time < 0.0f)
    return job_error("settings/smooth_time", "must be finite and >= 0");
  if (!std::isfinite(dt) || dt < 0.0f) return job_error("dt", "must be finite and >= 0");
  if (target && !detail::all_finite_vec(*target)) return job_error("target", "must be finite");
  if (!std::isfinite(yaw)) return job_error("yaw", "must be finite");
  if (!std::isfinite(pitch)) return job_error("pitch", "must be finite");
  if (!std::isfinite(weight) || weight < 0.0f || weight > 1.0f)
    return job_error("weight", "must be in [0, 1]");
  if (!detail::all_finite_mat(root)) return job_error("root", "must be finite");
  if (!state && settings.smooth_time > 0.0f)
    return job_error("state", "smoothing needs a LookAtState");
  return {};
}

Status IkLookAtJob::run() const {
  if (auto v = validate(); !v) return v;
  const PoseView pose{parents, locals, models, root};
  const int n = static_cast<int>(bones.size());
  const int last = bones[static_cast<std::size_t>(n - 1)];

  // The last bone's frame in model space, made orthonormal (up loses its forward component).
  const quat r_last = pose.rotation(last);
  const vec3 f = glm::normalize(r_last * glm::normalize(settings.forward_axis));
  const vec3 u_raw = r_last * glm::normalize(settings.up_axis);
  const vec3 u = glm::normalize(u_raw - glm::dot(u_raw, f) * f);
  const vec3 side = glm::cross(u, f);
  const vec3 pitch_axis = glm::cross(f, u);

  const float max_yaw = settings.max_yaw_degrees * kDegToRad;
  const float max_pitch = settings.max_pitch_degrees * kDegToRad;

  std::array<quat, kMaxIkChainLength> pre{};
  for (int i = 0; i < n; ++i)
    pre[static_cast<std::size_t>(i)] = pose.local(bones[static_cast<std::size_t>(i)]).rotation;

  // Q(t): the look turned by the fraction t of both angles; each bone takes the step from the
  // previous cumulative share to its own, so the steps compose to Q(total share) exactly.
  auto turn = [&](float turn_yaw, float turn_pitch) {
    float cumulative = 0.0f;
    quat previous = quat_xyzw(0, 0, 0, 1);
    for (int i = 0; i < n; ++i) {
      const float share =
          shares.empty() ? (i == n - 1 ? 1.0f : 0.0f) : shares[static_cast<std::size_t>(i)];
      if (share <= 0.0f) continue;
      cumulative += share;
      const quat current = glm::angleAxis(cumulative * turn_yaw, u) *
                           glm::angleAxis(cumulative * turn_pitch, pitch_axis);
      const int b = bones[static_cast<std::size_t>(i)];
      pose.rotate(b, glm::normalize(current * glm::conjugate(previous)));
      pose.update_subtree(b);
      previous = current;
    }
  };
  auto restore = [&] {
    for (int i = 0; i < n; ++i)
      pose.local(bones[static_cast<std::size_t>(i)]).rotation = pre[static_cast<std::size_t>(i)];
    pose.update(bones[0]);
    pose.update_subtree(bones[0]);
  };

  float look_yaw = yaw, look_pitch = pitch;
  if (target) {
    // Seen from the last bone: bones turned before it move it, so the direction is measured again
    // from where the turn leaves it (a few fixed-point passes; the first is the unturned pose).
    vec3 eye = pose.pos(last);
    for (int pass = 0; pass < 4; ++pass) {
      const vec3 d = *target - eye;
      const float len = glm::length(d);
      if (len > 1e-7f) {
        const vec3 dn = d / len;
        look_yaw = std::atan2(glm::dot(dn, side), glm::dot(dn, f));
        look_pitch = std::asin(glm::clamp(glm::dot(dn, u), -1.0f, 1.0f));
      } else {
        look_yaw = look_pitch = 0.0f;
      }
      if (pass == 3 || bones.size() == 1 || shares.empty()) break;
      turn(glm::clamp(look_yaw, -max_yaw, max_yaw), glm::clamp(look_pitch, -max_pitch, max_pitch));
      const vec3 moved = pose.pos(last);
      restore();
      if (glm::distance(moved, eye) < 1e-7f) break;
      eye = moved;
    }
  }
  look_yaw = glm::clamp(look_yaw, -max_yaw, max_yaw);
  look_pitch = glm::clamp(look_pitch, -max_pitch, max_pitch);
  if (state) {
    if (state->initialized && settings.smooth_time > 0.0f) {
      look_yaw = smooth_damp(state->yaw, look_yaw, state->yaw_velocity, settings.smooth_time, dt);
      look_pitch =
          smooth_damp(state->pitch, look_pitch, state->pitch_velocity, settings.smooth_time, dt);
    } else {
      state->yaw_velocity = state->pitch_velocity = 0.0f;
    }
    state->yaw = look_yaw;
    state->pitch = look_pitch;
    state->initialized = true;
  }

  turn(look_yaw, look_pitch);

  if (weight < 1.0f) {
    for (int i = 0; i < n; ++i) {
      Transform& t = pose.local(bones[static_cast<std::size_t>(i)]);
      t.rotation = glm::normalize(glm::slerp(pre[static_cast<std::size_t>(i)], t.rotation, weight));
    }
    pose.update(bones[0]);
    pose.update_subtree(bones[0]);
  }
  return {};
}

}  // namespace critter::anim
