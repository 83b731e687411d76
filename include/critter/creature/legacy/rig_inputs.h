// SPDX-License-Identifier: MIT
// RigInputs: everything a legacy rig reads in one frame, flat and finite. The two doors into the
// rigs fill it the same way: the rig path from a CreatureState (from_state), the driver path from
// a Controller's parameters (from_parameters) after the host wrote write_builtin_parameters()
// (builtin_parameters.h) and write_rig_parameters() below from the same state; both give
// bit-identical inputs for the same state.
//
// Every float is sanitised: NaN or infinite reads as 0 and magnitudes are clamped to 1e6
// (position and game time excepted, which are only made finite), so no state value reaches a
// pose as NaN or infinity.
#pragma once

#include <cstdint>

#include "critter/anim/parameters.h"
#include "critter/core/math.h"
#include "critter/creature/creature_state.h"

namespace critter::creature::legacy {

struct RigInputs {
  vec3 position{0.0f};                // Position
  vec3 rotation_ypr{0.0f};            // Rotation: (yaw, pitch, roll), radians
  vec3 body_right{1.0f, 0.0f, 0.0f};  // BodyRight
  float speed = 0.0f;                 // Speed: slip speed, else velocity·forward (m/s)
  float speed_abs = 0.0f;             // SpeedAbs: |velocity|
  float speed_xz = 0.0f;              // SpeedXZ: horizontal speed
  bool slipping = false;              // IsSlipping: Speed is a slip speed
  float walk_speed = 0.0f;
  bool on_ground = false;
  float immersion = 0.0f;
  bool flying = false;
  bool creative_fly = false;
  float health = 1.0f;
  vec2 look_angles{0.0f};  // LookAngleX / LookAngleY
  bool attacking = false;
  bool feeding = false;
  float body_height = 0.0f;
  float body_depth = 0.0f;
  vec3 death_cause{0.0f};
  double game_time = 0.0;
  std::uint32_t entity_hash = 0;
  // Orders.
  bool has_look_at = false;
  vec3 look_at{0.0f};
  bool look_random = false;
  float head_shake = 0.0f;
  bool has_fly_order = false;
  vec3 fly_order{0.0f};
  bool has_swim_order = false;
  vec3 swim_order{0.0f};
  bool has_bend_order = false;
  float bend_order = 0.0f;
  bool has_dig_order = false;
  float dig_order = 0.0f;
  vec2 turn_order{0.0f};
  vec2 walk_order{0.0f};
  // Human.
  bool crouch = false;
  bool row_left = false;
  bool row_right = false;
  bool riding = false;  // IsRiding: mounted on anything
  bool boat = false;    // IsBoat: the mount is a boat
  float mount_bob = 0.0f;
  bool mining = false;
  float poking_phase = 0.0f;
  bool holding_block = false;
  bool aiming = false;
  float aim_angle = 0.0f;
  bool sleeping = false;
  bool on_ladder = false;
  bool frozen = false;

  quat rotation() const;  // from_yaw_pitch_roll(rotation_ypr)
};

RigInputs from_state(const CreatureState& state);

// Parameter indices of everything from_parameters reads: the §16 built-ins it needs and the rig
// parameters (names listed at write_rig_parameters). declare() uses declare_or_find, so every
// name exists in the schema afterwards (unset until written).
struct RigParameterIndices {
  anim::ParamIndex position, rotation, body_right, speed, speed_abs, speed_xz, slipping, walk_speed,
      on_ground, immersion, flying, creative_fly, health, look_x, look_y, attacking, feeding,
      body_height, body_depth, death_cause, game_time, entity_hash, has_look_at, look_at,
      look_random, head_shake, has_fly_order, fly_order, has_swim_order, swim_order, has_bend_order,
      bend_order, has_dig_order, dig_order, turn_order_x, turn_order_y, walk_order, crouch,
      row_left, row_right, riding, boat, mount_bob, mining, poking_phase, holding_block, aiming,
      aim_angle, sleeping, on_ladder, frozen;
  static RigParameterIndices declare(anim::ParameterSchema& schema);
  // The same names looked up without declaring (anim::kNoParam where missing), for a host that
  // writes the parameters of a compiled program whose schema it cannot change.
  static RigParameterIndices resolve(const anim::ParameterSchema& schema);
};

RigInputs from_parameters(const anim::ParameterValues& values, const RigParameterIndices& i);

// Writes the rig parameters that are not §16 built-ins from `state`: IsSlipping, EntityHash,
// BodyDepth, HasLookAtOrder + LookAtOrder (Vec3, world point), LookRandomOrder, HeadShake,
// HasFlyOrder + FlyOrder (Vec3), HasSwimOrder + SwimOrder (Vec3), HasBendOrder + BendOrder,
// HasDigOrder + DigOrder, LastTurnOrderX, LastTurnOrderY, WalkOrder (Vec2), IsCrouching,
// RowLeft, RowRight, IsRiding, IsBoat, MountBob, IsMining, PokingPhase, ActiveBlockValue (1 when
// holding a block), IsAiming, AimHandAngle, IsSleeping, IsOnLadder, IsEmbeddedInIce.
void write_rig_parameters(const CreatureState& state, const RigParameterIndices& i,
                          anim::ParameterValues& values);

}  // namespace critter::creature::legacy
