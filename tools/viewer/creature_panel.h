// SPDX-License-Identifier: MIT
// CreaturePanel: a simulated legacy creature (creatures.md Part A) in the viewer, `critter-viewer
// FILE --creature KIND [--species NAME] [--state NAME=VALUE ...] [--rig-param NAME=VALUE ...]`,
// and everything the "Creature" panel shows and edits, without any window. It owns the model, a
// tools::CreatureSim over it (the one `critter pose|render --creature` steps), the state the user
// set (tools::CreatureStateArgs, the names of `--state`), the local pose and an anim::Instance
// placed from it, and the last events the rig reported. The ImGui panel (creature_panel_ui.h)
// reads state(), info() and events() and calls the setters; the renderer poses the model from
// instance().
//
// Time runs as on the command line: update(dt) steps the sim at 60 Hz (kStep), the last step of a
// frame shorter when dt is off the grid, with tools::with_creature_defaults(state()) set before
// every step, so a viewer run with a fixed 1/60 s frame shows the pose `critter pose --time` gives
// after as many steps.
#pragma once

#include <cstddef>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "../common/creature_sim.h"
#include "../common/creature_spec.h"
#include "critter/anim/instance.h"
#include "critter/asset/model.h"
#include "critter/core/error.h"
#include "critter/core/transform.h"

namespace critter::viewer {

// The span of a state number's slider: speed and walk_speed 0..10 m/s, health 0..1, yaw
// -180..180 degrees, immersion 0..1, head_shake 0..5 s, dig_order 0..2 m; any other number
// -10..10. Always within the name's accepted range (StateField::min, max).
struct SliderRange {
  float min = 0.0f;
  float max = 1.0f;
};
SliderRange slider_range(const tools::StateField& field);

// The value a widget shows for `field` in `state`: the value set, or the one the sim works with
// (after tools::with_creature_defaults(), e.g. velocity from speed), or else the sim's fallback
// for an unset name (health 1, walk_speed 4, on_ground unless flying or immersion >= 0.5, enums
// "none", everything else 0 or false).
tools::StateValue shown_value(const tools::CreatureStateArgs& state,
                              const tools::StateField& field);

class CreaturePanel {
 public:
  // The simulation step, seconds (the command line's 60 Hz).
  static constexpr double kStep = 1.0 / 60.0;
  // How many of the latest events events() keeps (oldest dropped first).
  static constexpr std::size_t kEventCount = 32;

  // A creature of `flags` on `model` at time 0. `path` names the model in messages. Errors:
  // those of tools::parse_creature_flags() (kUsage: an unknown kind or state name, a bad
  // value), then those of tools::make_creature_sim() (kUsage: an unknown species or rig setting;
  // kInvalid: a model without the bones the rig needs).
  static Result<std::unique_ptr<CreaturePanel>> load(const tools::CreatureFlags& flags,
                                                     std::shared_ptr<const Model> model,
                                                     const std::string& path);

  const Model& model() const { return *model_; }
  const std::shared_ptr<const Model>& shared_model() const { return model_; }
  const anim::Instance& instance() const { return *instance_; }
  const tools::CreatureSpec& spec() const { return spec_; }
  // The bounds of the creature as posed now, placed by the sim's root matrix (yaw), for
  // framing the camera (tools::posed_bounds(), as `critter render` frames it).
  Aabb placed_bounds() const;

  // The state as the user set it: the --state values, changed by the setters. Unset names keep
  // the rig's defaults (with_creature_defaults() fills the rest before each step).
  const tools::CreatureStateArgs& state() const { return state_; }
  // Sets one state name. Errors (kUsage, naming the state): a value that does not fit the name
  // (tools::store_state_value(): its type, a finite number within the name's range, a known
  // enum name); the state does not change then.
  Status set_value(const tools::StateField& field, const tools::StateValue& value);
  // Forgets one state name's value: the rig's default applies again.
  void unset(const tools::StateField& field);
  // Back to the --state values.
  void reset_state() { state_ = spec_.state; }

  // Kill: health 0 (the rig plays its death; the body stops moving). Revive: health 1 and a
  // fresh simulation at time 0 (a rig's death phase only runs forward).
  void kill();
  Status revive();
  // A fresh simulation at time 0 with the current state; the events are cleared.
  Status restart();

  // Advances the simulation by `dt` seconds (non-finite or <= 0: nothing) and poses instance().
  void update(float dt);

  // Simulated seconds since the last restart.
  double time() const { return time_; }
  // What the rig shows after the last step (gait, phase, bob, death phase); its `events` are
  // left empty: events() has the latest.
  const tools::CreatureFrameInfo& info() const { return info_; }
  // The latest kEventCount events, oldest first, with their simulated times.
  const std::deque<tools::CreatureEvent>& events() const { return events_; }

 private:
  CreaturePanel() = default;
  void place();

  std::shared_ptr<const Model> model_;
  std::string path_;
  tools::CreatureSpec spec_;
  tools::CreatureStateArgs state_;
  std::unique_ptr<tools::CreatureSim> sim_;
  std::unique_ptr<anim::Instance> instance_;
  std::vector<Transform> pose_;
  tools::CreatureFrameInfo info_;
  std::deque<tools::CreatureEvent> events_;
  std::size_t events_seen_ = 0;  // how many of the sim's events events_ has taken
  double time_ = 0.0;
};

}  // namespace critter::viewer
