// SPDX-License-Identifier: MIT
// CreaturePose: a simulated legacy creature as `critter pose` and `critter render` show it, the
// --creature counterpart of ControllerPose: the CreatureSim is stepped at 60 Hz from time 0 with
// the --state values, changed over time by a timeline's "state" keys, set before every step.
#pragma once

#include <iosfwd>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "../common/creature_sim.h"
#include "../common/creature_state_track.h"
#include "creature_flags.h"
#include "critter/anim/instance.h"
#include "critter/asset/model.h"
#include "critter/core/error.h"
#include "critter/core/transform.h"
#include "timeline.h"

namespace critter::cli {

using tools::CreatureEvent;
using tools::CreatureFrameInfo;
using tools::CreatureSim;
using tools::make_creature_sim;

class CreaturePose {
 public:
  // The "state" keys of `timeline` (null: none) resolved against the state names. Errors
  // (kInvalid at the timeline's file and JSON pointer): a key with "params" (parameters belong
  // to --config), an unknown state name (suggesting the closest names), a value of the wrong type
  // ("/keys/1/state/speed: speed takes a finite number").
  static Result<std::vector<tools::CreatureStateTrack::Key>> state_keys(const Timeline* timeline);

  // A creature of `spec` on `model` at time 0, its state from `spec.state` and the timeline
  // (null: none). `path` names the model in messages. Errors: those of state_keys(), then those
  // of make_creature_sim().
  static Result<CreaturePose> load(const CreatureSpec& spec, std::shared_ptr<const Model> model,
                                   const std::string& path, const Timeline* timeline);
  // The same with the state's keys given in code (increasing times; e.g. a scripted scene).
  // Errors: those of make_creature_sim().
  static Result<CreaturePose> load(const CreatureSpec& spec, std::shared_ptr<const Model> model,
                                   const std::string& path,
                                   std::vector<tools::CreatureStateTrack::Key> keys);

  const Model& model() const { return *model_; }
  // Simulated seconds since the start.
  double time() const { return time_; }

  // A fresh simulation at time 0 (make_creature_sim again, which succeeded in load()).
  Status restart();
  // Simulates from time() to `t` seconds (nothing when t <= time()) in kControllerStep steps, the
  // last one shorter when t is not on the grid. Before every step the sim gets the state of a
  // tools::CreatureStateTrack at the step's start: the --state values with every timeline key
  // whose time has come merged over them, through tools::with_creature_defaults().
  void advance_to(double t);
  // The state the last step used (the --state values before the first step).
  const CreatureStateArgs& state() const { return track_.current(); }

  // The sim's pose placed on `instance`, which must be made from model(): root =
  // CreatureSim::root_matrix(), then the model-space matrices.
  Status place(anim::Instance& instance) const;
  std::span<const Transform> local_pose() const { return pose_; }
  CreatureFrameInfo info() const { return sim_->info(); }

 private:
  std::shared_ptr<const Model> model_;
  std::string path_;
  CreatureSpec spec_;
  tools::CreatureStateTrack track_;
  std::unique_ptr<CreatureSim> sim_;
  std::vector<Transform> pose_;
  double time_ = 0.0;
};

// Writes one line per event to `err`, as print_fired() does: "event at 0.267 s: Footstep".
void print_creature_events(std::span<const CreatureEvent> events, std::ostream& err);

}  // namespace critter::cli
