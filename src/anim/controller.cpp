// SPDX-License-Identifier: MIT
#include "critter/anim/controller.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include <glm/gtc/matrix_transform.hpp>

#include "anim/controller_state.h"

namespace critter::anim {
namespace {

constexpr std::size_t kRecordCapacity = 64;

}  // namespace

namespace detail {

ControllerState::ControllerState(std::shared_ptr<const ControllerProgram> p)
    : program(std::move(p)),
      values(program->schema()),
      log(*program),
      drivers(*program, log),
      layers(*program, drivers),
      rules(*program),
      ik(*program) {
  records.reserve(kRecordCapacity);
  root_bone.rotation = program->desc().root_bone_rotation;
  root_bone.translation = program->desc().root_bone_translation;
}

void ControllerState::emit(const ControllerRecord& record) {
  records.push_back(record);
  if (record.kind == ControllerRecord::Kind::kEvent && hooks.event) {
    hooks.event(records.back(), values, time);
  }
}

const Layer* ControllerState::base_layer() const {
  return program->base_layer_ >= 0 ? &layers[program->base_layer_] : nullptr;
}

}  // namespace detail

Controller::Controller(std::shared_ptr<const ControllerProgram> program)
    : state_(std::make_unique<detail::ControllerState>(std::move(program))) {}

Controller::~Controller() = default;
Controller::Controller(Controller&&) noexcept = default;
Controller& Controller::operator=(Controller&&) noexcept = default;

const ControllerProgram& Controller::program() const {
  return *state_->program;
}
ParameterValues& Controller::parameters() {
  return state_->values;
}
const ParameterValues& Controller::parameters() const {
  return state_->values;
}
void Controller::set_hooks(ControllerHooks hooks) {
  state_->hooks = std::move(hooks);
}
void Controller::set_rotation_blend(RotationBlend rotations) {
  state_->layers.set_rotations(rotations);
}
RotationBlend Controller::rotation_blend() const {
  return state_->layers.rotations();
}
double Controller::time() const {
  return state_->time;
}

bool Controller::manual(int layer) const {
  return state_->layers[layer].manual;
}
float Controller::layer_weight(int layer) const {
  return state_->layers[layer].weight;
}
bool Controller::layer_active(int layer) const {
  return state_->layers.active(layer);
}
const Player& Controller::layer_player(int layer) const {
  return state_->layers[layer].player;
}

const ControllerAnimationDesc* Controller::layer_animation(int layer) const {
  const detail::Layer& l = state_->layers[layer];
  if (l.animation < 0) return nullptr;
  return state_->program->animations_[static_cast<std::size_t>(l.animation)].desc;
}

std::span<const ControllerRecord> Controller::records() const {
  return state_->records;
}
void Controller::clear_records() {
  state_->records.clear();
}

std::span<const Warning> Controller::runtime_warnings() const {
  return state_->log.warnings();
}
void Controller::clear_runtime_warnings() {
  state_->log.warnings().clear();
}

void Controller::update(float dt) {
  if (!std::isfinite(dt) || dt < 0.0f) dt = 0.0f;
  detail::ControllerState& s = *state_;
  s.last_dt = dt;
  s.time += dt;
  s.rules.evaluate(s);      // (2) rules, when a parameter changed (§8)
  s.layers.advance(s, dt);  // (3) speed and loop, (4) fades, drivers and players
  s.root_bone.advance(dt);  // (5) root-bone correction blend (§12)
  // (6) Root motion, Base only (§13).
  s.root_motion.update(*s.program, s.base_layer(), s.body_velocity, s.body_rotation,
                       s.root_bone.rotation, dt);
  if (s.root_motion.scale_shown() && s.hooks.root_scale) s.hooks.root_scale(s.root_motion.scale());
}

Status Controller::play_animation(int layer_index, int clip, PlaybackMode mode,
                                  PlayOptions options) {
  detail::ControllerState& s = *state_;
  if (layer_index < 0 || layer_index >= static_cast<int>(s.layers.size())) {
    return fail(Error::at(ErrorCode::kUsage, "Controller", "layer", "no such layer"));
  }
  detail::Layer& layer = s.layers[layer_index];
  const ControllerLayerDesc& cfg = s.program->desc().layers[static_cast<std::size_t>(layer_index)];
  options.on_done = nullptr;
  const float blend = std::max(0.0f, options.blend_duration);
  const bool empty = layer.player.clip() == nullptr;
  PlayOptions play = options;
  if (empty) play.blend_duration = 0.0f;
  if (clip < 0 || clip >= static_cast<int>(s.program->model().clips().size())) {
    return fail(Error::at(ErrorCode::kUsage, "Controller", "clip", "clip index out of range"));
  }
  const bool interrupts =
      layer.animation >= 0 && layer.once && !layer.completed && layer.player.playing();
  const int outgoing = layer.animation;
  const int old_clip = s.layers.clip_index(layer.player.clip());
  const float old_progress = layer.player.crossfading() ? layer.player.blend_weight() : 1.0f;
  if (auto ok = layer.player.play(clip, mode, play); !ok) return ok;
  layer.player.clear_records();
  s.layers.set_morph_source(layer, old_clip, old_progress);
  if (interrupts) {
    detail::RuleMachine::fire_action(
        s, layer_index,
        s.program->animations_[static_cast<std::size_t>(outgoing)].desc->on_interrupt,
        ControllerRecord::Kind::kInterrupt);
  }
  if (empty) {
    layer.weight = 0.0f;
    detail::LayerStack::start_weight_fade(layer, cfg.weight, blend);
  } else if (layer.deactivating || layer.weight != cfg.weight) {
    detail::LayerStack::start_weight_fade(layer, cfg.weight, detail::kDeactivateSeconds);
  }
  layer.deactivating = false;
  layer.driver = -1;
  layer.animation = -1;
  layer.once = false;
  layer.completed = true;
  layer.manual = true;
  return {};
}

void Controller::release_manual_control(int layer) {
  detail::ControllerState& s = *state_;
  for (std::size_t i = 0; i < s.layers.size(); ++i) {
    if (layer >= 0 && static_cast<int>(i) != layer) continue;
    s.layers[static_cast<int>(i)].manual = false;
  }
  s.rules.release(*s.program, layer);
}

std::span<const Transform> Controller::compute_pose() {
  detail::ControllerState& s = *state_;
  s.layers.blend(s.drivers);
  if (s.ik.any()) s.ik.run(*s.program, s.values, s.log, s.layers.pose(), s.last_dt);
  return s.layers.pose();
}

std::span<const Transform> Controller::pose() const {
  return state_->layers.pose();
}
std::span<const float> Controller::morph_weights() const {
  return state_->layers.weights();
}

std::span<const float> Controller::morph_weights(int mesh) const {
  const MorphLayout& layout = morph_layout();
  if (mesh < 0 || static_cast<std::size_t>(mesh) >= layout.mesh_count()) return {};
  return layout.mesh_weights(morph_weights(), static_cast<std::size_t>(mesh));
}

quat Controller::root_bone_rotation() const {
  return state_->root_bone.rotation;
}
vec3 Controller::root_bone_translation() const {
  return state_->root_bone.translation;
}

void Controller::set_body(const vec3& velocity, const quat& rotation) {
  state_->body_velocity = velocity;
  state_->body_rotation = rotation;
}

std::optional<vec3> Controller::root_motion_velocity() const {
  const detail::RootMotion& rm = state_->root_motion;
  return rm.active() ? std::optional<vec3>(rm.velocity()) : std::nullopt;
}

std::optional<float> Controller::root_motion_scale() const {
  const detail::RootMotion& rm = state_->root_motion;
  return rm.scale_shown() ? std::optional<float>(rm.scale()) : std::nullopt;
}

const RootMotionPhysics& Controller::root_motion_physics() const {
  return state_->root_motion.physics();
}

mat4 Controller::root_matrix(const mat4& entity) const {
  return entity * glm::scale(mat4(1.0f), vec3(model_scale()));
}

mat4 Controller::root_correction() const {
  const float scale = model_scale();
  const vec3& translation = state_->root_bone.translation;
  vec3 t = scale != 0.0f ? translation / scale : vec3(0.0f);
  // A tiny scale (a subnormal modelScale) or a huge translation overflows the quotient: clamp it
  // to the largest float so the matrix stays finite (such a config is broken either way).
  const float kMax = std::numeric_limits<float>::max();
  for (int i = 0; i < 3; ++i) {
    if (std::isinf(t[i])) t[i] = t[i] > 0.0f ? kMax : -kMax;
  }
  return glm::translate(mat4(1.0f), t) * glm::mat4_cast(state_->root_bone.rotation);
}

}  // namespace critter::anim
