// SPDX-License-Identifier: MIT
#include "critter/creature/legacy/four_legged.h"

#include <algorithm>
#include <cmath>

#include "critter/core/strings.h"
#include "setting_table.h"

namespace critter::creature::legacy {
namespace {

using S = FourLeggedRig::Settings;

constexpr BoneRole kRoles[] = {{"Body", true}, {"Neck", false}, {"Head", true}, {"Leg1", true},
                               {"Leg2", true}, {"Leg3", true},  {"Leg4", true}};

constexpr SettingField<S> kFields[] = {
    {"WalkFrontLegsAngle", &S::walk_front_legs_angle, nullptr},
    {"WalkHindLegsAngle", &S::walk_hind_legs_angle, nullptr},
    {"CanterLegsAngleFactor", &S::canter_legs_angle_factor, nullptr},
    {"WalkBobHeight", &S::walk_bob_height, nullptr},
    {"WalkAnimationSpeed", &S::walk_animation_speed, nullptr},
    {"CanCanter", nullptr, &S::can_canter},
    {"CanTrot", nullptr, &S::can_trot},
    {"UseCanterSound", nullptr, &S::use_canter_sound},
    {"DeathSpeed", &S::death_speed, nullptr},
    {"FeedSpeed", &S::feed_speed, nullptr},
    {"AttackSpeed", &S::attack_speed, nullptr},
    {"AttackPhaseSpeed", &S::attack_phase_speed, nullptr},
    {"HeadRatio", &S::head_ratio, nullptr},
    {"NeckRatio", &S::neck_ratio, nullptr},
    {"Gait", &S::gait, nullptr},
};

constexpr std::string_view kNames[] = {"WalkFrontLegsAngle",
                                       "WalkHindLegsAngle",
                                       "CanterLegsAngleFactor",
                                       "WalkBobHeight",
                                       "WalkAnimationSpeed",
                                       "CanCanter",
                                       "CanTrot",
                                       "UseCanterSound",
                                       "DeathSpeed",
                                       "FeedSpeed",
                                       "AttackSpeed",
                                       "AttackPhaseSpeed",
                                       "HeadRatio",
                                       "NeckRatio",
                                       "Gait"};

constexpr std::string_view kSpecies[] = {"default", "wolf", "horse", "cow", "camel"};

float sin2(float x) {
  const float s = std::sin(x);
  return s * s;
}

}  // namespace

FourLeggedRig::FourLeggedRig() : FourLeggedRig(Settings{}) {}

FourLeggedRig::FourLeggedRig(Settings settings)
    : LegacyRig(Kind::kFourLegged, kRoles), settings_(settings) {}

std::optional<FourLeggedRig::Settings> FourLeggedRig::preset(std::string_view species) {
  Settings s;
  if (iequals(species, "default")) return s;
  if (iequals(species, "wolf")) {
    s.walk_front_legs_angle = 0.55f;
    s.walk_hind_legs_angle = 0.4f;
    s.canter_legs_angle_factor = 1.65f;
    s.walk_animation_speed = 0.9f;
    s.can_trot = true;
    return s;
  }
  if (iequals(species, "horse")) {
    s.walk_front_legs_angle = 0.48f;
    s.walk_hind_legs_angle = 0.37f;
    s.canter_legs_angle_factor = 1.7f;
    s.walk_animation_speed = 0.52f;
    s.walk_bob_height = 0.05f;
    return s;
  }
  if (iequals(species, "cow")) {
    s.walk_front_legs_angle = 0.45f;
    s.walk_hind_legs_angle = 0.35f;
    s.canter_legs_angle_factor = 1.5f;
    s.walk_animation_speed = 0.6f;
    return s;
  }
  if (iequals(species, "camel")) {
    s.can_canter = false;
    return s;
  }
  return std::nullopt;
}

std::span<const std::string_view> FourLeggedRig::species_names() {
  return kSpecies;
}
std::span<const BoneRole> FourLeggedRig::bone_roles() {
  return kRoles;
}
std::span<const std::string_view> FourLeggedRig::setting_names() const {
  return kNames;
}
std::unique_ptr<LegacyRig> FourLeggedRig::clone() const {
  return std::make_unique<FourLeggedRig>(*this);
}
bool FourLeggedRig::access_setting(std::string_view name, float* read, const float* write) {
  return access_field<S>(kFields, settings_, name, read, write);
}

void FourLeggedRig::do_step(const RigInputs& in, float dt) {
  const Settings& s = settings_;
  const float k = smoothing(dt);
  const float v = in.speed;
  const float w = in.walk_speed;
  const float was = s.walk_animation_speed;

  // Gait and phase (§3's table, first matching row).
  bool moving = true;
  if (s.gait >= 0.0f) {
    gait_ = static_cast<Gait>(std::clamp(static_cast<int>(s.gait), 0, 2));
    moving = std::abs(v) > 0.2f;
  } else if (s.can_canter && w > 0.0f && v > 0.7f * w) {
    gait_ = Gait::kCanter;
  } else if (s.can_trot && w > 0.0f && v > 0.5f * w) {
    gait_ = Gait::kTrot;
  } else {
    gait_ = Gait::kWalk;
    moving = std::abs(v) > 0.2f;
  }
  const float before = footsteps_;
  if (moving) {
    const float rate = gait_ == Gait::kCanter ? 0.7f * was * v : was * v;
    const float step_rate = gait_ == Gait::kCanter ? 0.7f * was * v : 1.25f * was * v;
    // Whole cycles are dropped: every use of φ is periodic in 1.
    phase_ = frac(phase_ + rate * dt);
    footsteps_ += step_rate * dt;
  } else {
    phase_ = 0.0f;
    footsteps_ = 0.0f;
  }
  if (std::floor(footsteps_) > std::floor(before)) {
    if (gait_ == Gait::kCanter && s.use_canter_sound) {
      if (!(in.immersion > 0.0f)) event(RigEventType::kCanterSound);
    } else {
      event(RigEventType::kFootstep);
    }
  }
  // Keep the counter small; only the integer crossings matter.
  if (footsteps_ > 1024.0f || footsteps_ < -1024.0f) footsteps_ = frac(footsteps_);

  const float a = 2.0f * kPi * phase_;
  const float bobh = s.walk_bob_height;
  float bob_target = 0.0f;
  float head_bob_target = 0.0f;
  const std::array<float, 4>* offsets = &s.walk_phases;
  float factor = 1.0f;
  switch (gait_) {
    case Gait::kCanter:
      bob_target = -1.5f * bobh * std::sin(a);
      head_bob_target = 8.0f * kDeg * std::sin(a);
      offsets = &s.canter_phases;
      factor = s.canter_legs_angle_factor;
      break;
    case Gait::kTrot:
      bob_target = 1.5f * bobh * sin2(a);
      head_bob_target = 3.0f * kDeg * std::sin(2.0f * a);
      offsets = &s.trot_phases;
      break;
    case Gait::kWalk:
      bob_target = -bobh * sin2(a);
      head_bob_target = 3.0f * kDeg * std::sin(2.0f * a);
      break;
  }
  if (phase_ == 0.0f) head_bob_target = 0.0f;
  bob_ += k * (bob_target - bob_);
  head_bob_ += k * (head_bob_target - head_bob_);
  const bool legs_move = phase_ != 0.0f && (in.on_ground || in.immersion > 0.0f);
  for (std::size_t i = 0; i < 4; ++i) {
    const float amp = (i < 2 ? s.walk_front_legs_angle : s.walk_hind_legs_angle) * factor;
    const float target = legs_move ? amp * std::sin(2.0f * kPi * (phase_ + (*offsets)[i])) : 0.0f;
    legs_[i] += k * (target - legs_[i]);
  }

  // Feeding and butting.
  feed_factor_ =
      std::clamp(feed_factor_ + (in.feeding ? 1.0f : -1.0f) * s.feed_speed * dt, 0.0f, 1.0f);
  if (butt_.update(in.attacking, dt, s.attack_speed, s.attack_phase_speed)) {
    event(RigEventType::kAttackHit);
  }

  death_phase_ = death_phase_step(death_phase_, in.health, dt, s.death_speed);
  outputs_.phase = phase_;
  outputs_.bob = bob_;
  outputs_.death_phase = death_phase_;
  static constexpr std::string_view kGaits[] = {"walk", "trot", "canter"};
  outputs_.gait = death_phase_ > 0.0f ? "dead"
                  : phase_ == 0.0f    ? "idle"
                                      : kGaits[static_cast<int>(gait_)];

  if (death_phase_ > 0.0f) {
    const float side = death_roll_side(in.body_right, in.death_cause);
    set(kBody, death_roll(in.body_height, death_phase_, side));
    set_rotation(kHead, rot_x(50.0f * kDeg * death_phase_));
    set_rotation(kNeck, quat(1.0f, 0.0f, 0.0f, 0.0f));
    for (int i = 0; i < 4; ++i) {
      set_rotation(kLeg1 + i, rot_x(legs_[static_cast<std::size_t>(i)] * (1.0f - death_phase_)));
    }
    return;
  }

  set(kBody, Transform{vec3(0.0f, bob_, 0.0f), quat(1.0f, 0.0f, 0.0f, 0.0f), vec3(1.0f)});
  const vec2 look = look_angles(in, dt);
  float yaw = std::clamp(look.x, -65.0f * kDeg, 65.0f * kDeg);
  float pitch = std::clamp(look.y + head_bob_, -55.0f * kDeg, 55.0f * kDeg);
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
    const float feed_pitch = -(25.0f * kDeg + 45.0f * kDeg * oct_noise(t, 3.0f, 2, 2.0f, 0.75f));
    pitch += feed_factor_ * (feed_pitch - pitch);
    yaw += feed_factor_ * (0.0f - yaw);
  }
  if (butt_.factor > 0.0f) {
    const float butt_pitch = -40.0f * kDeg * std::sin(2.0f * kPi * sigma(butt_.phase, 4.0f));
    pitch += butt_.factor * (butt_pitch - pitch);
  }
  // Head and Neck = RotX(pitch)·RotZ(−yaw) (row order): pitch first, then yaw.
  set_rotation(kNeck, rot_z(-neck_yaw) * rot_x(neck_pitch));
  set_rotation(kHead, rot_z(-yaw) * rot_x(pitch));
  for (int i = 0; i < 4; ++i) set_rotation(kLeg1 + i, rot_x(legs_[static_cast<std::size_t>(i)]));
}

}  // namespace critter::creature::legacy
