// Controller: the data-driven animation controller runtime (animation-config.md §8-§14, §17,
// §18, §19). A ControllerProgram is the immutable part, compiled once per (model, description) and
// shared by every creature: flattened rule trees with compiled expressions and per-clip channel
// and morph-weight tables. A Controller is one creature's state: parameter values, one Player per
// layer, layer weight fades, rule de-duplication memory, one instance of every driver the program
// may run, the root-bone correction blend, root motion (translation, scale override, physics flags)
// and the output record list. After construction update() and compute_pose() do not allocate, as
// long as the caller clears the record list after each update, string parameters used as sources
// stay within 64 bytes and driverArgs set no string parameter longer than its current value's
// capacity. Runtime warnings (runtime_warnings()) allocate only in the update that records a new
// one.
//
// Drivers come from a DriverRegistry (driver.h); a type it only declares is accepted and leaves
// its layer untouched.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "critter/anim/controller_desc.h"
#include "critter/anim/driver.h"
#include "critter/anim/expression.h"
#include "critter/anim/ik_chain_job.h"
#include "critter/anim/ik_look_at_job.h"
#include "critter/anim/parameters.h"
#include "critter/anim/player.h"
#include "critter/asset/model.h"
#include "critter/core/diagnostics.h"
#include "critter/core/error.h"
#include "critter/core/transform.h"

namespace critter::anim {

// The shared, immutable part of a controller. Holds a reference to the model, which must
// outlive it and every Controller made from it.
class ControllerProgram {
 public:
  // Compiles every condition and expression field of `desc` (those of `desc.animations` and of
  // Expression driver channels included; names the schema lacks are declared unset) and checks
  // the indices. An expression that does not compile is reported at its
  // SourceLocation when the description has one (path: its file, else ControllerDesc::source;
  // location: its JSON pointer; message "expression '<text>': <reason> (column N)"), once per
  // location; a name it reads that the schema lacks is warned about there ("parameter 'X' is
  // neither declared nor built in") when `diag` is given. Every expression is compiled even after
  // one fails; the first error is returned and `all_errors` (when given) receives every one.
  // Other errors (kInvalid, path "ControllerDesc", location a pointer such as
  // "states/0/rules/1/condition"): an unlocated condition or expression that does not compile, a
  // layer index or clip index out of range, a mask whose size is not the joint count or with a
  // weight outside [0, 1], a layer weight not finite or <= 0, phases outside [0, 1], a
  // root-motion scale whose value, minimum or blend duration is not finite or whose blend
  // duration is negative; a driver type `drivers` does not know (location ".../driver/type"), or
  // the error of its factory (location ".../driver/<the factory's location>").
  // `drivers` (null: DriverRegistry::builtin()) is only used during the call.
  static Result<std::shared_ptr<const ControllerProgram>> compile(
      const Model& model, ControllerDesc desc, const DriverRegistry* drivers = nullptr,
      Diagnostics* diag = nullptr, std::vector<Error>* all_errors = nullptr);

  ControllerProgram(const ControllerProgram&) = delete;
  ControllerProgram& operator=(const ControllerProgram&) = delete;

  const Model& model() const { return *model_; }
  const ControllerDesc& desc() const { return desc_; }
  // The description's schema plus the names expressions read without a declaration.
  const ParameterSchema& schema() const { return desc_.schema; }
  // Where each mesh's morph weights live in Controller::morph_weights() (the model's layout, as a
  // Player lays them out), with the model's default weights.
  const MorphLayout& morph_layout() const { return morph_layout_; }
  int layer_count() const { return static_cast<int>(desc_.layers.size()); }
  // Index of the layer named `name` (case-insensitive), or -1.
  int find_layer(std::string_view name) const;

  // §13: the source bone's position in clip `clip` at `time` seconds (keys interpolated
  // linearly, clamped to the keys); zero when the clip does not move the bone.
  vec3 root_position(int clip, int bone, float time) const;
  // §13 scale override: the source bone's scale in clip `clip` at `time` seconds (keys
  // interpolated as authored, clamped to the keys); the bone's rest scale when the clip has no
  // scale keys for it, (1, 1, 1) for a clip or bone that no root-motion animation uses.
  vec3 root_scale(int clip, int bone, float time) const;

