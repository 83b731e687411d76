// SPDX-License-Identifier: MIT
// FishRig: Survivalcraft's ComponentFishModel (creatures.md §7). Bones: Body, Tail1, Tail2, Jaw
// (optional).
//
// Per frame: with a swim order φ += SAS·m·dt (m = 1.75 when |order|² > 0.99, else 1), without one
// φ += .15·SAS·dt, φ kept mod 1000. Tail turn: a bend order goes to turn.Y (HasVerticalTail) or
// turn.X; without one turn.X += sat(2·TurnSpeed·dt)·(−LastTurnOrder.X − turn.X). Dig-in: going
// down (order > depth) Δ = (order − depth)·min(1.5·dt, 1), depth += Δ, digTail += 20Δ; going up
// (order < depth, no order = 0) depth approaches the order at min(5·dt, 1). Attack: wag +=
// .33·TurnSpeed·dt; attack or feed: bite += TurnSpeed·dt with an attack-hit at 0.5; released, each
// phase runs on to the end of its cycle (wag to the next whole number, bite to 1 → 0).
// Pose (w = digTail + wag, c = clamp to ±1), Tail = RotZ(Z)·RotX(X):
//   HasVerticalTail: Z1 = 25°·c(.5 sin 2πw − turn.X), Z2 = 30°·c(.5 sin 2π·max(w − .25, 0) −
//     turn.X), X1 = 25°·c(.5 sin 2πφ − turn.Y), X2 = 30°·c(.5 sin 2π·max(φ − .25, 0) − turn.Y);
//   otherwise: Z1 = 25°·c(.5 sin 2π(φ + w) − turn.X), Z2 = 30°·c(.5 sin 2π·max(φ + w − .25, 0) −
//     turn.X), X1 = 25°·c(−turn.Y), X2 = 30°·c(−turn.Y).
// Jaw = RotX(−30°·sin(π·bite)) while bite > 0; Body = T(0, −depth, 0). Frozen: only the body.
// Death: Body = YPR(yaw, 0, π·DP)·T(pos + h·DP·Ŷ); tails and jaw identity.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string_view>

#include "critter/creature/legacy/legacy_rig.h"

namespace critter::creature::legacy {

class FishRig final : public LegacyRig {
 public:
  enum Role : int { kBody, kTail1, kTail2, kJaw };

  struct Settings {
    float swim_animation_speed = 1.0f;  // SwimAnimationSpeed (SAS)
    bool has_vertical_tail = false;     // HasVerticalTail (beluga, orca)
    // TurnSpeed, radians per second (the locomotion's); critter's default when none is given.
    float turn_speed = 3.0f;
    float death_speed = 3.0f;  // DeathSpeed
  };

  FishRig();
  explicit FishRig(Settings settings);
  // "default", "bass", "barracuda", "piranha", "ray", "bull-shark", "tiger-shark",
  // "great-white", "beluga", "orca" ('_' reads as '-').
  static std::optional<Settings> preset(std::string_view species);
  static std::span<const std::string_view> species_names();
  static std::span<const BoneRole> bone_roles();

  Settings& settings() { return settings_; }
  const Settings& settings() const { return settings_; }
  std::span<const std::string_view> setting_names() const override;
  std::unique_ptr<LegacyRig> clone() const override;

  float phase() const { return phase_; }
  vec2 turn() const { return turn_; }
  float dig_depth() const { return depth_; }
  float bite_phase() const { return bite_; }
  // The tail angles of the last step, radians: (Z, X) of Tail1 and Tail2.
  vec2 tail(int i) const { return tails_[static_cast<std::size_t>(i)]; }

 protected:
  void do_step(const RigInputs& in, float dt) override;
  bool access_setting(std::string_view name, float* read, const float* write) override;

 private:
  Settings settings_;
  float phase_ = 0.0f;
  vec2 turn_{0.0f};
  float depth_ = 0.0f;
  float dig_tail_ = 0.0f;
  float wag_ = 0.0f;
  float bite_ = 0.0f;
  vec2 tails_[2]{};
  float death_phase_ = 0.0f;
};

}  // namespace critter::creature::legacy
