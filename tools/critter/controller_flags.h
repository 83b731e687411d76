// SPDX-License-Identifier: MIT
// What `critter pose` and `critter render` share to show a state of an animation config without a
// game: the --config, --asset-root and --param options, and ControllerPose, which drives an
// anim::Controller with those fixed parameter values the way a host would (parameters set before
// every fixed step) and places its pose and morph weights on an anim::Instance.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "../common/param_arg.h"
#include "critter/anim/controller.h"
#include "critter/anim/instance.h"
#include "critter/anim/parameters.h"
#include "critter/asset/model.h"
#include "critter/core/diagnostics.h"
#include "critter/core/error.h"
#include "critter/core/math.h"
#include "critter/io/load_options.h"
#include "timeline.h"

namespace critter::cli {

// Simulation step of a controller pose, seconds (a 60 Hz game loop).
inline constexpr double kControllerStep = 1.0 / 60.0;
// Simulated time when the command line gives none: long enough for the default 0.3 s crossfades
// and 0.2 s weight fades to finish.
inline constexpr float kDefaultSettleTime = 1.0f;
// Longest simulated time accepted, seconds (216000 steps).
inline constexpr float kMaxControllerTime = 3600.0f;

struct ControllerFlags {
  std::string config;                    // --config PATH; empty: no controller
  std::vector<std::string> asset_roots;  // --asset-root DIR, repeatable
  std::vector<std::string> params;       // --param NAME=VALUE, repeatable, as written
  std::string rotation_blend;            // --rotation-blend slerp|nlerp; empty: not given (slerp)
  // Set by the command from its load flags: --allow-outside-uris lets the config's paths leave
  // its folder and the asset roots; the models of `file:` sources load with these options.
  bool allow_outside = false;
  io::LoadOptions model_options;
};

// Registers --config, --asset-root and --param on `app`, writing into `flags` (which must outlive
// the parse). The --param help states the value syntax and the unknown-name rule.
void add_controller_flags(CLI::App* app, ControllerFlags& flags);

// The --help paragraph on the parameters the legacy creature drivers (FourLeggedWalk, BirdFly,
// FishSwim, ...) read, for the footers of pose and render.
std::string legacy_driver_param_help();

// The --param syntax (NAME=VALUE) and the close-name suggestions, shared with the viewer.
using tools::closest_parameter_names;
using tools::ParamArg;
using tools::parse_param_arg;

// An entry of the controller's output list (§17) seen during the simulation.
struct FiredRecord {
  double time = 0.0;  // simulated seconds at the end of the step that produced it
  std::string layer;  // layer name
  std::string kind;   // "event", "complete" or "interrupt"
  std::string name;   // event or action name
  std::string data;   // event or action data ('' when none)
  std::uint64_t count = 1;
};

// What one layer shows at the current time, for reports.
struct LayerSummary {
  std::string name;
  bool active = false;     // contributes to the pose (Controller::layer_active)
  float weight = 0.0f;     // current weight
  std::string clip;        // name of the clip its player plays; '' when none
  float clip_time = 0.0f;  // seconds into that clip
  std::string driver;      // driver type when the layer runs a driver; '' otherwise
};

// One creature's controller with fixed parameter values.
class ControllerPose {
 public:
  // Loads `flags.config` against `model` (io::load_controller with flags.asset_roots; its first
  // error is returned as it is: file, JSON pointer, message), parses every --param and resolves it
  // against the program's schema. A name the schema lacks (not declared, not built in and not read
  // by any expression, so nothing could see it) is a kUsage error at "--param" that suggests the
  // closest known names. Load warnings go to `diag` (may be null). The pose starts at time 0.
  static Result<ControllerPose> load(const ControllerFlags& flags,
                                     std::shared_ptr<const Model> model, Diagnostics* diag);

  // The model the program drives: the one passed to load(), or a copy of it with the config's
  // `file:` clips appended (io::load_controller). Pose and draw this one.
  const Model& model() const { return *model_; }
  const anim::Controller& controller() const { return *controller_; }
  // Simulated seconds since the start.
  double time() const { return time_; }

  // Takes the "params" keys of `timeline`: from a key's time on, its values replace those of the
  // --param (or earlier key) of the same name; a trigger set true fires once, before the first
  // step at or after its key's time. Applies from the next restart(). Errors (kInvalid at the
  // timeline's file and JSON pointer): a key with "state" (creature state belongs to
  // --creature); a name the schema lacks, as for --param (suggesting the closest names).
  Status set_timeline(const Timeline& timeline);

