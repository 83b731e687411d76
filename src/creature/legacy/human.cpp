// SPDX-License-Identifier: MIT
#include "critter/creature/legacy/human.h"

#include <algorithm>
#include <cmath>

#include "critter/core/strings.h"
#include "setting_table.h"

namespace critter::creature::legacy {
namespace {

using S = HumanRig::Settings;

constexpr BoneRole kRoles[] = {{"Body", true},  {"Head", true}, {"Hand1", true},
                               {"Hand2", true}, {"Leg1", true}, {"Leg2", true}};

constexpr SettingField<S> kFields[] = {
    {"WalkAnimationSpeed", &S::walk_animation_speed, nullptr},
    {"WalkLegsAngle", &S::walk_legs_angle, nullptr},
    {"WalkBobHeight", &S::walk_bob_height, nullptr},
    {"DeathSpeed", &S::death_speed, nullptr},
    {"AttackSpeed", &S::attack_speed, nullptr},
    {"AttackPhaseSpeed", &S::attack_phase_speed, nullptr},
};
constexpr std::string_view kNames[] = {"WalkAnimationSpeed", "WalkLegsAngle", "WalkBobHeight",
                                       "DeathSpeed",         "AttackSpeed",   "AttackPhaseSpeed"};
constexpr std::string_view kSpecies[] = {"default", "player", "werewolf"};

float lerp(float a, float b, float t) {
  return a + (b - a) * t;
}

}  // namespace

HumanRig::HumanRig() : HumanRig(Settings{}) {}
HumanRig::HumanRig(Settings settings) : LegacyRig(Kind::kHuman, kRoles), settings_(settings) {}

std::optional<HumanRig::Settings> HumanRig::preset(std::string_view species) {
  Settings s;
  if (iequals(species, "default")) return s;
  if (iequals(species, "player")) {
    s.walk_animation_speed = 0.48f;
    s.walk_legs_angle = 0.6f;
    return s;
  }
  if (iequals(species, "werewolf")) {
    s.walk_legs_angle = 0.35f;
    return s;
  }
  return std::nullopt;
}

std::span<const std::string_view> HumanRig::species_names() {
  return kSpecies;
}
std::span<const BoneRole> HumanRig::bone_roles() {
  return kRoles;
}
std::span<const std::string_view> HumanRig::setting_names() const {
  return kNames;
}
std::unique_ptr<LegacyRig> HumanRig::clone() const {
  return std::make_unique<HumanRig>(*this);
}
bool HumanRig::access_setting(std::string_view name, float* read, const float* write) {
  return access_field<S>(kFields, settings_, name, read, write);
}

void HumanRig::do_step(const RigInputs& in, float dt) {
  const Settings& s = settings_;
  const float k = smoothing(dt);
  const float was = s.walk_animation_speed;
  const double t = in.game_time;

  death_phase_ = death_phase_step(death_phase_, in.health, dt, s.death_speed);
  const bool dead = in.health <= 0.0f;
  crouch_ = move_toward(crouch_, in.crouch ? 1.0f : 0.0f, 2.0f * dt);
  lie_down_ = move_toward(lie_down_, (in.sleeping || dead) ? 1.0f : 0.0f, 3.0f * dt);

  // Phase and footsteps.
  const float before = footsteps_;
  bool walking = false;
  if (in.on_ladder) {
    footsteps_ += 1.5f * was * std::abs(in.speed) * dt;
  } else if (!in.creative_fly) {
    const float speed = in.slipping ? in.speed : in.speed_xz;
    if (in.slipping || speed > 0.5f) {
      phase_ = frac(phase_ + speed * was * dt);
      footsteps_ += speed * was * dt;
      walking = true;
    }
  }
  if (!walking) {
    // φ is kept in [0, 1); the nearest half-integer is 0, 0.5 or 1 (which wraps to 0).
    const float half = std::floor(2.0f * phase_) * 0.5f;
    const float target = half + (phase_ - half > 0.25f ? 0.5f : 0.0f);
    phase_ = frac(move_toward(phase_, target, 2.0f * dt));
  }
  if (std::floor(footsteps_) > std::floor(before)) event(RigEventType::kFootstep);
  if (footsteps_ > 1024.0f) footsteps_ = frac(footsteps_);

  const float a2 = 2.0f * kPi * phase_;
  const float sin_a = std::sin(a2);
  const float bob_target = in.riding ? in.mount_bob : s.walk_bob_height * sin_a * sin_a;
  bob_ += k * (bob_target - bob_);

  if (in.walk_order != vec2(0.0f)) {
    const float target = std::atan2(-in.walk_order.x, std::abs(in.walk_order.y));
    heading_ += sat(8.0f * dt) * (target - heading_);
  }

  if (punch_.update(in.attacking, dt, s.attack_speed, s.attack_phase_speed,
                    AttackCycle::Release::kDecay)) {
    event(RigEventType::kAttackHit);
  }

  const bool rowing = in.row_left || in.row_right;
  const double row_tick = std::floor(1.1 * t);
  if (rowing && row_tick != last_row_tick_) event(RigEventType::kRowingSound);
  last_row_tick_ = row_tick;

  // Targets (§4 "Animate (standing)").
  const float u = static_cast<float>(
      std::fmod(0.75 * t + static_cast<double>(in.entity_hash & 0xFFFFu), 10000.0));
  const vec2 look = look_angles(in, dt);
  const float head_yaw =
      std::clamp(lerp(-0.3f, 0.3f, noise(1.02f * u - 100.0f)) + look.x + in.turn_order.x + heading_,
                 -80.0f * kDeg, 80.0f * kDeg);
  const float head_pitch = std::clamp(lerp(-0.3f, 0.3f, noise(0.96f * u - 200.0f)) + look.y,
                                      -45.0f * kDeg, 45.0f * kDeg);
  std::array<vec2, 2> hands{};
  std::array<vec2, 2> legs{};
  if (in.riding && in.boat) {
    hands = {vec2(0.4f, 0.2f), vec2(0.4f, -0.2f)};
    legs = {vec2(1.1f, 0.2f), vec2(1.1f, -0.2f)};
  } else if (in.riding) {
    hands = {vec2(0.5f, 0.15f), vec2(0.5f, -0.15f)};
    legs = {vec2(0.0f, 0.55f), vec2(0.0f, -0.55f)};
  } else if (in.creative_fly) {
    const float speed_term =
        in.walk_order != vec2(0.0f) ? std::min(0.03f * in.speed_xz * in.speed_xz, 0.5f) : 0.0f;
    const float x = -0.1f - speed_term;
    legs = {vec2(x, lerp(0.0f, 0.25f, noise(1.07f * u + 400.0f))),
            vec2(x, -lerp(0.0f, 0.25f, noise(0.93f * u + 500.0f)))};
  } else if (phase_ != 0.0f) {
    hands = {vec2(-0.5f * sin_a, 0.0f), vec2(0.5f * sin_a, 0.0f)};
    legs = {vec2(s.walk_legs_angle * sin_a, 0.0f), vec2(-s.walk_legs_angle * sin_a, 0.0f)};
  }
  if (in.mining) {
    hands[1].x += std::sin(std::sqrt(std::max(in.poking_phase, 0.0f)) * kPi) +
                  (in.holding_block ? 0.3f : 0.0f);
  }
  if (punch_.phase > 0.0f) {
    const float swing = -90.0f * kDeg * std::sin(2.0f * kPi * sigma(punch_.phase, 4.0f));
    hands[static_cast<std::size_t>(punch_.wraps & 1)].x += swing;
  }
  if (rowing) {
    const auto tf = static_cast<float>(std::fmod(t, 10000.0));
    const float ra = 0.6f * std::sin(6.9115f * tf);
    const float rb = 0.2f + 0.2f * std::cos(6.9115f * (tf + 0.5f));
    if (in.row_left) hands[0] += vec2(ra, rb);
    if (in.row_right) hands[1] += vec2(ra, -rb);
  }
  if (in.aiming) {
    hands[0] += vec2(1.5f, -0.7f);
    hands[1].x += in.aim_angle;
  }
  const float q = in.creative_fly ? 4.0f : 1.0f;
  hands[0] += vec2(lerp(-0.1f, 0.1f, noise(u)), lerp(0.0f, 0.15f * q, noise(1.1f * u + 100.0f)));
  hands[1] += vec2(lerp(-0.1f, 0.1f, noise(0.9f * u + 200.0f)),
                   -lerp(0.0f, 0.15f * q, noise(1.05f * u + 300.0f)));

  head_ += k * (vec2(head_yaw, head_pitch) - head_);
  for (std::size_t i = 0; i < 2; ++i) {
    hands_[i] += k * (hands[i] - hands_[i]);
    legs_[i] += k * (legs[i] - legs_[i]);
  }

  outputs_.phase = phase_;
  outputs_.bob = bob_;
  outputs_.death_phase = death_phase_;
  const float lie = std::max(death_phase_, lie_down_);
  outputs_.gait = death_phase_ > 0.0f ? "dead"
                  : lie > 0.0f        ? "lie"
                  : in.riding         ? (in.boat ? "boat" : "ride")
                  : in.on_ladder      ? "climb"
                  : in.creative_fly   ? "fly"
                  : walking           ? "walk"
                                      : "idle";

  auto limb = [](vec2 xy, float scale) { return rot_x(xy.x * scale) * rot_y(xy.y * scale); };
  if (lie > 0.0f) {
    // YPR(yaw, (π/2)a, 0)·T(pos + .5a·BoxY·forward_xz + .1a·BoxZ·Ŷ), the offset rewritten in the
    // entity frame (forward = −Z): column order T(offset)·RotX((π/2)a).
    const vec3 offset(0.0f, 0.1f * lie * in.body_depth, -0.5f * lie * in.body_height);
    set(kBody, Transform{offset, rot_x(0.5f * kPi * lie), vec3(1.0f)});
    set_rotation(kHead, quat(1.0f, 0.0f, 0.0f, 0.0f));
    const float keep = 1.0f - lie;
    set_rotation(kHand1, limb(hands_[0], keep));
    set_rotation(kHand2, limb(hands_[1], keep));
    set_rotation(kLeg1, limb(legs_[0], keep));
    set_rotation(kLeg2, limb(legs_[1], keep));
    return;
  }

  const float f = sigma(crouch_, 4.0f);
  float body_y = bob_ - 0.7f * f;
  float body_yaw = heading_;
  if (in.riding && in.boat) {
    body_y -= 0.2f;
    body_yaw += kPi;
  }
  // Body = RotY(yaw + headingOffset)·T(pos + Bob) (row order).
  set(kBody, Transform{vec3(0.0f, body_y, 0.0f), rot_y(body_yaw), vec3(1.0f)});
  set_rotation(kHead, rot_z(-head_.x) * rot_x(head_.y));
  set_rotation(kHand1, limb(hands_[0], 1.0f));
  set_rotation(kHand2, limb(hands_[1], 1.0f));
  const float leg_scale = crouch_ >= 1.0f ? 0.5f : 1.0f;
  for (int i = 0; i < 2; ++i) {
    // Leg = RotY(Y)·RotX(X)·T(0, 7f, 28f)·Scale(1, 1, lerp(1, .5, f)) (row order).
    Transform leg;
    leg.rotation = limb(legs_[static_cast<std::size_t>(i)], leg_scale);
    leg.translation = vec3(0.0f, 7.0f * f, 28.0f * f * lerp(1.0f, 0.5f, f));
    leg.scale = vec3(1.0f, 1.0f, lerp(1.0f, 0.5f, f));
    set(kLeg1 + i, leg);
  }
}

}  // namespace critter::creature::legacy
