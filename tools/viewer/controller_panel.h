// SPDX-License-Identifier: MIT
// ControllerPanel: a creature driven by an animation config (animation-config.md) in the viewer,
// and everything the "Controller" panel shows and edits, without any window. It owns a
// creature::CreatureModel built from io::load_controller, the body state it feeds that model
// every frame (creature_state.h), the parameter rows of the program's schema, and a log of the
// last controller records. The ImGui panel (controller_panel_ui.h) is a thin layer that reads
// rows(), layers() and log() and calls the setters; the renderer poses the model from instance().
//
// Parameters and the body. CreatureModel writes the §16 built-ins from the body state before
// every controller update, so a value set on the controller for one of them would be overwritten:
// an edit of such a parameter (ParamGroup::kBody) goes to the body state instead, and reaches the
// controller in the next update(). The other parameters are set on the controller directly and
// keep their value until something else (an edit, a driverArgs or setState action) changes them.
// The body stays where it is (the viewer is a treadmill): its velocity feeds the built-ins and
// root motion, never its position.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "critter/anim/controller.h"
#include "critter/anim/instance.h"
#include "critter/anim/parameters.h"
#include "critter/asset/model.h"
#include "critter/core/diagnostics.h"
#include "critter/core/error.h"
#include "critter/creature/creature_model.h"
#include "critter/creature/creature_state.h"
#include "critter/io/controller_loader.h"

namespace critter::viewer {

// Where a schema parameter's value comes from; the panel groups rows in this order.
enum class ParamGroup : std::uint8_t {
  kBody,      // a §16 built-in written from the body state every frame: edits go to the state
  kComputed,  // written by the creature model every frame (DeathPhase, DeltaTime, BodyForward,
              // BodyRight) or by the controller's attack events (IsAttackHitMoment): read only
  kBuiltin,   // another built-in (FourLegged inputs, DeathSpeed, ...): set on the controller
  kConfig,    // declared by the config's `parameters`
  kHost,      // read by an expression but declared nowhere (a host name such as Gait)
};

std::string_view to_string(ParamGroup group);

// One parameter of the program's schema.
struct ParamRow {
  anim::ParamIndex index = anim::kNoParam;
  std::string name;  // as first declared
  ParamGroup group = ParamGroup::kConfig;
  // The type its editor takes: the schema's initial type (the built-in table's type for
  // built-ins); kUnset for host names, edited as a value text (parse_value()).
  anim::ParamType type = anim::ParamType::kUnset;
};

// What one layer of the controller shows after the last update().
struct LayerRow {
  std::string name;
  float weight = 0.0f;       // current weight, 0..1
  bool active = false;       // contributes to the pose (Controller::layer_active)
  bool manual = false;       // under play_animation() control
  bool crossfading = false;  // its player blends from a previous clip
  std::string clip;          // name of the clip its player plays ('' when none)
  float clip_time = 0.0f;    // seconds into that clip
  std::string driver;        // driver type when the layer shows a driver; '' otherwise
};

// One record of the controller (§17) or one call of a built-in event hook.
struct LogEntry {
  enum class Kind : std::uint8_t {
    kEvent,      // a clip event was crossed
    kComplete,   // onComplete trigger action
    kInterrupt,  // onInterrupt trigger action
    kHook,  // CreatureModel called a built-in hook (Footstep, AttackHit, AttackStart, AttackEnd)
  };
  Kind kind = Kind::kEvent;
  double at = 0.0;    // viewer seconds at the end of the update it happened in
  std::string layer;  // layer name; '' for hooks
  std::string name;   // event, action or hook name
  std::string data;   // event or action data; the footstep hook's data
  float time = 0.0f;  // the configured event time (0..1 over the clip); 0 otherwise
  std::uint64_t count = 1;

  // "1.250 s  event Base Footstep @0.50 'left'", with " x<count>" when count > 1.
  std::string to_string() const;
};

class ControllerPanel {
 public:
  static constexpr std::size_t kDefaultLogLength = 64;

  // Loads `config_path` against `model` (io::load_controller with `options`; its first error is
  // returned as it is: the file, the JSON pointer and the message) and builds the creature. The
  // body starts standing on the ground, alive (health 1), at rest, facing -Z, with BodyHeight the
  // model's bounding-box height; a body built-in whose initial value the config changes
  // (`parameters: {WalkSpeed: 2}`) starts the body at that value. Warnings go to `diag` (may be
  // null). The log keeps the last `log_length` entries (at least 1).
  static Result<std::unique_ptr<ControllerPanel>> load(
      std::string_view config_path, std::shared_ptr<const Model> model,
      const io::ControllerLoadOptions& options = {}, Diagnostics* diag = nullptr,
      std::size_t log_length = kDefaultLogLength);

  ControllerPanel(const ControllerPanel&) = delete;
  ControllerPanel& operator=(const ControllerPanel&) = delete;

  const std::string& config_path() const { return config_path_; }
  // The model the program drives (the one passed to load(), or its copy with the config's `file:`
  // clips appended): upload and pose this one.
  const Model& model() const { return *model_; }
  std::shared_ptr<const Model> shared_model() const { return model_; }
  const anim::ControllerProgram& program() const { return *program_; }
  const anim::Controller& controller() const { return *creature_->controller(); }
  const creature::CreatureModel& creature() const { return *creature_; }
  // The posed instance of the last update(): model transforms and morph weights.
  const anim::Instance& instance() const { return creature_->instance(); }
  // The model's rest bounds placed as the creature shows them now: through the entity transform
  // of the body state, the model scale and the root-bone correction (for framing the camera).
  Aabb placed_bounds() const;