 private:
  friend class Controller;
  ControllerProgram() = default;

  struct Animation {
    const ControllerAnimationDesc* desc = nullptr;
    const Expression* speed = nullptr;  // null: static value
    const Expression* loop = nullptr;
    const Expression* start_phase = nullptr;
    const Expression* end_phase = nullptr;
    const Expression* blend_duration = nullptr;
    ParamIndex parameter = kNoParam;  // kParameter sources
    int driver = -1;                  // kDriver sources: index into drivers_
    std::vector<std::pair<ParamIndex, ParameterValue>> driver_arguments;  // kDriver (§9)
    int root_bone = -1;                       // root motion: the source bone
    quat root_frame{1.0f, 0.0f, 0.0f, 0.0f};  // product of the source bone's ancestors' rest
  };
  // The source bone's translation and scale keys of one clip (§13 per-clip cache).
  struct RootTrack {
    int clip = -1;
    int bone = -1;
    std::vector<float> times;
    std::vector<vec3> positions;
    Interpolation scale_interpolation = Interpolation::kLinear;
    std::vector<float> scale_times;
    std::vector<vec3> scales;  // kCubicSpline: in-tangent, value, out-tangent per key
    vec3 rest_scale{1.0f};     // the bone's rest scale, when there are no scale keys
  };
  struct Driver {
    std::string type;                              // the registered name
    std::shared_ptr<const DriverProgram> program;  // null: a declared type (runs nothing)
    // The driver's properties as a JSON pointer (/layers/Head/driver/properties or a rule's
    // .../animation/driverArgs): runtime warnings name a field the config did not locate below it.
    std::string pointer;
  };
  // Where a runtime field was written (Controller::runtime_warnings()).
  struct Site {
    const void* field = nullptr;  // the field inside desc_ (a rule for its condition)
    std::string file;             // empty: desc_.source
    std::string pointer;
  };
  // One rule; the children of a group and the roots of a state are contiguous.
  struct Node {
    const ControllerRuleDesc* rule = nullptr;
    const Expression* condition = nullptr;  // null: the literal "true"
    int first_child = 0;
    int child_count = 0;
    int animation = -1;  // leaves: index into animations_; -1 for groups
  };
  struct State {
    int layer = -1;
    int first_root = 0;
    int root_count = 0;
  };
  struct IkChain {
    const ControllerIkChainDesc* desc = nullptr;
    ParamIndex target = kNoParam;
    ParamIndex aim = kNoParam;
    ParamIndex hint = kNoParam;
    const Expression* enabled = nullptr;
    const Expression* weight = nullptr;
    const Expression* position_weight = nullptr;
    const Expression* aim_weight = nullptr;
  };
  struct IkLookAt {
    const ControllerIkLookAtDesc* desc = nullptr;
    ParamIndex target = kNoParam;
    const Expression* yaw = nullptr;
    const Expression* pitch = nullptr;
    const Expression* weight = nullptr;
  };
  enum ChannelBits : std::uint8_t { kT = 1, kR = 2, kS = 4 };

  Status build(const Model& model, ControllerDesc desc, const DriverRegistry& drivers);
  Result<int> add_rules(const std::vector<ControllerRuleDesc>& rules, const std::string& where,
                        const std::string& pointer);
  // Compiles `text` (empty: null). A failure is recorded in errors_ (at `site` when it is
  // located, else at `where` in the description) and yields null, so the build goes on.
  const Expression* compile_field(const std::string& text, const std::string& where,
                                  const SourceLocation& site);
  Status add_animation(const ControllerAnimationDesc& anim, const std::string& where,
                       const std::string& pointer);
  Status check_action(const ControllerActionDesc& action);
  Result<int> add_driver(const ControllerDriverDesc& driver, const std::string& where,
                         std::string pointer);
  // Records where the runtime field `field` (an address inside desc_) was written: its
  // SourceLocation, else `fallback`, its place in the description as a JSON pointer.
  void add_site(const void* field, const SourceLocation& site, std::string fallback);

