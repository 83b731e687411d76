// SPDX-License-Identifier: MIT
// FourLeggedRig: Survivalcraft's ComponentFourLeggedModel (creatures.md §3). Bones: Body, Neck
// (optional), Head, Leg1..Leg4 (1, 2 front; 3, 4 hind).
//
// Per frame, with v = RigInputs::speed, W = walk_speed, WAS = WalkAnimationSpeed:
//   Canter when CanCanter and v > 0.7W; else Trot when CanTrot and v > 0.5W; else Walk when
//   |v| > 0.2 (phase φ += WAS·v·dt, canter 0.7·WAS·v·dt; footsteps at 1.25·WAS·v, canter
//   0.7·WAS·v); otherwise idle: φ = 0 and footsteps = 0 (the spec's table, not a settle). Canter
//   and trot need W > 0 (an unknown walk speed never canters).
//   Leg i target A_i·sin(2π(φ + o_i)) while φ ≠ 0 and standing or immersed, else 0; bob and head
//   pitch bob per §3's table; all smoothed with k = min(12·dt, 1).
//   Head: look + (0, head bob) clamped to ±65° yaw, ±55° pitch; with a neck, neck = NeckRatio
//   and head = HeadRatio of it (.6 / .4). Feeding (factor ±FeedSpeed·dt) lerps the head toward
//   pitch −(25° + 45°·octNoise(t, 3, 2, 2, .75)), yaw 0; butting (the attack order; factor
//   ±AttackSpeed·dt, phase rate AttackPhaseSpeed) lerps the head pitch toward −40°·sin(2π·σ(φb,
//   4)). Death (health <= 0, DP at DeathSpeed): the death roll on Body, Head RotX(50°·DP), Neck
//   identity, legs ×(1 − DP).
// Events: a footstep whenever floor(footsteps) increases (a canter-sound instead for a canter
// with UseCanterSound out of water); attack-hit when the butt phase crosses 0.5.
// `Gait` >= 0 forces the gait (0 walk, 1 trot, 2 canter; the phase still needs |v| > 0.2).
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <span>
#include <string_view>

#include "critter/creature/legacy/legacy_rig.h"

namespace critter::creature::legacy {

class FourLeggedRig final : public LegacyRig {
 public:
  enum Role : int { kBody, kNeck, kHead, kLeg1, kLeg2, kLeg3, kLeg4 };
  enum class Gait : int { kWalk = 0, kTrot = 1, kCanter = 2 };

  // Database names in comments; defaults = the database defaults of §3.
  struct Settings {
    float walk_front_legs_angle = 0.55f;    // WalkFrontLegsAngle, radians (A_f)
    float walk_hind_legs_angle = 0.4f;      // WalkHindLegsAngle, radians (A_h)
    float canter_legs_angle_factor = 1.5f;  // CanterLegsAngleFactor (C)
    float walk_bob_height = 0.025f;         // WalkBobHeight, metres (B)
    float walk_animation_speed = 1.0f;      // WalkAnimationSpeed, cycles per metre (WAS)
    bool can_canter = true;                 // CanCanter
    bool can_trot = false;                  // CanTrot
    bool use_canter_sound = true;           // UseCanterSound
    float death_speed = 3.0f;               // DeathSpeed, DP per second
    float feed_speed = 2.0f;                // FeedSpeed, feed factor per second
    float attack_speed = 4.0f;              // AttackSpeed, butt factor per second
    float attack_phase_speed = 2.0f;        // AttackPhaseSpeed, butt cycles per second
    float head_ratio = 0.4f;                // HeadRatio (with a neck)
    float neck_ratio = 0.6f;                // NeckRatio
    float gait = -1.0f;                     // Gait: -1 by speed, else 0 walk, 1 trot, 2 canter
    std::array<float, 4> walk_phases{0.0f, 0.5f, 0.25f, 0.75f};    // WalkPhases, cycles
    std::array<float, 4> trot_phases{0.0f, 0.5f, 0.5f, 0.0f};      // TrotPhases
    std::array<float, 4> canter_phases{0.0f, 0.25f, 0.15f, 0.4f};  // CanterPhases
  };

  FourLeggedRig();
  explicit FourLeggedRig(Settings settings);
  // The species presets of §3: "default", "wolf", "horse", "cow", "camel" (case-insensitive).
  static std::optional<Settings> preset(std::string_view species);
  static std::span<const std::string_view> species_names();
  static std::span<const BoneRole> bone_roles();

  Settings& settings() { return settings_; }
  const Settings& settings() const { return settings_; }
  std::span<const std::string_view> setting_names() const override;
  std::unique_ptr<LegacyRig> clone() const override;

  // Per-creature state of the last step.
  Gait gait() const { return gait_; }
  float phase() const { return phase_; }
  float leg_angle(int leg) const { return legs_[static_cast<std::size_t>(leg)]; }  // 0..3, rad
  float feed_factor() const { return feed_factor_; }
  const AttackCycle& butt() const { return butt_; }

 protected:
  void do_step(const RigInputs& in, float dt) override;
  bool access_setting(std::string_view name, float* read, const float* write) override;

 private:
  Settings settings_;
  Gait gait_ = Gait::kWalk;
  float phase_ = 0.0f;
  float footsteps_ = 0.0f;
  float bob_ = 0.0f;
  float head_bob_ = 0.0f;
  std::array<float, 4> legs_{};
  float feed_factor_ = 0.0f;
  AttackCycle butt_;
  float death_phase_ = 0.0f;
};

}  // namespace critter::creature::legacy
