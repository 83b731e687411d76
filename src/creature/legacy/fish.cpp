// SPDX-License-Identifier: MIT
#include "critter/creature/legacy/fish.h"

#include <algorithm>
#include <cmath>
#include <string>

#include <glm/geometric.hpp>

#include "critter/core/strings.h"
#include "setting_table.h"

namespace critter::creature::legacy {
namespace {

using S = FishRig::Settings;

constexpr BoneRole kRoles[] = {{"Body", true}, {"Tail1", true}, {"Tail2", true}, {"Jaw", false}};

constexpr SettingField<S> kFields[] = {
    {"SwimAnimationSpeed", &S::swim_animation_speed, nullptr},
    {"HasVerticalTail", nullptr, &S::has_vertical_tail},
    {"TurnSpeed", &S::turn_speed, nullptr},
    {"DeathSpeed", &S::death_speed, nullptr},
};
constexpr std::string_view kNames[] = {"SwimAnimationSpeed", "HasVerticalTail", "TurnSpeed",
                                       "DeathSpeed"};

struct Species {
  std::string_view name;
  float sas;
  bool vertical_tail;
};
constexpr Species kSpeciesTable[] = {
    {"default", 1.0f, false},     {"bass", 1.5f, false},        {"barracuda", 1.5f, false},
    {"piranha", 1.6f, false},     {"ray", 1.8f, false},         {"bull-shark", 1.4f, false},
    {"tiger-shark", 1.2f, false}, {"great-white", 0.9f, false}, {"beluga", 0.4f, true},
    {"orca", 0.3f, true},
};
constexpr std::string_view kSpecies[] = {"default", "bass",       "barracuda",   "piranha",
                                         "ray",     "bull-shark", "tiger-shark", "great-white",
                                         "beluga",  "orca"};

float c1(float x) {
  return std::clamp(x, -1.0f, 1.0f);
}

}  // namespace

FishRig::FishRig() : FishRig(Settings{}) {}
FishRig::FishRig(Settings settings) : LegacyRig(Kind::kFish, kRoles), settings_(settings) {}

std::optional<FishRig::Settings> FishRig::preset(std::string_view species) {
  std::string n(species);
  std::replace(n.begin(), n.end(), '_', '-');
  for (const Species& sp : kSpeciesTable) {
    if (!iequals(sp.name, n)) continue;
    Settings s;
    s.swim_animation_speed = sp.sas;
    s.has_vertical_tail = sp.vertical_tail;
    return s;
  }
  return std::nullopt;
}

std::span<const std::string_view> FishRig::species_names() {
  return kSpecies;
}
std::span<const BoneRole> FishRig::bone_roles() {
  return kRoles;
}
std::span<const std::string_view> FishRig::setting_names() const {
  return kNames;
}
std::unique_ptr<LegacyRig> FishRig::clone() const {
  return std::make_unique<FishRig>(*this);
}
bool FishRig::access_setting(std::string_view name, float* read, const float* write) {
  return access_field<S>(kFields, settings_, name, read, write);
}

void FishRig::do_step(const RigInputs& in, float dt) {
  const Settings& s = settings_;
  const float sas = s.swim_animation_speed;
  if (in.has_swim_order) {
    const float m = glm::dot(in.swim_order, in.swim_order) > 0.99f ? 1.75f : 1.0f;
    phase_ += sas * m * dt;
  } else {
    phase_ += 0.15f * sas * dt;
  }
  phase_ = std::isfinite(phase_) ? std::fmod(phase_, 1000.0f) : 0.0f;

  if (in.has_bend_order) {
    if (s.has_vertical_tail) {
      turn_.y = in.bend_order;
    } else {
      turn_.x = in.bend_order;
    }
  } else {
    turn_.x += sat(2.0f * s.turn_speed * dt) * (-in.turn_order.x - turn_.x);
  }

  const float order = in.has_dig_order ? in.dig_order : 0.0f;
  if (order > depth_) {
    const float delta = (order - depth_) * std::min(1.5f * dt, 1.0f);
    depth_ += delta;
    dig_tail_ = frac(dig_tail_ + 20.0f * delta);
  } else {
    depth_ += (order - depth_) * std::min(5.0f * dt, 1.0f);
  }

  if (in.attacking) {
    wag_ = frac(wag_ + 0.33f * s.turn_speed * dt);
  } else if (wag_ > 0.0f) {
    wag_ += 0.33f * s.turn_speed * dt;
    if (wag_ >= 1.0f) wag_ = 0.0f;
  }
  const float bite_before = bite_;
  if (in.attacking || in.feeding) {
    bite_ += s.turn_speed * dt;
    if ((bite_before < 0.5f && bite_ >= 0.5f) || (bite_ >= 1.0f && bite_before < 0.5f)) {
      event(RigEventType::kAttackHit);
    }
    bite_ = frac(bite_);
  } else if (bite_ > 0.0f) {
    bite_ += s.turn_speed * dt;
    if (bite_ >= 1.0f) bite_ = 0.0f;
  }

  death_phase_ = death_phase_step(death_phase_, in.health, dt, s.death_speed);
  outputs_.phase = phase_;
  outputs_.bob = 0.0f;
  outputs_.death_phase = death_phase_;
  outputs_.gait = death_phase_ > 0.0f ? "dead"
                  : in.frozen         ? "frozen"
                  : in.has_swim_order ? "swim"
                                      : "drift";

  const float w = dig_tail_ + wag_;
  const float tau = 2.0f * kPi;
  if (s.has_vertical_tail) {
    tails_[0] = vec2(25.0f * kDeg * c1(0.5f * std::sin(tau * w) - turn_.x),
                     25.0f * kDeg * c1(0.5f * std::sin(tau * phase_) - turn_.y));
    tails_[1] =
        vec2(30.0f * kDeg * c1(0.5f * std::sin(tau * std::max(w - 0.25f, 0.0f)) - turn_.x),
             30.0f * kDeg * c1(0.5f * std::sin(tau * std::max(phase_ - 0.25f, 0.0f)) - turn_.y));
  } else {
    tails_[0] = vec2(25.0f * kDeg * c1(0.5f * std::sin(tau * (phase_ + w)) - turn_.x),
                     25.0f * kDeg * c1(-turn_.y));
    tails_[1] =
        vec2(30.0f * kDeg * c1(0.5f * std::sin(tau * std::max(phase_ + w - 0.25f, 0.0f)) - turn_.x),
             30.0f * kDeg * c1(-turn_.y));
  }

  if (death_phase_ > 0.0f) {
    // YPR(yaw, 0, π·DP)·T(pos + h·DP·Ŷ): roll about the body's forward axis, then rise.
    set(kBody, Transform{vec3(0.0f, in.body_height * death_phase_, 0.0f), rot_z(kPi * death_phase_),
                         vec3(1.0f)});
    set_rotation(kTail1, quat(1.0f, 0.0f, 0.0f, 0.0f));
    set_rotation(kTail2, quat(1.0f, 0.0f, 0.0f, 0.0f));
    set_rotation(kJaw, quat(1.0f, 0.0f, 0.0f, 0.0f));
    return;
  }
  set(kBody, Transform{vec3(0.0f, -depth_, 0.0f), quat(1.0f, 0.0f, 0.0f, 0.0f), vec3(1.0f)});
  if (in.frozen) return;
  // Tail = RotZ(Z)·RotX(X) (row order): Z first.
  set_rotation(kTail1, rot_x(tails_[0].y) * rot_z(tails_[0].x));
  set_rotation(kTail2, rot_x(tails_[1].y) * rot_z(tails_[1].x));
  set_rotation(kJaw, bite_ > 0.0f ? rot_x(-30.0f * kDeg * std::sin(kPi * bite_))
                                  : quat(1.0f, 0.0f, 0.0f, 0.0f));
}

}  // namespace critter::creature::legacy