  const Model* model_ = nullptr;
  const DriverRegistry* registry_ = nullptr;  // during build() only
  Diagnostics* diag_ = nullptr;               // during build() only
  std::vector<Error> errors_;                 // during build() only: expression errors
  std::vector<std::string> reported_;         // during build() only: "file\npointer" of errors_
  ControllerDesc desc_;
  std::unique_ptr<ExpressionCache> cache_;
  std::vector<Animation> animations_;
  std::vector<Driver> drivers_;
  std::vector<Site> sites_;
  std::vector<IkChain> ik_chains_;
  std::vector<RootTrack> root_tracks_;
  int base_layer_ = -1;
  std::vector<IkLookAt> ik_look_ats_;
  std::vector<int> layer_drivers_;  // per layer: the preset driver, or -1
  std::vector<Node> nodes_;
  std::vector<State> states_;
  std::vector<std::vector<std::uint8_t>> clip_channels_;  // per clip, per joint: ChannelBits
  MorphLayout morph_layout_;
  // Per clip, per mesh: 1 when the clip has a weights track for the mesh.
  std::vector<std::vector<std::uint8_t>> clip_morphs_;
  std::size_t max_events_ = 0;
  ParamIndex is_on_ground_ = kNoParam;
  ParamIndex immersion_factor_ = kNoParam;
  ParamIndex attack_hit_moment_ = kNoParam;
};

// One entry of the controller's output list (§17), in the order things happened.
struct ControllerRecord {
  enum class Kind : std::uint8_t {
    kEvent,      // a clip event was crossed (`count` > 1 for whole cycles of one long update)
    kComplete,   // onComplete trigger action of a non-looping clip that ended naturally
    kInterrupt,  // onInterrupt trigger action of a non-looping clip replaced or deactivated
  };
  Kind kind = Kind::kEvent;
  int layer = -1;
  std::string_view name;  // views into the program: valid while the program lives
  std::string_view data;
  float time = 0.0f;  // the configured event time; 0 for actions
  std::uint64_t count = 1;
};

// Host hooks for the built-in events (§17). Any may be empty.
struct ControllerHooks {
  std::function<void(std::string_view data)> footstep;
  std::function<void()> attack_hit;
  std::function<void()> attack_start;
  std::function<void()> attack_end;
  // Called at the end of every update() in which root_motion_scale() has a value, with it (§13).
  std::function<void(float scale)> root_scale;
};

class Controller {
 public:
  // Sizes every buffer. Parameters start at the schema's initial values; every layer is empty at
  // weight 0; the root-bone correction starts at the top-level values.
  explicit Controller(std::shared_ptr<const ControllerProgram> program);

  const ControllerProgram& program() const { return *program_; }
  ParameterValues& parameters() { return values_; }
  const ParameterValues& parameters() const { return values_; }
  void set_hooks(ControllerHooks hooks) { hooks_ = std::move(hooks); }

  // One frame (§19): evaluates the state rules when a parameter changed since the last update
  // (then resets triggers), applies changed rules to their layers, re-evaluates speed and `loop`
  // expressions, advances layer weight fades and players (events, completions and interrupts go
  // to records() in order), advances the root-bone correction blend, then root motion. dt in
  // seconds; negative or non-finite counts as 0.
  //
  // A `loop` expression that changes value switches the running play between LoopForward and
  // OnceForward in place (Player::set_mode): no restart, no crossfade, the cursor kept. The
  // switch happens before the layer's player advances, so a play that turned non-looping
  // completes (onComplete, then the fade-out unless preservePose) in the update that reaches its
  // end phase instead of wrapping, and one that turned looping wraps there and never completes.
  // onComplete and onInterrupt follow the value in effect when the play ends, each at most once
  // per play. A play that already completed is not restarted, and a layer fading out keeps its
  // mode.
  void update(float dt);

