// SPDX-License-Identifier: MIT
// The Controller's rule machine (animation-config.md §8, §9): evaluates each state's rule tree
// when a parameter changed, de-duplicates the leaf it picks, and applies animations to layers
// (clips, `[Param]` sources, drivers, null) or deactivates them; onComplete and onInterrupt
// actions.
#pragma once

#include <string>
#include <vector>

#include "critter/anim/controller.h"
#include "critter/anim/controller_program.h"

namespace critter::anim::detail {

struct ControllerState;

class RuleMachine {
 public:
  explicit RuleMachine(const ControllerProgram& program);

  // §19 step 2: when a parameter changed since the last call or control was released (and not
  // every layer is manual), evaluates every state whose layer is not manual and applies the
  // leaves that differ from the last ones applied; then resets triggers.
  void evaluate(ControllerState& s);
  // Plays program animation `animation` on `layer` (§9).
  void apply(ControllerState& s, int layer, int animation);
  // Deactivates `layer` (§8, §10): a clip layer fades out over 0.2 s, a driver layer stops.
  void deactivate(ControllerState& s, int layer);
  // A running non-looping rule animation on `layer` reports its onInterrupt once.
  void interrupt_if_playing(ControllerState& s, int layer);
  // Runs `action` (§8): a trigger becomes a record of `kind`, setState sets its parameter.
  static void fire_action(ControllerState& s, int layer, const ControllerActionDesc& action,
                          ControllerRecord::Kind kind);
  // Forgets the leaves applied to `layer` (-1: every layer) and forces the next evaluation.
  void release(const ControllerProgram& program, int layer);

 private:
  struct StateMemory {
    int leaf = -1;
    std::string source;
  };

  int match(ControllerState& s, const ControllerProgram::State& state);
  int match_list(ControllerState& s, int first, int count);

  std::vector<StateMemory> memory_;  // per program state
  bool force_evaluation_ = false;
};

}  // namespace critter::anim::detail
