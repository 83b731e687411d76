// SPDX-License-Identifier: MIT
#include "critter/creature/legacy/bird.h"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

#include "critter/core/strings.h"
#include "setting_table.h"

namespace critter::creature::legacy {
namespace {

using S = BirdRig::Settings;

constexpr BoneRole kRoles[] = {{"Body", true}, {"Neck", true},   {"Head", true},  {"Leg1", true},
                               {"Leg2", true}, {"Wing1", false}, {"Wing2", false}};

constexpr SettingField<S> kFields[] = {
    {"WalkAnimationSpeed", &S::walk_animation_speed, nullptr},
    {"FlyAnimationSpeed", &S::fly_animation_speed, nullptr},
    {"PeckAnimationSpeed", &S::peck_animation_speed, nullptr},
    {"KickAnimationSpeed", &S::kick_animation_speed, nullptr},
    {"WalkBobHeight", &S::walk_bob_height, nullptr},
    {"FlySpeed", &S::fly_speed, nullptr},
    {"DeathSpeed", &S::death_speed, nullptr},
};
constexpr std::string_view kNames[] = {
    "WalkAnimationSpeed", "FlyAnimationSpeed", "PeckAnimationSpeed", "KickAnimationSpeed",
    "WalkBobHeight",      "FlySpeed",          "DeathSpeed"};
constexpr std::string_view kSpecies[] = {"default", "sparrow", "pigeon",
                                         "raven",   "duck",    "seagull"};

// The peck cycle of §5: while held += rate·dt, −0.5 above 0.75; released, on to 1 → 0.
float peck_cycle(float phase, bool held, float rate, float dt) {
  if (held) {
    phase += rate * dt;
    while (phase > 0.75f) phase -= 0.5f;
    return phase;
  }
  if (phase > 0.0f) {
    phase += rate * dt;
    if (phase >= 1.0f) phase = 0.0f;
  }
  return phase;
}

// YPR(y, p, r) = RotZ(r)·RotX(p)·RotY(y) (row order), in column order RotY·RotX·RotZ.
quat ypr(float y, float p, float r) {
  return rot_y(y) * rot_x(p) * rot_z(r);
}

}  // namespace

BirdRig::BirdRig() : BirdRig(Settings{}) {}
BirdRig::BirdRig(Settings settings) : LegacyRig(Kind::kBird, kRoles), settings_(settings) {}

std::optional<BirdRig::Settings> BirdRig::preset(std::string_view species) {
  Settings s;
  if (iequals(species, "default")) return s;
  if (iequals(species, "sparrow")) {
    s.walk_animation_speed = 2.5f;
    s.fly_animation_speed = 5.0f;
    s.peck_animation_speed = 4.0f;
    return s;
  }
  if (iequals(species, "pigeon")) {
    s.walk_animation_speed = 2.0f;
    s.fly_animation_speed = 4.0f;
    s.peck_animation_speed = 3.0f;
    return s;
  }
  if (iequals(species, "raven") || iequals(species, "duck") || iequals(species, "seagull")) {
    s.walk_animation_speed = 1.5f;
    s.fly_animation_speed = 3.0f;
    return s;
  }
  return std::nullopt;
}

std::span<const std::string_view> BirdRig::species_names() {
  return kSpecies;
}
std::span<const BoneRole> BirdRig::bone_roles() {
  return kRoles;
}
std::span<const std::string_view> BirdRig::setting_names() const {
  return kNames;
}
std::unique_ptr<LegacyRig> BirdRig::clone() const {
  return std::make_unique<BirdRig>(*this);
}
bool BirdRig::access_setting(std::string_view name, float* read, const float* write) {
  return access_field<S>(kFields, settings_, name, read, write);
}

void BirdRig::do_step(const RigInputs& in, float dt) {
  const Settings& s = settings_;
  const float k = smoothing(dt);
  const float v = in.speed;
  if (std::abs(v) > 0.1f) {
    phase_ = frac(phase_ + v * s.walk_animation_speed * dt);
  } else {
    // φ in [0, 1): the nearest integer is 0 or 1 (= 0).
    phase_ = frac(move_toward(phase_, phase_ > 0.5f ? 1.0f : 0.0f, 2.0f * dt));
  }
  const float sp = std::sin(2.0f * kPi * phase_);
  bob_ += k * (-s.walk_bob_height * sp * sp - bob_);

  const bool wings = has(kWing1) || has(kWing2);
  bool gliding = false;
  if (wings) {
    if (in.has_fly_order) {
      if (in.fly_order.y < -0.1f && in.speed_abs > 4.0f) {
        fly_phase_ = 0.72f;
        gliding = true;
      } else {
        const float m = glm::dot(in.fly_order, in.fly_order) > 0.99f ? 1.5f : 1.0f;
        fly_phase_ = frac(fly_phase_ + s.fly_animation_speed * m * dt);
      }
    } else {
      fly_phase_ = move_toward(fly_phase_, 1.0f, s.fly_animation_speed * dt);
    }
  }
  peck_ = peck_cycle(peck_, in.feeding, s.peck_animation_speed, dt);
  const float kick_rate =
      s.kick_animation_speed < 0.0f ? s.peck_animation_speed : s.kick_animation_speed;
  const float kick_before = kick_;
  kick_ = peck_cycle(kick_, in.attacking, kick_rate, dt);
  if (in.attacking && kick_before < 0.5f && kick_ >= 0.5f) event(RigEventType::kAttackHit);

  death_phase_ = death_phase_step(death_phase_, in.health, dt, s.death_speed);
  const bool standing = in.on_ground;
  const bool water = in.immersion > 0.0f;

  wing_ = 1.2f * std::sin(2.0f * kPi * (fly_phase_ + 0.75f)) + (standing ? 0.3f * sp : 0.0f);
  legs_tucked_ = !(standing || water || s.fly_speed == 0.0f);
  leg1_ = legs_tucked_ ? -60.0f * kDeg : 0.6f * sp;
  float n = (standing || water) ? 0.5f * std::sin(kPi * phase_) : 0.0f;
  const float h = -n;
  const float c = std::cos(2.0f * kPi * (kick_ > 0.0f ? kick_ : peck_));
  n -= 1.25f * (1.0f - (c >= 0.0f ? c : -0.5f * c));
  const vec2 look = look_angles(in, dt);
  n += look.y;
  neck_ = n;

  outputs_.phase = phase_;
  outputs_.bob = bob_;
  outputs_.death_phase = death_phase_;
  outputs_.gait = death_phase_ > 0.0f                                  ? "dead"
                  : gliding                                            ? "glide"
                  : (wings && in.has_fly_order && !standing && !water) ? "fly"
                  : std::abs(v) > 0.1f                                 ? "walk"
                                                                       : "idle";

  const float leg2 = legs_tucked_ ? -60.0f * kDeg : -leg1_;
  if (death_phase_ > 0.0f) {
    // Column order T(0, 0, −.5h)·RotX((π/2)·DP): the pitch acts first, then the offset along
    // the entity's forward (−Z).
    set(kBody, Transform{vec3(0.0f, 0.0f, -0.5f * in.body_height), rot_x(0.5f * kPi * death_phase_),
                         vec3(1.0f)});
    set_rotation(kNeck, quat(1.0f, 0.0f, 0.0f, 0.0f));
    set_rotation(kHead, quat(1.0f, 0.0f, 0.0f, 0.0f));
    const float keep = 1.0f - death_phase_;
    set_rotation(kWing1, rot_y(wing_ * keep));
    set_rotation(kWing2, rot_y(-wing_ * keep));
    set_rotation(kLeg1, rot_x(leg1_ * keep));
    set_rotation(kLeg2, rot_x(leg2 * keep));
    return;
  }
  set(kBody, Transform{vec3(0.0f, bob_, 0.0f), quat(1.0f, 0.0f, 0.0f, 0.0f), vec3(1.0f)});
  set_rotation(kNeck, ypr(0.5f * look.x, n, 0.0f));
  const float body_pitch = std::clamp(in.rotation_ypr.y, -0.25f * kPi, 0.25f * kPi);
  set_rotation(kHead, ypr(0.5f * look.x, h + body_pitch, in.rotation_ypr.z));
  set_rotation(kWing1, rot_y(wing_));
  set_rotation(kWing2, rot_y(-wing_));
  set_rotation(kLeg1, rot_x(leg1_));
  set_rotation(kLeg2, rot_x(leg2));
}

}  // namespace critter::creature::legacy
