// SPDX-License-Identifier: MIT
// BirdRig: Survivalcraft's ComponentBirdModel (creatures.md §5). Bones: Body, Neck, Head, Leg1,
// Leg2 and, for birds that fly, Wing1 and Wing2 (optional).
//
// Per frame, v = RigInputs::speed: |v| > 0.1 → φ += v·WAS·dt, else φ settles at 2/s to the
// nearest integer. Bob target −B·sin²(2πφ), smoothed. FlyPhase (with wings): during a fly order,
// pinned at 0.72 when order.y < −0.1 and SpeedAbs > 4, else frac(FlyPhase + FAS·m·dt) with m = 1.5
// when |order|² > 0.99, else 1; without an order it rises to 1 (folded) at FAS per second.
// Peck (the feed order): += PAS·dt, −0.5 whenever above 0.75; released, it runs on to 1 → 0.
// Kick (the attack order): the same cycle at KickAnimationSpeed (< 0: = PAS), an attack-hit when
// it crosses 0.5. The peck term uses cos(2π·phase), phase = the kick phase while it runs, else the
// peck phase (animation-config.md quirk 8: critter does not copy the missing 2π).
// Pose: wing = 1.2·sin(2π(FlyPhase + .75)) (+ .3·sin 2πφ standing), Wing1 RotY(wing), Wing2
// RotY(−wing); legs .6·sin 2πφ and its negation when standing, in water or FlySpeed = 0, else
// both −60° (tucked in flight); neck n = .5·sin πφ standing or in water (head h = −n), then
// n −= 1.25·(1 − (c ≥ 0 ? c : −.5c)), n += LookY; Neck = YPR(LookX/2, n, 0), Head =
// YPR(LookX/2, h + clamp(bodyPitch, ±π/4), bodyRoll), Body = T(0, Bob, 0).
// Death: Body = YPR(yaw, (π/2)·DP, 0)·T(pos + .5h·forward_xz) (the offset as the spec writes it,
// present while DP > 0), Neck and Head identity, wings and legs ×(1 − DP).
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string_view>

#include "critter/creature/legacy/legacy_rig.h"

namespace critter::creature::legacy {

class BirdRig final : public LegacyRig {
 public:
  enum Role : int { kBody, kNeck, kHead, kLeg1, kLeg2, kWing1, kWing2 };

  struct Settings {
    float walk_animation_speed = 1.0f;   // WalkAnimationSpeed (WAS)
    float fly_animation_speed = 1.0f;    // FlyAnimationSpeed (FAS)
    float peck_animation_speed = 2.0f;   // PeckAnimationSpeed (PAS)
    float kick_animation_speed = -1.0f;  // KickAnimationSpeed; < 0: the peck value
    float walk_bob_height = 0.0f;        // WalkBobHeight (B)
    // FlySpeed, m/s: 0 for a bird that never flies (its legs then never tuck). The database
    // value is the locomotion's; critter defaults to 1 so that a bird with wings tucks its legs.
    float fly_speed = 1.0f;
    float death_speed = 3.0f;  // DeathSpeed
  };

  BirdRig();
  explicit BirdRig(Settings settings);
  // "default", "sparrow", "pigeon", "raven", "duck", "seagull".
  static std::optional<Settings> preset(std::string_view species);
  static std::span<const std::string_view> species_names();
  static std::span<const BoneRole> bone_roles();

  Settings& settings() { return settings_; }
  const Settings& settings() const { return settings_; }
  std::span<const std::string_view> setting_names() const override;
  std::unique_ptr<LegacyRig> clone() const override;

  float phase() const { return phase_; }
  float fly_phase() const { return fly_phase_; }
  float peck_phase() const { return peck_; }
  float kick_phase() const { return kick_; }
  float wing_angle() const { return wing_; }
  float leg_angle(int i) const { return i == 0 ? leg1_ : -leg1_; }  // before death scaling
  float neck_pitch() const { return neck_; }

 protected:
  void do_step(const RigInputs& in, float dt) override;
  bool access_setting(std::string_view name, float* read, const float* write) override;

 private:
  Settings settings_;
  float phase_ = 0.0f;
  float bob_ = 0.0f;
  float fly_phase_ = 1.0f;
  float peck_ = 0.0f;
  float kick_ = 0.0f;
  float wing_ = 0.0f;
  float leg1_ = 0.0f;
  bool legs_tucked_ = false;
  float neck_ = 0.0f;
  float death_phase_ = 0.0f;
};

}  // namespace critter::creature::legacy
