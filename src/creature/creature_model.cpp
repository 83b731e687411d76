// SPDX-License-Identifier: MIT
#include "critter/creature/creature_model.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "critter/creature/legacy/rest_translation.h"

namespace critter::creature {
namespace {

// Below this forward speed the movement phase resets (creatures.md §3, four-legged walk).
constexpr float kPhaseMinSpeed = 0.2f;

bool placement_finite(const CreatureState& state) {
  return all_finite(state.position) && all_finite(state.rotation);
}

}  // namespace

std::string_view to_string(PoseSource source) {
  switch (source) {
    case PoseSource::kRest:
      return "rest";
    case PoseSource::kHook:
      return "hook";
    case PoseSource::kController:
      return "controller";
    case PoseSource::kPlayer:
      return "player";
    case PoseSource::kProcedural:
      return "procedural";
  }
  return "?";
}

CreatureModel::CreatureModel(const Model& model, CreatureModelOptions options)
    : CreatureModel(model, nullptr, options) {}

CreatureModel::CreatureModel(const Model& model,
                             std::shared_ptr<const anim::ControllerProgram> program,
                             CreatureModelOptions options)
    : options_(options), instance_(model), player_(model) {
  const auto rest = model.skeleton().rest_pose();
  pose_.assign(rest.begin(), rest.end());
  weights_ = player_.layout().defaults;
  if (program) {
    const anim::ParameterSchema& schema = program->schema();
    indices_ = BuiltinParameterIndices::resolve(schema);
    rig_indices_ = legacy::RigParameterIndices::resolve(schema);
    death_speed_ = schema.find("DeathSpeed");
    walk_animation_speed_ = schema.find("WalkAnimationSpeed");
    rules_ = std::make_unique<GameRules>(schema);
    controller_.emplace(std::move(program));
    controller_->set_hooks({.event = rules_->event_hook(), .root_scale = {}});
  } else if (!model.clips().empty()) {
    // The simple player's play cannot fail: clip 0 exists and the options are the defaults.
    (void)player_.play(0, anim::PlaybackMode::kLoopForward);
    has_clip_ = true;
  }
}

Result<CreatureModel> CreatureModel::create(const Model& model,
                                            std::shared_ptr<const anim::ControllerProgram> program,
                                            CreatureModelOptions options) {
  if (program && &program->model() != &model) {
    return fail(Error::at(ErrorCode::kUsage, "CreatureModel", "program",
                          "the controller program was compiled for model '" +
                              program->model().name() + "', not for '" + model.name() + "'"));
  }
  return CreatureModel(model, std::move(program), options);
}

void CreatureModel::set_footstep_hook(std::function<void(std::string_view data)> hook) {
  if (rules_) rules_->set_footstep_hook(std::move(hook));
}

void CreatureModel::set_attack_hit_hook(std::function<void()> hook) {
  if (rules_) rules_->set_attack_hit_hook(std::move(hook));
}

void CreatureModel::set_attack_start_hook(std::function<void()> hook) {
  if (rules_) rules_->set_attack_start_hook(std::move(hook));
}

void CreatureModel::set_attack_end_hook(std::function<void()> hook) {
  if (rules_) rules_->set_attack_end_hook(std::move(hook));
}

std::span<const anim::ControllerRecord> CreatureModel::records() const {
  if (!controller_) return {};
  return controller_->records();
}

std::optional<vec3> CreatureModel::root_motion_velocity() const {
  if (!controller_) return std::nullopt;
  return controller_->root_motion_velocity();
}

bool CreatureModel::attack_hit_moment() const {
  return rules_ && rules_->attack_hit_moment();
}

void CreatureModel::advance_phases(float dt) {
  if (state_.health <= 0.0f) {
    float rate = options_.death_speed;
    // The config may slow or speed the death (DeathSpeed, §16); read back every frame because
    // the host or a driver may change it.
    if (controller_ && death_speed_ != anim::kNoParam) {
      rate = static_cast<float>(controller_->parameters().number(death_speed_));
    }
    if (!std::isfinite(rate) || rate < 0.0f) rate = 0.0f;
    phases_.death = std::min(phases_.death + rate * dt, 1.0f);
  } else {
    phases_.death = 0.0f;
  }

  if (state_.movement_phase) {
    // "Any real value": NaN or an infinity from the host reads as 0, as it would otherwise reach
    // every expression and driver that reads MovementPhase.
    phases_.movement = std::isfinite(*state_.movement_phase) ? *state_.movement_phase : 0.0f;
    return;
  }
  float was = options_.walk_animation_speed;
  if (controller_ && walk_animation_speed_ != anim::kNoParam) {
    const double configured = controller_->parameters().number(walk_animation_speed_);
    if (configured > 0.0) was = static_cast<float>(configured);
  }
  const float v = forward_speed(state_);
  if (std::abs(v) > kPhaseMinSpeed && std::isfinite(v)) {
    const float phase = phases_.movement + v * was * dt;
    phases_.movement = std::isfinite(phase) ? phase - std::floor(phase) : 0.0f;
  } else {
    phases_.movement = 0.0f;
  }
}

void CreatureModel::rest_pose() {
  const auto rest = instance_.model().skeleton().rest_pose();
  std::copy(rest.begin(), rest.end(), pose_.begin());
  const auto& defaults = player_.layout().defaults;
  std::copy(defaults.begin(), defaults.end(), weights_.begin());
}

void CreatureModel::animate(float dt) {
  if (hook_ && hook_(*this, dt)) {
    source_ = PoseSource::kHook;
    return;
  }
  if (controller_) {
    controller_->set_body(state_.velocity, state_.rotation);
    controller_->update(dt);
    const auto pose = controller_->compute_pose();
    std::copy(pose.begin(), pose.end(), pose_.begin());
    const auto weights = controller_->morph_weights();
    std::copy(weights.begin(), weights.end(), weights_.begin());
    source_ = PoseSource::kController;
    return;
  }
  if (has_clip_) {
    anim::Player& player = player_;
    player.update(dt);
    // A looping play reports nothing, but the list must not grow across frames.
    player.clear_records();
    const auto pose = player.local_pose();
    std::copy(pose.begin(), pose.end(), pose_.begin());
    const auto weights = player.weights();
    std::copy(weights.begin(), weights.end(), weights_.begin());
    source_ = PoseSource::kPlayer;
    return;
  }
  rest_pose();
  if (rig_) {
    rig_->animate(state_, dt, pose_);
    if (rig_->keeps_rest_translation()) {
      // pose_ holds one Transform per joint, so the rule cannot refuse it.
      (void)apply_legacy_rest_translation(instance_.model().skeleton(), pose_);
    }
    source_ = PoseSource::kProcedural;
    return;
  }
  source_ = PoseSource::kRest;
}

Status CreatureModel::update(float dt, const CreatureState& state) {
  if (!std::isfinite(dt) || dt < 0.0f) dt = 0.0f;
  state_ = state;
  if (controller_) controller_->clear_records();

  advance_phases(dt);
  if (controller_) {
    write_builtin_parameters(state_, phases_, dt, indices_, controller_->parameters());
    // The legacy creature drivers read these beside the built-ins, so a config layer running
    // one sees the inputs the procedural rig would get from the same state.
    legacy::write_rig_parameters(state_, rig_indices_, controller_->parameters());
  }
  animate(dt);

  if (!options_.model_space && !placement_finite(state_)) {
    return fail(Error::at(ErrorCode::kUsage, "CreatureModel", "state",
                          "the creature's position or rotation is not finite"));
  }
  const mat4 entity = options_.model_space ? mat4(1.0f) : entity_transform(state_);
  if (controller_) {
    instance_.set_root(controller_->root_matrix(entity));
    instance_.set_root_correction(controller_->root_correction());
  } else {
    instance_.set_root(entity);
    instance_.set_root_correction(mat4(1.0f));
  }
  if (auto ok = instance_.pose(pose_, weights_); !ok) return ok;
  for (const auto& modifier : modifiers_) {
    modifier->modify(PoseModifierFrame{instance_.model(), state_, dt, pose_, instance_.root(),
                                       instance_.root_correction()},
                     instance_.writable_model_transforms());
  }
  return {};
}

void CreatureModel::add_pose_modifier(std::unique_ptr<PoseModifier> modifier) {
  if (modifier) modifiers_.push_back(std::move(modifier));
}

}  // namespace critter::creature
