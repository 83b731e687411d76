// SPDX-License-Identifier: MIT
// The shared maths of Survivalcraft's legacy rigs (creatures.md §2): σ, value noise, octave
// noise, the smoothing factor, the attack cycle, the death phase and roll, the look orders and
// the eye position. Every rig of critter::creature::legacy uses these, never its own copy.
//
//   float k = legacy::smoothing(dt);             // min(12·dt, 1)
//   bob += k * (target - bob);
//   legacy::AttackCycle butt;                    // factor ±4·dt, phase rate 2
//   if (butt.update(held, dt, 4.0f, 2.0f)) { /* the hit moment */ }
//
// Angles are radians, times seconds, lengths metres. Frames: the entity frame of CreatureState
// (+Y up, forward -Z, right +X); bone spaces are Z-up (yaw RotZ, pitch RotX).
#pragma once

#include <cstdint>

#include "critter/core/math.h"
#include "critter/core/transform.h"

namespace critter::creature::legacy {

inline constexpr float kPi = 3.14159265358979f;
inline constexpr float kDeg = kPi / 180.0f;

// σ(x, k): 0 for x <= 0, 1 for x >= 1, else e^k·(e^{2kx} − 1) / ((e^k − 1)·(e^{2kx} + e^k)).
// k > 0. NaN x reads as 0.
float sigma(float x, float k);
// The lattice hash h(i) in [0, 1): n = (i << 13) XOR i on wrapping 32-bit signed integers, then
// ((n·(n·n·15731 + 789221) + 1376312589) AND 0x7FFFFFFF) / 2147483648.
float lattice_hash(std::int32_t i);
// 1-D value noise in [0, 1]: h(i) + f²(3 − 2f)·(h(j) − h(i)), i = floor(x), j = ceil(x),
// f = x − i. Equals h(i) at integers. Non-finite x reads as 0; |x| beyond 2^31 wraps.
float noise(float x);
// Octave noise: Σ a·noise(x·f) over `octaves` (f starts at `frequency`, a at 1, each octave
// multiplying f by frequency_step and a by amplitude_step) divided by Σ a. octaves >= 1.
float oct_noise(float x, float frequency, int octaves, float frequency_step, float amplitude_step);

// The smoothing factor k = min(12·dt, 1) (dt >= 0): x += k·(target − x).
float smoothing(float dt);
// sat(x) = clamp(x, 0, 1).
float sat(float x);
// x moved toward target by at most `step` (>= 0).
float move_toward(float x, float target, float step);
// x − floor(x), in [0, 1); non-finite reads as 0.
float frac(float x);
// Rotation about a bone axis (0 X, 1 Y, 2 Z) by `radians`.
quat rot_x(float radians);
quat rot_y(float radians);
quat rot_z(float radians);

// An attack (or punch, butt, kick) cycle: while the order is held the factor rises by
// factor_rate·dt (to 1) and the phase advances by phase_rate·dt, wrapping at 1; the hit moment is
// the crossing of 0.5. After release the factor falls by factor_rate·dt (to 0); a phase above 0.5
// runs on to 1 and wraps to 0, a phase at or below 0.5 falls to 0 by phase_rate·dt
// (Release::kFall) or decays as phase −= dt·phase (Release::kDecay, the human punch).
struct AttackCycle {
  enum class Release : std::uint8_t { kFall, kDecay };
  float factor = 0.0f;  // 0..1
  float phase = 0.0f;   // [0, 1)
  int wraps = 0;        // completed cycles (the human punch alternates hands on it)
  // Advances one frame; true when the phase crossed 0.5 while held (the hit moment).
  bool update(bool held, float dt, float factor_rate, float phase_rate,
              Release release = Release::kFall);
};

// The death phase DP: DP + death_speed·dt (at most 1) while health <= 0, else 0.
float death_phase_step(float death_phase, float health, float dt, float death_speed);
// The death-roll side: +1 when right·death_cause_offset > 0, else −1.
float death_roll_side(const vec3& body_right, const vec3& death_cause_offset);
// The four-legged / flightless-bird death roll as the Body override in the entity frame (the
// factor in front of RotY(yaw)·T(pos), column order):
// T(0.2·h·DP·Ŷ)·RotZ((π/2)·DP·side)·T(−0.5·h·DP·Ŷ), h the bounding-box height.
Transform death_roll(float body_height, float death_phase, float side);

// The eye position (world): pos + up·0.95·BoxY + forward·0.45·BoxZ (fish: 1.0·BoxY).
vec3 eye_position(const vec3& position, const quat& rotation, float box_y, float box_z, bool fish);

// Look orders (§2, base update). One per creature; angles are body-relative radians (quirk 14):
// x = yaw (positive turns the head toward the body's right in the legacy head transform
// RotX(pitch)·RotZ(−yaw)), y = pitch (positive up).
class LookOrders {
 public:
  struct Inputs {
    vec3 position{0.0f};
    quat rotation{1.0f, 0.0f, 0.0f, 0.0f};
    float box_y = 0.0f;
    float box_z = 0.0f;
    bool fish = false;
    const vec3* look_at = nullptr;  // world point, or null
    bool look_random = false;
    float head_shake = 0.0f;  // seconds left
    double game_time = 0.0;
    std::uint32_t entity_hash = 0;
    vec2 look_angles{0.0f};  // the host's angles, used when no order is active
  };
  // The look angles of this frame. LookAtOrder: yaw = the signed angle from forward_xz to dir_xz,
  // pitch = asin(0.99·dir_y) (dir = normalised target − eye). LookRandomOrder: re-picks a target
  // with probability 0.25·dt per frame, or whenever forward·dir < 0.2, at eye + U(3, 8)·forward +
  // U(−1, 1)·up + U(−5, 5)·right, from a generator seeded with the entity hash. Head shake: yaw =
  // sat(4·remaining)·sin(16·t + 0.01·hash). Precedence: look-at, then head shake, then random.
  vec2 update(const Inputs& in, float dt);

 private:
  float uniform(float lo, float hi);
  std::uint32_t rng_ = 0;
  bool seeded_ = false;
  bool has_target_ = false;
  vec3 target_{0.0f};
};

}  // namespace critter::creature::legacy
