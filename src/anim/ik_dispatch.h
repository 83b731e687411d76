// SPDX-License-Identifier: MIT
// The Controller's IK step (animation-config.md §18): runs the program's IK chains, then its
// look-at entries, on the blended local pose, with this creature's smoothing states.
#pragma once

#include <span>
#include <vector>

#include "critter/anim/controller_program.h"
#include "critter/anim/ik_chain_job.h"
#include "critter/anim/ik_look_at_job.h"
#include "critter/core/transform.h"

namespace critter::anim::detail {

class RuntimeLog;

class IkDispatch {
 public:
  explicit IkDispatch(const ControllerProgram& program);

  // False when the program has neither chains nor look-at entries.
  bool any() const { return !models_.empty(); }
  // Runs every enabled chain and look-at entry on `pose` in place; dt is the last update's.
  void run(const ControllerProgram& program, const ParameterValues& values, RuntimeLog& log,
           std::span<Transform> pose, float dt);

 private:
  std::vector<mat4> models_;              // model_from_joint of the pose
  std::vector<IkChainState> ik_states_;   // per chain
  std::vector<LookAtState> look_states_;  // per look-at entry
};

}  // namespace critter::anim::detail
