// CreatureState: what the game knows about one creature's body in one frame, the input of
// CreatureModel (creature_model.h) and of the built-in controller parameters
// (builtin_parameters.h, animation-config.md §16). A plain struct the host fills every frame.
//
// Body frame (Survivalcraft's body matrix): with an identity rotation the body faces -Z, its
// right is +X and its up +Y. A rotation is written (yaw, pitch, roll) in radians as
// R = R_Y(yaw)·R_X(pitch)·R_Z(roll), the convention of the config's rootBoneRotation (§4).
#pragma once

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