  // Manual control (§8): plays `clip` of the model on `layer` from code; the layer's rules are
  // skipped until release_manual_control(). A running non-looping rule animation on the layer
  // reports its onInterrupt. An empty layer fades in over options.blend_duration, otherwise the
  // player crossfades. No completion actions; a finished Once play holds its last pose.
  // options.on_done is not used. Fails (kUsage) on a bad layer or a play the Player rejects.
  Status play_animation(int layer, int clip, PlaybackMode mode, PlayOptions options = {});
  // Gives `layer` (-1: every layer) back to its rules: clears their de-duplication memory and
  // forces a rule evaluation in the next update().
  void release_manual_control(int layer = -1);
  bool manual(int layer) const { return layers_[static_cast<std::size_t>(layer)].manual; }

  // Blends the active layers (§11) into one local pose, one Transform per joint, valid until the
  // next compute_pose(). Bones no layer sets take the rest pose. Then runs the IK chains and the
  // look-at entries (§18) on the blended pose, smoothing over the dt of the last update().
  //
  // compute_pose() also blends the layers' morph weights (§19: after the layer blend, before IK;
  // DESIGN.md convention 5: weights are tracks like joint channels). The output starts at the
  // model's default weights, as unset bones take the rest pose; then every active clip layer, in
  // index order, with its weight w (a driver layer writes no weights):
  //   Override: for each mesh the layer's clip has a weights track for, out = lerp(out, in,
  //             min(w, 1)), `in` being the layer player's weights. A clip without a weights track
  //             for a mesh leaves that mesh's weights as the layers below made them.
  //   Additive: out += w * (in - default) for every weight; a mesh the clip does not animate sits
  //             at its defaults, so it adds nothing (the identity delta).
  // Crossfades and weight fades follow the same progress as the joints: the layer weight w is the
  // one the bones use, and while the layer's player crossfades with progress f a mesh counts as
  // animated by f (target clip) plus 1 - f (source), so a mesh only one of the two clips animates
  // eases between that clip's weights and what the layers below show; an interrupted crossfade
  // keeps the coverage of the pose it froze. Joint masks (boneMask) do not apply to weights: a
  // mask selects bones, and a masked layer (a face or head layer) is where blink and jaw clips
  // usually play, so it drives its clip's morphs in full.
  std::span<const Transform> compute_pose();
  std::span<const Transform> pose() const { return output_; }
  // The morph weights of the last compute_pose(), every mesh's flat as morph_layout() lays them
  // out (the model's default weights before the first compute_pose()). Valid until the next
  // compute_pose(); the buffer is sized at construction.
  std::span<const float> morph_weights() const { return weights_; }
  // The weights of mesh `mesh` within morph_weights(); empty for a mesh without morph targets or
  // an index out of range.
  std::span<const float> morph_weights(int mesh) const;
  const MorphLayout& morph_layout() const { return program_->morph_layout_; }

  // The output list since the last clear_records().
  std::span<const ControllerRecord> records() const { return records_; }
  void clear_records() { records_.clear(); }

