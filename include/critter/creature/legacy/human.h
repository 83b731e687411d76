// SPDX-License-Identifier: MIT
// HumanRig: Survivalcraft's ComponentHumanModel (creatures.md §4). Bones: Body, Head, Hand1,
// Hand2, Leg1, Leg2.
//
// Per frame: CrouchFactor ±2·dt; the lie-down factor ±3·dt while sleeping or dead. Phase: on a
// ladder footsteps += 1.5·WAS·|v|·dt; otherwise, outside creative flight, with s = the slip speed
// when slipping else SpeedXZ, when slipping or s > 0.5: φ += s·WAS·dt and footsteps += s·WAS·dt;
// idle: φ settles at 2/s to the nearest half-integer (up when the remainder > 0.25). Bob target
// B·sin²(2πφ) (a mounted human copies MountBob). headingOffset moves toward the angle from +Y
// to the walk order (x right, y forward; |y| is used so walking backwards does not turn the
// body round) at sat(8·dt). Punch (the attack order): factor ±4·dt, phase rate 2, hit at 0.5,
// alternating hands per completed cycle, released below 0.5 the phase decays as phase −= dt·phase.
// Rowing sound when floor(1.1·t) changes while rowing.
// Pose: §4's head noise and clamps, the hand and leg targets of the table (boat, other mount,
// creative flight, walking) plus mining, punch, rowing, aiming and idle noise, all smoothed with
// k. Crouch: CrouchFactor = 1 halves the leg angles; f = σ(CrouchFactor, 4): Body y −= 0.7·f,
// each leg ·T(0, 7f, 28f)·Scale(1, 1, lerp(1, .5, f)) in the leg's parent units (the legacy
// human's bone units are 1/40 m under a 0.025 model scale; the built-in human uses the same).
// Lying down or dead (a = max(DP, lie-down)): Body = YPR(yaw, (π/2)a, 0)·T(.5a·BoxY·forward +
// .1a·BoxZ·Ŷ); Head identity; limbs ×(1 − a).
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <span>
#include <string_view>

#include "critter/creature/legacy/legacy_rig.h"

namespace critter::creature::legacy {

class HumanRig final : public LegacyRig {
 public:
  enum Role : int { kBody, kHead, kHand1, kHand2, kLeg1, kLeg2 };

  struct Settings {
    float walk_animation_speed = 1.0f;  // WalkAnimationSpeed (WAS)
    float walk_legs_angle = 0.5f;       // WalkLegsAngle, radians
    float walk_bob_height = 0.05f;      // WalkBobHeight, metres (B)
    float death_speed = 3.0f;           // DeathSpeed
    float attack_speed = 4.0f;          // AttackSpeed (punch factor per second)
    float attack_phase_speed = 2.0f;    // AttackPhaseSpeed (punch cycles per second)
  };

  HumanRig();
  explicit HumanRig(Settings settings);
  // "default", "player", "werewolf".
  static std::optional<Settings> preset(std::string_view species);
  static std::span<const std::string_view> species_names();
  static std::span<const BoneRole> bone_roles();

  Settings& settings() { return settings_; }
  const Settings& settings() const { return settings_; }
  std::span<const std::string_view> setting_names() const override;
  std::unique_ptr<LegacyRig> clone() const override;

  float phase() const { return phase_; }
  float crouch_factor() const { return crouch_; }
  float heading_offset() const { return heading_; }
  const AttackCycle& punch() const { return punch_; }
  vec2 hand(int i) const { return hands_[static_cast<std::size_t>(i)]; }  // (X, Y) radians
  vec2 leg(int i) const { return legs_[static_cast<std::size_t>(i)]; }

 protected:
  void do_step(const RigInputs& in, float dt) override;
  bool access_setting(std::string_view name, float* read, const float* write) override;

 private:
  Settings settings_;
  float phase_ = 0.0f;
  float footsteps_ = 0.0f;
  float bob_ = 0.0f;
  float crouch_ = 0.0f;
  float lie_down_ = 0.0f;
  float heading_ = 0.0f;
  AttackCycle punch_;
  double last_row_tick_ = 0.0;
  vec2 head_{0.0f};  // (yaw, pitch)
  std::array<vec2, 2> hands_{};
  std::array<vec2, 2> legs_{};
  float death_phase_ = 0.0f;
};

}  // namespace critter::creature::legacy
