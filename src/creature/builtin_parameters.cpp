// SPDX-License-Identifier: MIT
#include "critter/creature/builtin_parameters.h"

#include <array>

#include <glm/geometric.hpp>

namespace critter::creature {
namespace {

// §16's table, the FourLegged inputs and the four speeds the host reads back (quirk 13).
constexpr std::array kBuiltins = {
    anim::BuiltinParameter{"MovementPhase", anim::ParamType::kFloat, 0.0},
    anim::BuiltinParameter{"DeathPhase", anim::ParamType::kFloat, 0.0},
    anim::BuiltinParameter{"GameTime", anim::ParamType::kFloat, 0.0},
    anim::BuiltinParameter{"DeathCauseOffset", anim::ParamType::kVec3, 0.0},
    anim::BuiltinParameter{"BodyHeight", anim::ParamType::kFloat, 0.0},
    anim::BuiltinParameter{"Position", anim::ParamType::kVec3, 0.0},
    anim::BuiltinParameter{"Rotation", anim::ParamType::kVec3, 0.0},
    anim::BuiltinParameter{"RotationY", anim::ParamType::kFloat, 0.0},
    anim::BuiltinParameter{"BodyForward", anim::ParamType::kVec3, 0.0},
    anim::BuiltinParameter{"BodyRight", anim::ParamType::kVec3, 0.0},
    anim::BuiltinParameter{"Speed", anim::ParamType::kFloat, 0.0},
    anim::BuiltinParameter{"SpeedAbs", anim::ParamType::kFloat, 0.0},
    anim::BuiltinParameter{"SpeedXZ", anim::ParamType::kFloat, 0.0},
    anim::BuiltinParameter{"IsInWater", anim::ParamType::kBool, 0.0},
    anim::BuiltinParameter{"IsOnGround", anim::ParamType::kBool, 0.0},
    anim::BuiltinParameter{"ImmersionFactor", anim::ParamType::kFloat, 0.0},
    anim::BuiltinParameter{"IsFlying", anim::ParamType::kBool, 0.0},
    anim::BuiltinParameter{"IsCreativeFly", anim::ParamType::kBool, 0.0},
    anim::BuiltinParameter{"WalkSpeed", anim::ParamType::kFloat, 0.0},
    anim::BuiltinParameter{"Health", anim::ParamType::kFloat, 0.0},
    anim::BuiltinParameter{"IsDead", anim::ParamType::kBool, 0.0},
    anim::BuiltinParameter{"LookAngleX", anim::ParamType::kFloat, 0.0},
    anim::BuiltinParameter{"LookAngleY", anim::ParamType::kFloat, 0.0},
    anim::BuiltinParameter{"IsAttacking", anim::ParamType::kBool, 0.0},
    anim::BuiltinParameter{"IsFeeding", anim::ParamType::kBool, 0.0},
    anim::BuiltinParameter{"DeltaTime", anim::ParamType::kFloat, 0.0},
    anim::BuiltinParameter{"WalkAnimationSpeed", anim::ParamType::kFloat, 0.0},
    anim::BuiltinParameter{"FeedFactor", anim::ParamType::kFloat, 0.0},
    anim::BuiltinParameter{"WalkBobHeight", anim::ParamType::kFloat, 0.0},
    anim::BuiltinParameter{"ButtFactor", anim::ParamType::kFloat, 0.0},
    anim::BuiltinParameter{"ButtPhase", anim::ParamType::kFloat, 0.0},
    anim::BuiltinParameter{"WalkFrontLegsAngle", anim::ParamType::kFloat, 0.0},
    anim::BuiltinParameter{"WalkHindLegsAngle", anim::ParamType::kFloat, 0.0},
    anim::BuiltinParameter{"CanterLegsAngleFactor", anim::ParamType::kFloat, 0.0},
    anim::BuiltinParameter{"CanCanter", anim::ParamType::kBool, 0.0},
    anim::BuiltinParameter{"CanTrot", anim::ParamType::kBool, 0.0},
    anim::BuiltinParameter{"DeathSpeed", anim::ParamType::kFloat, 3.0},
    anim::BuiltinParameter{"FeedSpeed", anim::ParamType::kFloat, 2.0},
    anim::BuiltinParameter{"AttackSpeed", anim::ParamType::kFloat, 4.0},
    anim::BuiltinParameter{"AttackPhaseSpeed", anim::ParamType::kFloat, 2.0},
};

}  // namespace

std::span<const anim::BuiltinParameter> builtin_parameters() {
  return kBuiltins;
}

anim::ParameterSchema builtin_schema() {
  return anim::ParameterSchema::with_builtins(kBuiltins);
}

BuiltinParameterIndices BuiltinParameterIndices::resolve(const anim::ParameterSchema& schema) {
  BuiltinParameterIndices i;
  i.movement_phase = schema.find("MovementPhase");
  i.death_phase = schema.find("DeathPhase");
  i.game_time = schema.find("GameTime");
  i.death_cause_offset = schema.find("DeathCauseOffset");
  i.body_height = schema.find("BodyHeight");
  i.position = schema.find("Position");
  i.rotation = schema.find("Rotation");
  i.rotation_y = schema.find("RotationY");
  i.body_forward = schema.find("BodyForward");
  i.body_right = schema.find("BodyRight");
  i.speed = schema.find("Speed");
  i.speed_abs = schema.find("SpeedAbs");
  i.speed_xz = schema.find("SpeedXZ");
  i.is_in_water = schema.find("IsInWater");
  i.is_on_ground = schema.find("IsOnGround");
  i.immersion_factor = schema.find("ImmersionFactor");
  i.is_flying = schema.find("IsFlying");
  i.is_creative_fly = schema.find("IsCreativeFly");
  i.walk_speed = schema.find("WalkSpeed");
  i.health = schema.find("Health");
  i.is_dead = schema.find("IsDead");
  i.look_angle_x = schema.find("LookAngleX");
  i.look_angle_y = schema.find("LookAngleY");
  i.is_attacking = schema.find("IsAttacking");
  i.is_feeding = schema.find("IsFeeding");
  i.delta_time = schema.find("DeltaTime");
  return i;
}

void write_builtin_parameters(const CreatureState& state, const CreaturePhases& phases, float dt,
                              const BuiltinParameterIndices& i, anim::ParameterValues& values) {
  // ParameterValues ignores indices outside its slots, kNoParam included, so a parameter the
  // program does not know costs one bounds check.
  const vec3 ypr = to_yaw_pitch_roll(state.rotation);
  values.set_float(i.movement_phase, phases.movement);
  values.set_float(i.death_phase, phases.death);
  values.set_float(i.game_time, state.game_time);
  values.set_vec3(i.death_cause_offset, state.death_cause_offset);
  values.set_float(i.body_height, state.body_height);
  values.set_vec3(i.position, state.position);
  values.set_vec3(i.rotation, ypr);
  values.set_float(i.rotation_y, ypr.x);
  values.set_vec3(i.body_forward, body_forward(state.rotation));
  values.set_vec3(i.body_right, body_right(state.rotation));
  values.set_float(i.speed, forward_speed(state));
  values.set_float(i.speed_abs, glm::length(state.velocity));
  values.set_float(i.speed_xz, horizontal_speed(state));
  values.set_bool(i.is_in_water, state.immersion_factor > 0.0f);
  values.set_bool(i.is_on_ground, state.is_on_ground);
  values.set_float(i.immersion_factor, state.immersion_factor);
  values.set_bool(i.is_flying, state.is_flying);
  values.set_bool(i.is_creative_fly, state.is_creative_fly);
  values.set_float(i.walk_speed, state.walk_speed);
  values.set_float(i.health, state.health);
  values.set_bool(i.is_dead, state.health <= 0.0f);
  values.set_float(i.look_angle_x, state.look_angle_x);
  values.set_float(i.look_angle_y, state.look_angle_y);
  values.set_bool(i.is_attacking, state.is_attacking);
  values.set_bool(i.is_feeding, state.is_feeding);
  values.set_float(i.delta_time, dt);
}

}  // namespace critter::creature
