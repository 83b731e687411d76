// SPDX-License-Identifier: MIT
// OpenedPose: where `critter pose` and `critter render` take a model's pose from — a legacy
// creature rig (--creature), an animation config (--config), or a clip (--anim, -1 for the rest
// pose) with, on a model with split limbs and --limbs, the limb animator on top of it.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "controller_flags.h"
#include "creature_flags.h"
#include "creature_pose.h"
#include "critter/asset/model.h"
#include "critter/core/diagnostics.h"
#include "critter/core/error.h"
#include "critter/io/load.h"
#include "limb_pose.h"
#include "timeline.h"

namespace critter::cli {

// At most one of `simulated` and `controller` is set; `limbs` only with a clip source.
struct OpenedPose {
  std::optional<CreaturePose> simulated;     // --creature
  std::optional<ControllerPose> controller;  // --config
  std::optional<LimbPose> limbs;             // --limbs on a clip source
  int clip = -1;                             // the --anim clip; -1: none (the rest pose)
};

// What a command read from its flags to choose the source.
struct PoseRequest {
  const std::string& file;                      // the model, as named in messages
  const CreatureSpec* creature = nullptr;       // --creature, parsed; null: none
  const ControllerFlags* controller = nullptr;  // --config (with its params); null: none
  const io::LoadOptions& load_options;          // how the model was loaded (URIs, Assimp isolation)
  const std::string& anim;             // --anim (a name or an index; empty: the first clip)
  const LimbFlags& limbs;              // --limbs and --motion
  const Timeline* timeline = nullptr;  // --timeline; null: none
};

// Opens the source `request` names for `model`. The controller's load warnings go to `diag`.
// Errors: those of CreaturePose::load, ControllerPose::load (and its set_timeline), the clip
// lookup, and LimbPose::load, unchanged.
Result<OpenedPose> open_pose(const PoseRequest& request, const std::shared_ptr<const Model>& model,
                             Diagnostics* diag);

}  // namespace critter::cli