  // At most this many distinct runtime failures are recorded; then one last warning says so.
  static constexpr std::size_t kMaxRuntimeCases = 256;
  // Runtime warnings (animation-config.md §0.4) since the last clear_runtime_warnings(), oldest
  // first. Nothing fails at run time, but nothing is silent either:
  //   * a rule condition whose evaluation fails counts as false;
  //   * a speed, loop, startPhase, endPhase or blendDuration expression, an IK chain's enabled,
  //     weight, positionWeight or aimWeight, a look-at entry's yaw, pitch or weight, and an
  //     Expression driver channel (through the driver's DriverReporter) that fails take the
  //     field's static value (its default);
  //   * a `[Param]` source whose parameter names no clip of the model leaves the layer as it is
  //     (§9; an empty name is the normal "nothing yet" and is not reported).
  // "Fails" is an evaluation error (type mismatch, bad bitwise operand, text over
  // EvalScratch::kScratchBytes) or a result the field cannot take: a string, a non-finite number
  // for a number field, a string or NaN for a bool field.
  // Each case is recorded once per (field, value) for the life of the Controller: the value is the
  // string or the number the expression gave, the clip name the source read, or for an evaluation
  // error its kind. clear_runtime_warnings() empties the list but keeps that memory, so a case is
  // never reported twice; at most kMaxRuntimeCases are kept.
  //   Warning::path      the file of the field's SourceLocation, else ControllerDesc::source (empty
  //                      for a description built in code).
  //   Warning::location  the site's JSON pointer, else the field's place in the description as a
  //                      pointer with state and layer names, 0-based rule, chain and entry indices:
  //                      /states/<state>/rules/<i>[/rules/<j>...]/condition or .../animation/
  //                      <speed|loop|startPhase|endPhase|blendDuration|source>;
  //                      /ik/chains/<i>/<enabled|weight|positionWeight|aimWeight>;
  //                      /ik/lookAt/<i>/<yaw|pitch|weight>; a driver channel is below its driver's
  //                      properties, /layers/<layer>/driver/properties/boneConfigs/<b>/<channel>
  //                      or .../animation/driverArgs/boneConfigs/<b>/<channel>. A field merged in
  //                      from an alias reports the alias's site (/animations/<alias>/speed).
  //   Warning::message   what went wrong, then what was used, e.g. "evaluates to the string
  //                      'walk', not a number: used the default 1", "fails with a type mismatch:
  //                      the condition counts as false", "evaluates to inf, not a finite number:
  //                      used the default 0.3", "[Clip] names no clip 'Rnu': the layer keeps its
  //                      animation".
  // The list and the memory allocate only when a new case is recorded (no allocation in an
  // update or compute_pose that records nothing new).
  std::span<const Warning> runtime_warnings() const { return log_->warnings; }
  void clear_runtime_warnings() { log_->warnings.clear(); }

  // Layer state for hosts and tests.
  float layer_weight(int layer) const { return layers_[static_cast<std::size_t>(layer)].weight; }
  // True when the layer contributes to the pose (weight > 0 and a clip or a driver to sample).
  bool layer_active(int layer) const;
  const Player& layer_player(int layer) const {
    return layers_[static_cast<std::size_t>(layer)].player;
  }
  // The description of the animation the layer plays (null when none).
  const ControllerAnimationDesc* layer_animation(int layer) const;

  // Effective root-bone correction (§12): rotation and translation (blended on animation
  // changes), and the model scale. The root's model transform is
  // T(entity)·R(entity)·rootLocal·T(translation)·R(rotation), modelScale applied first.
  quat root_bone_rotation() const { return root_rotation_; }
  vec3 root_bone_translation() const { return root_translation_; }
  float model_scale() const { return program_->desc_.model_scale; }
  // The two matrices an Instance (or LocalToModelJob) takes to place this pose in the world:
  //   root_matrix(entity) = entity · S(model_scale), put above the skeleton (Instance::set_root);
  //   root_correction()   = T(translation / model_scale) · R(rotation), put after the local of
  //                         every root joint (Instance::set_root_correction).
  // The model scale thus scales the whole model (root translations included) and the correction
  // translation stays in metres: for a root joint with an identity local the root lands at
  // entity · T(translation) · R(rotation) · S(model_scale).
  mat4 root_matrix(const mat4& entity = mat4(1.0f)) const;
  mat4 root_correction() const;
  // Root motion (§13). The "config" is the rootMotion block of the animation the Base layer
  // plays; it is entered when a play of such an animation starts and left when the layer starts
  // another play, fades out, runs a driver or goes under manual control.
  //
  // Translation: the host passes the body's world velocity and rotation before every update();
  // after it, root_motion_velocity() is the velocity the body should take, or nullopt while the
  // Base layer's animation has no active root motion. In the update where a config with
  // clearVelocityOnExit is left, root_motion_velocity() is (0, 0, 0), whatever comes next.
  void set_body(const vec3& velocity, const quat& rotation) {
    body_velocity_ = velocity;
    body_rotation_ = rotation;
  }
  std::optional<vec3> root_motion_velocity() const {
    return root_motion_active_ ? std::optional<vec3>(root_motion_velocity_) : std::nullopt;
  }
  // Scale override (RootMotionScale): the uniform scale the host gives the body (its collision
  // box) after this update, eased on entering and leaving an Override config; nullopt when no
  // Override config is in effect and the ease back to 1 ended before this update (the update
  // that ends it still reports 1).
  std::optional<float> root_motion_scale() const {
    return scale_shown_ ? std::optional<float>(scale_) : std::nullopt;
  }
  // Physics flags (RootMotionPhysics) of the config in effect after this update, with
  // disable_all expanded; all false when none. The host disables those effects while they are
  // set and restores them when they clear.
  const RootMotionPhysics& root_motion_physics() const { return physics_; }