  // A fresh controller at time 0 (initial parameter values, empty layers, no records).
  void restart();
  // Simulates from time() to `t` seconds (nothing when t <= time()) in kControllerStep steps, the
  // last one shorter when t is not on the grid. Before every step the timeline keys whose time
  // has come (t_key <= the step's start) are applied and the --param and timeline values are set
  // again (a trigger is fired once, before the first step of a restart or of its key); records go
  // to fired().
  // As a game would, it also sets these parameters (animation-config.md §16) when neither
  // --param nor the timeline gives them, before every step: GameTime (simulated seconds at the
  // step's start), DeltaTime (the step), Health (1, alive; 0 when IsDead is given true), IsDead
  // (Health <= 0), WalkSpeed (4 m/s, as --creature), BodyHeight and BodyDepth (the model's
  // bounds along Y and Z), so a legacy creature driver (FourLeggedWalk, ...) shows a live
  // creature of the model's size, as --creature does, unless told otherwise.
  void advance_to(double t);
  // The controller's pose (compute_pose) placed on `instance`, which must be made from model():
  // root matrix, root-bone correction and model scale (animation-config.md §12), then the
  // model-space matrices; the instance's morph_weights() become the controller's (§19), as a
  // plain clip's are the player's. The pose and weights stay readable through local_pose() and
  // morph_weights().
  Status place(anim::Instance& instance);
  std::span<const Transform> local_pose() const { return controller_->pose(); }
  std::span<const float> morph_weights() const { return controller_->morph_weights(); }

  // Every layer of the program, in index order.
  std::vector<LayerSummary> layers() const;

  const std::vector<FiredRecord>& fired() const { return fired_; }
  void clear_fired() { fired_.clear(); }

  // The controller's runtime warnings since load() (anim::Controller::runtime_warnings(): an
  // expression that fails and falls back to its default, a [Param] source naming no clip), in the
  // order first seen, each once however many restarts and simulations repeated it.
  std::span<const Warning> runtime_warnings() const { return runtime_warnings_; }

 private:
  struct Setting {
    anim::ParamIndex index = anim::kNoParam;
    anim::ParameterValue value;
    bool trigger = false;       // the schema's parameter is a trigger: fire it once when true
    bool fire_pending = false;  // a trigger not fired since its value was given
  };
  struct TimedSettings {
    double t = 0.0;
    std::vector<Setting> settings;
  };

  // The setting for `name` with `value`; an error of `code` at `location` in `path` suggesting
  // the closest names when the schema lacks the name.
  Result<Setting> resolve(const std::string& name, anim::ParameterValue value,
                          const std::string& path, const std::string& location,
                          ErrorCode code) const;
  void set_parameters(double dt);
  // True when --param or the timeline keys applied so far set `index`.
  bool given(anim::ParamIndex index) const;
  // Moves the controller's new runtime warnings into runtime_warnings_, skipping known ones.
  void collect_warnings();

  std::shared_ptr<const Model> model_;
  std::shared_ptr<const anim::ControllerProgram> program_;
  std::unique_ptr<anim::Controller> controller_;
  std::vector<Setting> param_settings_;  // from --param
  std::vector<TimedSettings> keys_;      // from the timeline, in time order
  std::vector<Setting> settings_;        // what is set before each step
  std::size_t next_key_ = 0;             // first key of keys_ not applied yet
  // From --rotation-blend, given to every Controller restart() makes.
  anim::RotationBlend rotations_ = anim::RotationBlend::kSlerp;
  // The host-set built-ins (kNoParam where the schema lacks them).
  anim::ParamIndex game_time_ = anim::kNoParam;
  anim::ParamIndex delta_time_ = anim::kNoParam;
  anim::ParamIndex health_ = anim::kNoParam;
  anim::ParamIndex is_dead_ = anim::kNoParam;
  anim::ParamIndex walk_speed_ = anim::kNoParam;
  anim::ParamIndex body_height_ = anim::kNoParam;
  anim::ParamIndex body_depth_ = anim::kNoParam;
  vec3 body_size_{0.0f};  // the model's bounds, metres (finite, >= 0)
  std::vector<FiredRecord> fired_;
  std::vector<Warning> runtime_warnings_;
  double time_ = 0.0;
};

// Writes one line per fired record to `err`: "event at 0.267 s: Base Footstep 'data'".
void print_fired(std::span<const FiredRecord> fired, std::ostream& err);

// Writes one line per warning to `err` in the CLI's format (command.h format_warning()):
// "critter: gait.json:/states/Gait/rules/0/animation: warning: [Clip] names no clip ...".
void print_warnings(std::span<const Warning> warnings, std::ostream& err);

}  // namespace critter::cli
