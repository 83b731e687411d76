// SPDX-License-Identifier: MIT
// CreatureState: what the game knows about one creature's body in one frame, the input of
// CreatureModel (creature_model.h) and of the built-in controller parameters
// (builtin_parameters.h, animation-config.md §16). A plain struct the host fills every frame.
//
// Body frame (Survivalcraft's body matrix): with an identity rotation the body faces -Z, its
// right is +X and its up +Y. A rotation is written (yaw, pitch, roll) in radians as
// R = R_Y(yaw)·R_X(pitch)·R_Z(roll), the convention of the config's rootBoneRotation (§4).
#pragma once

#include <cstdint>
#include <optional>

#include "critter/core/math.h"

namespace critter::creature {

struct CreatureState {
  // World placement: position in metres, rotation normalised. The instance's entity transform
  // is T(position)·R(rotation).
  vec3 position{0.0f};
  quat rotation{1.0f, 0.0f, 0.0f, 0.0f};
  // World velocity, metres per second (vertical included).
  vec3 velocity{0.0f};
  // Locomotion's slip speed (m/s along the body's forward) when it has one; Speed reads it
  // instead of velocity·forward.
  std::optional<float> slip_speed;

  bool is_on_ground = false;      // standing on something
  float immersion_factor = 0.0f;  // 0 (dry) .. 1 (fully under a liquid)
  bool is_flying = false;
  bool is_creative_fly = false;
  float walk_speed = 0.0f;  // the species' walking speed, m/s

  // Health; the creature is dead at or below 0 (Survivalcraft: 0..1).
  float health = 1.0f;
  // Look angles relative to the body (quirk 14), radians: X = yaw (positive left), Y = pitch.
  float look_angle_x = 0.0f;
  float look_angle_y = 0.0f;
  bool is_attacking = false;  // an attack order is held
  bool is_feeding = false;    // a feed order is held

  float body_height = 0.0f;  // bounding-box height, metres
  // Attacker's box centre minus own box centre, captured on the fatal injury (world metres).
  vec3 death_cause_offset{0.0f};
  // The host's game clock, seconds.
  double game_time = 0.0;
  // The movement animation phase when the host drives it (cycles, any real value). Unset:
  // CreatureModel integrates it (creature_model.h).
  std::optional<float> movement_phase;

  // ---- Inputs of the legacy rigs (creatures.md §2–§7); every rig ignores what it does not use.
  // A stable per-entity number (Survivalcraft's entity hash): noise offsets, head-shake phase.
  std::uint32_t entity_hash = 0;
  float body_depth = 0.0f;  // bounding-box depth (BoxZ), metres; the eye sits 0.45·BoxZ ahead
  // Look orders (§2). look_at: a world point the head turns to (LookAtOrder); look_random:
  // LookRandomOrder; head_shake: seconds of head shaking left. While any is active the rigs use
  // the look angles it gives instead of look_angle_x/y.
  std::optional<vec3> look_at;
  bool look_random = false;
  float head_shake = 0.0f;
  // Bird: the fly order (desired velocity direction, |order| <= 1 of the fly speed).
  std::optional<vec3> fly_order;
  // Fish: the swim order (as fly_order), the tail bend order (radians-like, -1..1), the dig-in
  // depth order (metres below the body position).
  std::optional<vec3> swim_order;
  std::optional<float> bend_order;
  std::optional<float> dig_order;
  // Locomotion's last turn order (x: yaw, y: pitch; -1..1) and walk order (x: right, y: forward).
  vec2 turn_order{0.0f};
  vec2 walk_order{0.0f};
  // Human (§4).
  enum class Row : std::uint8_t { kNone, kLeft, kRight, kBoth };
  enum class Mount : std::uint8_t { kNone, kBoat, kOther };
  bool crouch = false;
  Row row = Row::kNone;
  Mount mount = Mount::kNone;
  float mount_bob = 0.0f;      // the mount's Bob, metres (copied while mounted)
  bool mining = false;         // a poking / mining action runs
  float poking_phase = 0.0f;   // 0..1
  bool holding_block = false;  // the active slot holds a block (mining adds .3)
  bool aiming = false;
  float aim_angle = 0.0f;  // radians, added to hand 2 while aiming
  bool sleeping = false;
  bool on_ladder = false;
  // Fish: frozen in ice (only the body is posed).
  bool frozen = false;
};

// Body axes of `rotation` (unit vectors, world space).
vec3 body_forward(const quat& rotation);  // rotation · (0, 0, -1)
vec3 body_right(const quat& rotation);    // rotation · (1, 0, 0)

// R_Y(yaw)·R_X(pitch)·R_Z(roll), normalised; angles in radians.
quat from_yaw_pitch_roll(float yaw, float pitch, float roll);
// The inverse of from_yaw_pitch_roll: (yaw, pitch, roll) with yaw and roll in (-pi, pi] and
// pitch in [-pi/2, pi/2]. At pitch = ±pi/2 (gimbal lock) roll is reported as 0 and yaw carries
// the whole turn about Y. `rotation` need not be normalised (it is normalised first).
vec3 to_yaw_pitch_roll(const quat& rotation);

// Speed along the body: the slip speed when set, else velocity · body_forward (m/s, signed).
float forward_speed(const CreatureState& state);
// Horizontal speed: |(velocity.x, velocity.z)|, m/s.
float horizontal_speed(const CreatureState& state);
// The entity transform T(position)·R(rotation).
mat4 entity_transform(const CreatureState& state);

}  // namespace critter::creature
