// SPDX-License-Identifier: MIT
// Everything one Controller holds (controller.h keeps it behind a pointer): parameters, the
// layer stack, the rule machine, drivers, root-bone correction, root motion, IK states, the
// runtime-warning log and the record list. Lives on the heap and never moves, so the driver
// instances may point at the log's sinks.
#pragma once

#include <memory>
#include <vector>

#include "anim/driver_set.h"
#include "anim/ik_dispatch.h"
#include "anim/layer_stack.h"
#include "anim/root_motion.h"
#include "anim/rule_machine.h"
#include "anim/runtime_warnings.h"
#include "critter/anim/controller.h"

namespace critter::anim::detail {

struct ControllerState {
  explicit ControllerState(std::shared_ptr<const ControllerProgram> p);

  // Appends `record` to the output list; an event also goes to the event hook (§17).
  void emit(const ControllerRecord& record);
  // The Base layer, or null when the program has none.
  const Layer* base_layer() const;

  std::shared_ptr<const ControllerProgram> program;
  ParameterValues values;
  ControllerHooks hooks;
  RuntimeLog log;
  DriverSet drivers;
  LayerStack layers;
  RuleMachine rules;
  RootBoneCorrection root_bone;
  RootMotion root_motion;
  IkDispatch ik;
  std::vector<ControllerRecord> records;
  float last_dt = 0.0f;
  double time = 0.0;
  vec3 body_velocity{0.0f};
  quat body_rotation{1.0f, 0.0f, 0.0f, 0.0f};
};

}  // namespace critter::anim::detail
