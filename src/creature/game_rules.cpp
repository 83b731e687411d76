// SPDX-License-Identifier: MIT
#include "critter/creature/game_rules.h"

#include <utility>

#include "critter/core/strings.h"

namespace critter::creature {
namespace {

// §17: footsteps closer than this are not passed to the hook.
constexpr double kFootstepInterval = 0.2;

}  // namespace

GameRules::GameRules(const anim::ParameterSchema& schema)
    : is_on_ground_(schema.find("IsOnGround")),
      immersion_factor_(schema.find("ImmersionFactor")),
      attack_hit_moment_param_(schema.find("IsAttackHitMoment")) {}

void GameRules::set_footstep_hook(std::function<void(std::string_view data)> hook) {
  footstep_ = std::move(hook);
}
void GameRules::set_attack_hit_hook(std::function<void()> hook) {
  attack_hit_ = std::move(hook);
}
void GameRules::set_attack_start_hook(std::function<void()> hook) {
  attack_start_ = std::move(hook);
}
void GameRules::set_attack_end_hook(std::function<void()> hook) {
  attack_end_ = std::move(hook);
}

void GameRules::on_event(const anim::ControllerRecord& event, anim::ParameterValues& parameters,
                         double time) {
  if (iequals(event.name, "Footstep")) {
    // An index the schema lacks reads as unset: not standing, not immersed.
    const bool standing =
        parameters.boolean(is_on_ground_) || parameters.number(immersion_factor_) > 0.5;
    if (standing && time - last_footstep_ >= kFootstepInterval) {
      last_footstep_ = time;
      if (footstep_) footstep_(event.data);
    }
  } else if (iequals(event.name, "AttackHit")) {
    attack_hit_moment_ = true;
    parameters.set_bool(attack_hit_moment_param_, true);
    if (attack_hit_) attack_hit_();
  } else if (iequals(event.name, "AttackStart")) {
    if (attack_start_) attack_start_();
  } else if (iequals(event.name, "AttackEnd")) {
    attack_hit_moment_ = false;
    parameters.set_bool(attack_hit_moment_param_, false);
    if (attack_end_) attack_end_();
  }
}

std::function<void(const anim::ControllerRecord&, anim::ParameterValues&, double)>
GameRules::event_hook() {
  return [this](const anim::ControllerRecord& event, anim::ParameterValues& parameters,
                double time) { on_event(event, parameters, time); };
}

}  // namespace critter::creature
