// SPDX-License-Identifier: MIT
#include "critter/creature/limbs/limb_animator.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "critter/anim/local_to_model_job.h"
#include "critter/creature/limbs/limb_bend.h"

namespace critter::creature {
namespace {

constexpr float kPi = std::numbers::pi_v<float>;
constexpr float kDegToRad = kPi / 180.0f;
constexpr float kFirstPersonElbow = 0.25f;
constexpr float kOverriddenArmBend = 5.0f;

float wrap180(float deg) {
  deg = std::fmod(deg + 180.0f, 360.0f);
  if (deg < 0.0f) deg += 360.0f;
  return deg - 180.0f;
}

quat turn_x(float degrees) {
  return glm::angleAxis(degrees * kDegToRad, vec3(1.0f, 0.0f, 0.0f));
}

quat turn_z(float degrees) {
  return glm::angleAxis(degrees * kDegToRad, vec3(0.0f, 0.0f, 1.0f));
}

// Inverse of an affine matrix through its 3x3 part; false when that part is degenerate.
bool affine_inverse(const mat4& m, mat4& out) {
  const glm::mat3 b(m);
  const float det = glm::determinant(b);
  if (!(std::abs(det) >= 1e-9f)) return false;
  const glm::mat3 bi = glm::inverse(b);
  out = mat4(bi);
  out[3] = vec4(-(bi * vec3(m[3])), 1.0f);
  return true;
}

bool is_arm(const Limb& limb) {
  return limb.kind == LimbKind::Arm;
}

bool is_right(const Limb& limb) {
  return limb.side == LimbSide::Right;
}

}  // namespace

Result<std::unique_ptr<LimbAnimator>> LimbAnimator::create(const Model& model,
                                                           std::span<const Limb> limbs,
                                                           const LimbAnimatorOptions& options,
                                                           std::vector<Warning>* warnings) {
  const Skeleton& skeleton = model.skeleton();
  const int n = skeleton.joint_count();
  const std::span<const mat4> rest = model.rest_model_transforms();
  const std::string source = model.source_path().empty() ? model.name() : model.source_path();
  std::unique_ptr<LimbAnimator> a(new LimbAnimator(model));
  a->options_ = options;
  if (!horizontal_forward(options.forward, a->forward_) && warnings) {
    warnings->push_back(
        Warning{source, "forward", "the limb forward is not horizontal; using -Z instead"});
  }
  a->axis_ = limb_bend_axis(a->forward_);
  for (std::size_t i = 0; i < limbs.size(); ++i) {
    const Limb& limb = limbs[i];
    const auto in_range = [n](int j) { return j >= 0 && j < n; };
    if (!in_range(limb.joint) || !in_range(limb.bone) || !in_range(limb.seam_bone)) {
      return fail(Error::at(ErrorCode::kUsage, "LimbAnimator", "limbs/" + std::to_string(i),
                            "limb '" + limb.name + "' has a joint outside the model's " +
                                std::to_string(n) + " joints (is the model split?)"));
    }
    LimbState s;
    s.rest = rest[static_cast<std::size_t>(limb.joint)];
    if (!affine_inverse(s.rest, s.rest_inverse) || !all_finite(limb.pivot) ||
        !all_finite(limb.end) || !std::isfinite(limb.cut_y)) {
      if (warnings) {
        warnings->push_back(Warning{source, limb.name,
                                    "the limb's rest matrix is degenerate (zero scale) or its "
                                    "geometry is not finite; the limb is not bent"});
      }
      continue;
    }
    s.end_in_joint = vec3(s.rest_inverse * vec4(limb.end, 1.0f));
    s.out_sign = glm::dot(limb.pivot, a->axis_) >= 0.0f ? 1.0f : -1.0f;
    a->limbs_.push_back(limb);
    a->state_.push_back(s);
  }
  a->frames_.resize(a->limbs_.size());
  a->locals_.assign(skeleton.rest_pose().begin(), skeleton.rest_pose().end());
  a->globals_.assign(static_cast<std::size_t>(n), mat4(1.0f));
  a->overridden_.assign(static_cast<std::size_t>(n), 0);
  a->shadow_.assign(static_cast<std::size_t>(n), mat4(1.0f));
  a->on_head_.assign(static_cast<std::size_t>(n), 0);
  a->lower_limb_.assign(static_cast<std::size_t>(n), -1);

  const auto parents = skeleton.parents();
  for (int j = 0; j < n; ++j) {
    if (a->root_joint_ < 0 && parents[static_cast<std::size_t>(j)] < 0) a->root_joint_ = j;
  }
  a->body_joint_ = model.find_bone("Body");
  a->head_joint_ = model.find_bone("Head");
  for (int j = 0; j < n; ++j) {
    const int p = parents[static_cast<std::size_t>(j)];
    a->on_head_[static_cast<std::size_t>(j)] =
        j == a->head_joint_ || (p >= 0 && a->on_head_[static_cast<std::size_t>(p)] != 0) ? 1 : 0;
  }
  if (a->body_joint_ >= 0 &&
      !affine_inverse(rest[static_cast<std::size_t>(a->body_joint_)], a->body_rest_inverse_)) {
    a->body_joint_ = -1;
  }
  // Joints below a cut: the nearest limb joint above them decides, by the joint's rest height.
  for (int j = 0; j < n; ++j) {
    bool added = false;
    for (const Limb& limb : a->limbs_) added = added || j == limb.bone || j == limb.seam_bone;
    if (added) continue;
    for (int p = parents[static_cast<std::size_t>(j)]; p >= 0;
         p = parents[static_cast<std::size_t>(p)]) {
      const auto it = std::find_if(a->limbs_.begin(), a->limbs_.end(),
                                   [p](const Limb& limb) { return limb.joint == p; });
      if (it == a->limbs_.end()) continue;
      if (rest[static_cast<std::size_t>(j)][3].y < it->cut_y) {
        const auto limb = it - a->limbs_.begin();
        a->lower_limb_[static_cast<std::size_t>(j)] = static_cast<std::int16_t>(limb);
        a->state_[static_cast<std::size_t>(limb)].carries = true;
      }
      break;
    }
  }
  a->probe();
  return a;
}

void LimbAnimator::probe() {
  const Skeleton& skeleton = model_->skeleton();
  const auto rest_pose = skeleton.rest_pose();
  const auto end_after = [&](int joint, const quat& turn, std::size_t limb, const vec3& point) {
    std::copy(rest_pose.begin(), rest_pose.end(), locals_.begin());
    if (joint >= 0) {
      Transform& t = locals_[static_cast<std::size_t>(joint)];
      t.rotation = t.rotation * turn;
    }
    anim::LocalToModelJob job;
    job.parents = skeleton.parents();
    job.input = locals_;
    job.output = globals_;
    if (!job.run()) return point;
    const LimbState& s = state_[limb];
    const mat4 skin = globals_[static_cast<std::size_t>(limbs_[limb].joint)] * s.rest_inverse;
    return vec3(skin * vec4(point, 1.0f));
  };
  bool legs_set = false;
  for (std::size_t i = 0; i < limbs_.size(); ++i) {
    const Limb& limb = limbs_[i];
    LimbState& s = state_[i];
    const vec3 e0 = end_after(-1, quat(1.0f, 0.0f, 0.0f, 0.0f), i, limb.end);
    const vec3 ex = end_after(limb.joint, turn_x(10.0f), i, limb.end);
    const vec3 ez = end_after(limb.joint, turn_z(10.0f), i, limb.end);
    s.pitch_sign = glm::dot(ex - e0, forward_) > 0.0f ? 1 : -1;
    s.spread_sign = std::abs(glm::dot(ez, axis_)) > std::abs(glm::dot(e0, axis_)) ? 1 : -1;
    if (!legs_set && limb.kind == LimbKind::Leg) {
      const float joint_y = state_[i].rest[3].y;
      reactions_.set_leg_lengths(std::max(0.0f, joint_y - limb.cut_y),
                                 std::max(0.0f, limb.cut_y - limb.end.y));
      legs_set = true;
    }
  }
  if (!limbs_.empty() && root_joint_ >= 0) {
    const vec3 marker = limbs_[0].pivot + vec3(0.0f, 6.0f, 0.0f);
    const vec3 m0 = end_after(-1, quat(1.0f, 0.0f, 0.0f, 0.0f), 0, marker);
    const vec3 mx = end_after(root_joint_, turn_x(10.0f), 0, marker);
    const vec3 mz = end_after(root_joint_, turn_z(10.0f), 0, marker);
    lean_sign_ = glm::dot(mx - m0, forward_) > 0.0f ? 1 : -1;
    // Left is -axis for every forward (+X is the right of -Z).
    bank_sign_ = glm::dot(mz - m0, axis_) < 0.0f ? 1 : -1;
  }
  std::copy(rest_pose.begin(), rest_pose.end(), locals_.begin());
}

Status LimbAnimator::set_motion(const BodyMotion& motion) {
  if (auto ok = validate(motion); !ok) return ok;
  motion_ = motion;
  return {};
}

void LimbAnimator::set_water_pose(WaterPose pose, float speed) {
  pose_ = static_cast<int>(pose) < kWaterPoseCount ? pose : WaterPose::kNone;
  pose_speed_ = std::isfinite(speed) ? speed : 0.0f;
}

void LimbAnimator::set_bone_override(int joint, bool overridden) {
  if (joint >= 0 && static_cast<std::size_t>(joint) < overridden_.size()) {
    overridden_[static_cast<std::size_t>(joint)] = overridden ? 1 : 0;
  }
}

void LimbAnimator::set_first_person_swing(int joint, const vec3& degrees) {
  if (joint < 0 || static_cast<std::size_t>(joint) >= overridden_.size() || !all_finite(degrees)) {
    swing_joint_ = -1;
    return;
  }
  swing_joint_ = joint;
  const vec3 r = degrees * kDegToRad;
  swing_ = glm::angleAxis(r.x, vec3(1, 0, 0)) * glm::angleAxis(r.y, vec3(0, 1, 0)) *
           glm::angleAxis(r.z, vec3(0, 0, 1));
}

StrokeEvents LimbAnimator::take_stroke_events() {
  StrokeEvents out = events_;
  events_.clear();
  return out;
}

void LimbAnimator::modify(const PoseModifierFrame& frame, std::span<mat4> model_transforms) {
  LimbStepJob job;
  job.animator = this;
  job.local_pose = frame.local_pose;
  job.root = frame.root;
  job.root_correction = frame.root_correction;
  job.dt = frame.dt;
  job.output = model_transforms;
  static_cast<void>(job.run());
}

mat4 LimbAnimator::bend_matrix(std::size_t limb, float degrees, bool seam) const {
  if (!seam) return limb_bend(limbs_[limb], degrees, axis_);
  return limb_bend(limbs_[limb], degrees * 0.5f, axis_, forward_,
                   options_.exact_mitre ? std::abs(degrees) : 0.0f);
}

void LimbAnimator::pose_limbs(float dt) {
  float sum = 0.0f;
  for (int p = 1; p < kWaterPoseCount; ++p) {
    const float target = static_cast<int>(pose_) == p ? 1.0f : 0.0f;
    auto& w = pose_w_[static_cast<std::size_t>(p)];
    w += (target - w) * ease_factor(dt, 0.25f);
    sum += w;
  }
  // Wrapping at a whole number of strokes keeps the 3x flutter kick continuous.
  phase_ = std::fmod(phase_ + stroke_rate(pose_, pose_speed_) * dt, 2.0f * kPi * 12.0f);
  if (phase_ < 0.0f) phase_ += 2.0f * kPi * 12.0f;

  int stepping_leg = -1;
  float best = -1e30f;
  for (std::size_t i = 0; i < limbs_.size(); ++i) {
    if (limbs_[i].kind == LimbKind::Leg && state_[i].swing > best) {
      best = state_[i].swing;
      stepping_leg = static_cast<int>(i);
    }
  }
  reactions_.update(dt, motion_, sum, first_person_, stepping_leg);

  const auto rest_pose = model_->skeleton().rest_pose();
  for (std::size_t i = 0; i < limbs_.size(); ++i) {
    const Limb& limb = limbs_[i];
    LimbState& s = state_[i];
    s.motion = reactions_.motion_angles(static_cast<int>(i), is_arm(limb), is_right(limb));
    // The weighted stroke of the active poses, kept for measure_limbs' bend target.
    LimbAngles stroke{};
    if (sum > 1e-3f) {
      for (int p = 1; p < kWaterPoseCount; ++p) {
        const float w = pose_w_[static_cast<std::size_t>(p)];
        if (w <= 1e-4f) continue;
        const LimbAngles a =
            stroke_angles(static_cast<WaterPose>(p), is_arm(limb), is_right(limb), phase_);
        stroke.pitch += a.pitch * w;
        stroke.spread += a.spread * w;
        stroke.bend += a.bend * w;
      }
      stroke.pitch /= sum;
      stroke.spread /= sum;
      stroke.bend /= sum;
    }
    s.stroke_bend = stroke.bend;
    const auto j = static_cast<std::size_t>(limb.joint);
    if (overridden_[j]) continue;
    quat rotation = locals_[j].rotation;
    if (sum > 1e-3f) {
      const quat target = rest_pose[j].rotation *
                          turn_x(stroke.pitch * static_cast<float>(s.pitch_sign)) *
                          turn_z(stroke.spread * static_cast<float>(s.spread_sign));
      rotation = glm::slerp(rotation, target, std::min(sum, 1.0f));
    }
    rotation = rotation * turn_x(s.motion.pitch * static_cast<float>(s.pitch_sign)) *
               turn_z(s.motion.spread * static_cast<float>(s.spread_sign));
    locals_[j].rotation = rotation;
  }
  if (root_joint_ >= 0) {
    Transform& root = locals_[static_cast<std::size_t>(root_joint_)];
    root.rotation = root.rotation * turn_x(reactions_.lean() * static_cast<float>(lean_sign_)) *
                    turn_z(reactions_.bank() * static_cast<float>(bank_sign_));
    root.translation.y -= reactions_.drop();
  }
}

void LimbAnimator::measure_limbs(const glm::mat3& root_inverse, float dt) {
  glm::mat3 torso = root_inverse;
  if (body_joint_ >= 0) {
    const glm::mat3 body(globals_[static_cast<std::size_t>(body_joint_)] * body_rest_inverse_);
    if (std::abs(glm::determinant(body)) >= 1e-9f) {
      torso = glm::inverse(body);
      const vec3 up = root_inverse * body[1];
      const float len = glm::length(up);
      lying_ = len > 1e-6f && std::abs(up.y / len) < 0.5f;
    }
  }
  float sum = 0.0f;
  for (int p = 1; p < kWaterPoseCount; ++p) sum += pose_w_[static_cast<std::size_t>(p)];
  for (std::size_t i = 0; i < limbs_.size(); ++i) {
    const Limb& limb = limbs_[i];
    LimbState& s = state_[i];
    LimbFrame& f = frames_[i];
    const auto j = static_cast<std::size_t>(limb.joint);
    const glm::mat3 skin(globals_[j] * s.rest_inverse);
    const vec3 d = -(torso * skin[1]);  // the limb's hanging direction relative to the torso
    if (all_finite(d) && glm::dot(d, d) > 1e-12f) {
      f.pitch = std::atan2(glm::dot(d, forward_), -d.y) / kDegToRad;
      f.spread = std::atan2(glm::dot(d, axis_) * s.out_sign, -d.y) / kDegToRad;
      s.swing = f.pitch - s.motion.pitch;
    }
    if (!s.have_swing) {
      s.prev_swing = s.swing;
      s.have_swing = true;
    }
    if (dt > 0.0f) {
      s.swing_rate +=
          (wrap180(s.swing - s.prev_swing) / dt - s.swing_rate) * ease_factor(dt, 0.05f);
      s.prev_swing = s.swing;
    }
    const bool arm = is_arm(limb);
    float target = walk_bend(arm, s.swing, s.swing_rate);
    if (arm && (overridden_[j] != 0 || (first_person_ && limb.joint == swing_joint_))) {
      target = kOverriddenArmBend;
    } else if (arm && first_person_) {
      target *= kFirstPersonElbow;
    }
    if (sum > 1e-3f) {
      const float w = std::min(sum, 1.0f);
      target = target * (1.0f - w) + s.stroke_bend * w;
    }
    s.eased += (target - s.eased) * ease_factor(dt, 0.06f);
    // The motion bend goes on un-eased so a landing knee matches the drop computed for it.
    f.bend = s.eased + s.motion.bend;
  }
}

void LimbAnimator::write_bones(const mat4& root_inverse, float dt) {
  degenerate_joint_ = -1;
  const std::size_t n = globals_.size();
  for (std::size_t i = 0; i < limbs_.size(); ++i) {
    const Limb& limb = limbs_[i];
    LimbState& s = state_[i];
    LimbFrame& f = frames_[i];
    const mat4& g = globals_[static_cast<std::size_t>(limb.joint)];
    if (!(std::abs(glm::determinant(glm::mat3(g))) >= 1e-9f)) {
      // A zero-scaled limb: its halves stay together, unbent, and nothing below follows.
      if (degenerate_joint_ < 0) degenerate_joint_ = limb.joint;
      globals_[static_cast<std::size_t>(limb.bone)] = g;
      globals_[static_cast<std::size_t>(limb.seam_bone)] = g;
      f.end = vec3(root_inverse * (g * vec4(s.end_in_joint, 1.0f)));
      continue;
    }
    const mat4 skin = g * s.rest_inverse;
    const mat4 lower = skin * bend_matrix(i, f.bend, false) * s.rest;
    globals_[static_cast<std::size_t>(limb.bone)] = lower;
    globals_[static_cast<std::size_t>(limb.seam_bone)] =
        skin * bend_matrix(i, f.bend, true) * s.rest;
    mat4 g_inverse;
    if (s.carries && affine_inverse(g, g_inverse)) {
      const mat4 carry = lower * g_inverse;
      for (std::size_t j = 0; j < n; ++j) {
        if (lower_limb_[j] == static_cast<std::int16_t>(i)) globals_[j] = carry * globals_[j];
      }
    }
    f.end = vec3(root_inverse * (lower * vec4(s.end_in_joint, 1.0f)));
  }

  if (!in_water_) {
    for (LimbState& s : state_) s.wet = -1;
    return;
  }
  if (!liquid_) return;
  for (std::size_t i = 0; i < limbs_.size(); ++i) {
    LimbState& s = state_[i];
    const vec3 end = frames_[i].end;
    const int wet = liquid_(end) ? 1 : 0;
    if (s.wet >= 0 && wet != s.wet && dt > 0.0f && !events_.full()) {
      events_.push(StrokeEvent{reactions_.clock(), static_cast<int>(i), is_arm(limbs_[i]),
                               limbs_[i].side, wet == 1, glm::length(end - s.last_end) / dt, end});
    }
    s.wet = wet;
    s.last_end = end;
  }
}

void LimbAnimator::step(std::span<const Transform> local_pose, const mat4& root,
                        const mat4& root_correction, float dt) {
  std::copy(local_pose.begin(), local_pose.end(), locals_.begin());
  pose_limbs(dt);
  if (first_person_ && swing_joint_ >= 0) {
    Transform& t = locals_[static_cast<std::size_t>(swing_joint_)];
    t.rotation = glm::normalize(t.rotation * swing_);
  }
  anim::LocalToModelJob job;
  job.parents = model_->skeleton().parents();
  job.input = locals_;
  job.root = root;
  job.root_correction = root_correction;
  job.output = globals_;
  if (!job.run()) return;
  mat4 root_inverse(1.0f);
  if (!affine_inverse(root, root_inverse)) root_inverse = mat4(1.0f);
  const glm::mat3 root_basis_inverse(root_inverse);
  measure_limbs(root_basis_inverse, dt);
  write_bones(root_inverse, dt);
  std::copy(globals_.begin(), globals_.end(), shadow_.begin());
  if (first_person_) shrink_head();
}

void LimbAnimator::shrink_head() {
  if (head_joint_ < 0) return;
  const mat4& head = globals_[static_cast<std::size_t>(head_joint_)];
  mat4 head_inverse(1.0f);
  if (!affine_inverse(head, head_inverse)) return;
  const mat4 shrink = head * glm::scale(mat4(1.0f), vec3(0.01f)) * head_inverse;
  for (std::size_t j = 0; j < globals_.size(); ++j) {
    if (on_head_[j] != 0) globals_[j] = shrink * globals_[j];
  }
}

Status LimbStepJob::validate() const {
  const auto bad = [](const char* field, const std::string& message) {
    return fail(Error::at(ErrorCode::kUsage, "LimbStepJob", field, message));
  };
  if (animator == nullptr) return bad("animator", "no animator");
  const auto n = static_cast<std::size_t>(animator->model().skeleton().joint_count());
  if (local_pose.size() != n) {
    return bad("local_pose", "has " + std::to_string(local_pose.size()) +
                                 " transforms, the model " + std::to_string(n) + " joints");
  }
  if (output.size() != n) {
    return bad("output", "has " + std::to_string(output.size()) + " matrices, the model " +
                             std::to_string(n) + " joints");
  }
  if (!std::isfinite(dt) || dt < 0.0f) return bad("dt", "is negative or not finite");
  if (!all_finite(root)) return bad("root", "is not finite");
  if (!all_finite(root_correction)) return bad("root_correction", "is not finite");
  return {};
}

Status LimbStepJob::run() const {
  if (auto ok = validate(); !ok) return ok;
  animator->step(local_pose, root, root_correction, dt);
  std::copy(animator->globals_.begin(), animator->globals_.end(), output.begin());
  return {};
}

}  // namespace critter::creature
