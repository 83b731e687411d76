// SPDX-License-Identifier: MIT
#include "critter/creature/legacy/rig_inputs.h"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

namespace critter::creature::legacy {
namespace {

constexpr float kLimit = 1e6f;

// Values are bounded so that products such as speed·rate·dt stay far from float overflow.
float clean(float x) {
  if (!std::isfinite(x)) return 0.0f;
  return std::clamp(x, -kLimit, kLimit);
}
float finite(float x) {
  return std::isfinite(x) ? x : 0.0f;
}
vec3 clean(vec3 v) {
  return {clean(v.x), clean(v.y), clean(v.z)};
}
vec2 clean(vec2 v) {
  return {clean(v.x), clean(v.y)};
}
vec3 finite(vec3 v) {
  return {finite(v.x), finite(v.y), finite(v.z)};
}
float number(const anim::ParameterValues& v, anim::ParamIndex i) {
  const double d = v.number(i);
  return std::isfinite(d) ? static_cast<float>(std::clamp(d, -1e30, 1e30)) : 0.0f;
}
vec3 vec(const anim::ParameterValues& v, anim::ParamIndex i) {
  return v.vec(i);
}

// Every field sanitised in one place, so both doors give the same numbers. In place: the
// inputs are written field by field, and a copy of the whole struct would read them back with
// wider loads than they were written with (a store-forwarding stall on each).
void sanitise(RigInputs& in) {
  in.position = finite(in.position);
  in.rotation_ypr = clean(in.rotation_ypr);
  in.body_right = clean(in.body_right);
  in.speed = clean(in.speed);
  in.speed_abs = clean(in.speed_abs);
  in.speed_xz = clean(in.speed_xz);
  in.walk_speed = clean(in.walk_speed);
  in.immersion = clean(in.immersion);
  in.health = clean(in.health);
  in.look_angles = clean(in.look_angles);
  in.body_height = clean(in.body_height);
  in.body_depth = clean(in.body_depth);
  in.death_cause = clean(in.death_cause);
  if (!std::isfinite(in.game_time)) in.game_time = 0.0;
  in.look_at = finite(in.look_at);
  in.head_shake = clean(in.head_shake);
  in.fly_order = clean(in.fly_order);
  in.swim_order = clean(in.swim_order);
  in.bend_order = clean(in.bend_order);
  in.dig_order = clean(in.dig_order);
  in.turn_order = clean(in.turn_order);
  in.walk_order = clean(in.walk_order);
  in.mount_bob = clean(in.mount_bob);
  in.poking_phase = clean(in.poking_phase);
  in.aim_angle = clean(in.aim_angle);
}

}  // namespace

quat RigInputs::rotation() const {
  return from_yaw_pitch_roll(rotation_ypr.x, rotation_ypr.y, rotation_ypr.z);
}

RigInputs from_state(const CreatureState& s) {
  RigInputs in;
  // The same expressions write_builtin_parameters stores (builtin_parameters.cpp).
  in.position = s.position;
  in.rotation_ypr = to_yaw_pitch_roll(s.rotation);
  in.body_right = body_right(s.rotation);
  in.speed = forward_speed(s);
  in.speed_abs = glm::length(s.velocity);
  in.speed_xz = horizontal_speed(s);
  in.slipping = s.slip_speed.has_value();
  in.walk_speed = s.walk_speed;
  in.on_ground = s.is_on_ground;
  in.immersion = s.immersion_factor;
  in.flying = s.is_flying;
  in.creative_fly = s.is_creative_fly;
  in.health = s.health;
  in.look_angles = vec2(s.look_angle_x, s.look_angle_y);
  in.attacking = s.is_attacking;
  in.feeding = s.is_feeding;
  in.body_height = s.body_height;
  in.body_depth = s.body_depth;
  in.death_cause = s.death_cause_offset;
  in.game_time = s.game_time;
  in.entity_hash = s.entity_hash;
  in.has_look_at = s.look_at.has_value();
  in.look_at = s.look_at.value_or(vec3(0.0f));
  in.look_random = s.look_random;
  in.head_shake = s.head_shake;
  in.has_fly_order = s.fly_order.has_value();
  in.fly_order = s.fly_order.value_or(vec3(0.0f));
  in.has_swim_order = s.swim_order.has_value();
  in.swim_order = s.swim_order.value_or(vec3(0.0f));
  in.has_bend_order = s.bend_order.has_value();
  in.bend_order = s.bend_order.value_or(0.0f);
  in.has_dig_order = s.dig_order.has_value();
  in.dig_order = s.dig_order.value_or(0.0f);
  in.turn_order = s.turn_order;
  in.walk_order = s.walk_order;
  in.crouch = s.crouch;
  in.row_left = s.row == CreatureState::Row::kLeft || s.row == CreatureState::Row::kBoth;
  in.row_right = s.row == CreatureState::Row::kRight || s.row == CreatureState::Row::kBoth;
  in.riding = s.mount != CreatureState::Mount::kNone;
  in.boat = s.mount == CreatureState::Mount::kBoat;
  in.mount_bob = s.mount_bob;
  in.mining = s.mining;
  in.poking_phase = s.poking_phase;
  in.holding_block = s.holding_block;
  in.aiming = s.aiming;
  in.aim_angle = s.aim_angle;
  in.sleeping = s.sleeping;
  in.on_ladder = s.on_ladder;
  in.frozen = s.frozen;
  sanitise(in);
  return in;
}

namespace {

template <class Lookup>
RigParameterIndices lookup_all(Lookup d) {
  RigParameterIndices i;
  i.position = d("Position");
  i.rotation = d("Rotation");
  i.body_right = d("BodyRight");
  i.speed = d("Speed");
  i.speed_abs = d("SpeedAbs");
  i.speed_xz = d("SpeedXZ");
  i.slipping = d("IsSlipping");
  i.walk_speed = d("WalkSpeed");
  i.on_ground = d("IsOnGround");
  i.immersion = d("ImmersionFactor");
  i.flying = d("IsFlying");
  i.creative_fly = d("IsCreativeFly");
  i.health = d("Health");
  i.look_x = d("LookAngleX");
  i.look_y = d("LookAngleY");
  i.attacking = d("IsAttacking");
  i.feeding = d("IsFeeding");
  i.body_height = d("BodyHeight");
  i.body_depth = d("BodyDepth");
  i.death_cause = d("DeathCauseOffset");
  i.game_time = d("GameTime");
  i.entity_hash = d("EntityHash");
  i.has_look_at = d("HasLookAtOrder");
  i.look_at = d("LookAtOrder");
  i.look_random = d("LookRandomOrder");
  i.head_shake = d("HeadShake");
  i.has_fly_order = d("HasFlyOrder");
  i.fly_order = d("FlyOrder");
  i.has_swim_order = d("HasSwimOrder");
  i.swim_order = d("SwimOrder");
  i.has_bend_order = d("HasBendOrder");
  i.bend_order = d("BendOrder");
  i.has_dig_order = d("HasDigOrder");
  i.dig_order = d("DigOrder");
  i.turn_order_x = d("LastTurnOrderX");
  i.turn_order_y = d("LastTurnOrderY");
  i.walk_order = d("WalkOrder");
  i.crouch = d("IsCrouching");
  i.row_left = d("RowLeft");
  i.row_right = d("RowRight");
  i.riding = d("IsRiding");
  i.boat = d("IsBoat");
  i.mount_bob = d("MountBob");
  i.mining = d("IsMining");
  i.poking_phase = d("PokingPhase");
  i.holding_block = d("ActiveBlockValue");
  i.aiming = d("IsAiming");
  i.aim_angle = d("AimHandAngle");
  i.sleeping = d("IsSleeping");
  i.on_ladder = d("IsOnLadder");
  i.frozen = d("IsEmbeddedInIce");
  return i;
}

}  // namespace

RigParameterIndices RigParameterIndices::declare(anim::ParameterSchema& s) {
  return lookup_all([&](const char* name) { return s.declare_or_find(name); });
}

RigParameterIndices RigParameterIndices::resolve(const anim::ParameterSchema& s) {
  return lookup_all([&](const char* name) { return s.find(name); });
}

RigInputs from_parameters(const anim::ParameterValues& v, const RigParameterIndices& i) {
  RigInputs in;
  auto b = [&](anim::ParamIndex p) { return v.boolean(p); };
  in.position = vec(v, i.position);
  in.rotation_ypr = vec(v, i.rotation);
  in.body_right = vec(v, i.body_right);
  in.speed = number(v, i.speed);
  in.speed_abs = number(v, i.speed_abs);
  in.speed_xz = number(v, i.speed_xz);
  in.slipping = b(i.slipping);
  in.walk_speed = number(v, i.walk_speed);
  in.on_ground = b(i.on_ground);
  in.immersion = number(v, i.immersion);
  in.flying = b(i.flying);
  in.creative_fly = b(i.creative_fly);
  // An unset Health reads as alive.
  in.health = v.type(i.health) == anim::ParamType::kUnset ? 1.0f : number(v, i.health);
  in.look_angles = vec2(number(v, i.look_x), number(v, i.look_y));
  in.attacking = b(i.attacking);
  in.feeding = b(i.feeding);
  in.body_height = number(v, i.body_height);
  in.body_depth = number(v, i.body_depth);
  in.death_cause = vec(v, i.death_cause);
  in.game_time = v.number(i.game_time);
  in.entity_hash = static_cast<std::uint32_t>(static_cast<std::int64_t>(
      std::isfinite(v.number(i.entity_hash)) ? v.number(i.entity_hash) : 0.0));
  in.has_look_at = b(i.has_look_at);
  in.look_at = vec(v, i.look_at);
  in.look_random = b(i.look_random);
  in.head_shake = number(v, i.head_shake);
  in.has_fly_order = b(i.has_fly_order);
  in.fly_order = vec(v, i.fly_order);
  in.has_swim_order = b(i.has_swim_order);
  in.swim_order = vec(v, i.swim_order);
  in.has_bend_order = b(i.has_bend_order);
  in.bend_order = number(v, i.bend_order);
  in.has_dig_order = b(i.has_dig_order);
  in.dig_order = number(v, i.dig_order);
  in.turn_order = vec2(number(v, i.turn_order_x), number(v, i.turn_order_y));
  in.walk_order = vec2(vec(v, i.walk_order));
  in.crouch = b(i.crouch);
  in.row_left = b(i.row_left);
  in.row_right = b(i.row_right);
  in.riding = b(i.riding);
  in.boat = b(i.boat);
  in.mount_bob = number(v, i.mount_bob);
  in.mining = b(i.mining);
  in.poking_phase = number(v, i.poking_phase);
  in.holding_block = number(v, i.holding_block) != 0.0f;
  in.aiming = b(i.aiming);
  in.aim_angle = number(v, i.aim_angle);
  in.sleeping = b(i.sleeping);
  in.on_ladder = b(i.on_ladder);
  in.frozen = b(i.frozen);
  sanitise(in);
  return in;
}

void write_rig_parameters(const CreatureState& s, const RigParameterIndices& i,
                          anim::ParameterValues& v) {
  v.set_bool(i.slipping, s.slip_speed.has_value());
  v.set_float(i.entity_hash, static_cast<double>(s.entity_hash));
  v.set_float(i.body_depth, s.body_depth);
  v.set_bool(i.has_look_at, s.look_at.has_value());
  v.set_vec3(i.look_at, s.look_at.value_or(vec3(0.0f)));
  v.set_bool(i.look_random, s.look_random);
  v.set_float(i.head_shake, s.head_shake);
  v.set_bool(i.has_fly_order, s.fly_order.has_value());
  v.set_vec3(i.fly_order, s.fly_order.value_or(vec3(0.0f)));
  v.set_bool(i.has_swim_order, s.swim_order.has_value());
  v.set_vec3(i.swim_order, s.swim_order.value_or(vec3(0.0f)));
  v.set_bool(i.has_bend_order, s.bend_order.has_value());
  v.set_float(i.bend_order, s.bend_order.value_or(0.0f));
  v.set_bool(i.has_dig_order, s.dig_order.has_value());
  v.set_float(i.dig_order, s.dig_order.value_or(0.0f));
  v.set_float(i.turn_order_x, s.turn_order.x);
  v.set_float(i.turn_order_y, s.turn_order.y);
  v.set_vec2(i.walk_order, s.walk_order);
  v.set_bool(i.crouch, s.crouch);
  v.set_bool(i.row_left, s.row == CreatureState::Row::kLeft || s.row == CreatureState::Row::kBoth);
  v.set_bool(i.row_right,
             s.row == CreatureState::Row::kRight || s.row == CreatureState::Row::kBoth);
  v.set_bool(i.riding, s.mount != CreatureState::Mount::kNone);
  v.set_bool(i.boat, s.mount == CreatureState::Mount::kBoat);
  v.set_float(i.mount_bob, s.mount_bob);
  v.set_bool(i.mining, s.mining);
  v.set_float(i.poking_phase, s.poking_phase);
  v.set_float(i.holding_block, s.holding_block ? 1.0 : 0.0);
  v.set_bool(i.aiming, s.aiming);
  v.set_float(i.aim_angle, s.aim_angle);
  v.set_bool(i.sleeping, s.sleeping);
  v.set_bool(i.on_ladder, s.on_ladder);
  v.set_bool(i.frozen, s.frozen);
}

}  // namespace critter::creature::legacy
