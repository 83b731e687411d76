// SPDX-License-Identifier: MIT
// make_creature_sim(): a legacy rig (creatures.md Part A, creature/legacy/) driven by a tool's
// state. The creature stays where it is (position 0: it walks on the spot, so a
// render keeps it in frame) while its velocity drives the gaits.
#include "creature_sim.h"

#include <algorithm>
#include <cmath>

#include "critter/core/strings.h"
#include "critter/creature/creature_state.h"
#include "critter/creature/legacy/rest_translation.h"
#include "critter/creature/legacy/rig_factory.h"

namespace critter::tools {

namespace {

namespace legacy = creature::legacy;

// The animation-config event names (animation-config.md §17) of the rig's events.
std::string_view event_name(legacy::RigEventType type) {
  switch (type) {
    case legacy::RigEventType::kFootstep:
      return "Footstep";
    case legacy::RigEventType::kCanterSound:
      return "CanterSound";
    case legacy::RigEventType::kAttackHit:
      return "AttackHit";
    case legacy::RigEventType::kRowingSound:
      return "RowingSound";
  }
  return "Event";
}

class LegacySim final : public CreatureSim {
 public:
  LegacySim(const Model& model, CreatureKind kind, std::unique_ptr<legacy::LegacyRig> rig)
      : model_(&model), kind_(kind), rig_(std::move(rig)) {
    const vec3 size = default_body_size(model);
    body_height_ = size.y;
    body_depth_ = size.z;
  }

  void set_state(const CreatureStateArgs& a) override {
    creature::CreatureState s;
    s.body_height = body_height_;
    s.body_depth = body_depth_;
    s.game_time = time_;
    const float yaw = a.yaw.value_or(0.0f);
    s.rotation =
        creature::from_yaw_pitch_roll(glm::radians(std::isfinite(yaw) ? yaw : 0.0f), 0.0f, 0.0f);
    s.velocity = a.velocity.value_or(vec3(0.0f));
    if (a.speed) s.slip_speed = *a.speed;
    s.walk_speed = a.walk_speed.value_or(kDefaultWalkSpeed);
    // Off the ground only when told, or when flying or swimming: a creature on the command line
    // stands on something unless the state says otherwise.
    s.is_flying = a.flying.value_or(false);
    s.immersion_factor = a.immersion.value_or(0.0f);
    s.is_on_ground = a.on_ground.value_or(!s.is_flying && s.immersion_factor < 0.5f);
    s.health = a.health.value_or(1.0f);
    s.look_at = a.look_at;
    s.look_random = a.look_random.value_or(false);
    // head_shake counts down from the moment a new value is set.
    if (a.head_shake != shake_value_) {
      shake_value_ = a.head_shake;
      shake_start_ = time_;
    }
    if (shake_value_) {
      s.head_shake = std::max(0.0f, *shake_value_ - static_cast<float>(time_ - shake_start_));
    }
    s.is_attacking = a.attack.value_or(false);
    s.is_feeding = a.feed.value_or(false);
    s.death_cause_offset = a.death_cause.value_or(vec3(0.0f));
    s.fly_order = a.fly_order;
    s.swim_order = a.swim_order;
    s.turn_order = a.turn_order.value_or(vec2(0.0f));
    s.dig_order = a.dig_order;
    s.walk_order = a.walk_order.value_or(vec2(0.0f));
    s.crouch = a.crouch.value_or(false);
    switch (a.row.value_or(RowSide::kNone)) {
      case RowSide::kNone:
        s.row = creature::CreatureState::Row::kNone;
        break;
      case RowSide::kLeft:
        s.row = creature::CreatureState::Row::kLeft;
        break;
      case RowSide::kRight:
        s.row = creature::CreatureState::Row::kRight;
        break;
      case RowSide::kBoth:
        s.row = creature::CreatureState::Row::kBoth;
        break;
    }
    switch (a.mount.value_or(Mount::kNone)) {
      case Mount::kNone:
        s.mount = creature::CreatureState::Mount::kNone;
        break;
      case Mount::kBoat:
        s.mount = creature::CreatureState::Mount::kBoat;
        break;
      case Mount::kOther:
        s.mount = creature::CreatureState::Mount::kOther;
        break;
    }
    s.mining = a.mining.value_or(false);
    s.aiming = a.aim.value_or(false);
    s.sleeping = a.sleeping.value_or(false);
    s.on_ladder = a.ladder.value_or(false);
    s.is_creative_fly = a.creative_fly.value_or(false);
    // A dead body lies where it fell: no gait, no orders (a timeline that kills a walking
    // creature need not also stop it).
    if (!(s.health > 0.0f)) {
      s.velocity = vec3(0.0f);
      s.slip_speed = 0.0f;
      s.fly_order.reset();
      s.swim_order.reset();
      s.walk_order = vec2(0.0f);
      s.is_attacking = false;
      s.is_feeding = false;
    }
    state_ = s;
  }

