// SPDX-License-Identifier: MIT
// GameRules: Survivalcraft's built-in handling of clip events (animation-config.md §17), applied
// by CreatureModel to its Controller's events as they happen:
//   Footstep     calls the footstep hook with the event's data, at most once per 0.2 s of
//                controller time and only while IsOnGround or ImmersionFactor > 0.5;
//   AttackHit    sets IsAttackHitMoment = true, then calls its hook;
//   AttackStart  calls its hook;
//   AttackEnd    sets IsAttackHitMoment = false, then calls its hook.
// Event names compare case-insensitively. Every event stays in the controller's records.
//
//   GameRules rules(program->schema());
//   rules.set_footstep_hook([](std::string_view foot) { play_step_sound(foot); });
//   controller.set_hooks({.event = rules.event_hook()});
#pragma once

#include <functional>
#include <string_view>

#include "critter/anim/controller.h"
#include "critter/anim/parameters.h"

namespace critter::creature {

class GameRules {
 public:
  // Rules that read and write no parameter (a creature without a controller).
  GameRules() = default;
  // Reads IsOnGround and ImmersionFactor and writes IsAttackHitMoment through `schema`'s indices
  // (ControllerProgram::compile declares all three); a name the schema lacks is skipped.
  explicit GameRules(const anim::ParameterSchema& schema);

  // Any hook may be empty; each applies from the next event.
  void set_footstep_hook(std::function<void(std::string_view data)> hook);
  void set_attack_hit_hook(std::function<void()> hook);
  void set_attack_start_hook(std::function<void()> hook);
  void set_attack_end_hook(std::function<void()> hook);

  // Applies the rules to one controller event (ControllerHooks::event's arguments): `time` is the
  // controller's time in seconds, `parameters` its values.
  void on_event(const anim::ControllerRecord& event, anim::ParameterValues& parameters,
                double time);
  // A ControllerHooks::event calling on_event() on this object, which must stay at its address
  // while the controller holds the hook.
  std::function<void(const anim::ControllerRecord&, anim::ParameterValues&, double)> event_hook();

  // True from an AttackHit event until an AttackEnd event.
  bool attack_hit_moment() const { return attack_hit_moment_; }

 private:
  anim::ParamIndex is_on_ground_ = anim::kNoParam;
  anim::ParamIndex immersion_factor_ = anim::kNoParam;
  anim::ParamIndex attack_hit_moment_param_ = anim::kNoParam;
  std::function<void(std::string_view data)> footstep_;
  std::function<void()> attack_hit_;
  std::function<void()> attack_start_;
  std::function<void()> attack_end_;
  double last_footstep_ = -1.0e9;  // controller time of the last footstep passed on
  bool attack_hit_moment_ = false;
};

}  // namespace critter::creature
