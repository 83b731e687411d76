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

// At most one of `simulated` and `controller` is set. `limbs` is set with --limbs on a model with
// split limbs: after a clip it is the clip's own simulation (LimbPose::load); after a creature or
// a controller it follows that source (LimbPose::follow), stepped by restart_followed() and
// advance_followed().
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

// The request of `pose` or `render`, whose options share the fields named here: `creature` is the
// parsed --creature (none: unset), --config counts when it names a file.
template <class Options>
PoseRequest pose_request(const Options& o, const std::optional<CreatureSpec>& creature,
                         const io::LoadOptions& load_options,
                         const std::optional<Timeline>& timeline) {
  return {.file = o.file,
          .creature = creature ? &*creature : nullptr,
          .controller = o.controller.config.empty() ? nullptr : &o.controller,
          .load_options = load_options,
          .anim = o.anim,
          .limbs = o.limbs,
          .timeline = timeline ? &*timeline : nullptr};
}

// Opens the source `request` names for `model`. The controller's load warnings go to `diag`.
// Errors: those of CreaturePose::load, ControllerPose::load (and its set_timeline), the clip
// lookup, and LimbPose::load, unchanged.
Result<OpenedPose> open_pose(const PoseRequest& request, const std::shared_ptr<const Model>& model,
                             Diagnostics* diag);

// Whether `limbs` follows the creature or controller (rather than running its own clip).
inline bool follows(const OpenedPose& pose) {
  return pose.limbs && pose.limbs->following() && (pose.simulated || pose.controller);
}

// follows() only: the source and its limbs at time 0 (restarted, the first pose placed on
// `instance` and the limb animator stepped once with no time passing).
Status restart_followed(OpenedPose& pose, anim::Instance& instance);
// follows() only: steps the source and then the limb animator together in kControllerStep steps
// (the last one shorter) from the limbs' time to `t` (a time before it restarts first), and
// leaves on `instance` the source's placement with the bent limbs. `instance` is made from the
// source's model.
Status advance_followed(OpenedPose& pose, double t, anim::Instance& instance);

// A creature or controller source only: a fresh simulation from 0 to `t` (the limbs following it
// when follows()) placed on `instance`, as `pose` shows each of its times.
Status start_at(OpenedPose& pose, double t, anim::Instance& instance);

}  // namespace critter::cli
