// SPDX-License-Identifier: MIT
#include "anim/root_motion.h"

#include <algorithm>
#include <cmath>

#include "anim/layer_stack.h"
#include "critter/anim/ik_smooth_damp.h"
#include "critter/anim/transform_blend.h"
#include "critter/asset/clip.h"

namespace critter::anim::detail {

namespace {

// The most SpringDamper steps one update takes (see RootMotion::translation).
constexpr int kMaxSpringSteps = 64;

}  // namespace

void RootBoneCorrection::start(const quat& to_r, const vec3& to_t, float d) {
  from_rotation = rotation;
  from_translation = translation;
  to_rotation = to_r;
  to_translation = to_t;
  time = 0.0f;
  duration = d;
  blending = true;
}

void RootBoneCorrection::advance(float dt) {
  if (!blending) return;
  time += dt;
  const float s = duration > 0.0f ? smoothstep01(time / duration) : 1.0f;
  rotation = slerp_shortest(from_rotation, to_rotation, s);
  translation = from_translation + (to_translation - from_translation) * s;
  if (s >= 1.0f) blending = false;
}

void RootMotion::update(const ControllerProgram& program, const Layer* base,
                        const vec3& body_velocity, const quat& body_rotation,
                        const quat& root_rotation, float dt) {
  translation(program, base, body_velocity, body_rotation, root_rotation, dt);
  effects(program, base, dt);
}

void RootMotion::effects(const ControllerProgram& p, const Layer* base, float dt) {
  // The config in effect: the rootMotion block of the play the Base layer runs.
  int animation = -1;
  std::uint32_t play = 0;
  if (base != nullptr) {
    const Layer& layer = *base;
    if (layer.animation >= 0 && layer.driver < 0 && !layer.deactivating &&
        layer.player.clip() != nullptr &&
        p.animations_[static_cast<std::size_t>(layer.animation)].desc->root_motion) {
      animation = layer.animation;
      play = layer.play_id;
    }
  }
  auto config = [&](int index) -> const ControllerRootMotionDesc* {
    return index < 0 ? nullptr : &*p.animations_[static_cast<std::size_t>(index)].desc->root_motion;
  };
  auto scale_of = [](const ControllerRootMotionDesc* rm) -> const RootMotionScale* {
    return rm != nullptr && rm->scale.mode == RootScaleMode::kOverride ? &rm->scale : nullptr;
  };
  const ControllerRootMotionDesc* now = config(animation);
  if (animation != effects_animation_ || play != effects_play_) {
    const ControllerRootMotionDesc* left = config(effects_animation_);
    if (left != nullptr && left->physics.clear_velocity_on_exit) {
      // §13: restored "after zeroing the velocity"; this update's velocity is that zero.
      velocity_ = vec3(0.0f);
      active_ = true;
    }
    const RootMotionScale* from = scale_of(left);
    const RootMotionScale* to = scale_of(now);
    if (from != nullptr || to != nullptr) {
      // Entering eases over the new config's duration, leaving over the old one's; always from
      // the value shown last, so a switch mid-ease does not jump.
      scale_from_ = scale_;
      scale_time_ = 0.0f;
      scale_duration_ = to != nullptr ? to->blend_duration : from->blend_duration;
      scale_easing_ = true;
    }
    physics_ = now != nullptr ? now->physics.resolved() : RootMotionPhysics{};
    effects_animation_ = animation;
    effects_play_ = play;
  }

  const RootMotionScale* scale = scale_of(now);
  scale_shown_ = scale != nullptr || scale_easing_;
  if (!scale_shown_) {
    scale_ = 1.0f;
    return;
  }
  float target = 1.0f;
  if (scale != nullptr) {
    if (scale->source == RootScaleSource::kFixed) {
      target = scale->value;
    } else {
      // critter's rule: a uniform scale, the mean of the source bone's three axes.
      const Layer& layer = *base;
      const Clip* clip = layer.player.clip();
      const int c = static_cast<int>(clip - p.model_->clips().data());
      const int bone = p.animations_[static_cast<std::size_t>(animation)].root_bone;
      const vec3 s = p.root_scale(c, bone, layer.player.clip_time());
      target = (s.x + s.y + s.z) / 3.0f;
    }
    if (scale->min_scale) target = std::max(*scale->min_scale, target);
  }
  if (scale_easing_) {
    scale_time_ += dt;
    const float f = scale_duration_ > 0.0f ? smoothstep01(scale_time_ / scale_duration_) : 1.0f;
    scale_ = scale_from_ + (target - scale_from_) * f;
    if (f >= 1.0f) scale_easing_ = false;
  } else {
    scale_ = target;
  }
}

void RootMotion::translation(const ControllerProgram& p, const Layer* base,
                             const vec3& body_velocity, const quat& body_rotation,
                             const quat& root_rotation, float dt) {
  active_ = false;
  if (base == nullptr) return;
  const Layer& layer = *base;
  const Clip* clip = layer.player.clip();
  if (layer.animation < 0 || layer.driver >= 0 || clip == nullptr || layer.deactivating) {
    play_ = 0;
    return;
  }
  const auto& a = p.animations_[static_cast<std::size_t>(layer.animation)];
  if (!a.desc->root_motion || a.desc->root_motion->mode == RootMotionMode::kNone) {
    play_ = 0;
    return;
  }
  const ControllerRootMotionDesc& rm = *a.desc->root_motion;
  const int c = static_cast<int>(clip - p.model_->clips().data());
  const float duration = clip->duration();
  const float now = layer.player.clip_time();
  const std::uint32_t play = layer.player.playhead().play_id();
  const bool new_play = play != play_;
  const float prev = new_play ? now : time_;
  const bool forward = layer.end_phase >= layer.start_phase;
  const float a_t = std::min(layer.start_phase, layer.end_phase) * duration;
  const float b_t = std::max(layer.start_phase, layer.end_phase) * duration;
  // A loop that wrapped since the last update moved against the play direction.
  const bool wrapped = !new_play && (forward ? now < prev : now > prev);
  auto pos = [&](float t) { return p.root_position(c, a.root_bone, t); };
  // Into the entity frame (§13): ancestors' rest rotations, model scale, root-bone rotation.
  auto to_world = [&](const vec3& local) {
    return body_rotation * (root_rotation * (a.root_frame * local * p.desc_.model_scale));
  };
  auto masked = [&](const vec3& result, const vec3& keep) {
    vec3 out;
    for (int i = 0; i < 3; ++i) out[i] = rm.velocity_mask[i] > 0.5f ? result[i] : keep[i];
    return out;
  };

  if (rm.mode == RootMotionMode::kAddImpulse) {
    if (new_play) impulse_done_ = false;
    const float phase = rm.impulse_phase >= 0.0f ? rm.impulse_phase
                                                 : (forward ? layer.end_phase : layer.start_phase);
    const float pt = phase * duration;
    bool fire = false;
    if (!impulse_done_) {
      if (new_play) {
        fire = forward ? now >= pt : now <= pt;
      } else if (!wrapped) {
        fire = forward ? (prev < pt && now >= pt) : (prev > pt && now <= pt);
      } else {
        fire = forward ? (prev < pt || now >= pt) : (prev > pt || now <= pt);
      }
    }
    if (wrapped) impulse_done_ = false;
    if (fire) {
      impulse_done_ = true;
      vec3 impulse(0.0f);
      if (rm.impulse_override || rm.impulse_speed_override) {
        impulse = body_rotation *
                  (rm.impulse_override ? *rm.impulse_override : *rm.impulse_speed_override);
      } else {
        // Measured over [max(phase, start), end] of the play's range.
        const float from = std::max(pt, a_t);
        const float span = b_t - from;
        vec3 average(0.0f);
        vec3 peak(0.0f);
        if (span > 0.0f) {
          average = (pos(b_t) - pos(from)) / span;
          for (const auto& t : p.root_tracks_) {
            if (t.clip != c || t.bone != a.root_bone) continue;
            for (std::size_t k = 1; k < t.times.size(); ++k) {
              const float dt_k = t.times[k] - t.times[k - 1];
              if (t.times[k] <= from || t.times[k - 1] >= b_t || dt_k <= 0.0f) continue;
              const vec3 v = (t.positions[k] - t.positions[k - 1]) / dt_k;
              if (glm::length(v) > glm::length(peak)) peak = v;
            }
          }
        }
        const vec3 local = rm.impulse_method == RootMotionImpulseMethod::kAverage ? average
                           : rm.impulse_method == RootMotionImpulseMethod::kPeak
                               ? peak
                               : (average + peak) * 0.5f;
        impulse = to_world(local);
      }
      const float len = glm::length(impulse);
      if (len > rm.max_impulse) impulse *= rm.max_impulse / len;
      impulse *= rm.impulse_scale;
      for (int i = 0; i < 3; ++i) {
        if (rm.velocity_mask[i] <= 0.5f) impulse[i] = 0.0f;
      }
      velocity_ = body_velocity + impulse;
      active_ = true;
    }
  } else if (dt > 0.0f) {
    // Blend / Override: v = ΔP/Δt, the loop seam split in its two parts; 0 once a clip ended.
    vec3 v(0.0f);
    if (!new_play && (layer.player.playing() || now != prev)) {
      vec3 delta = pos(now) - pos(prev);
      if (wrapped) {
        delta = forward ? (pos(b_t) - pos(prev)) + (pos(now) - pos(a_t))
                        : (pos(a_t) - pos(prev)) + (pos(now) - pos(b_t));
      }
      v = to_world(delta / dt);
    }
    const float len = glm::length(v);
    if (len > rm.max_speed) v *= rm.max_speed / len;
    const vec3 cur = body_velocity;
    vec3 out = v;
    if (rm.mode == RootMotionMode::kBlend) {
      switch (rm.blend_method) {
        case RootMotionBlendMethod::kSmoothDamp: {
          // Critically damped spring toward v (ω = 2 / smoothTime); a step long enough for the
          // spring to come to rest (any dt the host passes, 1e30 s included) lands on v.
          const float omega = 2.0f / std::max(rm.smooth_time, 1e-4f);
          const float x = omega * dt;
          if (!(x < kSmoothDampSettled)) {
            state_ = vec3(0.0f);
            out = v;
            break;
          }
          const float e = smooth_damp_decay(x);
          const vec3 change = cur - v;
          const vec3 temp = (state_ + omega * change) * dt;
          state_ = (state_ - omega * temp) * e;
          out = v + (change + temp) * e;
          break;
        }
        case RootMotionBlendMethod::kWeightedAverage:
          out = cur + (v - cur) * rm.blend_weight;
          break;
        case RootMotionBlendMethod::kSpringDamper: {
          // Semi-implicit Euler (§13). It is stable for a step h with h·(h·k + 2·damping) < 4,
          // so a longer dt is cut into equal steps with h·(h·k + 2·damping) <= 3 (one step at 10 Hz
          // or faster with the default constants: the same result as a single step), at most
          // kMaxSpringSteps of them: a dt of seconds (or 1e30) neither diverges nor loops
          // without end, and past that many steps the spring advances that far only.
          const float k = rm.spring_stiffness, damping = rm.spring_damping;
          const float stable = 3.0f / (damping + std::sqrt(damping * damping + 3.0f * k));
          int steps = 1;
          float h = dt;
          if (dt > stable) {
            const float n = std::ceil(dt / stable);
            steps = n < static_cast<float>(kMaxSpringSteps) ? static_cast<int>(n) : kMaxSpringSteps;
            h = std::min(dt / static_cast<float>(steps), stable);
          }
          out = cur;
          for (int i = 0; i < steps; ++i) {
            const vec3 acc = -k * (out - v) - damping * state_;
            state_ += acc * h;
            out += state_ * h;
          }
          break;
        }
      }
    }
    velocity_ = masked(out, cur);
    active_ = true;
  }
  if (new_play) state_ = vec3(0.0f);
  time_ = now;
  play_ = play;
}

bool RootMotion::strips(const ControllerProgram& p, const Layer& layer) {
  if (layer.animation < 0 || layer.driver >= 0) return false;
  const auto& a = p.animations_[static_cast<std::size_t>(layer.animation)];
  if (!a.desc->root_motion || a.root_bone < 0) return false;
  const RootMotionMode mode = a.desc->root_motion->mode;
  return mode == RootMotionMode::kBlend || mode == RootMotionMode::kOverride;
}

void RootMotion::strip(const ControllerProgram& p, const Layer& layer, std::span<Transform> pose) {
  // §13: while Base runs Blend or Override, the source bone and its ancestors keep their rest
  // translation (rotation kept, scale dropped) so the motion is not shown twice.
  if (!strips(p, layer)) return;
  const auto& a = p.animations_[static_cast<std::size_t>(layer.animation)];
  const auto rest = p.model_->skeleton().rest_pose();
  const auto parents = p.model_->skeleton().parents();
  for (int j = a.root_bone; j >= 0; j = parents[static_cast<std::size_t>(j)]) {
    const auto k = static_cast<std::size_t>(j);
    pose[k].translation = rest[k].translation;
    pose[k].scale = rest[k].scale;
  }
}

}  // namespace critter::anim::detail