  // True from an AttackHit event until an AttackEnd event (§17).
  bool attack_hit_moment() const { return attack_hit_moment_; }

 private:
  struct Layer {
    explicit Layer(const Model& model) : player(model) {}
    Player player;
    float weight = 0.0f;
    float fade_from = 0.0f;
    float fade_to = 0.0f;
    float fade_time = 0.0f;
    float fade_duration = 0.0f;
    bool fading = false;
    bool deactivating = false;  // fading to 0; the clip is dropped at the end
    int animation = -1;         // program animation playing (or fading out)
    int driver = -1;            // program driver running (no clip then)
    int last_driver = -1;       // the driver running or last run, else the preset; -1: none
    std::uint32_t play_id = 0;
    bool once = false;
    bool completed = false;    // completion tracking of the current play is over
    bool manual = false;       // under play_animation() control: rules skip the layer
    float start_phase = 0.0f;  // of the current play
    float end_phase = 1.0f;
    std::vector<Transform> pose;
    std::vector<std::uint8_t> touched;  // per joint: the driver sampled it this frame
    // Per mesh: how much the player's crossfade source animates the mesh's weights, in [0, 1]
    // (its clip's weights tracks, or the coverage of the pose a crossfade froze).
    std::vector<float> morph_source;
  };
  struct StateMemory {
    int leaf = -1;
    std::string source;
  };
  // How a field's failure is worded.
  enum class FieldKind : std::uint8_t { kNumber, kBool, kCondition };
  // One recorded runtime case: the field and the value that failed.
  struct RuntimeCase {
    const void* field = nullptr;  // the description field, or the program driver
    std::string driver_field;     // drivers: the field below the driver
    std::uint8_t failure = 0;     // what went wrong (controller.cpp's Failure)
    double number = 0.0;          // the non-finite number
    std::string text;             // the string, or the clip name
  };
  struct RuntimeLog;
  // The reporter each driver instance gets: the log and the program driver it reports for.
  struct DriverSink final : DriverReporter {
    void evaluation_failed(const DriverEvalFailure& failure) override;
    RuntimeLog* log = nullptr;
    int driver = -1;
  };
  // Runtime warnings and the cases they recorded. Held on the heap: driver instances point at
  // its sinks, so it stays put when the Controller moves.
  struct RuntimeLog {
    const ControllerProgram* program = nullptr;
    std::vector<Warning> warnings;
    std::vector<RuntimeCase> cases;
    std::vector<DriverSink> sinks;  // per program driver
    bool full = false;              // kMaxRuntimeCases reached and said
    // Whether the case was recorded already (no allocation).
    bool known(const void* field, std::string_view driver_field, std::uint8_t failure,
               double number, std::string_view text) const;
    // Records a new case and its warning (the file defaults to ControllerDesc::source), or the
    // one notice once kMaxRuntimeCases are recorded.
    void add(const void* field, std::string_view driver_field, std::uint8_t failure, double number,
             std::string_view text, std::string_view file, std::string pointer,
             std::string message);
    // Where the description field `field` was written; null when not recorded.
    const ControllerProgram::Site* site(const void* field) const;
    // A `[Param]` source (`field`: its parameter name in the description) read `name`, which
    // names no clip.
    void no_clip(const void* field, std::string_view parameter, std::string_view name);
    // The expression of description field `field` gave `result`, which the field cannot take;
    // `fallback` was used (a bool as 0 or 1).
    void failed(const void* field, const Value& result, FieldKind kind, float fallback);
  };