  // Loads the config again against the model passed to load() and carries over the body state
  // and every controller edit made through set() whose name the new program still knows; the
  // time and the log restart. On failure (the error returned) the panel keeps the old program.
  Status reload(Diagnostics* diag = nullptr);
  // Starts the creature again from time 0 with the same program: a fresh controller with the
  // schema's initial values, then the controller edits made through set() (triggers aside); the
  // body state is kept and the log cleared.
  void restart();

  // Every parameter of the schema, grouped in ParamGroup order, in schema order within a group.
  const std::vector<ParamRow>& rows() const { return rows_; }
  // The row of `name` (case-insensitive), or null.
  const ParamRow* find_row(std::string_view name) const;
  // The controller's value of the parameter now (for body rows: as of the last update()).
  anim::ParameterValue value(anim::ParamIndex index) const;

  // Sets a parameter as its group says: body rows change the body state (below), computed rows
  // fail (kUsage: read only), a trigger row fires on a true value (a false one does nothing),
  // other rows store `value` on the controller (any type: a host may set 'walk' where a config
  // declared 0). Body rows take a number (float rows), a bool or number (bool rows), a Vec2 or
  // Vec3 (Vec3 rows), else fail (kUsage); SpeedXZ and SpeedAbs take a number >= 0. Errors have
  // the config path as path and the parameter's name as location.
  Status set(anim::ParamIndex index, const anim::ParameterValue& value);
  // The same by name; an unknown name fails (kUsage, location "--param") suggesting the closest
  // names.
  Status set(std::string_view name, const anim::ParameterValue& value);
  // Parses `text` as a --param value (true/false, a number, [x,y], [x,y,z], 'text', or a word
  // taken as a string) and sets it.
  Status set_text(anim::ParamIndex index, std::string_view text);
  // One NAME=VALUE argument, as `critter-viewer --param` takes it.
  Status apply_arg(std::string_view argument);

  // The text of a value in the --param syntax, so that parsing it gives the value back:
  // "true", "0.5", "[1,0,2]", "'walk'", "" for unset.
  static std::string value_text(const anim::ParameterValue& value);

  // The body state fed to the creature model every update(). Fields may be edited directly;
  // the helpers below keep related fields consistent.
  creature::CreatureState& state() { return state_; }
  const creature::CreatureState& state() const { return state_; }
  // Speed along the body's forward, m/s (creature::forward_speed of the state).
  float forward_speed() const;
  // Velocity = metres_per_second along the body's forward (so Speed reads it back exactly; the
  // slip speed is cleared).
  void set_forward_speed(float metres_per_second);
  // Turns the body to `yaw` radians about +Y (pitch and roll kept), keeping its forward speed.
  void set_yaw(float yaw);
  // In water: immersion 1 (or the current immersion when above 0); out: immersion 0.
  void set_in_water(bool in_water);
  // Health 0 (dead: DeathPhase runs) / back to 1 when dead (alive: DeathPhase back to 0).
  void kill() { state_.health = 0.0f; }
  void revive();
  bool dead() const { return state_.health <= 0.0f; }

  // One frame: advances the body's game time by dt, updates the creature model (built-ins, the
  // controller, the pose, the instance) and logs its records. dt in seconds; 0 re-evaluates the
  // rules and poses without advancing animation (a paused viewer). Fails (kUsage) when the body's
  // position or rotation is not finite (the previous matrices stay).
  Status update(float dt);
  // Viewer seconds since load (or the last restart/reload).
  double time() const { return time_; }

  // Every layer of the program, in index order.
  std::vector<LayerRow> layers() const;

  // The last log_length() entries, oldest first.
  const std::deque<LogEntry>& log() const { return log_; }
  std::size_t log_length() const { return log_length_; }
  void clear_log() { log_.clear(); }

 private:
  ControllerPanel() = default;
  Status build_creature();
  void build_rows();
  void seed_body_from_config();
  Status set_body(const ParamRow& row, const anim::ParameterValue& value);
  void remember_edit(anim::ParamIndex index, const anim::ParameterValue& value);
  void push_log(LogEntry entry);

  std::string config_path_;
  io::ControllerLoadOptions options_;
  std::shared_ptr<const Model> base_model_;  // as passed to load()
  std::shared_ptr<const Model> model_;       // what the program drives
  std::shared_ptr<const anim::ControllerProgram> program_;
  std::unique_ptr<creature::CreatureModel> creature_;
  creature::CreatureState state_;
  std::vector<ParamRow> rows_;
  // Controller edits made through set(), by name, last value per name (restart and reload).
  std::vector<std::pair<std::string, anim::ParameterValue>> edits_;
  std::vector<LogEntry> pending_hooks_;  // hook calls during the update in progress
  std::deque<LogEntry> log_;
  std::size_t log_length_ = kDefaultLogLength;
  double time_ = 0.0;
};

}  // namespace critter::viewer
