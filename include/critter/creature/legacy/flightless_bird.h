// SPDX-License-Identifier: MIT
// FlightlessBirdRig: Survivalcraft's ComponentFlightlessBirdModel (creatures.md §6). Bones: Body,
// Neck (optional), Head, Leg1, Leg2.
//
// Per frame, v = RigInputs::speed, W = walk_speed: |v| > 0.2 → φ += v·WAS·dt and footsteps +=
// 1.25·WAS·v·dt, else φ = 0. Bob target −B·sin²(2πφ). Leg amplitude 1.5·WalkLegsAngle when
// v > 0.75W (W > 0), else WalkLegsAngle; leg1 = amp·sin 2πφ + kickPhase (sic, as the source),
// leg2 = amp·sin 2π(φ + .5), head bob 5°·sin 4πφ; legs and head bob as §3 (smoothed with k, legs
// only while standing or immersed). Kick (the attack order): factor ±6·dt, phase rate 2, leg1
// lerped toward 60°·sin(π·σ(kick, 5)) by the factor, an attack-hit at 0.5. Feed (factor ±2·dt)
// lerps the head toward pitch −(35° + 55°·octNoise(t, 3, 2, 2, .75)), yaw 0. Look clamps: yaw
// ±90°, pitch −90°..+50°; with a neck, neck .4 and head .6 of the look angles. Death as §3's
// death roll; Head and Neck identity; legs ×(1 − DP).
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string_view>

#include "critter/creature/legacy/legacy_rig.h"

namespace critter::creature::legacy {

class FlightlessBirdRig final : public LegacyRig {
 public:
  enum Role : int { kBody, kNeck, kHead, kLeg1, kLeg2 };

  struct Settings {
    float walk_legs_angle = 0.55f;      // WalkLegsAngle, radians
    float walk_animation_speed = 1.0f;  // WalkAnimationSpeed
    float walk_bob_height = 0.025f;     // WalkBobHeight
    float death_speed = 3.0f;           // DeathSpeed
    float feed_speed = 2.0f;            // FeedSpeed
    // KickSpeed and KickPhaseSpeed (kick factor and cycles per second): not AttackSpeed, whose
    // parameter every config declares as 4 (quirk 13) and would override §6's 6.
    float kick_speed = 6.0f;
    float kick_phase_speed = 2.0f;
    float head_ratio = 0.6f;  // HeadRatio (with a neck)
    float neck_ratio = 0.4f;  // NeckRatio
  };

  FlightlessBirdRig();
  explicit FlightlessBirdRig(Settings settings);
  // "default", "ostrich".
  static std::optional<Settings> preset(std::string_view species);
  static std::span<const std::string_view> species_names();
  static std::span<const BoneRole> bone_roles();

  Settings& settings() { return settings_; }
  const Settings& settings() const { return settings_; }
  std::span<const std::string_view> setting_names() const override;
  std::unique_ptr<LegacyRig> clone() const override;

  float phase() const { return phase_; }
  float leg_angle(int i) const { return i == 0 ? leg1_ : leg2_; }
  const AttackCycle& kick() const { return kick_; }

 protected:
  void do_step(const RigInputs& in, float dt) override;
  bool access_setting(std::string_view name, float* read, const float* write) override;

 private:
  Settings settings_;
  float phase_ = 0.0f;
  float footsteps_ = 0.0f;
  float bob_ = 0.0f;
  float head_bob_ = 0.0f;
  float leg1_ = 0.0f;
  float leg2_ = 0.0f;
  float feed_factor_ = 0.0f;
  AttackCycle kick_;
  float death_phase_ = 0.0f;
};

}  // namespace critter::creature::legacy