  void step(float dt, std::span<Transform> locals) override {
    state_.game_time = time_;
    rig_->animate(state_, dt, locals);
    if (rig_->keeps_rest_translation()) {
      (void)creature::apply_legacy_rest_translation(model_->skeleton(), locals);
    }
    time_ += dt;
    for (const legacy::RigEvent& e : rig_->outputs().events.events()) {
      events_.push_back({time_ - dt + e.time, std::string(event_name(e.type))});
    }
  }

  CreatureFrameInfo motion() const override {
    const legacy::RigOutputs& out = rig_->outputs();
    CreatureFrameInfo info;
    info.kind = kind_;
    info.gait = std::string(out.gait);
    info.phase = out.phase;
    info.bob = out.bob;
    info.death_phase = out.death_phase;
    return info;
  }

  std::span<const CreatureEvent> events() const override { return events_; }

  mat4 root_matrix() const override { return creature::entity_transform(state_); }

 private:
  const Model* model_;
  CreatureKind kind_;
  std::unique_ptr<legacy::LegacyRig> rig_;
  creature::CreatureState state_;
  float body_height_ = 0.0f;
  float body_depth_ = 0.0f;
  double time_ = 0.0;
  std::optional<float> shake_value_;
  double shake_start_ = 0.0;
  std::vector<CreatureEvent> events_;
};

// A rig setting's value from --rig-param: a number, or true/false.
std::optional<float> setting_value(const anim::ParameterValue& v) {
  switch (v.type) {
    case anim::ParamType::kFloat:
    case anim::ParamType::kBool:
    case anim::ParamType::kTrigger:
      return static_cast<float>(v.number);
    case anim::ParamType::kInt:
      return static_cast<float>(v.integer);
    default:
      return std::nullopt;
  }
}

}  // namespace

vec3 default_body_size(const Model& model) {
  const vec3 size = model.bounds().max - model.bounds().min;
  vec3 out(0.0f);
  for (int a = 0; a < 3; ++a) out[a] = std::isfinite(size[a]) ? std::max(0.0f, size[a]) : 0.0f;
  return out;
}

Result<std::unique_ptr<CreatureSim>> make_creature_sim(const Model& model, const std::string& path,
                                                       const CreatureSpec& spec) {
  const std::string_view kind = to_string(spec.kind);
  Result<std::unique_ptr<legacy::LegacyRig>> rig =
      legacy::make_rig(kind, spec.species, model.skeleton());
  if (!rig) {
    const Error& e = rig.error();
    const std::string where = e.location == "species" ? "--species" : "--creature";
    return fail(Error::at(e.code, path, where, e.message));
  }
  for (const ParamArg& p : spec.rig_params) {
    const std::optional<float> value = setting_value(p.value);
    if (!value) {
      return fail(Error::at(ErrorCode::kUsage, path, "--rig-param",
                            "rig setting " + in_quotes(p.name) + " takes a number or true/false"));
    }
    if (Status s = (*rig)->set_setting(p.name, *value); !s) {
      return fail(Error::at(ErrorCode::kUsage, path, "--rig-param", s.error().message));
    }
  }
  return std::unique_ptr<CreatureSim>(
      std::make_unique<LegacySim>(model, spec.kind, std::move(*rig)));
}

}  // namespace critter::tools
