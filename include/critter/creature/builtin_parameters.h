// SPDX-License-Identifier: MIT
// The built-in controller parameters a creature fills from its body state every frame
// (animation-config.md §16). Indices are resolved once per schema (per ControllerProgram), so the
// per-frame write is a list of indexed setters: no lookup, no allocation.
//
//   anim::ControllerDesc desc;
//   desc.schema = builtin_schema();  // before the config's own parameters
#pragma once

#include <span>

#include "critter/anim/parameters.h"
#include "critter/creature/creature_state.h"

namespace critter::creature {

// The parameters critter knows without a declaration (§16): the table, the FourLegged inputs and
// the four speeds the host reads back, DeathSpeed (3), FeedSpeed (2), AttackSpeed (4) and
// AttackPhaseSpeed (2) (quirk 13). Everything else starts at its type's zero.
std::span<const anim::BuiltinParameter> builtin_parameters();
// A schema holding builtin_parameters(), in table order (ParameterSchema::with_builtins).
anim::ParameterSchema builtin_schema();

// What the creature model integrates itself rather than reads from the host.
struct CreaturePhases {
  float movement = 0.0f;  // MovementPhase, cycles
  float death = 0.0f;     // DeathPhase, 0 (alive) .. 1 (death animation finished)
};

// Index of each built-in the frame write fills, anim::kNoParam where the schema lacks the name
// (that parameter is then skipped). Names as in builtin_parameters().
struct BuiltinParameterIndices {
  anim::ParamIndex movement_phase = anim::kNoParam;      // MovementPhase, float
  anim::ParamIndex death_phase = anim::kNoParam;         // DeathPhase, float
  anim::ParamIndex game_time = anim::kNoParam;           // GameTime, float (seconds)
  anim::ParamIndex death_cause_offset = anim::kNoParam;  // DeathCauseOffset, Vec3
  anim::ParamIndex body_height = anim::kNoParam;         // BodyHeight, float
  anim::ParamIndex position = anim::kNoParam;            // Position, Vec3
  anim::ParamIndex rotation = anim::kNoParam;            // Rotation, Vec3 (yaw, pitch, roll)
  anim::ParamIndex rotation_y = anim::kNoParam;          // RotationY, float (yaw)
  anim::ParamIndex body_forward = anim::kNoParam;        // BodyForward, Vec3
  anim::ParamIndex body_right = anim::kNoParam;          // BodyRight, Vec3
  anim::ParamIndex speed = anim::kNoParam;               // Speed, float
  anim::ParamIndex speed_abs = anim::kNoParam;           // SpeedAbs, float
  anim::ParamIndex speed_xz = anim::kNoParam;            // SpeedXZ, float
  anim::ParamIndex is_in_water = anim::kNoParam;         // IsInWater, bool
  anim::ParamIndex is_on_ground = anim::kNoParam;        // IsOnGround, bool
  anim::ParamIndex immersion_factor = anim::kNoParam;    // ImmersionFactor, float
  anim::ParamIndex is_flying = anim::kNoParam;           // IsFlying, bool
  anim::ParamIndex is_creative_fly = anim::kNoParam;     // IsCreativeFly, bool
  anim::ParamIndex walk_speed = anim::kNoParam;          // WalkSpeed, float
  anim::ParamIndex health = anim::kNoParam;              // Health, float
  anim::ParamIndex is_dead = anim::kNoParam;             // IsDead, bool
  anim::ParamIndex look_angle_x = anim::kNoParam;        // LookAngleX, float (radians)
  anim::ParamIndex look_angle_y = anim::kNoParam;        // LookAngleY, float (radians)
  anim::ParamIndex is_attacking = anim::kNoParam;        // IsAttacking, bool
  anim::ParamIndex is_feeding = anim::kNoParam;          // IsFeeding, bool
  anim::ParamIndex delta_time = anim::kNoParam;          // DeltaTime, float (seconds)

  // Looks every name up in `schema` (case-insensitively). The result stays valid while the
  // schema only grows (indices are stable).
  static BuiltinParameterIndices resolve(const anim::ParameterSchema& schema);
};

// Writes the built-ins of one frame into `values` (the parameters of a Controller over the
// schema `indices` was resolved against). Each is stored with its table type (float, bool or
// Vec3), whatever type the slot held before:
//   MovementPhase, DeathPhase = phases; GameTime = state.game_time; DeathCauseOffset,
//   BodyHeight, Position, WalkSpeed, Health, LookAngleX/Y, IsFlying, IsCreativeFly, IsOnGround,
//   ImmersionFactor, IsAttacking, IsFeeding = the state's fields; Rotation =
//   to_yaw_pitch_roll(rotation) and RotationY its yaw; BodyForward/BodyRight = body_forward/right;
//   Speed = forward_speed(state); SpeedAbs = |velocity|; SpeedXZ = horizontal_speed(state);
//   IsInWater = immersion_factor > 0; IsDead = health <= 0; DeltaTime = dt.
// Skipped indices (kNoParam) and indices past `values` are ignored. Never allocates.
void write_builtin_parameters(const CreatureState& state, const CreaturePhases& phases, float dt,
                              const BuiltinParameterIndices& indices,
                              anim::ParameterValues& values);

}  // namespace critter::creature
