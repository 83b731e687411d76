// SPDX-License-Identifier: MIT
#include "critter/creature/legacy/flightless_bird.h"

#include <algorithm>
#include <cmath>

#include "critter/core/strings.h"
#include "setting_table.h"

namespace critter::creature::legacy {
namespace {

using S = FlightlessBirdRig::Settings;

constexpr BoneRole kRoles[] = {
    {"Body", true}, {"Neck", false}, {"Head", true}, {"Leg1", true}, {"Leg2", true}};

constexpr SettingField<S> kFields[] = {
    {"WalkLegsAngle", &S::walk_legs_angle, nullptr},
    {"WalkAnimationSpeed", &S::walk_animation_speed, nullptr},
    {"WalkBobHeight", &S::walk_bob_height, nullptr},
    {"DeathSpeed", &S::death_speed, nullptr},
    {"FeedSpeed", &S::feed_speed, nullptr},
    {"KickSpeed", &S::kick_speed, nullptr},
    {"KickPhaseSpeed", &S::kick_phase_speed, nullptr},
    {"HeadRatio", &S::head_ratio, nullptr},
    {"NeckRatio", &S::neck_ratio, nullptr},
};
constexpr std::string_view kNames[] = {"WalkLegsAngle",  "WalkAnimationSpeed", "WalkBobHeight",
                                       "DeathSpeed",     "FeedSpeed",          "KickSpeed",
                                       "KickPhaseSpeed", "HeadRatio",          "NeckRatio"};
constexpr std::string_view kSpecies[] = {"default", "ostrich"};

}  // namespace

FlightlessBirdRig::FlightlessBirdRig() : FlightlessBirdRig(Settings{}) {}
FlightlessBirdRig::FlightlessBirdRig(Settings settings)
    : LegacyRig(Kind::kFlightlessBird, kRoles), settings_(settings) {}

std::optional<FlightlessBirdRig::Settings> FlightlessBirdRig::preset(std::string_view species) {
  Settings s;
  if (iequals(species, "default")) return s;
  if (iequals(species, "ostrich")) {
    s.walk_legs_angle = 0.42f;
    s.walk_animation_speed = 0.6f;
    s.walk_bob_height = 0.1f;
    return s;
  }
  return std::nullopt;
}

std::span<const std::string_view> FlightlessBirdRig::species_names() {
  return kSpecies;
}
std::span<const BoneRole> FlightlessBirdRig::bone_roles() {
  return kRoles;
}
std::span<const std::string_view> FlightlessBirdRig::setting_names() const {
  return kNames;
}
std::unique_ptr<LegacyRig> FlightlessBirdRig::clone() const {
  return std::make_unique<FlightlessBirdRig>(*this);
}
bool FlightlessBirdRig::access_setting(std::string_view name, float* read, const float* write) {
  return access_field<S>(kFields, settings_, name, read, write);
}

void FlightlessBirdRig::do_step(const RigInputs& in, float dt) {
  const Settings& s = settings_;
  const float k = smoothing(dt);
  const float v = in.speed;
  const float was = s.walk_animation_speed;
  const float before = footsteps_;
  if (std::abs(v) > 0.2f) {
    phase_ = frac(phase_ + v * was * dt);
    footsteps_ += 1.25f * was * v * dt;
  } else {
    phase_ = 0.0f;
  }
  if (std::floor(footsteps_) > std::floor(before)) event(RigEventType::kFootstep);
  if (footsteps_ > 1024.0f || footsteps_ < -1024.0f) footsteps_ = frac(footsteps_);

  const float a = 2.0f * kPi * phase_;
  const float sa = std::sin(a);
  bob_ += k * (-s.walk_bob_height * sa * sa - bob_);
  const bool fast = in.walk_speed > 0.0f && v > 0.75f * in.walk_speed;
  const float amp = fast ? 1.5f * s.walk_legs_angle : s.walk_legs_angle;
  const bool legs_move = phase_ != 0.0f && (in.on_ground || in.immersion > 0.0f);

  if (kick_.update(in.attacking, dt, s.kick_speed, s.kick_phase_speed)) {
    event(RigEventType::kAttackHit);
  }
  float leg1_target = legs_move ? amp * sa + kick_.phase : 0.0f;
  const float leg2_target = legs_move ? amp * std::sin(2.0f * kPi * (phase_ + 0.5f)) : 0.0f;
  leg1_target +=
      kick_.factor * (60.0f * kDeg * std::sin(kPi * sigma(kick_.phase, 5.0f)) - leg1_target);
  leg1_ += k * (leg1_target - leg1_);
  leg2_ += k * (leg2_target - leg2_);
  head_bob_ += k * ((phase_ != 0.0f ? 5.0f * kDeg * std::sin(2.0f * a) : 0.0f) - head_bob_);
  feed_factor_ =
      std::clamp(feed_factor_ + (in.feeding ? 1.0f : -1.0f) * s.feed_speed * dt, 0.0f, 1.0f);

  death_phase_ = death_phase_step(death_phase_, in.health, dt, s.death_speed);
  outputs_.phase = phase_;
  outputs_.bob = bob_;
  outputs_.death_phase = death_phase_;
  outputs_.gait = death_phase_ > 0.0f ? "dead" : phase_ == 0.0f ? "idle" : fast ? "run" : "walk";

  if (death_phase_ > 0.0f) {
    const float side = death_roll_side(in.body_right, in.death_cause);
    set(kBody, death_roll(in.body_height, death_phase_, side));
    set_rotation(kHead, quat(1.0f, 0.0f, 0.0f, 0.0f));
    set_rotation(kNeck, quat(1.0f, 0.0f, 0.0f, 0.0f));
    set_rotation(kLeg1, rot_x(leg1_ * (1.0f - death_phase_)));
    set_rotation(kLeg2, rot_x(leg2_ * (1.0f - death_phase_)));
    return;
  }
  set(kBody, Transform{vec3(0.0f, bob_, 0.0f), quat(1.0f, 0.0f, 0.0f, 0.0f), vec3(1.0f)});
  const vec2 look = look_angles(in, dt);
  float yaw = std::clamp(look.x, -90.0f * kDeg, 90.0f * kDeg);
  float pitch = std::clamp(look.y + head_bob_, -90.0f * kDeg, 50.0f * kDeg);
  float neck_yaw = 0.0f;
  float neck_pitch = 0.0f;
  if (has(kNeck)) {
    neck_yaw = s.neck_ratio * yaw;
    neck_pitch = s.neck_ratio * pitch;
    yaw *= s.head_ratio;
    pitch *= s.head_ratio;
  }
  if (feed_factor_ > 0.0f) {
    const float t = static_cast<float>(std::fmod(in.game_time, 100000.0));
    const float feed_pitch = -(35.0f * kDeg + 55.0f * kDeg * oct_noise(t, 3.0f, 2, 2.0f, 0.75f));
    pitch += feed_factor_ * (feed_pitch - pitch);
    yaw += feed_factor_ * (0.0f - yaw);
  }
  set_rotation(kNeck, rot_z(-neck_yaw) * rot_x(neck_pitch));
  set_rotation(kHead, rot_z(-yaw) * rot_x(pitch));
  set_rotation(kLeg1, rot_x(leg1_));
  set_rotation(kLeg2, rot_x(leg2_));
}

}  // namespace critter::creature::legacy
