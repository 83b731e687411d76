// SPDX-License-Identifier: MIT
#include "anim/layer_stack.h"

#include <algorithm>
#include <cmath>
#include <functional>

#include "anim/controller_state.h"
#include "anim/driver_set.h"
#include "anim/root_motion.h"

namespace critter::anim::detail {
namespace {

void emit_event(ControllerState& s, int layer, const PlayerRecord& record) {
  ControllerRecord r;
  r.kind = ControllerRecord::Kind::kEvent;
  r.layer = layer;
  r.name = record.name;
  r.data = record.data;
  r.time = record.phase;
  r.count = record.count;
  s.emit(r);
}

}  // namespace

LayerStack::LayerStack(const ControllerProgram& program, const DriverSet& drivers)
    : program_(&program) {
  const Model& model = *program.model_;
  const std::size_t joints = static_cast<std::size_t>(model.skeleton().joint_count());
  const std::size_t meshes = program.morph_layout_.mesh_count();
  layers_.reserve(program.desc_.layers.size());
  for (std::size_t i = 0; i < program.desc_.layers.size(); ++i) {
    layers_.emplace_back(model);
    Layer& layer = layers_.back();
    layer.pose.resize(joints);
    layer.touched.resize(joints);
    layer.morph_source.assign(meshes, 0.0f);
    layer.morph_coverage.assign(meshes, 0.0f);
    const int preset = program.layer_drivers_[i];
    layer.last_driver = preset;
    if (preset >= 0 && drivers.runs(preset)) {
      layer.driver = preset;
      layer.weight = program.desc_.layers[i].weight;
    }
  }
  inputs_.reserve(layers_.size());
  output_.assign(model.skeleton().rest_pose().begin(), model.skeleton().rest_pose().end());
  weights_ = program.morph_layout_.defaults;
}

bool LayerStack::active(int index) const {
  const Layer& l = layers_[static_cast<std::size_t>(index)];
  return l.weight > 0.0f && (l.player.clip() != nullptr || l.driver >= 0);
}

void LayerStack::set_rotations(RotationBlend rotations) {
  rotations_ = known_or_slerp(rotations);
  for (Layer& layer : layers_) layer.player.set_rotation_blend(rotations_);
}

void LayerStack::start_weight_fade(Layer& layer, float to, float duration) {
  if (duration <= 0.0f) {
    layer.weight = to;
    layer.fading = false;
    return;
  }
  layer.fade_from = layer.weight;
  layer.fade_to = to;
  layer.fade_time = 0.0f;
  layer.fade_duration = duration;
  layer.fading = true;
}

void LayerStack::advance(ControllerState& s, float dt) {
  const ControllerProgram& p = *program_;
  for (std::size_t i = 0; i < layers_.size(); ++i) {
    Layer& layer = layers_[i];
    const int index = static_cast<int>(i);
    // (3) Speed and loop expressions re-evaluate every frame.
    if (layer.animation >= 0 && layer.driver < 0) {
      const auto& a = p.animations_[static_cast<std::size_t>(layer.animation)];
      if (a.speed)
        layer.player.set_rate(std::max(0.0f, s.log.number_field(a.speed, a.desc->speed, s.values)));
      // Only the layer's own play while it runs: a finished play is not revived, and a layer
      // fading out has already ended its completion tracking.
      if (a.loop && !layer.deactivating && layer.player.playing() &&
          layer.player.playhead().play_id() == layer.play_id) {
        const bool loop = s.log.bool_field(a.loop, a.desc->loop, s.values);
        if (loop == layer.once) {
          // Keeps the cursor, so nothing pops; completion and interrupt now follow `once`.
          (void)layer.player.set_mode(loop ? PlaybackMode::kLoopForward
                                           : PlaybackMode::kOnceForward);
          layer.once = !loop;
        }
      }
    }
    // (4) Weight fades, then the driver or the player.
    if (layer.fading) {
      layer.fade_time += dt;
      const float x = std::min(1.0f, layer.fade_time / layer.fade_duration);
      const float f =
          p.desc_.layers[i].blend_curve == BlendCurve::kSmoothstep ? smoothstep01(x) : x;
      layer.weight = layer.fade_from + (layer.fade_to - layer.fade_from) * f;
      if (x >= 1.0f) layer.fading = false;
    }
    if (layer.driver >= 0) {
      // Quirk 12: a `driver:` rule's speed scales the driver's time step.
      float speed = 1.0f;
      if (layer.animation >= 0) {
        const auto& a = p.animations_[static_cast<std::size_t>(layer.animation)];
        speed = std::max(0.0f, s.log.number_field(a.speed, a.desc->speed, s.values));
      }
      s.drivers.update(layer.driver, dt * speed, s.values);
    }
    if (layer.player.clip() == nullptr) continue;
    layer.player.update(dt);
    for (const PlayerRecord& r : layer.player.records()) {
      if (r.kind == RecordKind::kEvent) {
        // Events of a layer fading out still fire: the clip still plays (§10).
        emit_event(s, index, r);
      } else if (r.kind == RecordKind::kCompleted && r.play_id == layer.play_id &&
                 layer.animation >= 0 && !layer.completed) {
        layer.completed = true;
        const auto* d = p.animations_[static_cast<std::size_t>(layer.animation)].desc;
        RuleMachine::fire_action(s, index, d->on_complete, ControllerRecord::Kind::kComplete);
        if (!d->preserve_pose) s.rules.deactivate(s, index);  // §10: a finished clip fades out
      }
    }
    layer.player.clear_records();
    if (layer.deactivating && !layer.fading) {
      layer.player.stop();
      layer.player.clear_records();
      layer.animation = -1;
      layer.deactivating = false;
      layer.weight = 0.0f;
    }
  }
}

std::span<const Transform> LayerStack::layer_pose(int index, DriverSet& drivers) {
  Layer& layer = layers_[static_cast<std::size_t>(index)];
  const bool additive = program_->desc_.layers[static_cast<std::size_t>(index)].blend_mode ==
                        LayerBlendMode::kAdditive;
  if (layer.driver >= 0) {
    if (!drivers.sample(layer.driver, layer.pose, layer.touched, additive)) return {};
    return layer.pose;
  }
  const auto src = layer.player.local_pose();
  const bool strip = index == program_->base_layer_ && RootMotion::strips(*program_, layer);
  // The player's pose as it is when nothing changes it: no copy.
  if (!additive && !strip) return src;
  std::copy(src.begin(), src.end(), layer.pose.begin());
  if (strip) RootMotion::strip(*program_, layer, layer.pose);
  if (!additive) return layer.pose;
  // §11: on an Additive layer the channels the clip lacks are identity, so untouched bones add
  // nothing.
  const int c = clip_index(layer.player.clip());
  if (c < 0) return layer.pose;
  const auto& bits = program_->clip_channels_[static_cast<std::size_t>(c)];
  for (std::size_t j = 0; j < layer.pose.size(); ++j) {
    if (!(bits[j] & ControllerProgram::kT)) layer.pose[j].translation = vec3(0.0f);
    if (!(bits[j] & ControllerProgram::kR)) layer.pose[j].rotation = quat(1.0f, 0.0f, 0.0f, 0.0f);
    if (!(bits[j] & ControllerProgram::kS)) layer.pose[j].scale = vec3(1.0f);
  }
  return layer.pose;
}

void LayerStack::blend(DriverSet& drivers) {
  const ControllerProgram& p = *program_;
  const MorphLayout& layout = p.morph_layout_;
  inputs_.clear();
  for (std::size_t i = 0; i < layers_.size(); ++i) {
    const int index = static_cast<int>(i);
    if (!active(index)) continue;
    const std::span<const Transform> pose = layer_pose(index, drivers);
    if (pose.empty()) continue;
    Layer& layer = layers_[i];
    const ControllerLayerDesc& cfg = p.desc_.layers[i];
    BlendingLayer in;
    in.mode = cfg.blend_mode;
    in.pose = pose;
    in.weight = layer.weight;
    in.joint_weights = cfg.joint_weights;
    if (layer.driver >= 0) {
      // A driver layer affects only the bones its driver wrote (§11: "that it sampled") and
      // writes no morph weights.
      in.sampled = layer.touched;
    } else if (!weights_.empty()) {
      // Crossfades and weight fades follow the joints' progress: an Override layer covers each
      // mesh as far as its player's clips animate it.
      in.weights = layer.player.weights();
      if (cfg.blend_mode == LayerBlendMode::kOverride) {
        const int clip = clip_index(layer.player.clip());
        for (std::size_t m = 0; m < layer.morph_coverage.size(); ++m) {
          layer.morph_coverage[m] = morph_coverage(layer, clip, m);
        }
        in.morph_coverage = layer.morph_coverage;
      }
    }
    inputs_.push_back(in);
  }
  BlendingJob job;
  job.layers = inputs_;
  job.rest = p.model_->skeleton().rest_pose();
  job.default_weights = layout.defaults;
  job.mesh_offsets = layout.offsets;
  job.output = output_;
  job.output_weights = weights_;
  job.rotations = rotations_;
  (void)job.run();  // sizes fixed at construction, weights finite and masks checked at compile
}

int LayerStack::clip_index(const Clip* clip) const {
  const auto clips = program_->model_->clips();
  // std::less orders unrelated pointers too; only a pointer into the array is subtracted.
  const std::less<const Clip*> before;
  if (clip == nullptr || before(clip, clips.data()) || !before(clip, clips.data() + clips.size()))
    return -1;
  return static_cast<int>(clip - clips.data());
}

float LayerStack::morph_coverage(const Layer& layer, int clip, std::size_t mesh) const {
  const float target =
      clip < 0 ? 0.0f : program_->clip_morphs_[static_cast<std::size_t>(clip)][mesh];
  if (!layer.player.crossfading()) return target;
  const float f = layer.player.blend_weight();
  return f * target + (1.0f - f) * layer.morph_source[mesh];
}

void LayerStack::set_morph_source(Layer& layer, int old_clip, float old_progress) const {
  // A live source is the old play itself (progress 1: its clip's tracks); a frozen source is the
  // pose the last update showed, whose coverage was that of the crossfade then running.
  for (std::size_t m = 0; m < layer.morph_source.size(); ++m) {
    const float old_target =
        old_clip < 0 ? 0.0f : program_->clip_morphs_[static_cast<std::size_t>(old_clip)][m];
    layer.morph_source[m] =
        old_clip < 0 ? 0.0f
                     : old_progress * old_target + (1.0f - old_progress) * layer.morph_source[m];
  }
}

}  // namespace critter::anim::detail