  int match(const ControllerProgram::State& state);
  int match_list(int first, int count);
  void apply(int layer_index, int animation);
  void deactivate(int layer_index);
  void start_root_blend(const quat& rotation, const vec3& translation, float duration);
  void start_weight_fade(Layer& layer, float to, float duration);
  void fire_action(int layer_index, const ControllerActionDesc& action,
                   ControllerRecord::Kind kind);
  void on_event(int layer_index, const PlayerRecord& record);
  void interrupt_if_playing(int layer_index);
  // An expression field's value, or its static value (with a runtime warning) when it fails.
  float eval_float(const Expression* e, const DynamicFloatDesc& field);
  bool eval_bool(const Expression* e, const DynamicBoolDesc& field);
  // Fills the layer's pose; false when the layer shows nothing this frame.
  bool layer_pose(int layer_index);
  void run_ik();
  void root_motion(float dt);
  // Entering and leaving rootMotion configs: physics flags, the velocity clear, the scale ease.
  void root_motion_effects(float dt);
  void strip_root_motion(std::span<Transform> pose) const;
  // Index of the model clip `clip` points at, or -1.
  int clip_index(const Clip* clip) const;
  // How much the layer's player, playing model clip `clip` (-1: none), animates mesh `mesh`'s
  // weights now, in [0, 1].
  float morph_coverage(const Layer& layer, int clip, std::size_t mesh) const;
  // After a play(): records what the crossfade source animates, from the play that was current
  // (`old_clip`, -1 when none) at crossfade progress `old_progress` (1 when none ran).
  void set_morph_source(Layer& layer, int old_clip, float old_progress);
  void blend_morph_weights();

  std::shared_ptr<const ControllerProgram> program_;
  ParameterValues values_;
  ControllerHooks hooks_;
  std::vector<Layer> layers_;
  // Per program driver: this creature's instance (null for a declared type).
  std::vector<std::unique_ptr<DriverInstance>> drivers_;
  std::vector<StateMemory> memory_;
  std::vector<ControllerRecord> records_;
  std::vector<Transform> output_;
  std::vector<std::uint8_t> set_;
  std::vector<float> weights_;            // morph weights of the last compute_pose()
  std::vector<mat4> models_;              // IK scratch: model_from_joint of output_
  std::vector<IkChainState> ik_states_;   // per chain
  std::vector<LookAtState> look_states_;  // per look-at entry
  std::unique_ptr<RuntimeLog> log_;
  float last_dt_ = 0.0f;
  bool force_evaluation_ = false;
  vec3 body_velocity_{0.0f};
  quat body_rotation_{1.0f, 0.0f, 0.0f, 0.0f};
  vec3 root_motion_velocity_{0.0f};
  bool root_motion_active_ = false;
  vec3 root_motion_state_{0.0f};   // SmoothDamp / spring velocity
  float root_motion_time_ = 0.0f;  // clip time of the previous update
  std::uint32_t root_motion_play_ = 0;
  bool impulse_done_ = false;
  int effects_animation_ = -1;  // program animation whose rootMotion block is in effect, or -1
  std::uint32_t effects_play_ = 0;
  RootMotionPhysics physics_;
  float scale_ = 1.0f;  // effective root-motion scale of the last update
  float scale_from_ = 1.0f;
  float scale_time_ = 0.0f;
  float scale_duration_ = 0.0f;
  bool scale_easing_ = false;
  bool scale_shown_ = false;
  quat root_rotation_{1.0f, 0.0f, 0.0f, 0.0f};
  vec3 root_translation_{0.0f};
  quat root_from_rotation_{1.0f, 0.0f, 0.0f, 0.0f};
  vec3 root_from_translation_{0.0f};
  quat root_to_rotation_{1.0f, 0.0f, 0.0f, 0.0f};
  vec3 root_to_translation_{0.0f};
  float root_blend_time_ = 0.0f;
  float root_blend_duration_ = 0.0f;
  bool root_blending_ = false;
  double time_ = 0.0;
  double last_footstep_ = -1.0e9;
  bool attack_hit_moment_ = false;
};

}  // namespace critter::anim
